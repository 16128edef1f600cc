package verify

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

// File evidence read again from git (issue 26.1). A gate that passed on a
// file_path or content_hash evidence passed on the bytes the agent's
// machine saw; the record names the file (path and sha256, never its
// body), and CI reads the same path at the session's end commit. A file
// that git does not hold with those bytes is a claim git contradicts.

// fileRefs is what a record says about its file evidence.
type fileRefs struct {
	refs []snapshot.FileRef
	// legacy counts the file evidence of a record written before records
	// listed their files (file_refs_version 0): noted, not re-checked.
	legacy int
}

func fileEvidence(kind string) bool {
	return kind == session.EvidenceFilePath || kind == session.EvidenceContentHash
}

// readFileRefs checks a record's file references against its snapshots,
// whose ids verify recomputed: a reference must name evidence a snapshot
// holds (same phase, kind and sha256), and in a record that lists its files
// every file evidence of the final snapshot must have one (dropping a
// reference must not drop the check).
func readFileRefs(rc *recordCheck, rec *snapshot.Record) {
	inSnap := map[string]bool{}
	for _, p := range rec.Snapshots {
		for _, ev := range p.State.Evidence {
			if fileEvidence(ev.Kind) && ev.Origin != string(session.OriginTranscript) {
				inSnap[ev.Phase+"\x00"+ev.Kind+"\x00"+ev.SHA256] = true
			}
		}
	}
	final := rec.Snapshots[len(rec.Snapshots)-1].State
	var want []snapshot.EvidenceRef
	for _, ev := range final.Evidence {
		if fileEvidence(ev.Kind) && ev.Origin != string(session.OriginTranscript) {
			want = append(want, ev)
		}
	}
	if rec.FileRefsVersion == 0 {
		// A v2 record always lists its files: one whose gates accepted
		// file evidence without references was edited (a forger leaving
		// them out to skip the check). Only v1 records keep the note.
		if len(rec.FileRefs) == 0 && len(want) > 0 && rec.Schema != snapshot.RecordSchemaV1 && rec.Schema != "" {
			rc.problems = append(rc.problems, fmt.Sprintf("%s: %d file evidence and no file references, in a %s record, which always lists them (record edited): git cannot check the files", rc.path, len(want), rec.Schema))
			return
		}
		if len(rec.FileRefs) == 0 {
			rc.files.legacy = len(want)
			if len(want) > 0 {
				rc.notes = append(rc.notes, fmt.Sprintf("%s: %d file evidence not re-checked from git: the record predates file references (%s, file_refs_version 0)", rc.path, len(want), orNone(rec.Schema)))
			}
			return
		}
		rc.problems = append(rc.problems, rc.path+": file_refs without file_refs_version (record edited)")
		return
	}
	listed := map[string]bool{}
	for _, f := range rec.FileRefs {
		k := f.Phase + "\x00" + f.Kind + "\x00" + f.SHA256
		if !fileEvidence(f.Kind) || !inSnap[k] {
			rc.problems = append(rc.problems, fmt.Sprintf("%s: file reference %s (%s, phase %s) matches no evidence in the record's snapshots (record edited)", rc.path, quotePath(f.Path), f.Kind, f.Phase))
			continue
		}
		if err := relPath(f.Path); err != nil {
			rc.problems = append(rc.problems, fmt.Sprintf("%s: file reference %s: %v", rc.path, quotePath(f.Path), err))
			continue
		}
		listed[k] = true
		rc.files.refs = append(rc.files.refs, f)
	}
	for _, ev := range want {
		if !listed[ev.Phase+"\x00"+ev.Kind+"\x00"+ev.SHA256] {
			rc.problems = append(rc.problems, fmt.Sprintf("%s: %s evidence of phase %s (sha256 %.12s) has no file reference, so git cannot check it (record edited)", rc.path, ev.Kind, ev.Phase, ev.SHA256))
		}
	}
}

// relPath refuses a path that is not repository-relative and clean.
func relPath(p string) error {
	switch {
	case p == "" || strings.ContainsAny(p, "\x00\n\r\\"):
		return fmt.Errorf("not a repository path")
	case strings.HasPrefix(p, "/") || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../"):
		return fmt.Errorf("not a clean repository-relative path")
	}
	return nil
}

func quotePath(p string) string { return fmt.Sprintf("%q", shorten.Bytes(p, 200, "...")) }

// files re-reads a record's file evidence from git: at the session's end
// commit when this clone has it, else at the range's tip. Bytes that git
// held at some commit of the session (the file changed again before the
// end) count too: the evidence was true of what was committed. A file the
// session wrote must still be in git at the end: one a later commit of
// the session removed is not (a file held at the start may go).
func (c *claimCheck) files(ctx context.Context, rc *recordCheck, endKnown, startKnown bool) []string {
	if len(rc.files.refs) == 0 {
		return nil
	}
	at, where := c.tip, "the range's tip "+shorten.SHA(c.tip)
	if endKnown {
		at, where = rc.end, "the session's end commit "+shorten.SHA(rc.end)
	}
	var paths []string
	for _, f := range rc.files.refs {
		paths = append(paths, f.Path)
	}
	got, err := c.repo.SHA256sAt(ctx, at, paths)
	if err != nil {
		return []string{fmt.Sprintf("%s: file evidence not re-checked: %v", rc.path, err)}
	}
	var out []string
	for _, f := range rc.files.refs {
		if got[f.Path] == f.SHA256 {
			continue
		}
		// The session hashed its work tree: a CRLF checkout of the
		// committed text is those bytes (t7: every file evidence of a
		// Windows-style checkout was "contradicted by git").
		if _, ok := got[f.Path]; ok {
			if b, err := c.repo.ReadAt(ctx, at, f.Path); err == nil && crlfCheckout(b, f.SHA256) {
				continue
			}
		}
		if startKnown && endKnown && !c.shallow {
			held, changed := c.inSession(ctx, rc, f)
			_, atEnd := got[f.Path]
			if held && !atEnd && !c.atStart(ctx, rc, f.Path) {
				// Written by the session, committed, then taken out of
				// git by a later commit of it (git rm, git rm --cached):
				// a clone at the end has no such file (round 17).
				req := f.Requirement
				if req == "" {
					req = "phase " + f.Phase
				}
				out = append(out, fmt.Sprintf("%s: claim contradicted by git: %s evidence %s for %s: a commit of the session held the file, a later one removed it; it is not in git at %s (restore and commit it)",
					rc.path, f.Kind, quotePath(f.Path), req, where))
				continue
			}
			if held {
				continue
			}
			if _, ok := got[f.Path]; ok && changed {
				// A file the session kept writing (a session log evidenced
				// when created, filled in later): the evidenced bytes never
				// reached git, but the file did. Noted, not failed: failing
				// it blocked honest sessions of real protocols.
				rc.notes = append(rc.notes, fmt.Sprintf("%s: %s evidence %s: the recorded bytes were never committed; the session changed the file again before committing it", rc.path, f.Kind, quotePath(f.Path)))
				continue
			}
		}
		req := f.Requirement
		if req == "" {
			req = "phase " + f.Phase
		}
		what := fmt.Sprintf("%s: claim contradicted by git: %s evidence %s for %s", rc.path, f.Kind, quotePath(f.Path), req)
		if h, ok := got[f.Path]; ok {
			out = append(out, fmt.Sprintf("%s has sha256 %.12s in the record, but git holds %.12s at %s (nor did any commit of the session hold the recorded bytes)", what, f.SHA256, h, where))
		} else {
			out = append(out, fmt.Sprintf("%s: the file is not in git at %s (commit it, or evidence a file that is committed)", what, where))
		}
	}
	return out
}

// atStart reports whether the session's start commit holds path: a file
// the session read, which its work may remove.
func (c *claimCheck) atStart(ctx context.Context, rc *recordCheck, p string) bool {
	got, err := c.repo.SHA256sAt(ctx, rc.start, []string{p})
	_, ok := got[p]
	return err == nil && ok
}

// inSession reports whether a commit of the session (start..end)
// (or the start commit: a file read as the session began) held f's
// recorded bytes, and whether the session's commits changed the file.
func (c *claimCheck) inSession(ctx context.Context, rc *recordCheck, f snapshot.FileRef) (held, changed bool) {
	shas, err := c.repo.PathCommits(ctx, []string{rc.start + ".." + rc.end}, f.Path)
	if err != nil {
		return false, false
	}
	for _, s := range append(shas, rc.start) {
		if got, err := c.repo.SHA256sAt(ctx, s, []string{f.Path}); err == nil && got[f.Path] == f.SHA256 {
			return true, len(shas) > 0
		}
	}
	return false, len(shas) > 0
}
