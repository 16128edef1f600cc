package gateenv

import (
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
)

// ProgramsElsewhere lists the programs a shell line runs by a path
// outside both the work tree (root) and the folders of env's PATH (as
// CleanFor left it): `/tmp/fake/go test ./...` is not the go a gate would
// run, whatever it printed. A project's own script (./test.sh) and a
// program named by its full path in a folder the gate's PATH has
// (/usr/bin/python3) count.
func ProgramsElsewhere(line string, env []string, root string) []string {
	calls, _, ok := shellline.Calls(shellline.Unwrap(line))
	if !ok {
		return nil
	}
	onPath := map[string]bool{}
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, d := range filepath.SplitList(v) {
				onPath[filepath.Clean(d)] = true
				if r, err := filepath.EvalSymlinks(d); err == nil {
					onPath[r] = true
				}
			}
		}
	}
	var out []string
	for _, c := range calls {
		w := shellline.StripWrappers(c.Words)
		if len(w) == 0 || !strings.Contains(w[0], "/") {
			continue
		}
		p := w[0]
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		p = filepath.Clean(p)
		if root != "" && inside(root, p) {
			continue
		}
		dir := filepath.Dir(p)
		if onPath[dir] {
			continue
		}
		if r, err := filepath.EvalSymlinks(dir); err == nil && onPath[r] {
			continue
		}
		out = append(out, w[0])
	}
	return out
}
