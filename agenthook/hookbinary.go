package agenthook

import (
	"path/filepath"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/hooks"
	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// The git hooks exec the binary they were installed from by absolute path
// (the `sg=` line). When that binary is not on PATH and is not the one this
// hook runs as, selfBinaryWrite does not name it: an agent that writes a
// script exiting 0 over it commits with every pre-commit gate skipped. One
// small read (the pre-commit script) per tool call that writes, and only
// then; a core.hooksPath folder is not read (that would cost a git process
// or a config parse on every call).

// hookScriptMax bounds the pre-commit read: ours is a few KiB.
const hookScriptMax = 64 << 10

// gitHookBinaryWrite says why a tool call writes the binary the git hooks
// exec, or its folder ("" when it does not). Paths are resolved as far as
// they exist, so a link to the binary names it too.
func gitHookBinaryWrite(ev *Event, dir string, repo *gitrepo.Repo) string {
	paths, _ := eventWrites(ev)
	if len(paths) == 0 {
		return ""
	}
	b, err := boundedread.File(filepath.Join(repo.CommonDir(), "hooks", "pre-commit"), hookScriptMax)
	if err != nil || !hooks.IsOurs(b) {
		return ""
	}
	bin, ok := hooks.ScriptBinary(b)
	if !ok || !filepath.IsAbs(bin) {
		return ""
	}
	bin = filepath.Clean(bin)
	targets := []string{bin, resolveExisting(bin)}
	binDir := filepath.Dir(bin)
	// A folder that holds the worktree is no install folder (a binary
	// built in the worktree's parent); writes under it are the agent's work.
	if rel, err := filepath.Rel(binDir, dir); err != nil || !filepath.IsLocal(rel) && binDir != dir {
		targets = append(targets, binDir, resolveExisting(binDir))
	}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		p = filepath.Clean(p)
		real := resolveExisting(p)
		for _, t := range targets {
			if p == t || real == t {
				return "sessiongate: " + ev.Tool.Name + " writes " + t + ", the sessiongate binary the git hooks exec (the sg= line of pre-commit): a replacement there would pass every commit, so the agent being policed may not write it"
			}
		}
	}
	return ""
}
