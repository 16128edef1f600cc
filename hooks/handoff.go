package hooks

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The handoff lets the commit-msg and post-commit hooks of one `git commit`
// skip starting this binary when pre-commit already decided everything:
// pre-commit writes, next to the index git gave it, the id of the git
// process that runs the hooks (the hook's parent) and the trailers the
// message gets. The scripts compare that id with their own $PPID: only hooks
// of the same git process use it. commit-msg then adds the trailers with
// git interpret-trailers, and post-commit leaves recording the commit to
// reconciliation at the next sessiongate call, which matches the commit's
// tree against the pre-commit pass (a forged or stale handoff delays a
// BYPASS finding, it never hides one).
const (
	handoffName    = "sessiongate-commit"
	handoffVersion = "v1"
)

// handoffPath is where pre-commit leaves the handoff: beside the index in
// GIT_INDEX_FILE, the variable the scripts read; "" when git did not set it
// (the scripts then always start the binary).
func (rt *Runtime) handoffPath() string {
	p := rt.getenv("GIT_INDEX_FILE")
	if p == "" || !strings.Contains(p, "/") {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(rt.Dir, p)
	}
	return filepath.Join(filepath.Dir(p), handoffName)
}

// writeHandoff records pre-commit's decision for the commit's later hooks,
// or removes a stale one when there is none to hand off. A failure costs
// only speed: the later hooks start the binary.
func (rt *Runtime) writeHandoff(ok bool, trailers []string) {
	path := rt.handoffPath()
	if path == "" {
		return
	}
	if !ok || rt.Parent == 0 {
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			fmt.Fprintf(rt.Stderr, "sessiongate: remove %s: %v\n", path, err)
		}
		return
	}
	var b bytes.Buffer
	b.WriteString(handoffVersion + " " + strconv.Itoa(rt.Parent) + "\n")
	for _, t := range trailers {
		if strings.ContainsAny(t, "\n\r") {
			rt.writeHandoff(false, nil)
			return
		}
		b.WriteString(t + "\n")
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o600); err != nil {
		os.Remove(path)
		return
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		os.Remove(path)
	}
}
