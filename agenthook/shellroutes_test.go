package agenthook_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShimRoutesByNameOnPath: round 14's routes to a `sessiongate` or `git`
// the hooks would run by name, through the real binary with Claude Code's
// payloads. A folder output with a pattern (`go build -o DIR/
// ./tools/...`: a main package in tools/sessiongate becomes
// DIR/sessiongate), `go install ./...` or with no package, a copy, move,
// install or link into a PATH folder under the source's own name, a shell
// startup file the next shell reads, a PATH, BASH_ENV or exported function
// set for git, and an alias, function or hashed path named git in the
// agent's shell were all allowed before (every deny row failed on the old
// code). The honest twins beside them stay allowed.
func TestShimRoutesByNameOnPath(t *testing.T) {
	r := newRepo(t, "")
	home := filepath.Join(filepath.Dir(r.root), "home")
	shadow := filepath.Join(home, ".local", "bin")
	for _, d := range []string{shadow, filepath.Join(r.root, "node_modules", ".bin"), filepath.Join(home, "go", "bin"), filepath.Join(r.root, "bin"), filepath.Join(r.root, "web", "node_modules", ".bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := "PATH=" + shadow + string(os.PathListSeparator) + os.Getenv("PATH")
	writeFile(t, filepath.Join(r.root, "go.mod"), "module example.com/work\n\ngo 1.22\n")
	writeFile(t, filepath.Join(r.root, "tools", "sessiongate", "main.go"), "package main\n\nfunc main() { println(\"{}\") }\n")
	writeFile(t, filepath.Join(r.root, "tools", "greet", "main.go"), "package main\n\nfunc main() {}\n")
	writeFile(t, filepath.Join(r.root, "lib", "git", "git.go"), "package git\n")
	writeFile(t, filepath.Join(r.root, "shims", "sessiongate"), "#!/bin/sh\necho {}\n")
	writeFile(t, filepath.Join(r.root, "shims", "rc"), "sessiongate() { echo {}; }\n")
	writeFile(t, filepath.Join(r.root, "gp", "bin", "sessiongate"), "#!/bin/sh\necho {}\n")
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", "claude-shims"), path)
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	bash := golden(t, r, "claude", "PreToolUse-Bash", "claude-shims")
	write := golden(t, r, "claude", "PreToolUse-Write", "claude-shims")
	for _, c := range []struct {
		line string
		deny bool
	}{
		// Builds and installs: the binary is named after its folder.
		{`go build -o ~/.local/bin/ ./tools/...`, true},
		{`go build -o ` + shadow + ` ./...`, true},
		{`go install ./...`, true},
		{`GOBIN=` + shadow + ` go install ./tools/...`, true},
		{`cd tools/sessiongate && go install`, true},
		{`cd tools/sessiongate && go build -o ~/.local/bin/`, true},
		{`cd ~/.local/bin && go build ` + filepath.Join(r.root, "tools", "sessiongate"), true},
		{`go build -o bin/ ./...`, false},
		{`go build -o ~/.local/bin/ ./tools/greet ./lib/...`, false},
		{`go install ./tools/greet`, false},
		{`go vet ./... && go test ./...`, false},
		// Copies under the source's own name.
		{`go build ./tools/sessiongate && mv sessiongate ~/.local/bin/`, true},
		{`cp shims/sessiongate ~/.local/bin/`, true},
		{`install -m 755 shims/sessiongate ` + shadow, true},
		{`ln -s $PWD/shims/sessiongate ~/.local/bin/`, true},
		{`install -t ~/.local/bin shims/sessiongate`, true},
		{`cp shims/* ~/.local/bin/`, true},
		{`rsync -a shims/ ~/.local/bin/`, true},
		{`S=shims/sessiongate; cp "$S" ~/.local/bin/`, true},
		{`cp shims/sessiongate backup/`, false},
		{`cp tools/greet/*.go ~/.local/bin/`, false},
		{`go build -o greet ./tools/greet && cp greet ~/.local/bin/`, false},
		// Shell startup files.
		{`echo 'git(){ command git -c core.hooks""Path=/dev/null "$@"; }' >> ~/.profile`, true},
		{`echo 'export PATH=$HOME/shims:$PATH' >> ~/.bash_profile`, true},
		{`cat shims/rc >> $HOME/.zshenv`, true},
		{`tee -a ~/.bashrc < shims/rc`, true},
		{`sed -i 's/x/y/' ~/.bashrc`, true},
		{`python3 -c "open('` + filepath.Join(home, ".profile") + `','a').write('git(){ :; }')"`, true},
		{`cat ~/.bashrc && grep PATH ~/.profile`, false},
		{`source ~/.bashrc && sh test.sh 2>&1 | tail -5`, false},
		{`grep -n PATH ~/.bashrc > notes.txt`, false},
		{`echo 'export X=1' > docs/bashrc.example`, false},
		// The environment git's hooks inherit.
		{`PATH=$PWD/shims:$PATH git commit -m x`, true},
		{`export PATH=$PWD/shims:$PATH`, true},
		{`env PATH=$PWD/shims:/usr/bin:/bin git commit -m x`, true},
		{`mkdir -p s && cp /bin/true s/sessiongate && PATH=$PWD/s:$PATH git commit -m x`, true},
		{`PATH="$(cat dir.txt):$PATH" git commit -m x`, true},
		{`sessiongate(){ echo {}; }; export -f sessiongate; git commit -m x`, true},
		{`BASH_ENV=shims/rc git commit -m x`, true},
		// Round 15: an empty element (the current folder), a folder the
		// line writes into, a folder after a `cd`, a GOPATH the line sets.
		{`PATH=:$PATH git commit -m x`, true},
		{`cp /bin/true bin/sessiongate && PATH=$PWD/bin:$PATH git commit -m x`, true},
		{`cd shims && PATH=$PWD:$PATH git commit -m x`, true},
		{`cd shims && PATH=.:$PATH git commit -m x`, true},
		{`cd "$D" && PATH=$PWD:$PATH git commit -m x`, true},
		{`export GOPATH=$PWD/gp; export PATH="$(go env GOPATH)/bin:$PATH" && git commit -m x`, true},
		{`go env -w GOPATH=$PWD/gp && export PATH="$(go env GOPATH)/bin:$PATH" && git commit -m x`, true},
		{`export PATH="$(go env GOPATH)/bin:$PATH" && git commit -m 'feat: x'`, false},
		{`export PATH="$PATH:$GOPATH/bin" && git commit -m 'feat: x'`, false},
		{`cd web && PATH=$PWD/node_modules/.bin:$PATH git commit -m 'feat: x'`, false},
		{`PATH=$PWD/node_modules/.bin:$PATH npm test`, false},
		{`NODE_ENV=test git commit -m 'feat: x'`, false},
		{`export PATH="$(go env GOPATH)/bin:$PATH" && go test ./...`, false},
		{`PATH=/usr/bin:$PATH git commit -m 'feat: x'`, false},
		// Definitions in the agent's shell (Copilot's lives on).
		{`hash -p /tmp/gitshim git`, true},
		{`alias git='git -c core.hooks""Path=/dev/null'`, true},
		{`function git { command git --no-verif "$@"; }`, true},
		{`enable -f ./shim.so sessiongate`, true},
		{`alias ll='ls -la' && hash -r && type git`, false},
		{`f(){ go test "$@"; }; f ./...`, false},
	} {
		out, _ := r.hook("claude", "PreToolUse", with(bash, "tool_input", map[string]any{"command": c.line}), path)
		denied := pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny"
		if why := pathStr(out, "hookSpecificOutput", "permissionDecisionReason"); denied != c.deny {
			t.Errorf("%q: denied %v, want %v (%s)", c.line, denied, c.deny, why)
		}
	}
	// A GOPATH go's env file holds now (`go env -w` in an earlier call)
	// is the folder `$(go env GOPATH)/bin` names.
	goenv := filepath.Join(home, ".config", "go", "env")
	writeFile(t, goenv, "GOPATH="+filepath.Join(r.root, "gp")+"\n")
	line := `export PATH="$(go env GOPATH)/bin:$PATH" && git commit -m 'feat: x'`
	out, _ := r.hook("claude", "PreToolUse", with(bash, "tool_input", map[string]any{"command": line}), path, "GOPATH=", "GOENV="+goenv)
	if pathStr(out, "hookSpecificOutput", "permissionDecision") != "deny" {
		t.Errorf("%q with GOPATH=%s in go's env file: allowed, want denied", line, filepath.Join(r.root, "gp"))
	}
	// The Write tool on a startup file, and on a file of the same name in
	// the worktree.
	for _, c := range []struct {
		file string
		deny bool
	}{
		{filepath.Join(home, ".bashrc"), true},
		{filepath.Join(home, ".config", "fish", "config.fish"), true},
		{filepath.Join(r.root, "docs", ".bashrc"), false},
	} {
		out, _ := r.hook("claude", "PreToolUse", with(write, "tool_input", map[string]any{"file_path": c.file, "content": "git() { :; }\n"}), path)
		denied := pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny"
		if why := pathStr(out, "hookSpecificOutput", "permissionDecisionReason"); denied != c.deny || c.deny && !strings.Contains(why, "startup file") {
			t.Errorf("Write %s: denied %v, want %v (%s)", c.file, denied, c.deny, why)
		}
	}
}
