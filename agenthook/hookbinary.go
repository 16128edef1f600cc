package agenthook

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/hooks"
	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// The git hooks exec the binary they were installed from by absolute path
// (the `sg=` line). When that binary is not on PATH and is not the one this
// hook runs as, selfBinaryWrite does not name it: an agent that writes a
// script exiting 0 over it commits with every pre-commit gate skipped. One
// small read (the pre-commit script) per tool call that writes, and only
// then. Under core.hooksPath the script is in that folder: the config files
// are scanned for the word first (ConfigMentions, no process), and git is
// asked for the folder only when one mentions it.

// hookScriptMax bounds the pre-commit read: ours is a few KiB.
const hookScriptMax = 64 << 10

// gitHookBinaryWrite says why a tool call writes the binary the git hooks
// exec, or its folder ("" when it does not). Paths are resolved as far as
// they exist, so a link to the binary names it too.
func gitHookBinaryWrite(ctx context.Context, ev *Event, dir string, repo *gitrepo.Repo, getenv func(string) string) string {
	paths, _ := eventWrites(ev)
	if len(paths) == 0 {
		return ""
	}
	bin := installedBinary(ctx, repo, getenv)
	if bin == "" {
		return ""
	}
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

// gitHooksDir is the folder git runs the repository's hooks from: the
// common dir's hooks, or core.hooksPath's folder (git resolves a relative
// one, and one set by -c or the environment).
func gitHooksDir(ctx context.Context, repo *gitrepo.Repo, getenv func(string) string) string {
	def := filepath.Join(repo.CommonDir(), "hooks")
	if !repo.ConfigMentions(getenv, "hookspath") {
		return def
	}
	out, err := gitenv.Command(ctx, repo.Root(), nil, "rev-parse", "--path-format=absolute", "--git-path", "hooks").Output()
	if p := strings.TrimSpace(string(out)); err == nil && filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return def
}

// installedBinary is the absolute binary the git hooks exec (the sg= line
// of sessiongate's pre-commit, where git runs hooks from), "" when
// pre-commit is not sessiongate's or names none.
func installedBinary(ctx context.Context, repo *gitrepo.Repo, getenv func(string) string) string {
	b, err := boundedread.File(filepath.Join(gitHooksDir(ctx, repo, getenv), "pre-commit"), hookScriptMax)
	if err != nil || !hooks.IsOurs(b) {
		return ""
	}
	bin, ok := hooks.ScriptBinary(b)
	if !ok || !filepath.IsAbs(bin) {
		return ""
	}
	return filepath.Clean(bin)
}
