package cmdoutput

import (
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestNothingChecked reads the summaries of known tools, as they print them.
func TestNothingChecked(t *testing.T) {
	tests := []struct {
		name, out, proves string
		nothing           bool
	}{
		{"markdownlint-cli2 0.24 none", "markdownlint-cli2 v0.24.1 (markdownlint v0.42.1)\nFinding: a.md !a.md\nLinting: 0 files\nSummary: 0 issues in 0 files\n", "", true},
		{"markdownlint-cli2 older none", "markdownlint-cli2 v0.13.0 (markdownlint v0.34.0)\nFinding: a.md\nLinting: 0 file(s)\nSummary: 0 error(s)\n", "", true},
		{"markdownlint-cli2 one", "Finding: a.md\nLinting: 1 file\nSummary: 0 issues in 0 files\n", "", false},
		{"markdownlint-cli2 older two", "Linting: 2 file(s)\nSummary: 0 error(s)\n", "", false},
		{"ruff none", "warning: No Python files found under the given path(s)\nAll checks passed!\n", "", true},
		{"go test none", "?   \texample.com/a\t[no test files]\n?   \texample.com/b\t[no test files]\n", "", true},
		{"go test some", "?   \texample.com/a\t[no test files]\nok  \texample.com/b\t0.01s\n", "", false},
		{"unknown tool", "all good\n", "", false},
		{"proves match", "checked 3 files\n", `checked [1-9]`, false},
		{"proves no match", "checked 0 files\n", `checked [1-9]`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reason, _ := NothingChecked(protocolspec.Check{Kind: protocolspec.CheckCommand, Proves: tt.proves}, []byte(tt.out))
			if (reason != "") != tt.nothing {
				t.Errorf("NothingChecked = %q, want nothing checked: %v", reason, tt.nothing)
			}
		})
	}
}
