package hooks

import (
	"bytes"
	"cmp"
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
	// git -c (GIT_CONFIG_PARAMETERS) and GIT_CONFIG_KEY_<n>, as text.
	env := getenv("GIT_CONFIG_PARAMETERS")
	if c := getenv("GIT_CONFIG_COUNT"); c != "" {
		n, err := strconv.Atoi(c)
		if err != nil || n < 0 || n > 1000 {
			return false
		}
		for i := range n {
			env += "\n" + getenv("GIT_CONFIG_KEY_"+strconv.Itoa(i))
		}
	}
	if trailerConfig([]byte(env)) {
		return false
	}
	var files []string
	nosystem, ok := gitBool(getenv("GIT_CONFIG_NOSYSTEM"))
	if !ok {
		return false
	}
	if !nosystem {
		if f := getenv("GIT_CONFIG_SYSTEM"); f != "" {
			files = append(files, f)
		} else {
			files = append(files, systemConfigs...)
		}
	}
	if g := getenv("GIT_CONFIG_GLOBAL"); g != "" {
		files = append(files, g)
	} else {
		home := getenv("HOME")
		if home == "" {
			return false
		}
		files = append(files, filepath.Join(cmp.Or(getenv("XDG_CONFIG_HOME"), filepath.Join(home, ".config")), "git", "config"),
			filepath.Join(home, ".gitconfig"))
	}
	files = append(files, filepath.Join(repo.CommonDir(), "config"), filepath.Join(repo.GitDir(), "config.worktree"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if os.IsNotExist(err) || f == os.DevNull {
			continue
		}
		if err != nil {
			return false
		}
		if trailerConfig(b) {
			return false
		}
	}
	return true
}

// systemConfigs are where git builds keep their system configuration:
// the prefix differs by build (Debian's /etc, Homebrew's, Apple's command
// line tools and Xcode), and a process asking git which one it reads would
// cost what the fast path saves. Reading a file this git does not read
// can only turn the fast path off, never on.
var systemConfigs = []string{
	"/etc/gitconfig",
	"/usr/local/etc/gitconfig",
	"/opt/homebrew/etc/gitconfig",
	"/Library/Developer/CommandLineTools/usr/share/git-core/gitconfig",
	"/Applications/Xcode.app/Contents/Developer/usr/share/git-core/gitconfig",
}

// gitBool reads an environment boolean as git does (git_env_bool): unset
// or empty is false, and so are "false", "no", "off" and 0; ok is false
// for a value git would refuse.
func gitBool(v string) (b, ok bool) {
	switch strings.ToLower(v) {
	case "", "false", "no", "off":
		return false, true
	case "true", "yes", "on":
		return true, true
	}
	n, err := strconv.ParseInt(v, 0, 64)
	return n != 0, err == nil
}

// trailerConfig reports whether configuration text may name a comment
// character, a trailer setting or an include (any mention counts).
func trailerConfig(b []byte) bool {
	low := bytes.ToLower(b)
	for _, w := range []string{"commentchar", "commentstring", "trailer", "include"} {
		if bytes.Contains(low, []byte(w)) {
			return true
		}
	}
	return false
}
