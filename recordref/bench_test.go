package recordref_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/recordref"
)

// BenchmarkPut writes one record onto a ref that already holds 10,000:
// only the root, the sessions tree and one shard are rewritten, so the
// cost does not grow with the number of records.
func BenchmarkPut(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not installed")
	}
	for _, kv := range env(b) {
		k, v, _ := strings.Cut(kv, "=")
		b.Setenv(k, v)
	}
	ctx := context.Background()
	dir := b.TempDir()
	run(b, dir, "init", "-q", "-b", "main")
	// 10,000 records in one commit, built through a scratch index.
	blob := strings.TrimSpace(runIn(b, dir, "", "{}\n", "hash-object", "-w", "--stdin"))
	var info strings.Builder
	for range 10000 {
		p, _ := recordref.Path(uuid(b))
		fmt.Fprintf(&info, "100644 %s\t%s\n", blob, p)
	}
	idx := "GIT_INDEX_FILE=" + filepath.Join(b.TempDir(), "index")
	runIn(b, dir, idx, info.String(), "update-index", "--index-info")
	tree := strings.TrimSpace(runIn(b, dir, idx, "", "write-tree"))
	c := strings.TrimSpace(runIn(b, dir, "", "", "commit-tree", tree, "-m", "seed"))
	run(b, dir, "update-ref", recordref.DefaultRef, c)
	b.ResetTimer()
	for range b.N {
		id := uuid(b)
		if _, err := recordref.Put(ctx, dir, recordref.DefaultRef, []recordref.Record{{SessionID: id, Body: body(id)}}); err != nil {
			b.Fatal(err)
		}
	}
}

func runIn(t testing.TB, dir, env, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	if env != "" {
		cmd.Env = append(cmd.Env, env)
	}
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}
