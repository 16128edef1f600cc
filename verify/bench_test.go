package verify_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
	"github.com/sessiongate/sessiongate/verify"
)

// BenchmarkVerify10k: 10,000 commits made by 1,000 sessions (10 each),
// every record on the records ref, verified in one run, beside
// `git log --format=%(trailers)` over the same range (docs/benchmarks.md).
// The history is built with fast-import and the records written directly:
// the records are real (snapshot ids recompute, commits listed by hash).
func BenchmarkVerify10k(b *testing.B) {
	const commits, perSession = 10000, 10
	dir, base := buildHistory(b, commits, perSession)
	ctx := context.Background()
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	rng := base + "..HEAD"
	b.Run("verify", func(b *testing.B) {
		for range b.N {
			rep, err := verify.Run(ctx, repo, rng, verify.Options{RecordPath: recordref.DefaultRef})
			if err != nil {
				b.Fatal(err)
			}
			if !rep.OK || len(rep.Commits) != commits {
				b.Fatalf("verify: ok=%v, %d commits; first: %+v", rep.OK, len(rep.Commits), rep.Commits[0])
			}
		}
	})
	// The same with a base (issue 26.2-26.4): the trusted-file changes of
	// the range and, as with --rerun, the rerun guard's diffs.
	bl := &verify.Baseline{Rev: base, Config: config.Default(), ConfigFile: "sessiongate.yaml", ProtocolPath: "SESSION-PROTOCOL.md"}
	bl.Config.Commands = map[string]string{"QA_VALIDATION": "sh scripts/test.sh && go test ./..."}
	b.Run("verify-base-rerun-guard", func(b *testing.B) {
		for range b.N {
			rep, err := verify.Run(ctx, repo, rng, verify.Options{RecordPath: recordref.DefaultRef, Baseline: bl, Rerun: true})
			if err != nil {
				b.Fatal(err)
			}
			if !rep.OK || len(rep.Commits) != commits {
				b.Fatalf("verify: ok=%v, %d commits; first: %+v", rep.OK, len(rep.Commits), rep.Commits[0])
			}
		}
	})
	b.Run("git-log-trailers", func(b *testing.B) {
		for range b.N {
			cmd := exec.Command("git", "log", "--format=%(trailers)", rng)
			cmd.Dir = dir
			if out, err := cmd.Output(); err != nil || len(out) == 0 {
				b.Fatal(err)
			}
		}
	})
}

func buildHistory(b *testing.B, commits, perSession int) (string, string) {
	b.Helper()
	dir := b.TempDir()
	git := func(stdin string, args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=B", "GIT_AUTHOR_EMAIL=b@example.invalid",
			"GIT_COMMITTER_NAME=B", "GIT_COMMITTER_EMAIL=b@example.invalid")
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, errb.String())
		}
		return strings.TrimSpace(out.String())
	}
	git("", "init", "-q", "-b", "main", "bench")
	dir = filepath.Join(dir, "bench")
	git("", "commit", "-q", "--allow-empty", "-m", "base")
	base := git("", "rev-parse", "HEAD")
	name := filepath.Base(dir)
	type sess struct {
		id    string
		snaps []snapshot.Payload
	}
	var sessions []sess
	var fi strings.Builder
	fmt.Fprintf(&fi, "reset refs/heads/main\nfrom %s\n", base)
	for i := 0; i < commits; i++ {
		if i%perSession == 0 {
			s := sess{id: newUUID(b)}
			p := snapshot.Payload{Schema: snapshot.PayloadSchema,
				Session: snapshot.Key{EventSource: session.EventSource(name), ServerID: snapshot.ServerID, SessionID: s.id},
				Window:  snapshot.Window{Kind: "session"},
				State: snapshot.State{State: "ACTIVE", Phase: "WORK",
					Phases: []snapshot.Phase{{ID: "CONTEXT", Gate: "BLOCKING", Status: "PASSED"}, {ID: "WORK", Gate: "REQUIRED", Status: "PASSED"}}}}
			s.snaps = []snapshot.Payload{p}
			sessions = append(sessions, s)
		}
		s := &sessions[len(sessions)-1]
		id0, _, err := s.snaps[0].ID()
		if err != nil {
			b.Fatal(err)
		}
		msg := fmt.Sprintf("change %d\n\nSession-Id: %s\nSession-Snapshot: %s\n", i, s.id, id0)
		content := fmt.Sprintf("%d\n", i)
		fmt.Fprintf(&fi, "commit refs/heads/main\nmark :%d\ncommitter B <b@example.invalid> %d +0000\ndata %d\n%s\nM 644 inline f%d.txt\ndata %d\n%s\n",
			i+1, 1700000000+i, len(msg), msg, i%100, len(content), content)
	}
	marks := filepath.Join(b.TempDir(), "marks")
	git(fi.String(), "fast-import", "--quiet", "--export-marks="+marks)
	mb, err := os.ReadFile(marks)
	if err != nil {
		b.Fatal(err)
	}
	shas := make([]string, commits)
	for _, l := range strings.Split(strings.TrimSpace(string(mb)), "\n") {
		var n int
		var sha string
		if _, err := fmt.Sscanf(l, ":%d %s", &n, &sha); err != nil {
			b.Fatal(err)
		}
		shas[n-1] = sha
	}
	git("", "reset", "-q", "--hard", "main")
	var recs []recordref.Record
	for si, s := range sessions {
		final := s.snaps[0]
		final.State.State, final.State.Phase = string(session.StateComplete), "WORK"
		final.State.Evidence = nil
		for _, c := range shas[si*perSession : (si+1)*perSession] {
			sum := sha256.Sum256([]byte(c))
			final.State.Evidence = append(final.State.Evidence, snapshot.EvidenceRef{Phase: "WORK", Kind: session.EvidenceCommitSHA,
				SHA256: hex.EncodeToString(sum[:]), Origin: string(session.OriginObserved)})
		}
		id1, _, err := final.ID()
		if err != nil {
			b.Fatal(err)
		}
		rec := snapshot.Record{Schema: snapshot.RecordSchema, SessionID: s.id, Snapshots: []snapshot.Payload{s.snaps[0], final},
			Session: &snapshot.SessionMeta{Repository: name, StartCommit: base, State: string(session.StateComplete)}}
		rec.Envelope.Snapshot.StateSnapshotID = id1
		body, err := json.Marshal(rec)
		if err != nil {
			b.Fatal(err)
		}
		recs = append(recs, recordref.Record{SessionID: s.id, Body: body})
	}
	if _, err := recordref.Put(context.Background(), dir, recordref.DefaultRef, recs); err != nil {
		b.Fatal(err)
	}
	return dir, base
}

func newUUID(b *testing.B) string {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		b.Fatal(err)
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// BenchmarkVerifyDepth: what re-checking more of the default branch on a
// push costs (docs/benchmarks.md, "verify over N commits"): a range of
// 100, 1,000 and 10,000 commits (10 per session, records on the ref),
// verified in one run. It sizes verify's --recheck window.
func BenchmarkVerifyDepth(b *testing.B) {
	for _, n := range benchDepths() {
		b.Run(fmt.Sprintf("commits=%d", n), func(b *testing.B) {
			dir, base := buildHistory(b, n, 10)
			ctx := context.Background()
			repo, err := gitrepo.Open(ctx, dir)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				rep, err := verify.Run(ctx, repo, base+"..HEAD", verify.Options{RecordPath: recordref.DefaultRef})
				if err != nil {
					b.Fatal(err)
				}
				if !rep.OK || len(rep.Commits) != n {
					b.Fatalf("verify: ok=%v, %d commits", rep.OK, len(rep.Commits))
				}
			}
		})
	}
}

// benchDepths are BenchmarkVerifyDepth's sizes; SG_BENCH_DEPTHS="100 300"
// picks others.
func benchDepths() []int {
	out := []int{100, 1000, 10000}
	if v := os.Getenv("SG_BENCH_DEPTHS"); v != "" {
		out = nil
		for _, f := range strings.Fields(v) {
			var n int
			if _, err := fmt.Sscan(f, &n); err == nil && n > 0 {
				out = append(out, n)
			}
		}
	}
	return out
}
