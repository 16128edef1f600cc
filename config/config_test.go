package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/config"
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
		{"unknown key names the line", "require_session: true\nfail_mod: open\n", "line 2", nil},
		{"bad duration", "idle_timeout: soon\n", "not a duration", nil},
		{"bad fail mode", "fail_mode: maybe\n", "fail_mode must be", nil},
		{"empty command", "commands:\n  QA: \"  \"\n", "commands.QA is empty", nil},
		{"bad rule window", "sequence_policy:\n  default:\n    - name: r\n      pattern: [a, b]\n      window: 1\n", "window 1 is shorter", nil},
		{"record outside", "session_record: ../x.json\n", "outside the repository", nil},
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
