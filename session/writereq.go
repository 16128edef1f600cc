package session

import (
	"context"
	"fmt"
	"github.com/sessiongate/sessiongate/repopath"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// A requirement to write a file ("Complete the handoff from the Handoff
// Template", "Update `.agents/HANDOFF.md` with ...") is met by the file,
// changed in this session, not by a note saying it was written (issue 25
// route 4): a one-line manual claim wrote nothing.

var writeVerbRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:write|create|complete|update|fill\s+(?:in|out)|append)\b`)
})

// writeTargets returns the globs of the files a requirement asks to write:
// the paths it names, or, naming none, the files the phase's template
// placeholder check covers (the file made from the template). nil when the
// requirement does not ask to write a file (a negative one, "Do not update
// X", asks not to).
func writeTargets(p *protocolspec.Phase, r protocolspec.Requirement) []string {
	if r.Level == protocolspec.LevelMustNot || r.Level == protocolspec.LevelShouldNot || !writeVerbRE().MatchString(r.Text) {
		return nil
	}
	if named := r.NamedPaths(); len(named) > 0 {
		return named
	}
	var out []string
	for _, c := range p.Checks {
		if c.Kind == protocolspec.CheckNoPlaceholders && c.Arg != "" {
			out = append(out, c.Arg)
		}
	}
	return out
}

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
	targets := writeTargets(p, r)
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
	if newFileEachSession(p, r, targets, rel) {
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

// newFileEachSession reports whether the requirement asks for a new file
// per session: a family of files (a glob: the protocol's
// YYYY-MM-DD-NN.md) that it asks to create, or that the phase's template
// makes ("Complete the handoff from the Handoff Template"). The lazy agent
// appended a line to the earlier session's handoff and recorded it:
// changed in this session, no copy, COMPLETE (adversarial pass 4). A fixed
// path ("Update `.agents/HANDOFF.md`") is one file every session updates.
func newFileEachSession(p *protocolspec.Phase, r protocolspec.Requirement, targets []string, rel string) bool {
	fromTemplate := len(r.NamedPaths()) == 0
	if !fromTemplate && !createVerbRE().MatchString(r.Text) {
		return false
	}
	for _, g := range targets {
		if repopath.HasMeta(g) && repopath.Match(g, rel) {
			return true
		}
	}
	return false
}

var createVerbRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bcreate\b`) })

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
	b, err := os.ReadFile(abs)
	if err != nil {
		return fmt.Errorf("read %s: %w", rel, err)
	}
	if !strings.ContainsFunc(string(b), unicode.IsLetter) {
		return refusedf("%s asks to write %s, and it holds no words (%d bytes): write it, then record it", r.ID, rel, len(b))
	}
	return nil
}
