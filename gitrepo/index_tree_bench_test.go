package gitrepo

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkCachedTree reads the root tree id from a 20,000-entry index (what
// pre-commit asks of every commit in the hooks benchmark's repository), with
// `git write-tree`, the process it saves, timed beside it.
//
//	go test ./gitrepo -run '^$' -bench CachedTree -benchtime 200x -count 3
func BenchmarkCachedTree(b *testing.B) {
	for _, version := range []string{"2", "4"} {
		b.Run("index-v"+version, func(b *testing.B) {
			dir := b.TempDir()
			git := func(stdin string, args ...string) string {
				cmd := exec.Command("git", args...)
				cmd.Dir = dir
				cmd.Stdin = strings.NewReader(stdin)
				cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
				out, err := cmd.CombinedOutput()
				if err != nil {
					b.Fatalf("git %v: %v\n%s", args, err, out)
				}
				return strings.TrimSpace(string(out))
			}
			git("", "init", "-q")
			blob := git("x\n", "hash-object", "-w", "--stdin")
			var info strings.Builder
			for i := range 20000 {
				fmt.Fprintf(&info, "100644 %s\tsrc/d%d/f%d.txt\n", blob, i/100, i%100)
			}
			git(info.String(), "update-index", "--index-info")
			git("", "update-index", "--index-version", version)
			want := git("", "write-tree")
			index := filepath.Join(dir, ".git", "index")
			var ours, peer time.Duration
			for b.Loop() {
				t := time.Now()
				got, ok := cachedTree(index)
				ours += time.Since(t)
				if !ok || got != want {
					b.Fatalf("cached tree %q %v, want %s", got, ok, want)
				}
				t = time.Now()
				git("", "write-tree")
				peer += time.Since(t)
			}
			b.ReportMetric(float64(ours.Microseconds())/1000/float64(b.N), "cachedTree-ms")
			b.ReportMetric(float64(peer.Microseconds())/1000/float64(b.N), "write-tree-ms")
		})
	}
}
