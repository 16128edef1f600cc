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
	changed, err := repo.ChangedFiles(ctx, s.StartCommit)
	if err != nil {
		return fmt.Errorf("list changed files: %w", err)
	}
	if !slices.Contains(changed, rel) {
		return refusedf("%s asks to write %s, and %s is as it was when the session started (%s): write it in this session, then record it", r.ID, strings.Join(targets, ", "), rel, shortSHA(s.StartCommit))
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
	b, err := os.ReadFile(abs)
	if err != nil {
		return fmt.Errorf("read %s: %w", rel, err)
	}
	if !strings.ContainsFunc(string(b), unicode.IsLetter) {
		return refusedf("%s asks to write %s, and it holds no words (%d bytes): write it, then record it", r.ID, rel, len(b))
	}
	return nil
}
