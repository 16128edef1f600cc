package protocolspec

import (
	"strings"
	"testing"
)

func TestPlaceholders(t *testing.T) {
	tests := []struct {
		line    string
		want    []Quoting
		sources []string
	}{
		{`npx markdownlint-cli2 {changed:*.md}`, []Quoting{Unquoted}, []string{"changed"}},
		{`echo "{changed:*.md}"`, []Quoting{InDoubleQuotes}, []string{"changed"}},
		{`echo '{staged}' {changed}`, []Quoting{InSingleQuotes, Unquoted}, []string{"staged", "changed"}},
		{`echo "a \" {changed}" '{staged}'`, []Quoting{InDoubleQuotes, InSingleQuotes}, []string{"changed", "staged"}},
		{`echo \" {changed}`, []Quoting{Unquoted}, []string{"changed"}},
		{`echo "it's" {changed}`, []Quoting{Unquoted}, []string{"changed"}},
		{`true`, nil, nil},
	}
	for _, tt := range tests {
		got := Placeholders(tt.line)
		if len(got) != len(tt.want) {
			t.Fatalf("%s: %d placeholders, want %d", tt.line, len(got), len(tt.want))
		}
		for i, p := range got {
			if p.Quoting != tt.want[i] || p.Source != tt.sources[i] {
				t.Errorf("%s: placeholder %d = %+v, want quoting %d source %s", tt.line, i, p, tt.want[i], tt.sources[i])
			}
			if tt.line[p.Start] != '{' || tt.line[p.End-1] != '}' {
				t.Errorf("%s: bad span %d..%d", tt.line, p.Start, p.End)
			}
		}
	}
}

func TestLintQuotedPlaceholder(t *testing.T) {
	spec := parseOK(t, inStart("### Phase 1: Lint (BLOCKING)\n\n<!-- gate: command \"echo '{changed:*.md}'\" -->\n"))
	found := false
	for _, w := range spec.Warnings {
		if strings.Contains(w.Message, "inside quotes") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no warning for a quoted placeholder: %v", spec.Warnings)
	}
	spec = parseOK(t, inStart("### Phase 1: Lint (BLOCKING)\n\n<!-- gate: command \"echo {changed:*.md}\" -->\n"))
	for _, w := range spec.Warnings {
		if strings.Contains(w.Message, "inside quotes") {
			t.Fatalf("warning for an unquoted placeholder: %v", w)
		}
	}
}
