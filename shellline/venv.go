package shellline

import (
	"path"
	"strings"
)

// VenvScripts lists the activate scripts (and pip, python) a line's virtual-environment
// commands make (`python3 -m venv .venv`, `virtualenv env`, `uv venv`),
// in the line's folder: `python3 -m venv .venv && . .venv/bin/activate`
// sources a file python wrote, not one the agent did. A script the line
// also writes another way (`>> .venv/bin/activate`) is left out, so it is
// still judged as written on the line.
func VenvScripts(line string) []string {
	var dirs []string
	for _, p := range Programs(line) {
		w := StripWrappers(p)
		if len(w) == 0 {
			continue
		}
		var ops []string
		switch name := CommandName(w[0]); {
		case strings.HasPrefix(name, "python") && len(w) > 2 && w[1] == "-m" && (w[2] == "venv" || w[2] == "virtualenv"):
			ops = venvOperands(w[3:])
		case name == "virtualenv":
			ops = venvOperands(w[1:])
		case name == "uv" && len(w) > 1 && w[1] == "venv":
			if ops = venvOperands(w[2:]); len(ops) == 0 {
				ops = []string{".venv"} // uv's default
			}
		}
		dirs = append(dirs, ops...)
	}
	if len(dirs) == 0 {
		return nil
	}
	written := map[string]bool{}
	if ws, ok := Writes(line); ok {
		for _, w := range ws {
			written[path.Clean(w)] = true
		}
	}
	var out []string
	for _, d := range dirs {
		for _, s := range []string{"bin/activate", "Scripts/activate", "bin/pip", "bin/pip3", "bin/python", "bin/python3"} {
			if p := path.Join(d, s); !written[p] && !written[path.Join(d, path.Dir(s))] {
				out = append(out, p)
			}
		}
	}
	return out
}

// venvOperands are the folders of a venv command's words: its operands,
// past the options that take a value. An expansion ("") is no folder.
func venvOperands(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--prompt" || a == "-p" || a == "--python" || a == "--seed" || a == "--index-url":
			i++
		case a == "" || strings.HasPrefix(a, "-"):
		default:
			out = append(out, a)
		}
	}
	return out
}
