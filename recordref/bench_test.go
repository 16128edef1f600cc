package recordref_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/recordref"
)

// BenchmarkPut writes one record onto a ref that already holds 10,000:
// only the root, the sessions tree and one shard are rewritten, so the
// cost does not grow with the number of records.
func BenchmarkPut(b *testing.B) {
	ctx := context.Background()
	dir := seededRef(b, 10000)
	b.ResetTimer()
	for range b.N {
		id := uuid(b)
		if _, err := recordref.Put(ctx, dir, recordref.DefaultRef, []recordref.Record{{SessionID: id, Body: body(id)}}); err != nil {
			b.Fatal(err)
		}
	}
}

// seededRef is a repository whose records ref holds n records in one
// commit, built through a scratch index; git's environment is isolated.
func seededRef(b *testing.B, n int) string {
	b.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not installed")
	}
	for _, kv := range env(b) {
		k, v, _ := strings.Cut(kv, "=")
		b.Setenv(k, v)
	}
	dir := b.TempDir()
	run(b, dir, "init", "-q", "-b", "main")
	blob := strings.TrimSpace(runIn(b, dir, "", "{}\n", "hash-object", "-w", "--stdin"))
	var info strings.Builder
	for range n {
		p, _ := recordref.Path(uuid(b))
		fmt.Fprintf(&info, "100644 %s\t%s\n", blob, p)
	}
	idx := "GIT_INDEX_FILE=" + filepath.Join(b.TempDir(), "index")
	runIn(b, dir, idx, info.String(), "update-index", "--index-info")
	tree := strings.TrimSpace(runIn(b, dir, idx, "", "write-tree"))
	c := strings.TrimSpace(runIn(b, dir, "", "", "commit-tree", tree, "-m", "seed"))
	run(b, dir, "update-ref", recordref.DefaultRef, c)
	return dir
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

// BenchmarkPutVsNotes puts one record onto a ref of 10,000 records and, in
// the same iteration, adds one note with `git notes add` onto a notes ref
// of 10,000 notes (its peer: one git process rewriting a fanned-out notes
// tree), in alternating order. Reported: each one's median and the median
// of the per-iteration ratios (Put over notes add). Goal (issue 29): at
// most 1.5x.
//
//	go test ./recordref -run '^$' -bench PutVsNotes -benchtime 100x
func BenchmarkPutVsNotes(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not installed")
	}
	for _, kv := range env(b) {
		k, v, _ := strings.Cut(kv, "=")
		b.Setenv(k, v)
	}
	const seeded = 10000
	ctx := context.Background()
	dir := b.TempDir()
	run(b, dir, "init", "-q", "-b", "main")
	// One stream for fast-import: 10,000 records on the records ref, and
	// seeded+b.N commits of which the first seeded carry a note.
	var s strings.Builder
	s.WriteString("blob\nmark :1\ndata 3\n{}\n\n")
	s.WriteString("commit " + recordref.DefaultRef + "\ncommitter s <s@invalid> 1700000000 +0000\ndata 4\nseed\n")
	for range seeded {
		p, _ := recordref.Path(uuid(b))
		fmt.Fprintf(&s, "M 100644 :1 %s\n", p)
	}
	s.WriteString("\n")
	commits := seeded + b.N + 1
	for i := range commits {
		fmt.Fprintf(&s, "commit refs/heads/main\nmark :%d\ncommitter s <s@invalid> %d +0000\ndata 2\nc\n\n", i+2, 1700000000+i)
	}
	s.WriteString("commit refs/notes/commits\ncommitter s <s@invalid> 1700000000 +0000\ndata 5\nnotes\n")
	for i := range seeded {
		fmt.Fprintf(&s, "N :1 :%d\n", i+2)
	}
	s.WriteString("\n")
	marks := filepath.Join(b.TempDir(), "marks")
	runIn(b, dir, "", s.String(), "fast-import", "--quiet", "--export-marks="+marks)
	raw, err := os.ReadFile(marks)
	if err != nil {
		b.Fatal(err)
	}
	oid := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		m, o, _ := strings.Cut(line, " ")
		oid[m] = o
	}
	var put, notes []float64
	b.ResetTimer()
	for i := range b.N {
		id := uuid(b)
		target := oid[fmt.Sprintf(":%d", seeded+2+i)]
		doPut := func() {
			t0 := time.Now()
			if _, err := recordref.Put(ctx, dir, recordref.DefaultRef, []recordref.Record{{SessionID: id, Body: body(id)}}); err != nil {
				b.Fatal(err)
			}
			put = append(put, float64(time.Since(t0).Microseconds()))
		}
		doNotes := func() {
			t0 := time.Now()
			cmd := exec.Command("git", "notes", "add", "-m", string(body(id)), target)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("git notes add: %v: %s", err, out)
			}
			notes = append(notes, float64(time.Since(t0).Microseconds()))
		}
		if i%2 == 0 {
			doPut()
			doNotes()
		} else {
			doNotes()
			doPut()
		}
	}
	b.StopTimer()
	ratios := make([]float64, len(put))
	for i := range put {
		ratios[i] = put[i] / notes[i]
	}
	b.ReportMetric(medianOf(put)/1000, "put-ms")
	b.ReportMetric(medianOf(notes)/1000, "notes-ms")
	b.ReportMetric(medianOf(ratios), "put/notes-x")
}

func medianOf(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
