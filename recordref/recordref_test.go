package recordref_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sessiongate/sessiongate/recordref"
)

const ref = recordref.DefaultRef

// env isolates git from the machine's config.
func env(t testing.TB) []string {
	t.Helper()
	home := t.TempDir()
	cfg := filepath.Join(home, ".gitconfig")
	if err := os.WriteFile(cfg, []byte("[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"GIT_CONFIG_GLOBAL=" + cfg, "GIT_CONFIG_NOSYSTEM=1", "HOME=" + home}
}

func run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return strings.TrimSpace(out.String())
}

func setEnv(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for _, kv := range env(t) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// newRepo is a repository with one commit on main.
func newRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "add", "a.txt")
	run(t, dir, "commit", "-q", "-m", "a")
	return dir
}

func uuid(t testing.TB) string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func body(id string) []byte { return []byte(`{"session_id":"` + id + `"}` + "\n") }

// state is what must never change under a records write.
func state(t *testing.T, dir string) string {
	return run(t, dir, "rev-parse", "HEAD") + "|" + run(t, dir, "status", "--porcelain") + "|" + run(t, dir, "ls-files", "-s")
}

func TestPutReadLeavesWorkTreeAlone(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	dir := newRepo(t)
	// A hook that would leave a trace if any git call ran it.
	hook := filepath.Join(dir, ".git", "hooks", "reference-transaction")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntouch \"$(git rev-parse --git-dir)/hook-ran\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := state(t, dir)
	a, b := uuid(t), uuid(t)
	c1, err := recordref.Put(ctx, dir, ref, []recordref.Record{{SessionID: a, Body: body(a)}})
	if err != nil {
		t.Fatal(err)
	}
	c2, err := recordref.Put(ctx, dir, ref, []recordref.Record{{SessionID: b, Body: body(b)}})
	if err != nil {
		t.Fatal(err)
	}
	if c1 == c2 || run(t, dir, "rev-parse", c2+"^") != c1 {
		t.Errorf("second write %s is not a child of the first %s", c2, c1)
	}
	// Same bytes again: no new commit.
	if c3, err := recordref.Put(ctx, dir, ref, []recordref.Record{{SessionID: b, Body: body(b)}}); err != nil || c3 != c2 {
		t.Errorf("rewrite of an unchanged record: %s, %v; want %s", c3, err, c2)
	}
	if after := state(t, dir); after != before {
		t.Errorf("work tree, index or HEAD changed:\n%s\n%s", before, after)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "hook-ran")); err == nil {
		t.Error("a hook ran during a records write")
	}
	for _, id := range []string{a, b} {
		got, p, err := recordref.Read(ctx, dir, c2, id)
		if err != nil || !bytes.Equal(got, body(id)) || p != "sessions/"+id[:2]+"/"+id+".json" {
			t.Errorf("read %s: %q at %s, %v", id, got, p, err)
		}
	}
	if _, _, err := recordref.Read(ctx, dir, c2, uuid(t)); !errors.Is(err, recordref.ErrNoRecord) {
		t.Errorf("absent record: %v", err)
	}
	chs, err := recordref.Changes(ctx, dir, c1, c2)
	if err != nil || len(chs) != 1 || chs[0].SessionID != b || chs[0].Commit != c2 {
		t.Errorf("changes since the first commit: %+v, %v", chs, err)
	}
	if chs, err := recordref.Changes(ctx, dir, "", c2); err != nil || len(chs) != 2 || chs[0].SessionID != a {
		t.Errorf("all changes: %+v, %v", chs, err)
	}
}

func TestPutRefusesBadInput(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	dir := newRepo(t)
	id := uuid(t)
	tests := []struct {
		name string
		ref  string
		rec  recordref.Record
		want string
	}{
		{"branch", "refs/heads/main", recordref.Record{SessionID: id, Body: body(id)}, "not a records ref"},
		{"dotdot", "refs/x/../y", recordref.Record{SessionID: id, Body: body(id)}, "not a records ref"},
		{"bad id", ref, recordref.Record{SessionID: "../../etc", Body: []byte("{}")}, "not a lowercase UUID"},
		{"too large", ref, recordref.Record{SessionID: id, Body: bytes.Repeat([]byte("x"), recordref.MaxRecordBytes+1)}, "over the"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := recordref.Put(ctx, dir, tc.ref, []recordref.Record{tc.rec})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
	if tip, err := recordref.Tip(ctx, dir, ref); err != nil || tip != "" {
		t.Errorf("refused writes left a ref: %q %v", tip, err)
	}
}

// Several worktrees of one clone write the shared ref at once: every
// record survives (update-ref's compare-and-swap, retried).
func TestConcurrentWorktreeWrites(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	dir := newRepo(t)
	wts := []string{dir}
	for i := range 3 {
		wt := filepath.Join(t.TempDir(), fmt.Sprintf("wt%d", i))
		run(t, dir, "worktree", "add", "-q", "-b", fmt.Sprintf("b%d", i), wt)
		wts = append(wts, wt)
	}
	const perWriter = 6
	var wg sync.WaitGroup
	ids := make([][]string, len(wts))
	errs := make(chan error, len(wts)*perWriter)
	for w, wt := range wts {
		for range perWriter {
			ids[w] = append(ids[w], uuid(t))
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, id := range ids[w] {
				if _, err := recordref.Put(ctx, wt, ref, []recordref.Record{{SessionID: id, Body: body(id)}}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	tip, err := recordref.Tip(ctx, dir, ref)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, list := range ids {
		for _, id := range list {
			if _, _, err := recordref.Read(ctx, dir, tip, id); err != nil {
				t.Errorf("record %s lost: %v", id, err)
			}
			n++
		}
	}
	if got := run(t, dir, "rev-list", "--count", ref); got != fmt.Sprint(n) {
		t.Errorf("%s commits for %d writes", got, n)
	}
}

// Two clones push records to one bare repository at the same moment, each
// with records the other lacks: both pushes succeed (one after a fetch and
// merge) and the remote holds every record.
func TestTwoClonesPushAtOnce(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	origin := newRepo(t)
	bare := filepath.Join(t.TempDir(), "team.git")
	run(t, origin, "clone", "-q", "--bare", origin, bare)
	for round := range 5 {
		clones := []string{filepath.Join(t.TempDir(), "alice"), filepath.Join(t.TempDir(), "bob")}
		var mine [2][]string
		for i, c := range clones {
			run(t, origin, "clone", "-q", bare, c)
			// Each clone starts from what the remote has, as after a fetch, then adds its own.
			if out, err := exec.Command("git", "-C", c, "fetch", "-q", "origin", "+"+ref+":"+ref).CombinedOutput(); err != nil && round > 0 {
				t.Fatalf("fetch records: %v\n%s", err, out)
			}
			for range 3 {
				id := uuid(t)
				mine[i] = append(mine[i], id)
				if _, err := recordref.Put(ctx, c, ref, []recordref.Record{{SessionID: id, Body: body(id)}}); err != nil {
					t.Fatal(err)
				}
			}
		}
		var wg sync.WaitGroup
		results := make([]recordref.PushResult, 2)
		errs := make([]error, 2)
		start := make(chan struct{})
		for i, c := range clones {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				results[i], errs[i] = recordref.Push(ctx, c, "origin", ref)
			}()
		}
		close(start)
		wg.Wait()
		for i := range clones {
			if errs[i] != nil || !results[i].Pushed {
				t.Fatalf("round %d clone %d: %+v %v", round, i, results[i], errs[i])
			}
		}
		if results[0].Merges+results[1].Merges == 0 {
			t.Errorf("round %d: neither push had to merge: %+v", round, results)
		}
		tip := run(t, bare, "rev-parse", ref)
		for i := range clones {
			for _, id := range mine[i] {
				if _, _, err := recordref.Read(ctx, bare, tip, id); err != nil {
					t.Errorf("round %d: clone %d's record %s is not on the remote: %v", round, i, id, err)
				}
			}
		}
	}
}

// Push with no local records does nothing; a remote that does not exist
// is an error naming it.
func TestPushEdgeCases(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	dir := newRepo(t)
	if res, err := recordref.Push(ctx, dir, filepath.Join(t.TempDir(), "none.git"), ref); err != nil || !res.Skipped {
		t.Errorf("no local records: %+v %v", res, err)
	}
	id := uuid(t)
	if _, err := recordref.Put(ctx, dir, ref, []recordref.Record{{SessionID: id, Body: body(id)}}); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "none.git")
	if _, err := recordref.Push(ctx, dir, missing, ref); err == nil || !strings.Contains(err.Error(), "none.git") {
		t.Errorf("missing remote: %v", err)
	}
	if _, err := recordref.Push(ctx, dir, "--upload-pack=x", ref); err == nil {
		t.Error("an option as the remote was accepted")
	}
}

// TestPutBatch writes many records, some in a shared shard, in one commit,
// then rewrites one: every record reads back with its bytes, a batch that
// changes nothing makes no commit, and one that changes a record changes
// only it.
func TestPutBatch(t *testing.T) {
	setEnv(t)
	ctx := context.Background()
	dir := newRepo(t)
	var recs []recordref.Record
	for i := range 300 {
		id := uuid(t)
		if i%3 == 0 {
			id = "ab" + id[2:] // a hundred in one shard
		}
		recs = append(recs, recordref.Record{SessionID: id, Body: body(id)})
	}
	// The same session twice in one batch: the later body wins.
	dup := recs[7].SessionID
	recs = append(recs, recordref.Record{SessionID: dup, Body: []byte("{\"v\":2}\n")})
	c1, err := recordref.Put(ctx, dir, ref, recs)
	if err != nil {
		t.Fatal(err)
	}
	if n := run(t, dir, "rev-list", "--count", c1); n != "1" {
		t.Errorf("a batch made %s commits, want 1", n)
	}
	if got := strings.Count(run(t, dir, "log", "-1", "--format=%b", c1), "\n") + 1; got != 300 {
		t.Errorf("commit message names %d sessions, want 300", got)
	}
	for i, r := range recs[:300] {
		want := r.Body
		if r.SessionID == dup {
			want = recs[300].Body
		}
		got, _, err := recordref.Read(ctx, dir, c1, r.SessionID)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("record %d (%s): %q, %v; want %q", i, r.SessionID, got, err, want)
		}
	}
	if c2, err := recordref.Put(ctx, dir, ref, recs); err != nil || c2 != c1 {
		t.Errorf("unchanged batch: %s, %v; want %s", c2, err, c1)
	}
	recs[0].Body = []byte("{\"v\":3}\n")
	c3, err := recordref.Put(ctx, dir, ref, recs)
	if err != nil {
		t.Fatal(err)
	}
	chs, err := recordref.Changes(ctx, dir, c1, c3)
	if err != nil || len(chs) != 1 || chs[0].SessionID != recs[0].SessionID {
		t.Errorf("a batch that changed one record changed %+v, %v", chs, err)
	}
}
