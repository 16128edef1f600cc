package recordref_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/recordref"
)

func putStop(t testing.TB, dir, conv string, at time.Time) string {
	t.Helper()
	b, p, err := recordref.StopBody(recordref.UncheckedStop{Agent: "claude", Conversation: conv, At: at, Why: "the database was locked", Mark: "m1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := recordref.PutStop(context.Background(), dir, ref, p, b); err != nil {
		t.Fatalf("put stop: %v", err)
	}
	return p
}

// TestStopsOnTheRecordsRef: an unchecked stop is written onto the records
// ref with plumbing and read back from the ref's history, however the ref
// was written since. Rows: the first write creates the ref (a repository
// that has none yet); two worktrees of one clone write at once (the
// compare-and-swap keeps both); a later commit that drops the stop (a
// rewrite with plumbing) does not hide it; a fold's outcome is read beside
// its stop; a stop edited after it was written, or put under another
// conversation's folder, proves nothing and is left out.
func TestStopsOnTheRecordsRef(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 30, 1, 2, 3, 4, time.UTC)
	rows := []struct {
		name string
		do   func(t *testing.T, dir string) (want []string, outcomes map[string]string)
	}{
		{"first write creates the ref", func(t *testing.T, dir string) ([]string, map[string]string) {
			if tip, _ := recordref.Tip(ctx, dir, ref); tip != "" {
				t.Fatalf("the ref exists before the first stop: %s", tip)
			}
			return []string{putStop(t, dir, "c1", at)}, nil
		}},
		{"two worktrees write at once", func(t *testing.T, dir string) ([]string, map[string]string) {
			wt := filepath.Join(t.TempDir(), "wt")
			run(t, dir, "worktree", "add", "-q", "-b", "other", wt)
			var mu sync.Mutex
			var want []string
			var wg sync.WaitGroup
			for i, d := range []string{dir, wt, dir, wt} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					p := putStop(t, d, fmt.Sprintf("conv-%d", i), at)
					mu.Lock()
					want = append(want, p)
					mu.Unlock()
				}()
			}
			wg.Wait()
			return want, nil
		}},
		{"a later commit drops the stop", func(t *testing.T, dir string) ([]string, map[string]string) {
			p := putStop(t, dir, "c1", at)
			tip, _ := recordref.Tip(ctx, dir, ref)
			empty := strings.TrimSpace(runIn(t, dir, "", "", "mktree"))
			c := strings.TrimSpace(runIn(t, dir, "", "", "commit-tree", empty, "-p", tip, "-m", "tidy"))
			run(t, dir, "update-ref", ref, c, tip)
			return []string{p}, nil
		}},
		{"outcome beside its stop", func(t *testing.T, dir string) ([]string, map[string]string) {
			p := putStop(t, dir, "c1", at)
			q := putStop(t, dir, "c2", at)
			if _, err := recordref.PutStopOutcomes(ctx, dir, ref, map[string]recordref.StopOutcome{p: {Outcome: recordref.StopUnchanged, At: at}}); err != nil {
				t.Fatal(err)
			}
			return []string{p, q}, map[string]string{p: recordref.StopUnchanged}
		}},
		{"edited or moved stops are left out", func(t *testing.T, dir string) ([]string, map[string]string) {
			p := putStop(t, dir, "c1", at)
			b, q, _ := recordref.StopBody(recordref.UncheckedStop{Agent: "claude", Conversation: "c2", At: at, Why: "x"})
			edited := strings.Replace(string(b), `"x"`, `"y"`, 1)
			// the same name, other bytes; and c2's stop under c1's folder
			moved := p[:strings.LastIndex(p, "/")+1] + q[strings.LastIndex(q, "/")+1:]
			for path, body := range map[string]string{q: edited, moved: string(b)} {
				if _, err := recordref.PutStop(ctx, dir, ref, path, []byte(body)); err != nil {
					t.Fatal(err)
				}
			}
			return []string{p}, nil
		}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			dir := newRepo(t)
			want, outcomes := r.do(t, dir)
			tip, err := recordref.Tip(ctx, dir, ref)
			if err != nil || tip == "" {
				t.Fatalf("tip: %q %v", tip, err)
			}
			got, err := recordref.ReadStops(ctx, dir, tip)
			if err != nil {
				t.Fatal(err)
			}
			have := map[string]string{}
			for _, f := range got {
				o := ""
				if f.Outcome != nil {
					o = f.Outcome.Outcome
				}
				have[f.Path] = o
				if !f.Stop.At.Equal(at) || f.Stop.Agent != "claude" {
					t.Errorf("%s read back as %+v", f.Path, f.Stop)
				}
			}
			if len(have) != len(want) {
				t.Errorf("read %d stops %v, want %d %v", len(have), have, len(want), want)
			}
			for _, p := range want {
				o, ok := have[p]
				if !ok {
					t.Errorf("stop %s not read back", p)
				}
				if o != outcomes[p] {
					t.Errorf("stop %s outcome %q, want %q", p, o, outcomes[p])
				}
			}
		})
	}
}

// BenchmarkPutStop is the records ref write an unchecked stop adds to the
// Stop hook's path, on a ref that already holds 10,000 records.
func BenchmarkPutStop(b *testing.B) {
	dir := seededRef(b, 10000)
	at := time.Now()
	b.ResetTimer()
	for i := range b.N {
		putStop(b, dir, fmt.Sprintf("conv-%d", i), at)
	}
}

// TestStopRefNeedsNoSharedLock: a shell started before the stop holds
// the records ref's lock (refs/sessiongate/records.lock) or packed-refs'
// (packed-refs.lock), or both. The write onto the records ref fails at
// once ("cannot lock ref"), which left the stop only in the note the
// agent then deleted. A stop on a new ref of its own, at a name nobody
// knows in advance, takes neither lock (git creates a new loose ref under
// its own lock only): it is written, read back, and once the locks are
// gone carried onto the records ref and its own ref removed. The honest
// twin: no lock held, the same.
func TestStopRefNeedsNoSharedLock(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 30, 1, 2, 3, 4, time.UTC)
	rows := []struct {
		name  string
		locks []string // under the git directory
	}{
		{"honest: no lock held", nil},
		{"records ref locked", []string{"refs/sessiongate/records.lock"}},
		{"packed-refs locked", []string{"packed-refs.lock"}},
		{"both locked", []string{"refs/sessiongate/records.lock", "packed-refs.lock"}},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			dir := newRepo(t)
			putStop(t, dir, "earlier", at) // the records ref exists
			run(t, dir, "pack-refs", "--all")
			gitDir := strings.TrimSpace(run(t, dir, "rev-parse", "--absolute-git-dir"))
			for _, l := range r.locks {
				if err := os.WriteFile(filepath.Join(gitDir, l), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			b, p, err := recordref.StopBody(recordref.UncheckedStop{Agent: "codex", Conversation: "c1", At: at, Why: "the database was locked"})
			if err != nil {
				t.Fatal(err)
			}
			short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
			_, errOld := recordref.PutStop(short, dir, ref, p, b)
			cancel()
			if locked := len(r.locks) > 0 && strings.HasPrefix(r.locks[0], "refs/"); locked != (errOld != nil) {
				t.Errorf("onto the records ref with %v held: err %v", r.locks, errOld)
			}
			sr, err := recordref.PutStopRef(ctx, dir, ref, p, b)
			if err != nil {
				t.Fatalf("onto a ref of its own with %v held: %v", r.locks, err)
			}
			if !strings.HasPrefix(sr.Name, recordref.StopRefPrefix(ref)) || len(sr.Name) != len(recordref.StopRefPrefix(ref))+32 {
				t.Errorf("stop ref %q", sr.Name)
			}
			files, refs, err := recordref.ReadStopRefs(ctx, dir, ref)
			if err != nil || len(files) != 1 || files[0].Path != p || len(refs) != 1 || refs[0] != sr {
				t.Fatalf("read back: %+v %+v %v", files, refs, err)
			}
			for _, l := range r.locks {
				os.Remove(filepath.Join(gitDir, l))
			}
			if _, err := recordref.PutStops(ctx, dir, ref, files, map[string]recordref.StopOutcome{p: {Outcome: recordref.StopRecorded, At: at}}); err != nil {
				t.Fatal(err)
			}
			if err := recordref.DeleteStopRefs(ctx, dir, refs); err != nil {
				t.Fatal(err)
			}
			if left, _ := recordref.ListStopRefs(ctx, dir, ref); len(left) != 0 {
				t.Errorf("stop refs left after the carry: %v", left)
			}
			tip, _ := recordref.Tip(ctx, dir, ref)
			got, err := recordref.ReadStops(ctx, dir, tip)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, f := range got {
				if f.Path == p {
					found = f.Outcome != nil && f.Outcome.Outcome == recordref.StopRecorded
				}
			}
			if !found {
				t.Errorf("the carried stop %s with its outcome is not on the records ref: %+v", p, got)
			}
		})
	}
}

// TestStopRefsOnlyCarryStops: a stop ref is written by whoever can write
// refs, the agent too; an outcome file on it ("this stop was judged
// complete") is not believed, only one on the records ref.
func TestStopRefsOnlyCarryStops(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	dir := newRepo(t)
	b, p, _ := recordref.StopBody(recordref.UncheckedStop{Agent: "codex", Conversation: "c1", At: time.Now(), Why: "x"})
	blob := strings.TrimSpace(runIn(t, dir, "", string(b), "hash-object", "-w", "--stdin"))
	folded := strings.TrimSpace(runIn(t, dir, "", `{"outcome":"complete","at":"2026-11-30T00:00:00Z"}`, "hash-object", "-w", "--stdin"))
	idx := "GIT_INDEX_FILE=" + filepath.Join(t.TempDir(), "index")
	runIn(t, dir, idx, fmt.Sprintf("100644 %s\t%s\n100644 %s\t%s\n", blob, p, folded, strings.TrimSuffix(p, ".json")+".folded"), "update-index", "--index-info")
	tree := strings.TrimSpace(runIn(t, dir, idx, "", "write-tree"))
	c := strings.TrimSpace(runIn(t, dir, "", "", "commit-tree", tree, "-m", "forged"))
	run(t, dir, "update-ref", recordref.StopRefPrefix(ref)+"forged", c)
	files, _, err := recordref.ReadStopRefs(ctx, dir, ref)
	if err != nil || len(files) != 1 {
		t.Fatalf("read: %+v %v", files, err)
	}
	if files[0].Outcome != nil {
		t.Errorf("an outcome on a stop ref was believed: %+v", files[0].Outcome)
	}
}

// BenchmarkPutStopRef is the write an unchecked stop adds to the Stop
// hook's path since round 16: a new ref of its own (the records ref beside
// it holds 10,000 records, which this write does not read).
func BenchmarkPutStopRef(b *testing.B) {
	dir := seededRef(b, 10000)
	at := time.Now()
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		body, p, err := recordref.StopBody(recordref.UncheckedStop{Agent: "claude", Conversation: fmt.Sprintf("conv-%d", i), At: at, Why: "the database was locked"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := recordref.PutStopRef(ctx, dir, ref, p, body); err != nil {
			b.Fatal(err)
		}
	}
}
