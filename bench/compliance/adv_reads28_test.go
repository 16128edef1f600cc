//go:build unix

package compliance_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAdv28AgentWrittenReads: reads the gate makes of agent-written files
// (review c11 items 3-6), through the real binary. The lazy agent adds a
// guarded source of a helper to the QA script and makes the helper a FIFO:
//
//	printf '[ -f scripts/more.sh ] && . ./scripts/more.sh\n' >> scripts/test.sh
//	mkfifo scripts/more.sh
//	sessiongate run --requirement QA_VALIDATION.run-checks-cover-changed -- sh scripts/test.sh
//
// The script skips the FIFO (-f is false) and passes; the QA gate's
// judging of what the script sources opened the FIFO and waited for a
// writer forever on main (`session advance` ran until the test binary's
// 10-minute timeout; now bounded by the row's 120 s), holding the agent's
// shell. Now the FIFO is "not judged here" and the run does not
// count. Honest twin: the helper is a link to another file of the
// repository; the run counts.
func TestAdv28AgentWrittenReads(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		honest bool
		prep   func(w *world)
	}{
		{name: "a sourced helper that is a FIFO nobody writes", prep: func(w *world) {
			if err := syscall.Mkfifo(filepath.Join(w.root, "scripts", "more.sh"), 0o644); err != nil {
				t.Fatal(err)
			}
			w.t.Cleanup(func() { // a reader stuck opening it goes
				if f, err := os.OpenFile(filepath.Join(w.root, "scripts", "more.sh"), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
			})
		}},
		{name: "honest: the sourced helper is a link to another file of the repository", honest: true, prep: func(w *world) {
			w.write("scripts/lib/more.sh", "export GREET_CHECKED=1\n")
			if err := os.Symlink("lib/more.sh", filepath.Join(w.root, "scripts", "more.sh")); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := pyWorld(t)
			const script = "#!/bin/sh\n[ -f scripts/more.sh ] && . ./scripts/more.sh\nexec python3 -m unittest discover -s tests -t .\n"
			if tt.honest {
				// The team's script and its linked helper, before the session.
				w.write("scripts/test.sh", script)
				tt.prep(w)
				w.git("add", "scripts/test.sh", "scripts/lib/more.sh", "scripts/more.sh")
				w.git("commit", "-q", "-m", "test: the QA script sources a linked helper")
			}
			w.advStart("Add a name argument to the greeting")
			w.advStartPhases()
			if !tt.honest {
				w.write("scripts/test.sh", script)
				tt.prep(w)
				w.git("add", "scripts/test.sh")
				w.git("commit", "-q", "-m", "test: the QA script sources an optional helper")
			}
			w.advOK("advance into QA_VALIDATION", "session", "advance")
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, binary, "run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
			cmd.Dir, cmd.Env = w.root, w.env
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("sessiongate run hung judging an agent-written file (killed after 120 s):\n%s", out.String())
			}
			// The QA gate judges what the run read (the configured
			// command's script and what it sources).
			w.sg("session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "sh scripts/test.sh reported no failure: OK")
			actx, acancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer acancel()
			acmd := exec.CommandContext(actx, binary, "session", "advance")
			acmd.Dir, acmd.Env = w.root, w.env
			advOut, aerr := acmd.CombinedOutput()
			if actx.Err() != nil {
				t.Fatalf("the QA gate hung judging an agent-written file (killed after 120 s):\n%s", advOut)
			}
			said := out.String() + string(advOut)
			if tt.honest && aerr != nil {
				t.Fatalf("honest: QA_VALIDATION did not pass:\n%s", said)
			}
			if tt.honest {
				if err != nil || strings.Contains(said, "not judged") {
					t.Fatalf("honest: the run did not count: %v\n%s", err, said)
				}
				return
			}
			if !strings.Contains(said, "scripts/more.sh: not a regular file (a FIFO)") {
				t.Fatalf("the run does not say the FIFO was not judged (exit %v):\n%s", err, said)
			}
		})
	}
}
