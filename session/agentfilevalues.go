package session

import (
	"os"
	"path/filepath"

	"github.com/sessiongate/sessiongate/shellline"
)

// maxValueFile bounds a file the hook reads for the values a line takes
// from it (`X=$(cat f)`, `read X < f`, `xargs -a f`): a list of names.
const maxValueFile = 64 << 10

// fileValueWrites judges the commands of a line whose written operands it
// reads from a file (round 21, shellline.FileValueLines) as the line's
// own: `X=$(cat names.txt); rm "$X"` is judged as `rm SESSION-PROTOCOL.md`
// when that is what names.txt holds. No git call and no spawn; a file is
// read only for a line that reads one.
func (e *Engine) fileValueWrites(root string, call ToolCall, lines []string) *AgentVerdict {
	if call.Shell == shellline.PowerShell {
		return nil
	}
	dir := root
	if call.Dir != "" && filepath.IsAbs(call.Dir) && len(inWorktree(root, []string{call.Dir})) > 0 {
		dir = call.Dir
	}
	read := func(p string) (string, bool) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.FromSlash(p))
		}
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxValueFile {
			return "", false
		}
		b, err := os.ReadFile(p)
		return string(b), err == nil
	}
	var inner []string
	for _, l := range lines {
		inner = append(inner, shellline.FileValueLines(l, read)...)
	}
	if len(inner) == 0 {
		return nil
	}
	return e.innerWrites(root, call, inner)
}
