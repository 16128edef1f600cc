package session

import (
	"path/filepath"

	"github.com/sessiongate/sessiongate/filevalue"
	"github.com/sessiongate/sessiongate/shellline"
)

// fileValueWrites judges the commands of a line whose written operands it
// reads from a file (round 21, filevalue.Lines) as the line's own:
// `X=$(cat names.txt); rm "$X"` is judged as `rm SESSION-PROTOCOL.md`
// when that is what names.txt holds. No git call and no spawn.
func (e *Engine) fileValueWrites(root string, call ToolCall, lines []string) *AgentVerdict {
	if call.Shell == shellline.PowerShell {
		return nil
	}
	dir := root
	if call.Dir != "" && filepath.IsAbs(call.Dir) && len(inWorktree(root, []string{call.Dir})) > 0 {
		dir = call.Dir
	}
	inner := filevalue.In(root, dir, ProtectedPaths(e.Config, ""), lines)
	if len(inner) == 0 {
		return nil
	}
	return e.innerWrites(root, call, inner)
}
