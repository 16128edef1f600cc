package shellline

import "strings"

// gateDefaults are the settings a tool keeps in its own config file that
// change what a gate's command does, by tool: the gates drop GOFLAGS and
// npm_config_* from their environment (session/cleanenv.go), but `go env
// -w` and `npm config set` write them where the tool reads them anyway
// ($XDG_CONFIG_HOME/go/env, ~/.npmrc). `go env -w GOFLAGS=-exec=true` makes
// `go test ./...` run `true` for each test binary and report every package
// ok: the adversarial pass ended a session COMPLETE with failing tests.
var gateDefaults = map[string]map[string]bool{
	"go":  {"GOFLAGS": true, "GOTOOLCHAIN": true, "GOROOT": true, "GOEXPERIMENT": true, "GOWORK": true},
	"npm": {"script-shell": true, "ignore-scripts": true, "node-options": true, "shell": true},
}

// ChangesGateDefaults describes how a command line changes a tool's
// persistent defaults that reach a gate's command, "" when it does not:
// `go env -w GOFLAGS=...` (GOTOOLCHAIN, GOROOT, ...), `npm config set
// script-shell ...` (ignore-scripts, node-options). Reading or removing
// one (`go env -u GOFLAGS`) is not changing it.
func ChangesGateDefaults(line string) string {
	for _, l := range LinesIn(Sh, line) {
		calls, _, ok := Calls(Unwrap(l))
		if !ok {
			continue
		}
		for _, c := range calls {
			w := unwrapCall(expandedWords(c))
			if len(w) < 3 {
				continue
			}
			switch w[0] {
			case "go":
				if w[1] != "env" || !containsStr(w[2:], "-w") {
					continue
				}
				for _, a := range w[2:] {
					if k, _, ok := strings.Cut(a, "="); ok && gateDefaults["go"][k] {
						return "`go env -w " + a + "`"
					}
				}
			case "npm", "pnpm", "yarn":
				args := w[1:]
				if args[0] == "config" && len(args) > 1 {
					args = args[1:]
				}
				if args[0] != "set" {
					continue
				}
				for _, a := range args[1:] {
					if strings.HasPrefix(a, "-") {
						continue
					}
					k, _, _ := strings.Cut(a, "=")
					if gateDefaults["npm"][strings.ToLower(k)] {
						return "`" + w[0] + " config set " + k + "`"
					}
					break // the first operand is the key
				}
			}
		}
	}
	return ""
}
