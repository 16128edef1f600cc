package hooks

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/atomicfile"
)

// The handoff lets the commit-msg and post-commit hooks of one `git commit`
// skip starting this binary when pre-commit already decided everything:
// pre-commit writes, next to the index git gave it, the id of the git
// process that runs the hooks (the hook's parent) and the trailers the
// message gets. The scripts compare that id with their own $PPID: only hooks
// of the same git process use it. commit-msg then adds the trailers (itself
// when the message and the git configuration leave no doubt where git
// interpret-trailers would put them, see plainTrailers and script.go; with
// git interpret-trailers otherwise) and marks the handoff used; post-commit takes only
// a used one and leaves recording the commit to reconciliation at the next
// sessiongate call, which matches the commit's tree against the pre-commit
// pass (a forged or stale handoff delays a BYPASS finding to that call; it
// cannot make the commit's tree match a pass).
const (
	handoffName    = "sessiongate-commit"
	handoffVersion = "v2" // v1 had no third field on its first line
)

// handoffPath is where pre-commit leaves the handoff: beside the index in
// GIT_INDEX_FILE, the variable the scripts read, and only when that folder
// is the worktree's git dir (an index elsewhere, such as /tmp, would put
// the handoff where others may write) and no editor will run between
// pre-commit and commit-msg (git sets GIT_EDITOR=":" for the hooks then):
// while an editor is open the session may change, so commit-msg must ask
// the engine again. "" means no handoff: the later hooks start the binary.
func (rt *Runtime) handoffPath(repo *gitrepo.Repo) string {
	p := rt.getenv("GIT_INDEX_FILE")
	if p == "" || !strings.Contains(p, "/") || rt.getenv("GIT_EDITOR") != ":" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(rt.Dir, p)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return ""
	}
	if gd, err := filepath.EvalSymlinks(repo.GitDir()); err != nil || gd != dir {
		return ""
	}
	return filepath.Join(dir, handoffName)
}

// writeHandoff records pre-commit's decision for the commit's later hooks,
// or removes a stale one when there is none to hand off. A failure costs
// only speed: the later hooks start the binary.
func (rt *Runtime) writeHandoff(repo *gitrepo.Repo, ok bool, trailers []string) {
	path := filepath.Join(repo.GitDir(), handoffName)
	if ok {
		if path = rt.handoffPath(repo); path == "" {
			ok = false
			path = filepath.Join(repo.GitDir(), handoffName)
		}
	}
	if !ok || rt.Parent == 0 {
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			fmt.Fprintf(rt.Stderr, "sessiongate: remove %s: %v\n", path, err)
		}
		return
	}
	mode := "git"
	if plainTrailers(repo, rt.getenv) {
		mode = "plain"
	}
	var b bytes.Buffer
	b.WriteString(handoffVersion + " " + strconv.Itoa(rt.Parent) + " " + mode + "\n")
	for _, t := range trailers {
		if strings.ContainsAny(t, "\n\r") {
			rt.writeHandoff(repo, false, nil)
			return
		}
		b.WriteString(t + "\n")
	}
	// Never through a link: atomicfile renames a new file over the path.
	if atomicfile.Write(path, b.Bytes(), 0o600) != nil {
		os.Remove(path)
	}
}

// plainTrailers reports whether no git configuration can change where git
// interpret-trailers puts a trailer or which lines it takes for comments:
// no comment character or string, no trailer.* key and no include, in any
// configuration file git reads for this repository or in the configuration
// git passes its hooks in the environment. Only then may commit-msg append
// the trailers itself (script.go); any doubt, or a file it cannot read,
// leaves them to git interpret-trailers.
func plainTrailers(repo *gitrepo.Repo, getenv func(string) string) bool {
	return !repo.ConfigMentions(getenv, "commentchar", "commentstring", "trailer", "include")
}
