package agenthook_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// noRunFiles are projects whose "test run" runs none of their tests and
// exits 0 (issue 25, routes left open, third round), beside the honest
// projects their twins run. pytest, make and tox rows are in scriptrun's
// TestRunsNothing and shellline's TestTestsNotRun: a hook-observed run
// counts for a phase whose requirement names its program and subcommand,
// and `pytest`, `make`, `tox` are one word.
var noRunFiles = map[string]string{
	// go: tests the line's flags select none of
	"g/go.mod":  "module example.com/g\n\ngo 1.22\n",
	"g/calc.go": "package g\n\nfunc Add(a, b int) int { return a + b }\n",
	"g/calc_test.go": "package g\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n\n" +
		"func TestSlow(t *testing.T) {\n\tif testing.Short() {\n\t\tt.Skip(\"slow\")\n\t}\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n",
	"gs/go.mod":       "module example.com/gs\n\ngo 1.22\n",
	"gs/calc.go":      "package gs\n\nfunc Add(a, b int) int { return a + b }\n",
	"gs/calc_test.go": "package gs\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif testing.Short() {\n\t\tt.Skip(\"short\")\n\t}\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n",
	"gt/go.mod":       "module example.com/gt\n\ngo 1.22\n",
	"gt/calc.go":      "package gt\n\nfunc Add(a, b int) int { return a + b }\n",
	"gt/calc_test.go": "//go:build !fast\n\npackage gt\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n",
	// cargo: every test #[ignore]d; a filter no test holds
	"c/Cargo.toml":  "[package]\nname = \"c\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
	"c/src/lib.rs":  "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    #[ignore]\n    fn adds() { assert_eq!(super::add(1, 2), 3); }\n}\n",
	"ch/Cargo.toml": "[package]\nname = \"ch\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
	"ch/src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(1, 2), 3); }\n\n    #[test]\n    #[ignore]\n    fn slow() { assert_eq!(super::add(2, 2), 4); }\n}\n",
	// npm: a test script edited to run nothing
	"n/package.json":  `{"scripts": {"test": "jest --passWithNoTests --testPathIgnorePatterns=.", "unit": "jest"}}`,
	"nh/package.json": `{"scripts": {"test": "jest --ci"}}`,
}

// TestRunsNothingAtTheHook sends each line, as Claude Code reports it after
// the run (PostToolUse, exit 0, the runner's real output where it is
// installed), through the real binary, and asks the QA gate (evidence of a
// run) after it: every lazy line passed the gate before this change (the
// output says nothing when sent to /dev/null, and the runner exits 0), and
// fails it now with the reason; each honest twin after it passes the gate.
func TestRunsNothingAtTheHook(t *testing.T) {
	r := newRepo(t, "")
	writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), strings.NewReplacer(`<!-- gate: command "sh test.sh" -->`, `<!-- gate: evidence tool_output -->`,
		// the runs it names are the QA runs (a hook-observed run counts for
		// the phase whose requirement names its program and subcommand)
		"MUST run `sh test.sh`", "MUST run the tests: `go test`, `cargo test`, `npm test`, `npm run` or `npx jest`").Replace(testProtocol))
	for name, body := range noRunFiles {
		writeFile(t, filepath.Join(r.root, name), body)
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "QA by evidence")
	const sid = "claude-runs-nothing"
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	post := golden(t, r, "claude", "PostToolUse-Bash", sid)
	n := 0
	target := filepath.Join(t.TempDir(), "target") // one cargo build folder for every run
	// real runs the line for real when its runner is installed: a lazy line
	// must exit 0 (the route gets through the runner), an honest one too.
	real := func(cmd, runner string) string {
		t.Helper()
		if runner == "" {
			return "ok"
		}
		if _, err := exec.LookPath(runner); err != nil {
			if os.Getenv("CI") == "true" && runner == "go" {
				t.Fatalf("%s is needed under CI=true", runner)
			}
			t.Logf("%s not installed: %q is not run for real", runner, cmd)
			return "ok"
		}
		env := []string{"CARGO_TARGET_DIR=" + target, goCacheEnv(t)}
		// The test's HOME is its own: rustup finds its toolchains by the
		// user's, go its build cache (else it compiles the standard
		// library anew); the runner's folder goes first on PATH.
		if home, err := os.UserHomeDir(); err == nil {
			for _, kv := range [][2]string{{"RUSTUP_HOME", ".rustup"}, {"CARGO_HOME", ".cargo"}} {
				v := os.Getenv(kv[0])
				if v == "" {
					v = filepath.Join(home, kv[1])
				}
				env = append(env, kv[0]+"="+v)
			}
		}
		if p, err := exec.LookPath(runner); err == nil {
			env = append(env, "PATH="+filepath.Dir(p)+string(os.PathListSeparator)+os.Getenv("PATH"))
		}
		res := r.run(r.root, nil, env, "sh", "-c", cmd)
		if res.code != 0 {
			t.Errorf("%q exits %d for real, want 0\n%s%s", cmd, res.code, res.out, res.err)
		}
		return res.out + res.err
	}
	gate := func() (int, string) {
		t.Helper()
		res := r.run(r.root, nil, nil, binary, "session", "gate", "--session", s.ID, "--phase", "QA_VALIDATION")
		return res.code, res.out + res.err
	}
	for _, c := range []struct {
		lazy, runner, why string
		fix               map[string]string // files the agent puts back before the covering run
		// cover is the same run without the lazy part; also another honest
		// run after it. Honest filtered runs (-run TestAdd, -skip TestSlow,
		// cargo test adds) are TestRunsNothing's rows: the whole-suite rule
		// (narrowqa) asks for an unfiltered run at the gate, by design.
		cover, also string
	}{
		{"cd g && go test -count=1 -run '^$' ./... >/dev/null", "go", "matches none", nil, "cd g && go test -count=1 ./... >/dev/null", ""},
		{"cd g && GOFLAGS=-run=NONE go test -count=1 ./... >/dev/null", "go", "matches none", nil, "cd g && go test -count=1 ./... >/dev/null", ""},
		{"cd g && go test -count=1 -skip . ./... >/dev/null", "go", "skips every", nil, "cd g && go test -count=1 ./... >/dev/null", ""},
		{"cd g && go test -count=1 -test.run=NONE ./... >/dev/null", "go", "matches none", nil, "cd g && go test -count=1 ./... >/dev/null", ""},
		{"cd gs && go test -count=1 -short ./...", "go", "testing.Short", nil, "cd gs && go test -count=1 ./...", "cd g && go test -count=1 -short ./..."},
		{"cd gt && go test -count=1 -tags fast ./...", "go", "build constraints", nil, "cd gt && go test -count=1 ./...", "cd g && go test -count=1 -tags fast ./..."},
		{"cd c && cargo test -q", "cargo", "#[ignore]", nil, "cd c && cargo test -q -- --include-ignored", ""},
		{"cd ch && cargo test -q no_such_test", "cargo", "holds that name", nil, "cd ch && cargo test -q", ""},
		{"cd ch && cargo test -q -- --list", "cargo", "--list", nil, "cd ch && cargo test -q", "cd ch && cargo test -q -- --include-ignored"},
		{"cd n && npm run unit -- --passWithNoTests zzz >/dev/null 2>&1", "", "passWithNoTests", nil, "cd n && npm run unit", "cd n && npm run unit -- --passWithNoTests"},
		{"npx jest -o >/dev/null 2>&1", "", "git's changes", nil, "npx jest", "npx jest --ci"},
		{"npx jest --shard 1/2", "", "one part", nil, "npx jest", "npx jest --shard 1/1"},
		{"npm test -- --help", "", "--help", nil, "npm test", ""},
		// last: the script as the session found it runs nothing; putting
		// it back is a change of the test script, which another rule
		// refuses until the runner itself runs (so no twin here; `cd nh &&
		// npm test` is TestRunsNothing's honest row)
		{"cd n && npm test >/dev/null 2>&1", "", "testPathIgnorePatterns", nil, "", ""},
	} {
		observe := func(cmd string) {
			t.Helper()
			n++
			out := real(cmd, c.runner)
			r.hook("claude", "PostToolUse", with(post, "tool_use_id", fmt.Sprintf("toolu_nr%03d", n), "tool_input", map[string]any{"command": cmd},
				"tool_response", map[string]any{"stdout": out, "stderr": "", "interrupted": false, "isImage": false}))
		}
		// The lazy run is kept with an unknown status: the gate fails (the
		// reason is the run's reference; TestRunsNothing and TestTestsNotRun
		// check each reason's words: c.why).
		observe(c.lazy)
		if code, _ := gate(); code == 0 {
			t.Errorf("QA gate passed after %q, which %s", c.lazy, c.why)
		}
		for name, body := range c.fix {
			writeFile(t, filepath.Join(r.root, name), body)
		}
		for _, h := range []string{c.cover, c.also} {
			if h == "" {
				continue
			}
			observe(h)
			if code, out := gate(); code != 0 {
				t.Errorf("QA gate after the honest %q (after %q): exit %d\n%s", h, c.lazy, code, out)
			}
		}
	}
}
