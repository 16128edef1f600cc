//go:build unix

package gitenv_test

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// BenchmarkCommand is one `git rev-parse HEAD` as gitrepo runs it, with
// gitenv's environment and with the inherited one (what every git process
// cost before gitenv): the fourteenth round's mcp-stdio figure moved from
// 712 to 957 cpu-µs per call and gitenv was suspected. env is Env alone.
// cpu-µs/op counts the git process (RUSAGE_CHILDREN) with this one.
//
//	go test ./gitenv -run '^$' -bench Command -count 6
func BenchmarkCommand(b *testing.B) {
	dir := gittest.New(b, map[string]string{"README.md": "# demo\n"})
	ctx := context.Background()
	environ := os.Environ()
	b.Run("env", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			gitenv.Env(environ)
		}
	})
	for _, c := range []struct {
		name string
		cmd  func() *exec.Cmd
	}{
		{"inherited", func() *exec.Cmd {
			cmd := exec.CommandContext(ctx, "git", "rev-parse", "HEAD")
			cmd.Dir = dir
			return cmd
		}},
		{"gitenv", func() *exec.Cmd { return gitenv.Command(ctx, dir, nil, "rev-parse", "HEAD") }},
	} {
		b.Run(c.name, func(b *testing.B) {
			cpu0 := processCPU()
			for b.Loop() {
				if out, err := c.cmd().Output(); err != nil || len(out) < 40 {
					b.Fatalf("git rev-parse HEAD: %q, %v", out, err)
				}
			}
			b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

// processCPU is the CPU time of this process and of the children it
// waited for (the git processes).
func processCPU() time.Duration {
	var d time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			return 0
		}
		d += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return d
}
