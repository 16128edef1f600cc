package shellline

import "testing"

// TestOwnLine: a comment or a print the rerun guard and the QA gate leave
// out of the removed lines must stand on its own line of the script; in a
// here-doc body, a multi-line string, a command substitution or after a
// line continuation it is data or part of a check (issue 25, c13).
func TestOwnLine(t *testing.T) {
	for _, c := range []struct {
		name, line, body string
		want             bool
	}{
		{"summary print", `echo "PASS: greet (1 test)"`, "set -e\n[ -x a ]\necho \"PASS: greet (1 test)\"\n", true},
		{"comment", "# checks greet", "set -e\n# checks greet\n[ -x a ]\n", true},
		{"print in an if body", "echo ok", "if [ -x a ]; then\n  echo ok\nfi\n", true},
		{"shebang", "#!/bin/sh", "#!/bin/sh\n[ -x a ]\n", true},
		{"expected line in a here-doc", "echo hello", "sh greet.sh | diff - <<'EOF'\necho hello\nEOF\n", false},
		{"comment in a here-doc", "# greeting", "sh greet.sh | diff - <<EOF\n# greeting\nhello\nEOF\n", false},
		{"print in a multi-line string", "echo hi", "[ \"$(sh g.sh)\" = \"x\necho hi\" ]\n", false},
		{"comment in a multi-line string", "# x", "python3 -c \"\nimport g\n# x\nassert g.f()\n\"\n", false},
		{"print in a command substitution", "echo hello", "want=$(\necho hello\n)\n[ \"$(sh g.sh)\" = \"$want\" ]\n", false},
		{"print after a continuation", "echo ok", "[ -x a ] && \\\necho ok\n", false},
		{"comment after a continuation", "# x", "[ -x a ] && \\\n# x\n", false},
		{"once own, once in a here-doc", "echo hello", "echo hello\ndiff - f <<EOF\necho hello\nEOF\n", false},
		{"not in the body", "echo hi", "echo ho\n", false},
	} {
		if got := OwnLine(c.line, c.body); got != c.want {
			t.Errorf("%s: OwnLine(%q) = %v, want %v", c.name, c.line, got, c.want)
		}
	}
}
