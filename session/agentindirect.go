package session

import (
	"fmt"
	"path/filepath"

	"github.com/sessiongate/sessiongate/shellline"
)

// innerWrites judges the lines a POSIX line runs without naming them as
// its own commands (shellline.Inner: eval's argument, a script piped,
// fed or substituted into a shell or `source`, `sh -c` with its
// positional parameters, the commands xargs builds from its input) as
// the line itself is judged: their literal writes, then writereach.
// Before round 18 only the checks of git hooks and records read them,
// so `eval "sed -i ... SESSION-PROTOCOL.md"` passed the write checks.
func (e *Engine) innerWrites(root string, call ToolCall, inner []string) *AgentVerdict {
	if call.Shell == shellline.PowerShell {
		return nil
	}
	dir := root
	if call.Dir != "" && filepath.IsAbs(call.Dir) && len(inWorktree(root, []string{call.Dir})) > 0 {
		dir = call.Dir
	}
	for _, l := range inner {
		ps, ok := shellline.Writes(l)
		if !ok {
			continue
		}
		for i, p := range ps {
			if !filepath.IsAbs(p) {
				ps[i] = filepath.Join(dir, p)
			}
		}
		ws := inWorktree(root, ps)
		if rel := gitDirPath(root, ws); rel != "" {
			return &AgentVerdict{Deny: true, Gate: "git directory",
				Reason: fmt.Sprintf("the shell command runs `%s`, which writes %s: the git directory holds the hooks, the config and sessiongate's records", shortInner(l), rel),
				Next:   "leave it as it is"}
		}
		for _, p := range ws {
			rel, ok := e.ProtectedRel(root, p)
			if !ok && e.ProtectedBelow(p) {
				ok = true
			}
			if ok {
				return &AgentVerdict{Deny: true, Gate: "protected files",
					Reason: fmt.Sprintf("the shell command runs `%s`, which writes %s; it may not change during a session: it decides how the session is policed", shortInner(l), rel),
					Next:   "leave it as it is; a person who wants the change makes it and runs `sessiongate protocol accept`"}
			}
		}
		c := call
		c.Command, c.Paths = l, nil
		if rv := e.shellReach(root, c); rv != nil {
			rv.Reason = "the shell command runs `" + shortInner(l) + "`: " + rv.Reason
			return rv
		}
	}
	return nil
}

// shortInner is an inner line for a message: its first 120 bytes.
func shortInner(l string) string {
	if len(l) > 120 {
		return l[:117] + "..."
	}
	return l
}

