package hooks

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sessiongate/sessiongate/selfbinary"
	"github.com/sessiongate/sessiongate/session"
)

// The git hooks exec sessiongate by absolute path (Script), but the agent
// hook configs an agent's CLI runs are committed and carry no machine-local
// path: they run `sessiongate` from PATH. A registry package the agent
// installs globally (`npm i -g some-pkg` whose package.json declares a
// `sessiongate` bin, pipx, uv tool, cargo install) puts one there without
// the shell line naming it, and that file then answers every agent hook.
// pre-commit, which is this binary for sure, looks at what PATH resolves
// `sessiongate` to: a stat per PATH folder, and a sampled compare only when
// a file there has this binary's size.

// pathShadow returns the file `sessiongate` from PATH (getenv's, relative
// folders against dir) runs when that is not this binary, "" when it is
// this binary (a copy or a link included) or PATH has none.
func pathShadow(getenv func(string) string, dir string) string {
	for _, d := range filepath.SplitList(getenv("PATH")) {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		p := filepath.Join(d, "sessiongate")
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			continue
		}
		if selfbinary.Is(dir, p) {
			return ""
		}
		return p
	}
	return ""
}

// checkPathShadow blocks an agent's commit while `sessiongate` on PATH is
// another program (pathShadow); a person's commit only gets a warning: its
// agent hooks are not the ones being policed now, and two honest installs
// (a release on PATH, a dev build that installed the hooks) are a
// person's to sort out.
func (rt *Runtime) checkPathShadow(root string) (int, bool) {
	p := pathShadow(rt.getenv, rt.Dir)
	if p == "" {
		return ExitAllow, false
	}
	self, _ := os.Executable()
	why := "`sessiongate` on PATH is " + p + ", not this sessiongate (" + self + "): the agent hook configs run `sessiongate` from PATH, so that program answers every agent hook"
	next := "remove " + p + " or put " + filepath.Dir(self) + " ahead of it on PATH; if it is a sessiongate you installed, run `" + p + " install` so the git hooks run it too"
	if a := rt.actor(root, ""); a.Agent == "" {
		fmt.Fprintf(rt.Stderr, "sessiongate: warning: %s (%s)\n", why, next)
		return ExitAllow, false
	}
	rt.blocked(session.HookPreCommit, "", why, next, "", "")
	return ExitBlock, true
}
