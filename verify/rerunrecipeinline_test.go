package verify_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/verify"
)

// TestRerunGuardRecipeSections (round 28, c2; issue 25 items 1 and 5, the
// round 27 review's left-open (1)): the rerun guard reads a Makefile,
// justfile or Taskfile the base's QA command runs as the QA gate reads it
// (testrun.RecipeSections and SectionChange, one function for both). A
// check an honest session adds inline to the test recipe passed the gate
// and failed CI ("any change needs a signer"): a false FAIL. The lazy
// twins (the recipe weakened, a dependency made `true`, a line outside
// every recipe that reaches it) still fail. Each file is run with the
// real runner at the tip, so the rows say what the runner does.
func TestRerunGuardRecipeSections(t *testing.T) {
	const mk = "MSG = hello\n\n.PHONY: test build\n\nbuild:\n\tgrep -q hello greet.txt\n\ntest: build\n\tgrep -q $(MSG) greet.txt\n"
	const jf = "msg := \"hello\"\n\ntest:\n    grep -q {{msg}} greet.txt\n"
	const tf = "version: '3'\n\ntasks:\n  test:\n    cmds:\n      - grep -q hello greet.txt\n"
	for _, c := range []struct {
		name, cmd, file, was, now string
		runner                    []string // the runner's command line, run at the tip
		fail                      bool
	}{
		{"honest: make, a check added inline to the test recipe", "make test", "Makefile", mk, strings.Replace(mk, "\tgrep -q $(MSG) greet.txt\n", "\tgrep -q $(MSG) greet.txt\n\tgrep -q world greet.txt\n", 1), []string{"make", "test"}, false},
		{"honest: make, another target added", "make test", "Makefile", mk, strings.Replace(mk, ".PHONY: test build", ".PHONY: test build lint", 1) + "\nlint:\n\ttrue\n", []string{"make", "test"}, false},
		// A dependency is often a check itself (`check: lint unit`): a
		// changed line there asks a signer, as before (left open for an
		// honest build step's flags).
		{"limit: make, the dependency's command changed", "make test", "Makefile", mk, strings.Replace(mk, "\tgrep -q hello greet.txt\n", "\tgrep -qF hello greet.txt\n", 1), []string{"make", "test"}, true},
		{"lazy: make, the dependency's check made || true", "make test", "Makefile", mk, strings.Replace(mk, "\tgrep -q hello greet.txt\n", "\tgrep -q hello greet.txt || true\n", 1), []string{"make", "test"}, true},
		{"honest: just, a check added inline", "just test", "justfile", jf, jf + "    grep -q world greet.txt\n", []string{"just", "test"}, false},
		{"honest: task, a check added inline", "task test", "Taskfile.yml", tf, tf + "      - grep -q world greet.txt\n", []string{"task", "test"}, false},
		{"lazy: make, the check replaced by true", "make test", "Makefile", mk, strings.Replace(mk, "\tgrep -q $(MSG) greet.txt\n", "\ttrue\n", 1), []string{"make", "test"}, true},
		{"lazy: make, the check made || true", "make test", "Makefile", mk, strings.Replace(mk, "\tgrep -q $(MSG) greet.txt\n", "\tgrep -q $(MSG) greet.txt || true\n", 1), []string{"make", "test"}, true},
		{"lazy: make, the dependency's check replaced", "make test", "Makefile", mk, strings.Replace(mk, "\tgrep -q hello greet.txt\n", "\ttrue\n", 1), []string{"make", "test"}, true},
		{"lazy: make, the variable the recipe reads", "make test", "Makefile", mk, strings.Replace(mk, "MSG = hello", "MSG = -v zzz", 1), []string{"make", "test"}, true},
		{"lazy: make, SHELL set outside every recipe", "make test", "Makefile", mk, "SHELL = /bin/true\n" + mk, []string{"make", "test"}, true},
		{"lazy: make, MAKEFLAGS += -n", "make test", "Makefile", mk, "MAKEFLAGS += -n\n" + mk, []string{"make", "test"}, true},
		{"lazy: make, a GNUmakefile make reads first", "make test", "Makefile", mk, mk, []string{"make", "test"}, true},
		{"lazy: just, the recipe replaced by true", "just test", "justfile", jf, strings.Replace(jf, "grep -q {{msg}} greet.txt", "true", 1), []string{"just", "test"}, true},
		{"lazy: just, the variable the recipe reads", "just test", "justfile", jf, strings.Replace(jf, `"hello"`, `"-v zzz"`, 1), []string{"just", "test"}, true},
		{"lazy: just, set shell", "just test", "justfile", jf, "set shell := [\"true\"]\n" + jf, []string{"just", "test"}, true},
		{"lazy: task, the command replaced", "task test", "Taskfile.yml", tf, strings.Replace(tf, "grep -q hello greet.txt", "true", 1), []string{"task", "test"}, true},
		{"lazy: task, status marks it up to date", "task test", "Taskfile.yml", tf, tf + "    status:\n      - 'true'\n", []string{"task", "test"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := exec.LookPath(c.runner[0]); err != nil {
				t.Skipf("%s not installed", c.runner[0])
			}
			dir := gittest.New(t, map[string]string{c.file: c.was, "greet.txt": "hello world\n"})
			base := gittest.Git(t, dir, "rev-parse", "HEAD")
			files := map[string]string{c.file: c.now, "greet.txt": "hello world\n"}
			if strings.Contains(c.name, "GNUmakefile") {
				files["GNUmakefile"] = "test:\n\ttrue\n"
			}
			gittest.Commit(t, dir, "work\n\nSession-Id: 0b80cb0b-2b1e-4c92-9a24-18f9c73b4bec\n", files)
			run := exec.Command(c.runner[0], c.runner[1:]...)
			run.Dir = dir
			if out, err := run.CombinedOutput(); err != nil {
				t.Fatalf("the real %s fails at the tip, so the row proves nothing: %v\n%s", c.runner[0], err, out)
			}
			repo, err := gitrepo.Open(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			cfg := config.Default()
			cfg.Commands = map[string]string{"QA_VALIDATION": c.cmd}
			bl := &verify.Baseline{Rev: base, Config: cfg, ConfigFile: "sessiongate.yaml"}
			rep, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{Baseline: bl})
			if err != nil {
				t.Fatal(err)
			}
			var said strings.Builder
			for _, cr := range rep.Commits {
				for _, p := range cr.Problems {
					if strings.Contains(p, "rerun guard") {
						said.WriteString(p + "\n")
					}
				}
			}
			failed := strings.Contains(said.String(), "the re-run proves less")
			switch {
			case c.fail && !failed:
				t.Fatalf("the weakened recipe gets through verify:\n%s", said.String())
			case !c.fail && failed:
				t.Fatalf("a false FAIL: verify asks a signer for a change the QA gate passes:\n%s", said.String())
			}
		})
	}
}
