//go:build unix

package compliance_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAdv29WorkFileReads: the files the protocol names (the handoff, a
// session log) are the agent's to write, and the gate read them whole with
// os.ReadFile. On main, `rm .agents/HANDOFF.md && mkfifo
// .agents/HANDOFF.md` made `session evidence --type content_hash` hang
// (10 minutes, SIGTERM ignored, until killed) and, swapped in after an
// honest read, made `session advance` hang in the gate's re-check. A
// sparse file (`truncate -s 64G`) is regular: os.ReadFile allocates its
// size (not run on main: it fills memory on a shared machine). Each
// command now answers within the timeout, refuses, and names the file.
// Honest twin: the handoff read as it is, CONTEXT_RETRIEVAL passes.
func TestAdv29WorkFileReads(t *testing.T) {
	t.Parallel()
	const handoff = ".agents/HANDOFF.md"
	fifo := func(w *world, rel string) {
		p := filepath.Join(w.root, filepath.FromSlash(rel))
		_ = os.Remove(p)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
		w.t.Cleanup(func() { // a reader stuck opening it goes
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		})
	}
	for _, tt := range []struct {
		name string
		// before runs ahead of the handoff's read; after between the read
		// and the advance.
		before, after func(w *world)
		said          string // "" for the honest twin: CONTEXT_RETRIEVAL passes
	}{
		{name: "the handoff a FIFO when it is read", before: func(w *world) { fifo(w, handoff) },
			said: handoff + ": not a regular file (a FIFO)"},
		{name: "the handoff a FIFO after it was read", after: func(w *world) { fifo(w, handoff) },
			said: handoff + ": not a regular file (a FIFO)"},
		{name: "the handoff a sparse 64 GiB file", before: func(w *world) {
			if err := os.Truncate(filepath.Join(w.root, filepath.FromSlash(handoff)), 64<<30); err != nil {
				t.Fatal(err)
			}
		}, said: handoff + ": file too large"},
		{name: "honest: the handoff read as it is"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := pyWorld(t)
			w.advStart("Add a name argument to the greeting")
			if tt.before != nil {
				tt.before(w)
			}
			var said strings.Builder
			steps := [][]string{
				{"session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", contentHash, "--value", handoff},
				{"session", "evidence", "--requirement", "CONTEXT_RETRIEVAL.read-issue-task-were", "--type", toolOutput, "--value", "task: add a name argument to scripts/greet.sh"},
				nil, // tt.after
				{"session", "advance"},
			}
			var code int
			for _, args := range steps {
				if args == nil {
					if tt.after != nil {
						tt.after(w)
					}
					continue
				}
				ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
				cmd := exec.CommandContext(ctx, binary, args...)
				cmd.Dir, cmd.Env = w.root, w.env
				out, err := cmd.CombinedOutput()
				hung := ctx.Err() != nil
				cancel()
				if hung {
					t.Fatalf("sessiongate %s hung reading an agent-written file (killed after 120 s):\n%s", strings.Join(args, " "), out)
				}
				said.Write(out)
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				}
			}
			got := said.String()
			if tt.said == "" {
				if code != 0 || !strings.Contains(w.sgOK("session", "status"), "BRANCH_CHECK") || strings.Contains(got, "not judged") {
					t.Fatalf("honest: CONTEXT_RETRIEVAL did not pass (exit %d):\n%s", code, got)
				}
				return
			}
			if code != 1 || !strings.Contains(got, tt.said) {
				t.Fatalf("want exit 1 naming %q, got exit %d:\n%s", tt.said, code, got)
			}
		})
	}
}
