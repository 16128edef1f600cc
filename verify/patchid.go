package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/snapshot"
)

// GitLab's "rebase, then fast-forward" rewrites a merge request's commits
// on the server and moves the request's head to them: no ref keeps the
// originals, so rebasedwork.go finds none, and the rewritten commits failed
// "trailers copied". A squash fast-forwarded (GitLab's "squash" with the
// fast-forward method) lands one commit titled after the request: no
// trailer, no merge commit naming the request, so mergedwork.go cannot
// find the request, and it failed "no Session-Id trailer". Both false
// blocks.
//
// The post-commit hook (and reconciliation) now records, beside each
// commit's hash, its exact patch id (git patch-id --verbatim) and the span's
// (the change from the session's start commit to it), in the record's
// snapshots, which the snapshot ids and the commits' Session-Snapshot
// trailers bind (session/patchid.go). Here:
//   - a commit whose trailers name a session that never recorded it passes
//     when its change equals, byte for byte, a commit that session
//     recorded (not as a BYPASS), and the rest of the commit's checks pass;
//   - a commit without a trailer that fails passes when its change equals a
//     commit, or a span, some session recorded, and that session's record
//     passes every check a commit of it gets (the session named as if by
//     its trailer, with its final snapshot). A span counts only from a
//     session with no BYPASS and no violation that bypassed the protocol,
//     and the hook records one only when every commit of it is the
//     session's (session/patchid.go).
// A hooks-off commit with copied trailers holds a change no record holds,
// and a rewrite that edited the change makes a different id: both still
// fail. Records from before patch ids keep today's verdicts.

// maxScanRecords bounds the records read to find the session of a commit
// without a trailer.
const maxScanRecords = 1000

// patchCache holds the range's exact patch ids, taken on first need.
type patchCache struct {
	repo *gitrepo.Repo
	ids  map[string]string // commit -> patch id ("" for none)
	rng  []string          // the range's commits
	// vouched binds each recorded commit (session id + sha256 of its id)
	// to the one commit of the range it passed: a second copy of the same
	// change (a hooks-off commit that replays it again) is not a rewrite.
	vouched map[string]string
}

// vouch reports whether recorded commit h of session id may vouch for
// commit sha: the first commit of the range to claim it, or that one again.
func (p *patchCache) vouch(id, h, sha string) bool {
	if p.vouched == nil {
		p.vouched = map[string]string{}
	}
	k := id + "\x00" + h
	if v, ok := p.vouched[k]; ok {
		return v == sha
	}
	p.vouched[k] = sha
	return true
}

// maxRewriteRange bounds the range whose patch ids are taken to find a
// record's rewritten end commit.
const maxRewriteRange = 1000

// rewriteOf returns the commit of the range whose change is that of
// commit, which rc's session recorded (its own change, or for a commit
// without trailers, the span's), "" when none.
func (p *patchCache) rewriteOf(ctx context.Context, rc *recordCheck, commit string) string {
	if p == nil || len(p.rng) == 0 || len(p.rng) > maxRewriteRange || rc == nil {
		return ""
	}
	sum := sha256.Sum256([]byte(commit))
	h := hex.EncodeToString(sum[:])
	if !rc.commits[h] || rc.bypassed[h] {
		return ""
	}
	var one, span string
	for id, x := range rc.patchIDs {
		if x == h {
			one = id
		}
	}
	for id, x := range rc.spanIDs {
		if x == h {
			span = id
		}
	}
	if one == "" && span == "" {
		return ""
	}
	ids := p.of(ctx, p.rng...)
	for _, c := range p.rng {
		if id := ids[c]; id != "" && (id == one || id == span) {
			return c
		}
	}
	return ""
}

// of returns the exact patch ids of shas, computing the missing ones in one
// batch (two git processes).
func (p *patchCache) of(ctx context.Context, shas ...string) map[string]string {
	if p.ids == nil {
		p.ids = map[string]string{}
	}
	var todo []gitrepo.PatchChange
	for _, s := range shas {
		if _, ok := p.ids[s]; !ok && !slices.ContainsFunc(todo, func(c gitrepo.PatchChange) bool { return c.Commit == s }) {
			todo = append(todo, gitrepo.PatchChange{Commit: s})
		}
	}
	if len(todo) > 0 {
		ids, err := p.repo.ExactPatchIDs(ctx, todo)
		for i, c := range todo {
			if err == nil {
				p.ids[c.Commit] = ids[i]
			} else {
				p.ids[c.Commit] = "" // no id: no rewrite passes (fails closed)
			}
		}
	}
	out := make(map[string]string, len(shas))
	for _, s := range shas {
		out[s] = p.ids[s]
	}
	return out
}

// addPatchIDs records the patch ids of an observed commit_sha evidence.
func (rc *recordCheck) addPatchIDs(ev snapshot.EvidenceRef) {
	if rc.patchIDs == nil {
		rc.patchIDs, rc.spanIDs = map[string]string{}, map[string]string{}
	}
	if ev.PatchID != "" {
		rc.patchIDs[ev.PatchID] = ev.SHA256
	}
	if ev.SpanPatchID != "" {
		rc.spanIDs[ev.SpanPatchID] = ev.SHA256
	}
}

// rewrite reports whether cr's commit, which rc's session never recorded,
// is a rewrite of one it did (a span too for a commit without trailers),
// and says so in cr's problems; a record with patch ids that hold no such
// change gets that said too.
func (p *patchCache) rewrite(ctx context.Context, rc *recordCheck, cr *CommitReport) bool {
	if p == nil || len(rc.patchIDs) == 0 && len(rc.spanIDs) == 0 {
		return false
	}
	id := p.of(ctx, cr.SHA)[cr.SHA]
	if id == "" {
		return false
	}
	if h, ok := rc.patchIDs[id]; ok && !rc.bypassed[h] && p.vouch(cr.SessionID, h, cr.SHA) {
		cr.Problems = append(cr.Problems, fmt.Sprintf("a rewrite of checked work (a rebase outside the session, such as GitLab's rebase before a fast-forward): its change is, byte for byte (git patch-id --verbatim %s), that of a commit session %s recorded (sha256 %s)",
			shorten.SHA(id), cr.SessionID, shorten.SHA(h)))
		return true
	}
	if h, ok := rc.spanIDs[id]; ok && cr.bare && !rc.bypassed[h] && len(rc.bypassed) == 0 && len(rc.violations) == 0 && p.vouch(cr.SessionID, "span:"+h, cr.SHA) {
		cr.Problems = append(cr.Problems, fmt.Sprintf("a squash of checked work (such as GitLab's squash, fast-forwarded): its change is, byte for byte (git patch-id --verbatim %s), the change from session %s's start commit to a commit it recorded (sha256 %s), every commit of which the session recorded",
			shorten.SHA(id), cr.SessionID, shorten.SHA(h)))
		return true
	}
	cr.Problems = append(cr.Problems, fmt.Sprintf("no commit session %s recorded has this change (git patch-id --verbatim %s): not a rewrite of its work, or a rewrite that changed it", cr.SessionID, shorten.SHA(id)))
	return false
}

// bareRewrites passes the failed commits of rep without a Session-Id
// trailer whose change a session recorded, when that session's record
// passes the checks a commit of it gets. It reports whether it changed a
// verdict.
func (p *patchCache) bareRewrites(ctx context.Context, src source, opts Options, trust *protocolTrust, claims *claimCheck, rep *Report, commits []gitrepo.Commit, records map[string]*recordCheck) bool {
	if opts.inSquash || opts.replayDepth > 0 {
		return false
	}
	var failed []int
	var shas []string
	for i := range rep.Commits {
		if rep.Commits[i].Status == "fail" && len(commits[i].Trailers[TrailerSession]) == 0 {
			failed = append(failed, i)
			shas = append(shas, rep.Commits[i].SHA)
		}
	}
	if len(failed) == 0 {
		return false
	}
	want := p.of(ctx, shas...)
	if !slices.ContainsFunc(shas, func(s string) bool { return want[s] != "" }) {
		return false // merges and empty commits: no change to match
	}
	// The sessions to look in: those the range names, then the others on
	// the records ref.
	ids := slices.Sorted(func(yield func(string) bool) {
		for id, rc := range records {
			if rc != nil && !yield(id) {
				return
			}
		}
	})
	note := ""
	if src.ref != "" && src.refTip != "" {
		all, err := recordref.List(ctx, src.repo.Root(), src.refTip)
		if err != nil {
			note = err.Error()
		}
		var more []string
		for _, id := range all {
			if _, ok := records[id]; !ok {
				more = append(more, id)
			}
		}
		if len(more) > maxScanRecords {
			note = fmt.Sprintf("%d session records on %s, more than the %d searched for the change", len(more), src.ref, maxScanRecords)
			more = more[:maxScanRecords]
		}
		read, err := recordref.ReadMany(ctx, src.repo.Root(), src.refTip, more)
		if err != nil {
			note = err.Error()
		}
		if src.read == nil {
			src.read = map[string]recordref.Result{}
		}
		for id, r := range read {
			src.read[id] = r
		}
		ids = append(ids, more...)
	}
	// Only records that hold the change are checked whole.
	holds := func(id string) (*recordCheck, bool) {
		rc, ok := records[id]
		if !ok {
			r, ok := src.read[id]
			if !ok || r.Err != nil {
				return nil, false
			}
			rc = checkRecord(&recordCheck{path: src.ref + ":" + r.Path}, r.Body, id, src.identity(ctx))
		}
		return rc, rc != nil
	}
	changed := false
	for k, i := range failed {
		cr := &rep.Commits[i]
		id := want[shas[k]]
		if id == "" {
			continue
		}
		passed := false
		var held []string
		for _, sid := range ids {
			rc, ok := holds(sid)
			if !ok || rc.ids == nil {
				continue
			}
			if self := sha256.Sum256([]byte(cr.SHA)); rc.commits[hex.EncodeToString(self[:])] {
				// The session recorded this very commit: its own verdict
				// stands (a recorded pick of a hooks-off commit must not
				// vouch for itself).
				continue
			}
			if _, one := rc.patchIDs[id]; !one {
				if _, span := rc.spanIDs[id]; !span {
					continue
				}
			}
			// Judged as a commit of that session, under its final snapshot.
			try := CommitReport{SHA: cr.SHA, Subject: cr.Subject, SessionID: sid, SnapshotID: rc.final, Status: "ok", Problems: []string{}, bare: true}
			// checkCommit loads it (src.read holds it) with the protocol
			// trust and pin checks a record of the range gets.
			checkCommit(ctx, src, opts, trust, records, &try)
			claims.commit(ctx, records[sid], &try)
			if try.Status == "ok" {
				try.Problems = append([]string{fmt.Sprintf("no %s trailer, and", TrailerSession)}, try.Problems...)
				*cr = try
				changed, passed = true, true
				break
			}
			held = append(held, fmt.Sprintf("session %s holds it but does not verify: %s", sid, strings.Join(try.Problems, "; ")))
		}
		if !passed {
			msg := fmt.Sprintf("no session record holds this change as a commit, or as the span of one, whose session verifies (git patch-id --verbatim %s)", shorten.SHA(id))
			if len(held) > 0 {
				msg += ": " + shorten.Bytes(strings.Join(held, "; "), 1000, "...")
			}
			if note != "" {
				msg += " (" + note + ")"
			}
			cr.Problems = append(cr.Problems, msg)
		}
	}
	return changed
}
