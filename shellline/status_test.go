package shellline

import (
	"reflect"
	"testing"
)

func TestExitIsOwn(t *testing.T) {
	const key = "go test"
	tests := []struct {
		line string
		own  bool
	}{
		{"go test ./...", true},
		{"go test -count=1 ./...", true},
		{"cd api && go test ./...", true},
		{"go vet ./... && go test ./...", true},
		{"go test ./... && echo done", true},
		{"GOFLAGS=-mod=mod go test ./...", true},
		{"(cd api && go test ./...)", true},
		{"go test ./... | tail -5", false},
		{"go test ./... 2>&1 | tee out.txt", false},
		{"set -o pipefail; go test ./... | tail -5", true},
		{"set -euo pipefail\ngo test ./... | tail -5", true},
		{"go test ./... || true", false},
		{"true || go test ./...", false},
		{"go test ./...; echo done", false},
		{"echo start; go test ./...", true},
		{"! go test ./...", false},
		{"go test ./... &", false},
		{"for p in a b; do go test ./$p; done", false},
		{"if go test ./...; then echo ok; fi", false},
		{"npm test", false},
		{"timeout 300 go test ./...", true},
		{"timeout 300 go test ./... | tail", false},
		{"go test ./... 'unterminated", false},
	}
	for _, tc := range tests {
		if got := ExitIsOwn(tc.line, key); got != tc.own {
			t.Errorf("ExitIsOwn(%q) = %v, want %v", tc.line, got, tc.own)
		}
	}
}

func TestCommandKeys(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"go test ./...", []string{"go test"}},
		{"cd web && npm test -- --ci", []string{"cd web", "npm test"}},
		{"FOO=1 go test ./... | tail -3", []string{"go test", "tail"}},
		{"echo 'unterminated", []string{"echo 'unterminated"}}, // not shell: the first two words
		{"timeout 300 go test ./...", []string{"go test"}},
		{"env -u HOME GOFLAGS=-mod=mod time -p nice -n 5 go test ./...", []string{"go test"}},
		{"timeout -k 5 60s npm test", []string{"npm test"}},
		// Lazy pass 43 (HX10-HX13): a shell running a script is `sh SCRIPT`.
		{"sh scripts/test.sh", []string{"sh scripts/test.sh"}},
		{"sh -e scripts/test.sh", []string{"sh scripts/test.sh"}},
		{"sh -x ./scripts/test.sh", []string{"sh scripts/test.sh"}},
		{"bash scripts/test.sh", []string{"sh scripts/test.sh"}},
		{"/bin/dash -eu -o pipefail scripts/test.sh arg", []string{"sh scripts/test.sh"}},
		{"sh -s < scripts/test.sh", []string{"sh"}},
		{"sh -n scripts/test.sh", []string{"sh"}}, // reads, runs nothing
		{"sh -o noexec scripts/test.sh", []string{"sh"}},
		{"bash -t scripts/test.sh", []string{"bash"}},
	}
	for _, tc := range tests {
		if got := Keys(tc.line); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Keys(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestShellGitBypass(t *testing.T) {
	tests := []struct {
		line   string
		bypass bool
	}{
		{"git commit -m 'x'", false},
		{"git commit --no-verify -m x", true},
		{"git commit -n -m x", true},
		{"git commit -an", true},
		{"git commit -nm x", true},
		{"git commit -mno-verify", false},
		{"git commit -m 'no verify here'", false},
		{"git -C sub commit --no-verify", true},
		{"git -c core.hooksPath=/dev/null commit -m x", true},
		{"git -c user.name=x commit -m x", false},
		{"git push --no-verify origin main", true},
		{"git push -n origin main", false}, // a dry run
		{"git add -A && git commit --no-verify -m x", true},
		{"sh -c 'git commit --no-verify -m x'", true},
		{"FOO=1 git commit -n -m x", true},
		{"echo git commit --no-verify", false},
		{"git log --no-verify", false},
	}
	for _, tc := range tests {
		if got := GitBypass(tc.line) != ""; got != tc.bypass {
			t.Errorf("GitBypass(%q) = %v, want %v", tc.line, got, tc.bypass)
		}
	}
}

func TestShellRunsAgentHook(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"sessiongate agent-hook claude PostToolUse < fake.json", true},
		{`echo '{"hook_event_name":"PostToolUse"}' | sessiongate agent-hook claude PostToolUse`, true},
		{"cd /w && /home/u/go/bin/sessiongate --db x agent-hook gemini AfterTool", true},
		{"env X=1 sessiongate agent-hook cursor afterShellExecution", true},
		{`bash -c 'cat f | sessiongate agent-hook claude PostToolUse'`, true},
		{`go test ./... ; sh -ec "sessiongate agent-hook claude PostToolUse <x"`, true},
		{"sessiongate agent-hook claude PostToolUse <<EOF\n{}\nEOF", true},
		{"sessiongate agent-hook claude PostToolUse 'unclosed", true}, // does not parse: judged by its words
		{"go run ./cmd/sessiongate agent-hook claude PreToolUse < p.json", true},
		{"go run github.com/sessiongate/sessiongate/cmd/sessiongate@latest --db x agent-hook codex PreToolUse", true},
		{"renamed agent-hook claude PreToolUse < p.json", true},
		{`node -e "require('child_process').execFileSync('sessiongate', ['agent-hook', 'codex', 'PreToolUse'])"`, true},
		{"sessiongate session status", false},
		{"grep -rn agent-hook docs/", false},
		{`grep -rn "agent-hook claude" .claude/settings.json`, false},
		{`git commit -m "agent-hook claude: deny copies"`, false},
		{`python3 -c "print('agent-hook')"`, false},
		{"go run ./cmd/sessiongate session status", false},
		{"my-agent-hook claude", false},
		{"sessiongate install --agent claude", false},
		{"echo sessiongate agent-hook", false},
		{"go test ./agenthook -run TestCursor", false},
	} {
		if got := RunsAgentHook(c.cmd); got != c.want {
			t.Errorf("RunsAgentHook(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}

func TestHidesChanges(t *testing.T) {
	tests := []struct {
		line  string
		hides bool
	}{
		{"git update-index --skip-worktree src/a.go", true},
		{"git update-index --assume-unchanged SESSION-PROTOCOL.md", true},
		{"git -C sub update-index --skip-worktree x", true},
		{"env GIT_DIR=.git git update-index --assume-unchanged x", true},
		{"sh -c 'git update-index --skip-worktree x'", true},
		{"git config filter.x.clean 'cat old.go'", true},
		{"git config --local filter.x.process ./p", true},
		{"git -c filter.x.clean=true add src/a.go", true},
		{"git -c FILTER.X.CLEAN=true add src/a.go", true},
		// Abbreviated long options (git takes unambiguous prefixes).
		{"git update-index --skip-work x", true},
		{"git update-index --assume-unch x", true},
		// Other settings that make status trust something over the files.
		{"git config core.fsmonitor /tmp/fsm", true},
		{"git -c core.fsmonitor=/tmp/fsm status", true},
		{"git config core.attributesFile /tmp/attrs", true},
		{"git config include.path /tmp/inc", true},
		{"git config includeIf.gitdir:/x.path /tmp/inc", true},
		{"git sparse-checkout set docs", true},
		// Honest git work.
		{"git update-index --no-skip-worktree src/a.go", false},
		{"git update-index --refresh", false},
		{"git update-index --chmod=+x run.sh", false},
		{"git config --get filter.lfs.clean", false},
		{"git config --unset filter.x.clean", false},
		{"git config user.name x", false},
		{"git lfs install", false},
		{"echo git update-index --skip-worktree x", false},
		{"git -c user.name=x commit -m 'filter.x'", false},
		{"git sparse-checkout list", false},
		{"git config --get core.fsmonitor", false},
		{"git update-index --split-index", false},
	}
	for _, tc := range tests {
		if got := HidesChanges(tc.line) != ""; got != tc.hides {
			t.Errorf("HidesChanges(%q) = %v, want %v", tc.line, got, tc.hides)
		}
	}
}

// TestUnhooksReadsConfig: reading core.hooksPath is what honest tools do
// to find the hooks; setting, unsetting or editing it still unhooks.
func TestUnhooksReadsConfig(t *testing.T) {
	for _, c := range []struct {
		line    string
		unhooks bool
	}{
		{"git config --get core.hooksPath", false},
		{"git config --get-all core.hooksPath", false},
		{"git config get core.hooksPath", false},
		{"git config --list --show-origin | grep -i core.hookspath", false},
		{"git config -f .gitmodules --get core.hooksPath", false},
		{"git config core.hooksPath .githooks", true},
		{"git config set core.hooksPath .githooks", true},
		{"git config --unset core.hooksPath", true},
		{"git config unset core.hooksPath", true},
		{"git config --get --unset core.hooksPath", true},
		{"git config --add core.hooksPath x", true},
		{"git config --replace-all core.hooksPath x", true},
		{"git config --global core.hooksPath /dev/null", true},
		{"git config core.hooksPath --get", false}, // git moves options first: a get
		{"git config --global include.path /tmp/g", true},
		{`git config includeIf."gitdir:~/".path /tmp/g`, true},
		{"git config --get include.path", false},
	} {
		if got := Unhooks(c.line) != ""; got != c.unhooks {
			t.Errorf("Unhooks(%q) = %v, want %v", c.line, got, c.unhooks)
		}
	}
}
