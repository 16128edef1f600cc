package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite golden files")

// TestLintBindingGolden: `protocol lint` says phase by phase whether a
// gate can block and why, and which built-in checks the text dropped, on
// a protocol in the style of the team's v3.0 (unmarked end phases,
// imperative requirements, optional session log). The golden is the whole
// output; rewrite it with -update and read the diff.
func TestLintBindingGolden(t *testing.T) {
	for _, name := range []string{"v3-style"} {
		t.Run(name, func(t *testing.T) {
			// a relative path keeps the output the same on every machine
			doc := filepath.Join("..", "..", "protocolspec", "testdata", name+".md")
			code, out, stderr := sg(t, "", "protocol", "lint", doc)
			if code != 0 {
				t.Fatalf("lint: exit %d\n%s", code, stderr)
			}
			golden := filepath.Join("testdata", "lint", name+".golden")
			if *updateGolden {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run with -update): %v", err)
			}
			if !bytes.Equal([]byte(out), want) {
				t.Errorf("lint output differs from %s (go test -run TestLintBindingGolden -update, then review the diff):\n%s", golden, out)
			}
			for _, line := range []string{
				"  QA_VALIDATION: REQUIRED (unmarked, holds 3 requirements): can block",
				"  OPTIONAL_RETROSPECTIVE: OPTIONAL (title says Optional): cannot block",
				"    built-in file_exists .agents/sessions/* dropped: the phase is optional",
				"    built-in file_exists .agents/qa/* dropped: the text accepts test output as evidence",
			} {
				if !strings.Contains(out, line) {
					t.Errorf("lint output lacks %q", line)
				}
			}
		})
	}
}

// TestLintBindingConfig: unmarked_phases in sessiongate.yaml changes what
// lint says an unmarked phase binds at, and commands: makes a phase bind.
func TestLintBindingConfig(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := repoDir(t) // chdirs into the repository
	if err := os.WriteFile(filepath.Join(dir, "SESSION-PROTOCOL.md"), doc, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, config string
		want         []string
	}{
		{"no config", "", []string{"QA_VALIDATION: REQUIRED (unmarked, holds 3 requirements): can block"}},
		{"unmarked recommended", "unmarked_phases: recommended\n", []string{
			"QA_VALIDATION: RECOMMENDED (unmarked, sessiongate.yaml unmarked_phases: recommended): cannot block",
			"SESSION_LOG: OPTIONAL (text says \"Session logs are optional.\"): cannot block",
		}},
		{"commands entry", "unmarked_phases: optional\ncommands:\n  QA_VALIDATION: \"go test ./...\"\n", []string{
			"QA_VALIDATION: REQUIRED (unmarked, sessiongate.yaml commands: gives it a command): can block",
			"GIT_OPERATIONS: OPTIONAL (unmarked, sessiongate.yaml unmarked_phases: optional): cannot block",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := filepath.Join(dir, "sessiongate.yaml")
			os.Remove(cfg)
			if tt.config != "" {
				if err := os.WriteFile(cfg, []byte(tt.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			code, out, stderr := sg(t, "", "protocol", "lint")
			if code != 0 {
				t.Fatalf("lint: exit %d\n%s", code, stderr)
			}
			for _, line := range tt.want {
				if !strings.Contains(out, line) {
					t.Errorf("lint output lacks %q:\n%s", line, out)
				}
			}
		})
	}
	os.WriteFile(filepath.Join(dir, "sessiongate.yaml"), []byte("unmarked_phases: sometimes\n"), 0o644)
	if code, _, stderr := sg(t, "", "protocol", "lint"); code == 0 || !strings.Contains(stderr, "unmarked_phases must be required, blocking, recommended or optional") {
		t.Errorf("bad unmarked_phases: exit %d, stderr %q", code, stderr)
	}
}
