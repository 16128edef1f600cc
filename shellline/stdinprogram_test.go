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
		// Round 24 review (c8): allowed before; each reads what it does
		// from the terminal too.
		{"vim notes.md", "vim"},
		{"vi", "vi"},
		{"ed x.md", "ed"},
		{"nano x", "nano"},
		{"less README.md", "less"},
		{"man git", "man"},
		{"python3 -i script.py", "python3"},
		{"irb", "irb"},
		{"gdb ./a.out", "gdb"},
		{"psql", "psql"},
		{"ssh localhost", "ssh"},
		{"tmux", "tmux"},
		{"busybox sh", "busybox"},
		{"xargs rm", "xargs"},
		{`awk '{system($0)}'`, "awk"},
		{"sed -f /dev/stdin x.md", "sed"},
		{"read -r x; eval \"$x\"", "read"},
		{"git commit", "git"},
		{"git commit --amend", "git"},
		{"git rebase -i HEAD~2", "git"},
		{"git add -p", "git"},
		// Round 25 (c2): an option that takes a value, read as a script
		// file; each of these leaves an interactive shell or REPL on the
		// terminal (checked with script(1) and bash 5, node 20, perl 5).
		{"bash --rcfile /dev/null", "bash"},
		{"bash --init-file .bashrc", "bash"},
		{"bash -o posix", "bash"},
		{"bash -O extglob", "bash"},
		{"sh +o vi", "sh"},
		{"bash --rcfile x -i", "bash"},
		{"node -i -e 'console.log(1)'", "node"},
		{"node --interactive --eval 1", "node"},
		{"perl -de 0", "perl"},
		{"perl -d -e 1", "perl"},
		{"perl -d x.pl", "perl"},
		{"php -a", "php"},
		// Honest twins of those.
		{"bash -o pipefail scripts/test.sh", ""},
		{"bash -O extglob -c 'ls'", ""},
		{"bash --rcfile /dev/null scripts/test.sh", ""},
		{"node --interactive scripts/build.js", ""}, // node 20 runs the file and exits
		{"perl -e 'print 1'", ""},
		{"perl -d:NYTProf script.pl", ""},
		{"php -r 'echo 1;'", ""},
		{"vim -es -c '%s/a/b/' -c wq src/a.go", ""},
		{"man git | head -50", ""},
		{"less README.md > /tmp/out", ""},
		{"python3 script.py", ""},
		{"psql -c 'select 1'", ""},
		{"ssh host uptime", ""},
		{"ssh -T git@github.com", ""},
		{"git ls-files | xargs gofmt -l", ""},
		{"xargs -a files.txt gofmt -l", ""},
		{"awk '{print $1}' data.txt", ""},
		{"awk -F, '{print $1}' data.csv", ""},
		{"awk 'BEGIN{print 2*3}'", ""},
		{"sed --version", ""},
		{"psql --version", ""},
		{"vim --version | head -1", ""},
		{"gdb --help", ""},
		{"awk 'BEGIN { x = 1 } { system($0) }'", "awk"},
		{"sed -i s/a/b/ x.md", ""},
		{"sed -n 1,5p x.md", ""},
		{"read -r x < file", ""},
		{"git commit -qm 'fix: x'", ""},
		{"git commit --amend --no-edit", ""},
		{"git commit -F msg.txt", ""},
		{"git rebase main", ""},
		{"git add -A", ""},
		{"git log --oneline -5", ""},
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
