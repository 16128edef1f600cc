package session

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sessiongate/sessiongate/globcopy"
	"github.com/sessiongate/sessiongate/shellline"
)

// globCopyWrites judges a copy into a folder whose source is a glob
// (`cp -r tpl/* .`): each match lands at DIR/base(M) (globcopy.Landings
// expands the glob on disk, as the shell will), and each landing place is
// checked; a folder copied lands with what it holds.
func (e *Engine) globCopyWrites(root string, call ToolCall, lines []string) *AgentVerdict {
	if call.Shell == shellline.PowerShell {
		return nil
	}
	dir := root
	if call.Dir != "" && filepath.IsAbs(call.Dir) && len(inWorktree(root, []string{call.Dir})) > 0 {
		dir = call.Dir
	}
	for _, l := range globcopy.Landings(root, dir, lines) {
		m, dst := l.Match, l.Dst
		rel, ok := e.ProtectedRel(root, dst)
		if fi, err := os.Stat(m); !ok && err == nil && fi.IsDir() {
			if r := inWorktree(root, []string{dst}); len(r) > 0 && (e.ProtectedBelow(r[0]) || gitDirPath(root, r) != "") {
				rel, ok = r[0], true
			}
		}
		if !ok {
			if g := gitDirPath(root, inWorktree(root, []string{dst})); g != "" {
				rel, ok = g, true
			}
		}
		if ok {
			return &AgentVerdict{Deny: true, Gate: "protected files",
				Reason: fmt.Sprintf("the shell command copies %s into %s; its match %s lands on %s, which may not change during a session: it decides how the session is policed", l.Pattern, relOr(root, filepath.Join(root, l.Into)), relOr(root, m), rel),
				Next:   "copy the files you need by name, or with a glob that does not match it; a person who wants the change makes it and runs `sessiongate protocol accept`"}
		}
	}
	return nil
}
