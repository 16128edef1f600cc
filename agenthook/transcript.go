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
		ps, ok := ev.shellWrites()
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

// agentConfigFiles are the user-level files where the agent CLIs read
// hooks and settings that switch the repository's hooks off or add their
// own (Claude Code: settings.json, whose `"disableAllHooks": true` turns
// off the project's hooks too, tried with the real CLI by the adversarial
// pass of issue 25; Gemini CLI: settings.json; Codex: config.toml's
// [features] and [hooks], hooks.json; Copilot: config.json, settings.json
// and the hooks folder): an agent that edits them would run unpoliced from
// its next start.
func agentConfigFiles(agent string, getenv func(string) string) []string {
	home := getenv("HOME")
	under := func(env, def string) string {
		if v := getenv(env); v != "" && filepath.IsAbs(v) {
			return v
		}
		if home == "" || !filepath.IsAbs(home) {
			return ""
		}
		return filepath.Join(home, def)
	}
	switch agent {
	case "claude":
		if d := under("CLAUDE_CONFIG_DIR", ".claude"); d != "" {
			return []string{filepath.Join(d, "settings.json"), filepath.Join(d, "settings.local.json")}
		}
	case "gemini":
		if v := getenv("GEMINI_CLI_HOME"); v != "" && filepath.IsAbs(v) {
			return []string{filepath.Join(v, ".gemini", "settings.json")}
		}
		if d := under("", ".gemini"); d != "" {
			return []string{filepath.Join(d, "settings.json")}
		}
	case "codex":
		if d := under("CODEX_HOME", ".codex"); d != "" {
			return []string{filepath.Join(d, "config.toml"), filepath.Join(d, "hooks.json")}
		}
	case "copilot":
		if d := under("COPILOT_HOME", ".copilot"); d != "" {
			return []string{filepath.Join(d, "config.json"), filepath.Join(d, "settings.json"), filepath.Join(d, "hooks")}
		}
	}
	return nil
}

// agentConfigWrite says why a tool call writes one of agentConfigFiles
// ("" when it does not): a path the edit names, or a shell line's literal
// write target, that is one of them or inside one (the hooks folder).
func agentConfigWrite(ev *Event, dir string, getenv func(string) string) string {
	files := agentConfigFiles(ev.Agent, getenv)
	if len(files) == 0 {
		return ""
	}
	var paths []string
	switch ev.Tool.Kind {
	case session.ToolEdit, session.ToolOther:
		paths = ev.Tool.Paths
	case session.ToolShell:
		ps, _ := ev.shellWrites()
		paths = append(ps, ev.Tool.Paths...)
	}
	why := func(f string) string {
		return "sessiongate: " + ev.Tool.Name + " writes " + f + ", " + ev.Agent + "'s own configuration: it decides which hooks run, so the agent being policed may not change it"
	}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		p = filepath.Clean(p)
		for _, f := range files {
			if rel, err := filepath.Rel(f, p); err == nil && filepath.IsLocal(rel) || p == f {
				return why(f)
			}
		}
	}
	if ev.Tool.Kind == session.ToolShell {
		// "~" and "$HOME" are not literal paths: a line that writes and
		// names the file from the home folder (`echo ... >
		// ~/.claude/settings.json`, python's open() of it) is looked for in
		// the text, as for the transcript folder.
		if f := namesConfigFile(ev.Tool.Command, files, getenv); f != "" && lineWrites(ev.Tool.Command, paths) {
			return why(f)
		}
	}
	return ""
}

// namesConfigFile returns the config file a command line names as an
// absolute path, from the home folder (~/..., $HOME/..., ${HOME}/...) or
// from the variable that moves it ($CLAUDE_CONFIG_DIR/settings.json); ""
// when it names none.
func namesConfigFile(c string, files []string, getenv func(string) string) string {
	home := getenv("HOME")
	for _, f := range files {
		if strings.Contains(c, f) {
			return f
		}
		if home != "" && filepath.IsAbs(home) {
			if rel, err := filepath.Rel(home, f); err == nil && filepath.IsLocal(rel) {
				rel = filepath.ToSlash(rel)
				for _, pre := range []string{"~/", "$HOME/", "${HOME}/"} {
					if strings.Contains(c, pre+rel) {
						return f
					}
				}
			}
		}
		for _, v := range []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME", "COPILOT_HOME", "GEMINI_CLI_HOME"} {
			d := getenv(v)
			if d == "" || !filepath.IsAbs(d) {
				continue
			}
			if rel, err := filepath.Rel(d, f); err == nil && filepath.IsLocal(rel) {
				rel = filepath.ToSlash(rel)
				if strings.Contains(c, "$"+v+"/"+rel) || strings.Contains(c, "${"+v+"}/"+rel) {
					return f
				}
			}
		}
	}
	return ""
}

// lineWrites reports whether a shell line writes any file: a literal write
// target, a redirection, or a program that writes by its own means.
func lineWrites(c string, targets []string) bool {
	if len(targets) > 0 || strings.Contains(c, ">") {
		return true
	}
	for _, w := range []string{"tee ", "sed -i", "cp ", "mv ", "dd ", "install ", "ln ", "truncate ", "python", "perl ", "node ", "sponge "} {
		if strings.Contains(c, w) {
			return true
		}
	}
	return false
}
