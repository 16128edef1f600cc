package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestGateCommandCleanEnv: variables the agent sets to redirect an
// interpreter or runner, and a folder of the work tree put first on PATH,
// never reach a gate's command; the gate names what it dropped. Each case's
// command passes only when the trick did not reach it.
func TestGateCommandCleanEnv(t *testing.T) {
	cases := []struct {
		name    string
		env     map[string]string
		command string
		dropped string // "" when nothing is dropped
	}{
		{"nothing set", nil, "true", ""},
		{"PYTHONSTARTUP", map[string]string{"PYTHONSTARTUP": "/tmp/exit0.py"}, `test -z "$PYTHONSTARTUP"`, "PYTHONSTARTUP"},
		{"NODE_OPTIONS and GOFLAGS", map[string]string{"NODE_OPTIONS": "--require /tmp/x.js", "GOFLAGS": "-run=^$"}, `test -z "$NODE_OPTIONS" && test "$GOFLAGS" != "-run=^$"`, "GOFLAGS, NODE_OPTIONS"},
		{"LD_PRELOAD", map[string]string{"LD_PRELOAD": "/tmp/fake.so"}, `test -z "$LD_PRELOAD"`, "LD_PRELOAD"},
		{"MAKEFLAGS dry run", map[string]string{"MAKEFLAGS": "-n"}, `test -z "$MAKEFLAGS"`, "MAKEFLAGS"},
		// (GIT_DIR itself would mislead sessiongate's own git first.)
		{"git config and diff redirected", map[string]string{"GIT_EXTERNAL_DIFF": "/bin/true", "GIT_CONFIG_KEY_0": "x"}, `test -z "$GIT_EXTERNAL_DIFF$GIT_CONFIG_KEY_0"`, "GIT_CONFIG_KEY_0, GIT_EXTERNAL_DIFF"},
		{"npm config", map[string]string{"npm_config_script_shell": "/bin/true"}, `test -z "$npm_config_script_shell"`, "npm_config_script_shell"},
		{"a fake false first on PATH", map[string]string{"PATH": "WORKTREE/bin:" + os.Getenv("PATH")}, "! false", "PATH entries inside the work tree"},
		{"a relative PATH entry", map[string]string{"PATH": "bin:" + os.Getenv("PATH")}, "! false", "PATH entries inside the work tree"},
		// Issue 25.7 route: the fake put in a temporary folder, outside the work tree.
		{"a fake false in a temporary folder", map[string]string{"PATH": "TMPBIN:" + os.Getenv("PATH")}, "! false", "PATH entries in a temporary folder"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, gateProtocol(`<!-- gate: evidence manual -->`))
			e.engine.Config.Commands = map[string]string{"CHECK": c.command}
			// A `false` that succeeds, where an agent would put it.
			gittest.Write(t, e.root, "bin/false", "#!/bin/sh\nexit 0\n")
			if err := os.Chmod(filepath.Join(e.root, "bin", "false"), 0o755); err != nil {
				t.Fatal(err)
			}
			tmpBin := filepath.Join(os.TempDir(), "sg-fake-"+filepath.Base(e.root))
			if err := os.MkdirAll(tmpBin, 0o755); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(tmpBin) })
			if err := os.WriteFile(filepath.Join(tmpBin, "false"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Chdir(e.root) // the relative PATH entry resolves here
			id := e.start("clean env")
			// Set after the start, as an agent would before `session end`.
			for k, v := range c.env {
				t.Setenv(k, strings.NewReplacer("WORKTREE", e.root, "TMPBIN", tmpBin).Replace(v))
			}
			e.evidence(id, "CHECK", session.EvidenceManual, "reviewed the change with the maintainer")
			g, err := e.engine.ValidateGate(context.Background(), id, "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != session.StatusPass {
				t.Fatalf("the trick reached the command: %s %s", g.Status, g.Message)
			}
			if c.dropped == "" && strings.Contains(g.Message, "run without") || c.dropped != "" && !strings.Contains(g.Message, "run without "+c.dropped+" ") {
				t.Fatalf("message %q, want it to name %q", g.Message, c.dropped)
			}
		})
	}
}

// TestRunCleanEnv: `sessiongate run` runs the command as a gate would,
// without the caller's redirecting variables and without a work-tree
// folder on PATH, and says what it left out.
func TestRunCleanEnv(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, reqProtocol)
	id := e.start("run")
	gittest.Write(t, e.root, "bin/sh", "#!/bin/sh\nexit 0\n") // would answer for sh
	if err := os.Chmod(filepath.Join(e.root, "bin", "sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Join(e.root, "bin")+":"+os.Getenv("PATH"))
	t.Setenv("PYTHONSTARTUP", "/tmp/exit0.py")
	var out strings.Builder
	res, err := e.engine.Run(ctx, session.RunRequest{ID: id, Phase: "TOOL_CHECK", Argv: []string{"sh", "-c", `test -z "$PYTHONSTARTUP" && exit 7`}, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 7 {
		t.Fatalf("exit %d: the work tree's sh or PYTHONSTARTUP reached the run\n%s", res.ExitCode, out.String())
	}
	if !strings.Contains(out.String(), "running without PATH entries inside the work tree, PYTHONSTARTUP") {
		t.Fatalf("the run does not say what it left out:\n%s", out.String())
	}
}

// TestObservedRunWithRedirect: a run whose line sets a variable a gate's
// command never has (by prefix, env, export, behind a wrapper or inside
// sh -c) is kept with its status unknown (-1): it is not the run a gate
// would make. Other variables do not matter.
func TestObservedRunWithRedirect(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, earlyProtocol)
	id := e.start("tests with a twist")
	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: build with make")
	e.advance(id) // WORKING
	e.advance(id) // QA_VALIDATION
	for _, c := range []struct {
		cmd  string
		vars string // "" when the run counts
	}{
		{"./test.sh", ""},
		{"CI=1 ./test.sh", ""},
		{"env TZ=UTC ./test.sh", ""},
		{"PYTHONSTARTUP=/tmp/exit0.py ./test.sh", "PYTHONSTARTUP"},
		{"env NODE_OPTIONS='--require /tmp/x.js' ./test.sh", "NODE_OPTIONS"},
		{"export GOFLAGS=-run=^$; ./test.sh", "GOFLAGS"},
		{"timeout 60 env LD_PRELOAD=/tmp/x.so ./test.sh", "LD_PRELOAD"},
		{"sh -c 'MAKEFLAGS=-n ./test.sh'", "MAKEFLAGS"},
		// A folder of fake programs put first on the line itself.
		{"PATH=/tmp/fake:$PATH ./test.sh", "PATH"},
		{"export PATH=$HOME/fake:$PATH && ./test.sh", "PATH"},
		// set on the sh -c wrapper itself (round 18 review: not seen before)
		{"PATH=/tmp/fake:$PATH sh -c './test.sh'", "PATH"},
		{`PYTHONSTARTUP=/tmp/exit0.py bash -c "./test.sh"`, "PYTHONSTARTUP"},
		{"TZ=UTC sh -c './test.sh'", ""},
		// the gate's own GOFLAGS: a false block before (round 18 review)
		{"GOFLAGS=-count=1 ./test.sh", ""},
		{"GOFLAGS='-count=1 -run=^$' ./test.sh", "GOFLAGS"},
	} {
		ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: "claude", Command: c.cmd, Output: []byte("ok 3 tests\n")})
		if err != nil {
			t.Fatal(err)
		}
		counted := *ev.ExitCode == 0
		if counted != (c.vars == "") {
			t.Errorf("%q: exit %d (%s), want counted=%v", c.cmd, *ev.ExitCode, ev.Ref, c.vars == "")
		}
		if c.vars != "" && !strings.Contains(ev.Ref, "sets "+c.vars) {
			t.Errorf("%q: ref %q does not name %s", c.cmd, ev.Ref, c.vars)
		}
	}
}

// TestObservedRunProgramElsewhere: an observed `go test` run by a path to
// a fake go outside the work tree and the gate's PATH does not count; the
// project's own script and the go on PATH do.
func TestObservedRunProgramElsewhere(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, earlyProtocol)
	id := e.start("tests run by another go")
	e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: build with make")
	e.advance(id) // WORKING
	e.advance(id) // QA_VALIDATION
	for _, c := range []struct {
		cmd     string
		counted bool
	}{
		{"./test.sh", true},
		{"/tmp/fake/test.sh", false},
		{"cd . && ../elsewhere/test.sh", false},
	} {
		ev, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: "claude", Command: c.cmd, Output: []byte("ok 3 tests\n")})
		if err != nil {
			t.Fatal(err)
		}
		if (*ev.ExitCode == 0) != c.counted {
			t.Errorf("%q: exit %d (%s), want counted=%v", c.cmd, *ev.ExitCode, ev.Ref, c.counted)
		}
		if !c.counted && !strings.Contains(ev.Ref, "not a program a gate's command would run") {
			t.Errorf("%q: ref %q does not say why", c.cmd, ev.Ref)
		}
	}
}
