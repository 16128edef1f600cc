package shellline

import "testing"

func TestStdinProgram(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		// Lazy: a process left reading a terminal, fed later by write_stdin.
		{"sh", "sh"},
		{"bash -i", "bash"},
		{"bash -l", "bash"},
		{"env FOO=1 bash", "bash"},
		{"python3", "python3"},
		{"python3 -i", "python3"},
		{"node", "node"},
		{"sqlite3 .git/sessiongate/sessiongate.db", "sqlite3"},
		{"cd /tmp && sh", "sh"},
		{"/bin/sh -s", "sh"},
		// Honest: the program is on the line, or its input is.
		{"sh scripts/test.sh", ""},
		{"bash -lc 'make test'", ""},
		{"python3 -c 'print(1)'", ""},
		{"python3 scripts/check.py", ""},
		{"node -e 'console.log(1)'", ""},
		{"sqlite3 db.sqlite 'select 1'", ""},
		{"sh < scripts/test.sh", ""},
		{"python3 <<'EOF'\nprint(1)\nEOF", ""},
		{"echo 'select 1;' | sqlite3 db.sqlite", ""},
		{"cat script.sh | sh", ""},
		{"git status", ""},
		{"go test ./...", ""},
	} {
		if got := StdinProgram(c.line); got != c.want {
			t.Errorf("StdinProgram(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
