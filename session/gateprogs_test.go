package session_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestGateProgramWrittenAfterStart: issue 25.7 pass 27. A gate's command
// runs a program of the work tree's untracked venv (or any folder its
// PATH keeps); the agent rewrote it after the start to print "1 passed":
// before, the gate ran it and passed. Now the gate refuses to run it and
// says what changed. Honest twin: the installer's own rewrite (pip's
// console script) runs, and so does the program as it was.
func TestGateProgramWrittenAfterStart(t *testing.T) {
	const console = "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\nimport sys\nfrom builtins import int\nif __name__ == '__main__':\n    sys.exit(int())\n"
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not on PATH")
	}
	for _, c := range []struct {
		name    string
		rewrite string // "" leaves it
		pass    bool
	}{
		{"lazy: .venv/bin/pytest rewritten to print a pass", "#!/bin/sh\necho '1 passed'\n", false},
		{"honest: pip reinstalls it", console, true},
		{"honest: unchanged", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, gateProtocol(`<!-- gate: evidence manual -->`))
			gittest.Write(t, e.root, ".gitignore", ".venv/\n")
			gittest.Commit(t, e.root, "ignore the venv", nil)
			prog := filepath.Join(e.root, ".venv", "bin", "pytest")
			if err := os.MkdirAll(filepath.Dir(prog), 0o755); err != nil {
				t.Fatal(err)
			}
			// The team's check fails until the work is done.
			if err := os.WriteFile(prog, []byte(strings.Replace(console, "int()", "int('3')", 1)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(e.root, ".venv", "pyvenv.cfg"), []byte("home = /usr/bin\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			e.engine.Config.Commands = map[string]string{"CHECK": ".venv/bin/pytest -q"}
			id := e.start("venv program")
			e.evidence(id, "CHECK", session.EvidenceManual, "reviewed the change with the maintainer")
			time.Sleep(20 * time.Millisecond)
			if c.rewrite != "" {
				if err := os.WriteFile(prog, []byte(c.rewrite), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			g, err := e.engine.ValidateGate(context.Background(), id, "")
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.pass && c.rewrite != "" && g.Status != session.StatusPass:
				t.Fatalf("honest reinstall refused: %s %s", g.Status, g.Message)
			case c.rewrite == "" && (g.Status == session.StatusPass || !strings.Contains(g.Message, "command exited 3")):
				t.Fatalf("the team's failing check did not run and fail: %s %s", g.Status, g.Message)
			case !c.pass && (g.Status == session.StatusPass || !strings.Contains(g.Message, "command not run: ") || !strings.Contains(g.Message, ".venv/bin/pytest changed after the session started")):
				t.Fatalf("rewritten program ran: %s %s", g.Status, g.Message)
			}
		})
	}
}

// TestObservedRunLinkedToTrue: an observed `npx jest` whose
// node_modules/.bin/jest the agent linked to /bin/true after the start
// does not count (its status unknown, the link named); the same run
// through the package's own bin link counts.
func TestObservedRunLinkedToTrue(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		target string
		counts bool
	}{
		{"lazy: jest linked to /bin/true", "/bin/true", false},
		{"honest: the package's bin", "../jest/bin/jest.js", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, earlyProtocol)
			gittest.Write(t, e.root, ".gitignore", "node_modules/\n")
			gittest.Commit(t, e.root, "ignore node_modules", nil)
			nm := filepath.Join(e.root, "node_modules")
			gittest.Write(t, e.root, "node_modules/jest/package.json", `{"name":"jest","bin":"./bin/jest.js"}`)
			gittest.Write(t, e.root, "node_modules/jest/bin/jest.js", "#!/usr/bin/env node\n")
			if err := os.MkdirAll(filepath.Join(nm, ".bin"), 0o755); err != nil {
				t.Fatal(err)
			}
			id := e.start("jest run")
			time.Sleep(20 * time.Millisecond)
			if err := os.Symlink(c.target, filepath.Join(nm, ".bin", "jest")); err != nil {
				t.Fatal(err)
			}
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: test with npx jest")
			e.advance(id) // WORKING
			e.advance(id) // QA_VALIDATION
			ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: "claude", Command: "npx jest", Output: []byte("Tests: 3 passed, 3 total\n")})
			if err != nil {
				t.Fatal(err)
			}
			if (*ev.ExitCode == 0) != c.counts {
				t.Fatalf("exit %d (%s), want counted=%v", *ev.ExitCode, ev.Ref, c.counts)
			}
			if !c.counts && (!strings.Contains(ev.Ref, "was linked to ") || !strings.Contains(ev.Ref, "/true after the session started")) {
				t.Fatalf("ref %q does not name the link", ev.Ref)
			}
		})
	}
}

// TestGateCargoHomeSwapped: `HOME=/tmp/fh sessiongate session end`, fh
// holding .cargo/config.toml with `runner = "true"` (CARGO_HOME unset):
// the real cargo ran each test binary through `true` and the gate passed
// a failing test (round 26 c11 left it open). The gate's command now has
// the HOME the session started with, and names it. Honest twin: the
// team's committed .cargo/config.toml runner (`env`) runs the tests, a
// passing one passes.
func TestGateCargoHomeSwapped(t *testing.T) {
	cargo, err := exec.LookPath("cargo")
	if err != nil {
		t.Skip("cargo not on PATH")
	}
	if out, err := exec.Command(cargo, "--version").CombinedOutput(); err != nil {
		t.Skipf("cargo does not run: %v %s", err, out)
	}
	rustupHome := os.Getenv("RUSTUP_HOME")
	if rustupHome == "" {
		if h, err := os.UserHomeDir(); err == nil {
			rustupHome = filepath.Join(h, ".rustup")
		}
	}
	cargoHome := os.Getenv("CARGO_HOME")
	if cargoHome == "" {
		if h, err := os.UserHomeDir(); err == nil {
			cargoHome = filepath.Join(h, ".cargo")
		}
	}
	const runnerTrue = "[target.x86_64-unknown-linux-gnu]\nrunner = \"true\"\n[target.aarch64-unknown-linux-gnu]\nrunner = \"true\"\n"
	for _, c := range []struct {
		name     string
		assert   string // the test's assertion
		teamConf string // the repository's committed .cargo/config.toml
		swapHome bool
		pass     bool
		inPlace  bool // ~/.cargo/config.toml of the start's HOME written
	}{
		{"lazy: HOME=/tmp/fh with a runner = true config", "assert_eq!(1 + 1, 3)", "", true, false, false},
		{"lazy: ~/.cargo/config.toml edited in place with runner = true", "assert_eq!(1 + 1, 3)", "", false, false, true},
		{"honest: the team's committed runner, a passing test", "assert_eq!(1 + 1, 2)", "[target.x86_64-unknown-linux-gnu]\nrunner = \"env\"\n[target.aarch64-unknown-linux-gnu]\nrunner = \"env\"\n", false, true, false},
		{"honest: a failing test fails", "assert_eq!(1 + 1, 3)", "", false, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := t.TempDir()
			t.Setenv("HOME", start)
			t.Setenv("RUSTUP_HOME", rustupHome)
			t.Setenv("CARGO_HOME", "")
			os.Unsetenv("CARGO_HOME")
			// cargo and its registry cache from the account's CARGO_HOME
			// through the PATH (rustup's proxy), nothing fetched.
			e := newEnv(t, gateProtocol(`<!-- gate: evidence manual -->`))
			gittest.Write(t, e.root, "Cargo.toml", "[package]\nname = \"greet\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
			gittest.Write(t, e.root, "src/lib.rs", "#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { "+c.assert+"; }\n}\n")
			gittest.Write(t, e.root, ".gitignore", "target/\nCargo.lock\n")
			if c.teamConf != "" {
				gittest.Write(t, e.root, ".cargo/config.toml", c.teamConf)
			}
			gittest.Commit(t, e.root, "crate", nil)
			e.engine.Config.Commands = map[string]string{"CHECK": "cargo test --offline -q"}
			e.engine.Config.CommandTimeout = 5 * time.Minute
			_ = cargoHome
			id := e.start("cargo gate")
			e.evidence(id, "CHECK", session.EvidenceManual, "reviewed the change with the maintainer")
			if c.inPlace {
				time.Sleep(20 * time.Millisecond)
				gittest.Write(t, start, ".cargo/config.toml", runnerTrue)
			}
			if c.swapHome {
				fh := t.TempDir()
				gittest.Write(t, fh, ".cargo/config.toml", runnerTrue)
				t.Setenv("HOME", fh)
			}
			g, err := e.engine.ValidateGate(context.Background(), id, "")
			if err != nil {
				t.Fatal(err)
			}
			if (g.Status == session.StatusPass) != c.pass {
				t.Fatalf("status %s, want pass=%v: %s", g.Status, c.pass, g.Message)
			}
			if c.inPlace && !strings.Contains(g.Message, "changed after the session started, which sets target.") {
				t.Fatalf("message %q does not name the config", g.Message)
			}
			if c.swapHome && !strings.Contains(g.Message, "HOME (set since the session started: the start's value is used)") {
				t.Fatalf("message %q does not name HOME", g.Message)
			}
		})
	}
}

// TestGateScriptProgramLinkedToTrue: round 28 (c5). The gate's command
// is the team's committed `./scripts/test.sh`, which runs the untracked
// venv's `.venv/bin/pytest`; the agent linked it to /bin/true after the
// start. gateprog judged only the line's own words (the script, the work
// tree's own file), so the gate ran the script and passed. Now the
// script's programs are judged: the command is not run. Honest twin: the
// program as it was runs (the team's check fails until the work is
// done, exit 3).
func TestGateScriptProgramLinkedToTrue(t *testing.T) {
	for _, c := range []struct {
		name string
		link bool
	}{
		{"lazy: .venv/bin/pytest linked to /bin/true, run by the script", true},
		{"honest: the script's pytest unchanged", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, gateProtocol(`<!-- gate: evidence manual -->`))
			gittest.Write(t, e.root, ".gitignore", ".venv/\n")
			gittest.Write(t, e.root, "scripts/test.sh", "#!/bin/sh\nset -e\n.venv/bin/pytest -q tests\n")
			if err := os.Chmod(filepath.Join(e.root, "scripts", "test.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
			gittest.Commit(t, e.root, "the team's test script", nil)
			prog := filepath.Join(e.root, ".venv", "bin", "pytest")
			if err := os.MkdirAll(filepath.Dir(prog), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(prog, []byte("#!/bin/sh\necho 'tests failed'\nexit 3\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(e.root, ".venv", "pyvenv.cfg"), []byte("home = /usr/bin\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			e.engine.Config.Commands = map[string]string{"CHECK": "./scripts/test.sh"}
			id := e.start("script program")
			e.evidence(id, "CHECK", session.EvidenceManual, "reviewed the change with the maintainer")
			time.Sleep(20 * time.Millisecond)
			if c.link {
				os.Remove(prog)
				if err := os.Symlink("/bin/true", prog); err != nil {
					t.Fatal(err)
				}
			}
			g, err := e.engine.ValidateGate(context.Background(), id, "")
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.link && (g.Status == session.StatusPass || !strings.Contains(g.Message, "command not run: ") || !strings.Contains(g.Message, "was linked to /")):
				t.Fatalf("the script's linked pytest ran: %s %s", g.Status, g.Message)
			case !c.link && (g.Status == session.StatusPass || !strings.Contains(g.Message, "command exited 3")):
				t.Fatalf("the team's failing check did not run and fail: %s %s", g.Status, g.Message)
			}
		})
	}
}
