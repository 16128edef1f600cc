//go:build unix

package gitenv_test

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/internal/proccpu"
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
			cpu0 := proccpu.Used()
			for b.Loop() {
				if out, err := c.cmd().Output(); err != nil || len(out) < 40 {
					b.Fatalf("git rev-parse HEAD: %q, %v", out, err)
				}
			}
			b.ReportMetric(float64((proccpu.Used()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}
