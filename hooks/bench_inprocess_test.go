package hooks_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/hooks"
)

// BenchmarkPreCommitInProcess runs the pre-commit hook's work (Runtime.Run)
// in the test process, so that -cpuprofile sees it: BenchmarkPreCommitHook
// times the exec'd binary, whose profile the test cannot take. A
// 2,000-file repository with a session in WORKING and one staged change.
//
//	go test -run '^$' -bench PreCommitInProcess -cpuprofile cpu.out ./hooks
func BenchmarkPreCommitInProcess(b *testing.B) {
	r := bigRepo(b, 2000)
	for _, kv := range r.env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			b.Setenv(k, v)
		}
	}
	if err := os.WriteFile(filepath.Join(r.root, "src", "d0", "f0.txt"), []byte("changed\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	r.git("add", "-A")
	ctx := context.Background()
	for b.Loop() {
		var stderr bytes.Buffer
		rt := &hooks.Runtime{Dir: r.root, Stdin: strings.NewReader(""), Stderr: &stderr}
		if code := rt.Run(ctx, "pre-commit", nil); code != hooks.ExitAllow {
			b.Fatalf("pre-commit exit %d:\n%s", code, stderr.String())
		}
	}
}
