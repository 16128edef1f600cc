package shellline

import "testing"

// TestDefinesCommand: a definition of git or sessiongate is read from the
// parse, so a read or a file's text that holds `git()` is not one. The
// honest rows were denied by the regex over the raw line before
// (agenthook/shellenv.go, issue 25 false blocks).
func TestDefinesCommand(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`git(){ command git -c core.hooksPath=/dev/null "$@"; }`, true},
		{`function git { command git --no-verify "$@"; }`, true},
		{`sessiongate () { echo {}; }`, true},
		{`if true; then git() { :; }; fi`, true},
		{`alias git='git -c core.hooks""Path=/dev/null'`, true},
		{`alias g""it=hub`, true},
		{`alias "git=$X"`, true},
		{`builtin alias ll='ls' git=hub`, true},
		{`hash -p /tmp/gitshim git`, true},
		{`enable -f ./shim.so sessiongate`, true},
		{`eval 'git(){ :; }'`, true},
		{`eval "$(printf 'git(){ :; }')"`, true},
		{`source <(echo 'git(){ :; }')`, true},
		{". /dev/stdin <<'EOF'\ngit(){ :; }\nEOF", true},
		{`bash -c 'git(){ :; }; git commit -m x'`, true},
		// honest
		{`grep 'func git()' -r .`, false},
		{`grep -rn "git()" src/`, false},
		{`rg 'alias git=' docs/`, false},
		{`git log --grep='function git'`, false},
		{"cat > src/util.go <<'EOF'\npackage src\n\nfunc git() string { return \"git\" }\nEOF", false},
		{`python3 -c "def git(): pass"`, false},
		{`echo 'alias git=hub' > docs/aliases.txt`, false},
		{`alias ll='ls -la' && hash -r && type git`, false},
		{`f(){ go test "$@"; }; f ./...`, false},
		{`eval "$(ssh-agent -s)" && ssh-add`, false},
		{`source .venv/bin/activate && pytest`, false},
	} {
		if got := DefinesCommand(c.line, "git", "sessiongate"); (got != "") != c.want {
			t.Errorf("DefinesCommand(%q) = %q, want a definition: %v", c.line, got, c.want)
		}
	}
}
