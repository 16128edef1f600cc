package session

import (
	"fmt"
	"path/filepath"

	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/writereach"
)

// shellReach judges what a POSIX shell line writes past its literal
// words (writereach): glob and variable operands that can name a
// protected file or the git directory, and literal paths that reach one
// through a symlink or hard link, on disk or made by the line itself.
func (e *Engine) shellReach(root string, call ToolCall) *AgentVerdict {
	if call.Shell == shellline.PowerShell {
		return nil
	}
	targets, links, ok := shellline.WriteTargets(call.Command)
	if !ok {
		return nil
	}
	// The written paths as the line writes them: a trailing slash follows
	// a link into its folder (the hook's own list is cleaned).
	writes, _ := shellline.Writes(call.Command)
	writes = append(writes, call.Paths...)
	dir := root
	if call.Dir != "" && filepath.IsAbs(call.Dir) && len(inWorktree(root, []string{call.Dir})) > 0 {
		dir = call.Dir
	}
	h := writereach.Check(ProtectedPaths(e.Config, ""), root, dir, writes, targets, links)
	if h == nil {
		return nil
	}
	v := &AgentVerdict{Deny: true}
	if h.GitDir {
		v.Gate = "git directory"
		v.Reason = fmt.Sprintf("the shell command writes %s, which reaches %s: the git directory holds the hooks, the config and sessiongate's records", h.How, h.Rel)
		v.Next = "leave it as it is"
		return v
	}
	v.Gate = "protected files"
	v.Reason = fmt.Sprintf("the shell command writes %s, which reaches %s; it may not change during a session: it decides how the session is policed", h.How, h.Rel)
	v.Next = "name the files to change so that no protected file is among them (a narrower glob, a folder), or leave it as it is; a person who wants the change makes it and runs `sessiongate protocol accept`"
	return v
}
