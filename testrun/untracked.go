package testrun

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/protect"
)

// QA is judged on the committed tree: an untracked zz_test.go whose
// TestMain exits 0, or an untracked conftest.py that skips every test,
// makes the work tree's suite pass while the committed tree's fails
// (issue 25.7 route 3). UntrackedRead names the untracked files a run's
// runners read; session/ refuses such a run as QA of the committed work.

// UntrackedLister lists untracked, not-ignored files; gitrepo.Repo
// implements it. Exclude sources other than the repository's .gitignore
// files count only when they did not change after since.
type UntrackedLister interface {
	UntrackedFiles(ctx context.Context, since time.Time) ([]string, error)
}

// UntrackedRead lists the untracked, not-ignored files of repo that the
// runners of line read (nil when repo cannot list them); since is when the
// session started (an exclude source changed after it does not count).
func UntrackedRead(ctx context.Context, repo Repo, since time.Time, line string) ([]string, error) {
	l, ok := repo.(UntrackedLister)
	if !ok {
		return nil, nil
	}
	files, err := l.UntrackedFiles(ctx, since)
	if err != nil {
		return nil, fmt.Errorf("list untracked files: %w", err)
	}
	reads := RunnerReads(line)
	var out []string
	for _, f := range files {
		if reads(f) && !agentConfigFile(f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// agentConfigFile: an agent's or sessiongate's own config left untracked
// (`install --agent claude` writes .claude/settings.json, which a team may
// keep uncommitted). No test runner reads it, and protection polices it: the
// real Claude Code run of the starter protocol was refused QA over it.
func agentConfigFile(f string) bool {
	if slices.Contains(protect.DefaultPaths, f) {
		return true
	}
	switch path.Ext(f) {
	case ".json", ".toml", ".yaml", ".yml", ".md":
	default:
		return false
	}
	for _, dir := range []string{".claude/", ".gemini/", ".codex/", ".cursor/", ".github/hooks/", ".vscode/"} {
		if strings.HasPrefix(f, dir) {
			return true
		}
	}
	return false
}
