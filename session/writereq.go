package session

import (
	"context"
	"fmt"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/repopath"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/toolneed"
)

// A requirement to write a file ("Complete the handoff from the Handoff
// Template", "Update `.agents/HANDOFF.md` with ...") is met by the file,
// changed in this session, not by a note saying it was written (issue 25
// route 4): a one-line manual claim wrote nothing. Which files it asks
// for is toolneed.Writes (the requirement's text and the phase's checks).

// writtenTarget reports whether rel is one of the files a write
// requirement names.
func writtenTarget(targets []string, rel string) bool {
	return namesPath(targets, rel)
}

// writeClaimRefused is the refusal of a claim that is not a file for a
// write requirement.
func writeClaimRefused(r protocolspec.Requirement, kind string, targets []string) error {
	return refusedf("%s asks to write %s: %s evidence writes no file; write it, then record it as file_path (the file, changed in this session, is the evidence)",
		r.ID, strings.Join(targets, ", "), kind)
}

// writeClaim refuses evidence for a write requirement that is not the file
// it writes, changed in this session: a note, another file, or the file as
// it was at the start.
func (e *Engine) writeClaim(ctx context.Context, s *Session, p *protocolspec.Phase, r protocolspec.Requirement, kind, body string) error {
	targets := toolneed.Writes(p, r)
	if len(targets) == 0 {
		return nil
	}
	if !pathKind(kind) {
		return writeClaimRefused(r, kind, targets)
	}
	rel, err := repopath.Clean(strings.TrimSpace(body))
	if err != nil {
		return fmt.Errorf("%s evidence: %w", kind, err)
	}
	if !writtenTarget(targets, rel) {
		return refusedf("%s asks to write %s; %s is another file: record the file it asks for", r.ID, strings.Join(targets, ", "), rel)
	}
	if s.StartCommit == "" || e.OpenRepo == nil {
		return nil // an unborn branch: every file is the session's
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return fmt.Errorf("open repository: %w", err)
	}
	// Counted from where the session's work starts (startbound.go).
	if s, _, err = e.workStart(ctx, repo, s); err != nil {
		return err
	}
	changed, err := sessionFiles(ctx, repo, s)
	if err != nil {
		return fmt.Errorf("list changed files: %w", err)
	}
	if !slices.Contains(changed, rel) {
		return refusedf("%s asks to write %s, and %s is as it was when the session started (%s): write it in this session, then record it", r.ID, strings.Join(targets, ", "), rel, shortSHA(s.StartCommit))
	}
	if toolneed.NewEachSession(p, r, targets, rel) {
		existed, err := repo.ExistsAt(ctx, s.StartCommit, rel)
		if err != nil {
			return fmt.Errorf("look for %s in the starting commit: %w", rel, err)
		}
		if existed {
			return refusedf("%s asks to create %s, a file of each session's own, and %s is an earlier session's (it is in the starting commit %s): a line added to it is not this session's; create this session's own, then record it", r.ID, strings.Join(targets, ", "), rel, shortSHA(s.StartCommit))
		}
	}
	return writtenSomething(s.Worktree, r, rel)
}

// writtenSomething refuses a written file that holds no words, or that is
// a link to another file: `echo . > HANDOFF.md` and `ln -s README.md
// HANDOFF.md` are changes, not the file the requirement asks for.
func writtenSomething(worktree string, r protocolspec.Requirement, rel string) error {
	abs := filepath.Join(worktree, filepath.FromSlash(rel))
	st, err := os.Lstat(abs)
	if err != nil {
		return nil // a deleted file is the gate's re-check's to judge
	}
	if st.Mode()&os.ModeSymlink != 0 {
		return refusedf("%s asks to write %s, and it is a link to another file: write the file itself, then record it", r.ID, rel)
	}
	b, err := readWorkFile(worktree, rel)
	if boundedread.Refused(err) {
		return refusedf("%s asks to write %s: %v: write the file itself, then record it", r.ID, rel, err)
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", rel, err)
	}
	if !strings.ContainsFunc(string(b), unicode.IsLetter) {
		return refusedf("%s asks to write %s, and it holds no words (%d bytes): write it, then record it", r.ID, rel, len(b))
	}
	return nil
}
