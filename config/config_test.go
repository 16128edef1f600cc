package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/protocolspec"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name, body string
		want       string // error substring; "" means ok
		check      func(*config.Config) bool
	}{
		{"empty is defaults", "", "", func(c *config.Config) bool {
			return c.FailMode == "closed" && time.Duration(c.IdleTimeout) == 24*time.Hour && !c.RequireSession
		}},
		{"values", "require_session: true\nidle_timeout: 2h\ncommands:\n  QA: go test ./...\nhooks:\n  pre-commit: [LINT]\n", "", func(c *config.Config) bool {
			return c.RequireSession && time.Duration(c.IdleTimeout) == 2*time.Hour && c.Commands["QA"] == "go test ./..." && c.Hooks.PreCommit[0] == "LINT" && c.Engine().IdleTimeout == 2*time.Hour
		}},
		{"unknown key names line and column", "require_session: true\nfail_mod: open\n", "sessiongate.yaml:2:1: unknown key fail_mod (did you mean fail_mode?)", nil},
		{"unknown nested key", "hooks:\n  pre-comit: [QA]\n", "sessiongate.yaml:2:3: unknown key hooks.pre-comit (did you mean hooks.pre-commit?); known keys in hooks: pre-commit, pre-push", nil},
		{"unknown key in a rule", "sequence_policy:\n  default:\n    - name: r\n      patern: [a]\n", "sessiongate.yaml:4:7: unknown key sequence_policy.default[0].patern (did you mean sequence_policy.default[0].pattern?)", nil},
		{"unknown key under verify", "verify:\n  missing: warn\n", "sessiongate.yaml:2:3: unknown key verify.missing", nil},
		{"duplicate key", "history: 1\nhistory: 2\n", "sessiongate.yaml:2:1: key history is defined twice (first at line 1)", nil},
		{"duplicate command", "commands:\n  QA: a\n  QA: b\n", "sessiongate.yaml:3:3: key commands.QA is defined twice", nil},
		{"tab indentation", "hooks:\n\tpre-push: [QA]\n", "sessiongate.yaml:2:1: YAML syntax: found character that cannot start any token (a tab character: YAML indents with spaces only)", nil},
		{"syntax error", "commands: [\n", "sessiongate.yaml:1: YAML syntax: did not find expected node content", nil},
		{"utf-16", "\xff\xfeh\x00i\x00", "sessiongate.yaml:1:1: the file is UTF-16 text; save it as UTF-8", nil},
		{"invalid utf-8", "protocol: ok\nhistory: \xff\n", "sessiongate.yaml:2:10: byte 0xff is not UTF-8 text", nil},
		{"NUL byte", "history: 1\x00\n", "sessiongate.yaml:1:11: byte 0x00 is not UTF-8 text", nil},
		{"wrong type", "history: many\n", "sessiongate.yaml:1:10: cannot unmarshal text `many` into a number", nil},
		{"not a mapping", "just text\n", "sessiongate.yaml:1:1: cannot unmarshal text `just text` into the config", nil},
		{"bad duration", "idle_timeout: soon\n", "sessiongate.yaml:1:15: idle_timeout: \"soon\" is not a duration", nil},
		{"bad fail mode", "fail_mode: maybe\n", "sessiongate.yaml:1:12: fail_mode must be", nil},
		{"empty command", "commands:\n  QA: \"  \"\n", "sessiongate.yaml:2:7: commands.QA is empty", nil},
		{"bad protected path", "protected_paths: [ok, ../x]\n", "sessiongate.yaml:1:23: protected_paths[1]", nil},
		{"bad rule window", "sequence_policy:\n  default:\n    - name: r\n      pattern: [a, b]\n      window: 1\n", "window 1 is shorter", nil},
		{"record outside", "session_record: ../x.json\n", "outside the repository", nil},
		{"observed phases", "observed: [QA_VALIDATION, QUALITY_CHECKS]\n", "", func(c *config.Config) bool {
			o := c.Engine().ObservedPhases
			return len(o) == 2 && o[0] == "QA_VALIDATION" && o[1] == "QUALITY_CHECKS"
		}},
		{"observed bad id", "observed: [qa validation]\n", "observed[0] \"qa validation\": want a phase id", nil},
		{"unmarked phases", "unmarked_phases: Recommended\n", "", func(c *config.Config) bool {
			return c.Engine().UnmarkedPhases == protocolspec.GateRecommended
		}},
		{"unmarked phases unset keeps the rule", "history: 3\n", "", func(c *config.Config) bool { return c.Engine().UnmarkedPhases == "" }},
		{"default branch", "default_branch: trunk\n", "", func(c *config.Config) bool { return c.Engine().DefaultBranch == "trunk" }},
		{"default branch bad", "default_branch: \"-x y\"\n", "default_branch \"-x y\": want a branch name", nil},
		{"unmarked phases bad level", "unmarked_phases: sometimes\n", "unmarked_phases must be required, blocking, recommended or optional", nil},
		{"rules and record", "sequence_policy:\n  disable: [commit-after-failed-gate]\n  default:\n    - {name: r, pattern: [\"gate:*:fail\"], action: warn}\nsession_record: .agents/sessions/{session_id}.json\nverify: {missing_trailer: warn}\n", "", func(c *config.Config) bool {
			rules, err := c.SequencePolicy.Rules("", "")
			return err == nil && len(rules) == 3 && c.Engine().SessionRecord != "" && c.Verify.MissingTrailer == "warn"
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := config.Parse("sessiongate.yaml", []byte(c.body))
			if c.want != "" {
				if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "sessiongate.yaml:") {
					t.Fatalf("err %v, want sessiongate.yaml: ... %q", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !c.check(cfg) {
				t.Fatalf("config %+v", cfg)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	c, err := config.Load(dir)
	if err != nil || c.Path != "" {
		t.Fatalf("no file: %+v %v", c, err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".sessiongate.yaml"), []byte("history: 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err = config.Load(dir)
	if err != nil || c.History != 9 {
		t.Fatalf("dot file: %+v %v", c, err)
	}
}

func TestCheckPhases(t *testing.T) {
	body := "commands:\n  QA_VALIDATON: \"true\"\n  QA_VALIDATION: \"go test\"\nhooks:\n  pre-commit: [LINT]\n  pre-push: [QA_VALIDATION, NOPHASE]\n"
	cfg, err := config.Parse("sessiongate.yaml", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	err = cfg.CheckPhases([]string{"CONTEXT_RETRIEVAL", "QA_VALIDATION"})
	var es config.Errors
	if !errors.As(err, &es) || len(es) != 3 {
		t.Fatalf("want 3 errors, got %v", err)
	}
	want := []string{
		`sessiongate.yaml:2:3: commands.QA_VALIDATON names phase "QA_VALIDATON", which the protocol does not have (did you mean QA_VALIDATION?)`,
		`sessiongate.yaml:5:16: hooks.pre-commit[0] names phase "LINT"`,
		`sessiongate.yaml:6:29: hooks.pre-push[1] names phase "NOPHASE"`,
	}
	for i, w := range want {
		if !strings.HasPrefix(es[i].Error(), w) {
			t.Errorf("error %d:\n got %s\nwant %s...", i, es[i], w)
		}
	}
	// Defaults (hooks.pre-push: [QA_VALIDATION] with no file) are not the user's words.
	if err := config.Default().CheckPhases([]string{"OTHER"}); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	if err := cfg.CheckPhases([]string{"QA_VALIDATON", "QA_VALIDATION", "LINT", "NOPHASE"}); err != nil {
		t.Fatalf("all known: %v", err)
	}
}

// TestR62H360MCPServersElsewhere: mcp_servers_elsewhere reaches the
// engine, and a value that is no server name is refused.
func TestR62H360MCPServersElsewhere(t *testing.T) {
	c, err := config.Parse("sessiongate.yaml", []byte("mcp_servers_elsewhere: [serena]\n"))
	if err != nil || len(c.Engine().MCPServersElsewhere) != 1 || c.Engine().MCPServersElsewhere[0] != "serena" {
		t.Fatalf("parse: %v %+v", err, c)
	}
	for _, bad := range []string{`[""]`, `["serena x"]`, `["-x"]`} {
		if _, err := config.Parse("sessiongate.yaml", []byte("mcp_servers_elsewhere: "+bad+"\n")); err == nil || !strings.Contains(err.Error(), "want an MCP server's name") {
			t.Errorf("%s: %v, want refused", bad, err)
		}
	}
}
