package agenthook

import (
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/transcript"
)

// transcriptWrite says why a tool call writes into the agent's own
// transcript folder ("" when it does not): sessiongate reads the transcript
// as the agent's record of its tool calls, so a line appended by the agent
// (a forged Read) would meet a read requirement. Caught: an edit tool on a
// file there; a shell line whose literal write target (redirection, tee,
// cp, sed -i, ...) is there; a shell line that writes anything and names
// the folder (`echo ... >> ~/.claude/projects/...`: "~" and "$HOME" are
// not literal paths, so the folder's name is looked for in the text). Not
// caught: a program that finds the folder by itself (a script, python -c);
// docs/security.md says what still shows such a forgery.
func transcriptWrite(ev *Event, dir string, getenv func(string) string) string {
	data, err := transcript.DataDir(ev.Agent, getenv)
	if err != nil {
		return "" // cursor: no transcript is read
	}
	why := "sessiongate: " + ev.Tool.Name + " writes into " + ev.Agent + "'s own transcript folder (" + data +
		"): sessiongate reads that transcript as the agent's record of its tool calls, so the agent may not write it"
	in := func(p string) bool {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		rel, err := filepath.Rel(data, filepath.Clean(p))
		return err == nil && filepath.IsLocal(rel)
	}
	switch ev.Tool.Kind {
	case session.ToolEdit, session.ToolOther:
		for _, p := range ev.Tool.Paths {
			if in(p) {
				return why
			}
		}
	case session.ToolShell:
		ps, ok := session.ShellWrites(ev.Tool.Command)
		ps = append(ps, ev.Tool.Paths...) // a patch given to the shell (Codex)
		for _, p := range ps {
			if in(p) {
				return why
			}
		}
		// The folder named in a line that writes: the last two parts of
		// its path (".claude/projects", ".gemini/tmp", "sessions",
		// "session-state") with a write of any file.
		tail := filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(data)), filepath.Base(data)))
		c := ev.Tool.Command
		writes := len(ps) > 0 || !ok || strings.Contains(c, ">")
		for _, w := range []string{"tee ", "sed -i", "cp ", "mv ", "dd ", "install ", "ln ", "truncate ", "python", "perl ", "node "} {
			writes = writes || strings.Contains(c, w)
		}
		if writes && (strings.Contains(c, tail) || strings.Contains(c, data)) {
			return why
		}
	}
	return ""
}
