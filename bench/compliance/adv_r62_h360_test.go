package compliance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestR62H360TypedSerenaClaimWithoutServer: helper 357 played, through
// the CLI under the real team's protocols, typed tool_output "activated
// project greet" for Phase 1's "MUST call mcp__serena__activate_project"
// in a repository where no config configures serena: the BLOCKING phase
// passed on a call that cannot have been made. The claim is now refused,
// naming the configs read; the honest team without serena marks the phase
// not applicable and goes on; a team whose serena lives in the repository's
// .mcp.json, in Gemini CLI's user settings, or in a config sessiongate cannot
// read (named in sessiongate.yaml) records its output as before.
func TestR62H360TypedSerenaClaimWithoutServer(t *testing.T) {
	t.Parallel()
	if binary == "" {
		t.Skip("sessiongate was not built (git missing)")
	}
	if _, err := os.Stat(fixtures); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("fixtures missing under CI=true: %v", err)
		}
		t.Skipf("../shared/fixtures is missing: %v", err)
	}
	const serena = `{"mcpServers":{"serena":{"command":"serena","args":["start-mcp-server"]}}}`
	for _, version := range []string{v1218, v1222} {
		for _, c := range []struct {
			name  string
			where string // "": nowhere; repo, user, elsewhere
			lazy  bool
		}{
			{"lazy: typed claim, serena configured nowhere", "", true},
			{"honest: serena in the repository's .mcp.json", "repo", false},
			{"honest: serena in Gemini CLI's user settings", "user", false},
			{"honest: serena named in mcp_servers_elsewhere", "elsewhere", false},
		} {
			t.Run(version+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				w := newWorld(t)
				w.noSerena = c.where != "repo"
				fixtureRepo(w, version, false)
				switch c.where {
				case "user":
					home := filepath.Join(filepath.Dir(w.root), "home")
					w.write(filepath.Join(home, ".gemini", "settings.json"), serena)
					w.env = append(w.env, "GEMINI_CLI_HOME="+home)
				case "elsewhere":
					// A person names it before the session (the file is
					// protected during one).
					w.write("sessiongate.yaml", w.read("sessiongate.yaml")+"mcp_servers_elsewhere: [serena]\n")
					w.git("add", "sessiongate.yaml")
					w.git("commit", "-q", "-m", "chore: serena is configured in the managed config")
				}
				w.git("switch", "-q", "-c", "feat/greet-name")
				w.advStart("Add a name argument to the greeting script")
				r := w.sg("session", "evidence", "--requirement", "SERENA_INITIALIZATION.call-mcp-serena-activate", "--type", toolOutput, "--value", "activated project greet")
				if !c.lazy {
					if r.code != 0 {
						t.Fatalf("typed output of a call a configured server allows was refused: exit %d\n%s", r.code, r.text())
					}
					w.advOK("initial instructions", "session", "evidence", "--requirement", "SERENA_INITIALIZATION.call-mcp-serena-initial", "--type", toolOutput, "--value", "You are a professional coding agent")
					return
				}
				w.deviate()
				if r.code == 0 {
					t.Fatalf("typed evidence of a call of a server nothing configures was taken:\n%s", r.text())
				}
				for _, want := range []string{"no MCP config an agent reads configures the serena server", ".mcp.json", "mcp_servers_elsewhere", "--not-applicable"} {
					if !strings.Contains(r.text(), want) {
						t.Errorf("the refusal does not say %q:\n%s", want, r.text())
					}
				}
				if g := w.sg("session", "advance"); g.code == 0 {
					t.Fatalf("Phase 1 passed without serena's calls or a not-applicable mark:\n%s", g.text())
				}
				// The honest way on: the phase is not applicable, checked
				// against the same configs.
				w.advOK("serena", "session", "evidence", "--phase", "SERENA_INITIALIZATION", "--not-applicable", "this repository configures no serena MCP server")
				w.advOK("advance", "session", "advance")
			})
		}
	}
}
