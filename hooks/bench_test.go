package hooks_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	sgsnap "github.com/sessiongate/sessiongate/snapshot"
)

// bigRepo is a repository with n tracked files, the hooks installed and a
// session past its start gate; bench/hooks.sh is the full benchmark
// (git commit end to end, lefthook and pre-commit alongside).
func bigRepo(b *testing.B, n int) *repo {
	b.Helper()
	r := newRepo(b)
	for i := range n {
		p := filepath.Join(r.root, "src", fmt.Sprintf("d%d", i/100), fmt.Sprintf("f%d.txt", i%100))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("file %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "files")
	r.sg(r.root, "install")
	r.startWorking(r.root)
	return r
}

// BenchmarkPreCommitHook runs the installed pre-commit hook the way git
// does (the sh script, which execs the binary) in a 20,000-file repository
// whose index has a valid cache tree, as git commit leaves it.
func BenchmarkPreCommitHook(b *testing.B) {
	r := bigRepo(b, 20000)
	hook := filepath.Join(r.root, ".git", "hooks", "pre-commit")
	for b.Loop() {
		cmd := exec.Command(hook)
		cmd.Dir = r.root
		cmd.Env = r.env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("pre-commit hook: %v\n%s", err, out)
		}
	}
}

// BenchmarkGitCommit is git commit of a one-line change with the hooks
// installed (pre-commit, commit-msg, post-commit).
func BenchmarkGitCommit(b *testing.B) {
	r := bigRepo(b, 20000)
	f := filepath.Join(r.root, "bench.txt")
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		if err := os.WriteFile(f, []byte(fmt.Sprint(i)), 0o644); err != nil {
			b.Fatal(err)
		}
		r.git("add", "bench.txt")
		b.StartTimer()
		if res := r.commit(r.root, nil, "-q", "-m", "bench"); res.code != 0 {
			b.Fatalf("git commit: %s", res.err)
		}
	}
}

// BenchmarkPreCommitEventChain: what the pre-commit's event-chain check
// reads, beside the whole pre-commit hook as the peer, interleaved in one
// loop (each iteration runs all of them): CommitFacts since the session's
// start (the git log and rev-list the check ran on every commit), the pin
// on the records ref (one cat-file), and HEAD's trailer alone (one git log
// -1), the witness the check reads now (the tip's pin and HEAD's
// trailers, one cat-file; HEAD's Session-Pin names an older records
// commit here, so the hook also reads the pin there), and the pin write
// the hook ends with (one fast-import commit; the hook without it is
// hook-ms less pinwrite-ms, issue 29). A session of 30 commits in a
// 2,000-file repository. Reported as ms/op per part; docs/benchmarks.md
// has the figures.
func BenchmarkPreCommitEventChain(b *testing.B) {
	r := newRepo(b)
	for i := range 2000 {
		writeFile(b, filepath.Join(r.root, "src", fmt.Sprintf("d%d", i/100), fmt.Sprintf("f%d.txt", i%100)), fmt.Sprintf("file %d\n", i))
	}
	writeFile(b, filepath.Join(r.root, "sessiongate.yaml"), testConfig+"session_record: "+recordsRef+"\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "files, records on a ref")
	r.sg(r.root, "install")
	start := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	id := r.startWorking(r.root)
	for i := range 30 {
		writeFile(b, filepath.Join(r.root, "work.txt"), fmt.Sprint(i))
		r.git("add", "work.txt")
		if res := r.commit(r.root, nil, "-q", "-m", fmt.Sprint("work ", i)); res.code != 0 {
			b.Fatalf("commit %d: %s", i, res.err)
		}
	}
	ctx := context.Background()
	repo, err := gitrepo.Open(ctx, r.root)
	if err != nil {
		b.Fatal(err)
	}
	if p, err := repo.EventPin(ctx, recordsRef, id); err != nil || p == nil {
		b.Fatalf("no pin on the records ref: %v", err)
	}
	hook := filepath.Join(r.root, ".git", "hooks", "pre-commit")
	tree := strings.TrimSpace(r.git("rev-parse", "HEAD^{tree}"))
	const otherID = "0b7e1c2a-5f3d-4e8a-9c1b-2d4f6a8b0c1e"
	var hookT, factsT, pinT, headT, witnessT, writeT time.Duration
	timeIt := func(d *time.Duration, f func() error) {
		t0 := time.Now()
		if err := f(); err != nil {
			b.Fatal(err)
		}
		*d += time.Since(t0)
	}
	n := 0
	for b.Loop() {
		n++
		timeIt(&hookT, func() error {
			cmd := exec.Command(hook)
			cmd.Dir, cmd.Env = r.root, r.env
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("pre-commit hook: %v\n%s", err, out)
			}
			return nil
		})
		timeIt(&factsT, func() error { _, err := repo.CommitFacts(ctx, start); return err })
		timeIt(&pinT, func() error { _, err := repo.EventPin(ctx, recordsRef, id); return err })
		timeIt(&headT, func() error {
			cmd := exec.Command("git", "log", "-1", "--format=%(trailers:key=Session-Events,valueonly)", "HEAD")
			cmd.Dir, cmd.Env = r.root, r.env
			return cmd.Run()
		})
		timeIt(&witnessT, func() error { _, err := repo.PinWitness(ctx, recordsRef, id); return err })
		// A new chain head each time, as each pre-commit's is.
		refs := []sgsnap.EventRef{{Seq: 1, Token: fmt.Sprint("bench ", n), At: "2026-01-01T00:00:00Z"}}
		c, _ := sgsnap.EventChain(refs, 1)
		timeIt(&writeT, func() error {
			// Another session's pin: this one's would not match its events.
			_, err := repo.PutEventPin(ctx, recordsRef, sgsnap.EventPin{SessionID: otherID, Tree: tree, Events: c})
			return err
		})
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(n) / 1e6 }
	b.ReportMetric(ms(hookT), "hook-ms/op")
	b.ReportMetric(ms(factsT), "commitfacts-ms/op")
	b.ReportMetric(ms(pinT), "refpin-ms/op")
	b.ReportMetric(ms(headT), "headtrailer-ms/op")
	b.ReportMetric(ms(witnessT), "witness-ms/op")
	b.ReportMetric(ms(writeT), "pinwrite-ms/op")
}
