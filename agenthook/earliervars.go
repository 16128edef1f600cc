package agenthook

import (
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/shellline"
)

// earlierVarWrite says why a shell line in Copilot CLI's shell, which
// lives on between calls, is denied: it writes a file named only by
// variables the line does not set and the CLI's environment does not hold
// (`sed -i ... "$P"` after `export P=SESSION-PROTOCOL.md` in an earlier
// call), whose value the hook cannot read (round 21). The other CLIs start
// a shell per call, where such a variable is empty: their lines are not
// read this way. No spawn: the line's parse only.
func earlierVarWrite(ev *Event, getenv func(string) string) string {
	if ev.Agent != "copilot" || ev.Tool.Kind != session.ToolShell || ev.Tool.Shell == shellline.PowerShell {
		return ""
	}
	w := shellline.EarlierVarWrite(ev.Tool.Command, func(n string) bool { return getenv(n) != "" })
	if w == "" {
		return ""
	}
	return "sessiongate: `" + shortCmd(ev.Tool.Command) + "` writes " + w + ", a variable this line does not set: Copilot's shell keeps what earlier calls set, so the file it names cannot be read from the line, and it may be one that polices the session (SESSION-PROTOCOL.md, sessiongate.yaml, .claude/...). Spell the file, or set the variable on the same line"
}
