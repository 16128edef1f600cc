package protocolspec

import (
	"strings"
	"testing"
)

// FuzzGateDirective: a gate directive either parses into a check of a
// known kind with the arity that kind takes, or is refused with an error;
// placeholders found in any command stay inside the line.
func FuzzGateDirective(f *testing.F) {
	for _, s := range []string{
		`command "npx markdownlint-cli2 {changed:*.md}" timeout=60s hooks=pre-commit`,
		`id=QA_VALIDATION`, `evidence tool_output`, `file_exists ".agents/sessions/*.md"`,
		`changed_since_start "*.md"`, `clean_worktree`, `command "echo \"{changed}\"" timeout=1m30s`,
		`command 'x'`, `id=`, `hooks=pre-push commit_since_start`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseDirective(s)
		if err == nil && d.check != nil {
			n, ok := checkArity[d.check.Kind]
			if !ok {
				t.Fatalf("unknown kind %q accepted from %q", d.check.Kind, s)
			}
			if n == 0 && d.check.Arg != "" {
				t.Fatalf("kind %s takes no argument, got %q from %q", d.check.Kind, d.check.Arg, s)
			}
		}
		for _, p := range Placeholders(s) {
			if p.Start < 0 || p.End > len(s) || p.Start >= p.End || !strings.HasPrefix(s[p.Start:], "{") {
				t.Fatalf("placeholder span %d..%d outside %q", p.Start, p.End, s)
			}
		}
	})
}
