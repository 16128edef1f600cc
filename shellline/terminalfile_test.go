package shellline

import "testing"

// TestStdinProgramTerminalFile: a program given the terminal by a file
// name waits for what Codex's write_stdin types (no hook sees it); each
// lazy row was allowed before. Honest twins: the name written to, listed,
// or the standard input's names on a line that feeds them.
func TestStdinProgramTerminalFile(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"bash /dev/tty", "bash"},
		{"sh /dev/fd/0", "sh"},
		{"sh /proc/self/fd/0", "sh"},
		{"python3 /dev/tty", "python3"},
		{"python3 /dev/fd/0", "python3"},
		{"node /dev/stdin", "node"},
		{". /dev/tty", "."},
		{"source /dev/tty", "source"},
		{"bash < /dev/tty", "bash"},
		{"sh 0</dev/tty", "sh"},
		{"cat /dev/tty | sh", "cat"},
		{"env sh /dev/tty", "sh"},
		{"xargs -a /dev/tty rm", "xargs"},
		{"sed -f /dev/tty x.md", "sed"},
		{"perl /dev/pts/0", "perl"},
		{"cd src && bash /dev/tty", "bash"},
		// Honest twins.
		{"go test ./... | tee /dev/tty | tail -3", ""},
		{"echo done > /dev/tty", ""},
		{"make 2>/dev/tty", ""},
		{"ls -l /dev/tty", ""},
		{"printf 'print(1)\\n' | python3 /dev/stdin", ""},
		{"python3 /dev/stdin <<'EOF'\nprint(1)\nEOF", ""},
		{"sh /dev/stdin < scripts/test.sh", ""},
		{"sh scripts/test.sh", ""},
		{"cat notes.txt | sh", ""},
	} {
		if got := StdinProgram(c.line); got != c.want {
			t.Errorf("StdinProgram(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

// TestStdinProgramScriptArguments: perl's debugger and node's REPL are
// read from the program's own options, before its script; the script's
// arguments are its own (round 25 review: c2's rule denied the honest
// rows under Codex, and missed a clustered -d).
func TestStdinProgramScriptArguments(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"perl -de 0", "perl"},
		{"perl -d x.pl", "perl"},
		{"perl -wd x.pl", "perl"},
		{"perl -w -d x.pl", "perl"},
		{"perl -I lib -d x.pl", "perl"},
		{"node -i -e 'x()'", "node"},
		{"node -e 'x()' -i", "node"},
		// Honest twins.
		{"perl tools/gen.pl -debug", ""},
		{"perl -w gen.pl -d x", ""},
		{"perl scripts/x.pl -dir src", ""},
		{"perl -d:NYTProf x.pl", ""},
		{"perl -e 'print 1' -- -d", ""},
		{"perl -Ilib -e 'print 1'", ""},
		{"perl -ne 'print if /d/' x.txt", ""},
		{"node build.js -i -e", ""},
		{"node -r ./setup.js build.js -i", ""},
	} {
		if got := StdinProgram(c.line); got != c.want {
			t.Errorf("StdinProgram(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
