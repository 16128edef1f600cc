package verify_test

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/verify"
)

// h368Commit writes a records commit whose tree is parent's with the
// record of session id set to body (parent "" for none: the tree of
// treeOf, no parent, a ref rewritten from its root), dated date when set.
func h368Commit(t *testing.T, dir, treeOf, parent, id string, body []byte, date string) string {
	t.Helper()
	p, _ := recordref.Path(id)
	f := filepath.Join(t.TempDir(), "body")
	if err := os.WriteFile(f, body, 0o644); err != nil {
		t.Fatal(err)
	}
	blob := gittest.Git(t, dir, "hash-object", "-w", f)
	idx := "GIT_INDEX_FILE=" + filepath.Join(t.TempDir(), "index")
	gittest.GitEnv(t, dir, []string{idx}, "read-tree", treeOf)
	gittest.GitEnv(t, dir, []string{idx}, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+p)
	tree := gittest.GitEnv(t, dir, []string{idx}, "write-tree")
	args := []string{"commit-tree", tree, "-m", "sessiongate records: 1 session(s)"}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	var env []string
	if date != "" {
		env = []string{"GIT_COMMITTER_DATE=" + date, "GIT_AUTHOR_DATE=" + date}
	}
	return gittest.GitEnv(t, dir, env, args...)
}

// h368BlobID is git's blob id of b.
func h368BlobID(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// h368Grind appends whitespace to body (JSON reads the same) until its
// blob id is larger than beat's: what a fork does so that the union's
// larger-id rule keeps its copy. It returns the body and the tries.
func h368Grind(t *testing.T, body, beat []byte) ([]byte, int) {
	t.Helper()
	want := h368BlobID(beat)
	for n := 0; n < 4096; n++ {
		b := append(append([]byte{}, body...), bytes.Repeat([]byte(" "), n)...)
		if h368BlobID(b) > want {
			return b, n + 1
		}
	}
	t.Fatal("no whitespace made the blob id larger")
	return nil, 0
}

// h368Fork makes a bare fork whose records ref is at commit tip of dir.
func h368Fork(t *testing.T, dir, tip string) string {
	t.Helper()
	fork := filepath.Join(t.TempDir(), "fork.git")
	gittest.Git(t, dir, "init", "-q", "--bare", fork)
	gittest.Git(t, dir, "push", "-q", fork, tip+":"+ref)
	return "file://" + fork
}

// TestR64H368ForkEditsOriginRecord (helper 368): CI verifies a fork's pull
// request on origin's records with the fork's merged in (`records pull
// <fork URL>`, action.yml and the GitLab template). Origin holds a session
// record ABANDONED (its QA never ran); the fork's records ref carries the
// same record edited to say COMPLETE, the ids recomputed, whitespace added
// until its blob id is larger than origin's (the union kept the larger
// id), its ref rewritten from the root and its commit dated 2001. The
// merge took the fork's bytes, and verify's history check read the
// versions "oldest first" by git's date order: the fork's backdated
// version was the first with an end and said COMPLETE, so the commit
// passed (exit 0). Now any version with an end that says otherwise fails
// the COMPLETE tip, and `records pull --keep-local` (CI's) keeps origin's
// bytes. Honest twins: a fork's own session's record comes in beside
// origin's; a fork's later version of a record origin holds an earlier
// one of (a rebase after fork-records: push) wins; origin's ref alone (a
// pull request from a branch of origin) passes.
func TestR64H368ForkEditsOriginRecord(t *testing.T) {
	ctx := context.Background()
	type world struct {
		dir, base, id, p    string
		prior               string // the ref before the session's record
		complete, abandoned []byte
		repoRun             func(t *testing.T) *verify.Report
	}
	setup := func(t *testing.T) world {
		repo, base, id, rec := setupRef(t)
		dir := repo.Root()
		p, _ := recordref.Path(id)
		added := gittest.Git(t, dir, "log", "--format=%H", "--diff-filter=A", ref, "--", p)
		w := world{dir: dir, base: base, id: id, p: p, prior: added + "^",
			complete: withEndState(t, rec, "COMPLETE"), abandoned: withEndState(t, rec, "ABANDONED")}
		w.repoRun = func(t *testing.T) *verify.Report {
			rep, err := verify.Run(ctx, repo, base+"..HEAD", verify.Options{RecordPath: ref})
			if err != nil {
				t.Fatal(err)
			}
			return rep
		}
		return w
	}
	tipBody := func(t *testing.T, w world) []byte {
		b, _, err := recordref.Read(ctx, w.dir, ref, w.id)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	const old = "2001-01-01T00:00:00Z"
	for _, c := range []struct {
		name      string
		keepLocal bool
		fromRoot  bool
		want      string
	}{
		// The fork's copy won the union: the history check's failure.
		{"lazy: rewritten from the root, backdated, ground; records pull (larger id)", false, true, "record edited"},
		// Origin's bytes kept: origin's own verdict.
		{"lazy: the same; records pull --keep-local (CI)", true, true, "the session ended ABANDONED, not COMPLETE"},
		// A later version on top of origin's: judged with origin's.
		{"lazy: built on origin's ref (fast-forward), backdated; records pull --keep-local", true, false, "record edited"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := setup(t)
			origin := h368Commit(t, w.dir, w.prior, w.prior, w.id, w.abandoned, "")
			gittest.Git(t, w.dir, "update-ref", ref, origin)
			edited, tries := h368Grind(t, w.complete, w.abandoned)
			t.Logf("the edited record's blob id beat origin's after %d whitespace tries", tries)
			parent := origin
			if c.fromRoot {
				parent = ""
			}
			url := h368Fork(t, w.dir, h368Commit(t, w.dir, w.prior, parent, w.id, edited, old))
			pull := recordref.Pull
			if c.keepLocal {
				pull = recordref.PullKeepLocal
			}
			if _, err := pull(ctx, w.dir, url, ref); err != nil {
				t.Fatal(err)
			}
			if c.keepLocal && c.fromRoot && !bytes.Equal(tipBody(t, w), w.abandoned) {
				t.Errorf("records pull --keep-local took the fork's ground copy of a record origin holds")
			}
			rep := w.repoRun(t)
			problems := strings.Join(rep.Commits[0].Problems, "\n")
			if rep.OK || !strings.Contains(problems, c.want) {
				t.Fatalf("the fork's edited record passed (OK=%v):\n%s", rep.OK, problems)
			}
			t.Logf("FAIL as wanted:\n%s", problems)
		})
	}
	t.Run("honest: origin's ref alone (a pull request from a branch of origin)", func(t *testing.T) {
		w := setup(t)
		if rep := w.repoRun(t); !rep.OK {
			t.Fatalf("failed:\n%s", strings.Join(rep.Commits[0].Problems, "\n"))
		}
	})
	t.Run("honest: a fork's own session comes in beside origin's records", func(t *testing.T) {
		w := setup(t)
		tip := gittest.Git(t, w.dir, "rev-parse", ref)
		const other = "0f0f0f0f-0000-4000-8000-000000000368"
		// The fork's ref built apart from origin's (the contributor never
		// fetched origin's records), holding its own session only.
		fork := h368Commit(t, w.dir, w.prior, "", other, []byte(`{"session_id":"`+other+`"}`), old)
		if _, err := recordref.PullKeepLocal(ctx, w.dir, h368Fork(t, w.dir, fork), ref); err != nil {
			t.Fatal(err)
		}
		if got := gittest.Git(t, w.dir, "rev-parse", ref); got == tip {
			t.Fatal("nothing merged")
		}
		if _, _, err := recordref.Read(ctx, w.dir, ref, other); err != nil {
			t.Fatalf("the fork's own record did not come in: %v", err)
		}
		if !bytes.Equal(tipBody(t, w), tipBodyAt(t, w.dir, tip, w.id)) {
			t.Error("origin's record changed")
		}
		if rep := w.repoRun(t); !rep.OK {
			t.Fatalf("failed:\n%s", strings.Join(rep.Commits[0].Problems, "\n"))
		}
	})
	t.Run("honest: a later version the fork wrote of a record origin holds earlier (rebase after fork-records: push)", func(t *testing.T) {
		w := setup(t)
		mid := withEndState(t, w.complete, "")
		v1 := h368Commit(t, w.dir, w.prior, w.prior, w.id, mid, "")
		// Origin moved on (another session's record); the fork wrote the
		// session again on top of v1.
		o2 := h368Commit(t, w.dir, v1, v1, "0f0f0f0f-0000-4000-8000-000000000369", []byte(`{}`), "")
		gittest.Git(t, w.dir, "update-ref", ref, o2)
		later := w.complete
		if h368BlobID(later) > h368BlobID(mid) {
			// Make the larger-id rule pick origin's earlier version, so
			// the row shows keep-local's own choice.
			later, _ = h368GrindBelow(t, w.complete, mid)
		}
		fork := h368Commit(t, w.dir, v1, v1, w.id, later, "")
		if _, err := recordref.PullKeepLocal(ctx, w.dir, h368Fork(t, w.dir, fork), ref); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(tipBody(t, w), later) {
			t.Fatal("records pull --keep-local kept origin's earlier version of a record the fork wrote again")
		}
		if rep := w.repoRun(t); !rep.OK {
			t.Fatalf("failed:\n%s", strings.Join(rep.Commits[0].Problems, "\n"))
		}
	})
}

// h368GrindBelow is h368Grind for a blob id smaller than beat's.
func h368GrindBelow(t *testing.T, body, beat []byte) ([]byte, int) {
	t.Helper()
	want := h368BlobID(beat)
	for n := 1; n < 4096; n++ {
		b := append(append([]byte{}, body...), bytes.Repeat([]byte(" "), n)...)
		if h368BlobID(b) < want {
			return b, n
		}
	}
	t.Fatal("no whitespace made the blob id smaller")
	return nil, 0
}

func tipBodyAt(t *testing.T, dir, tip, id string) []byte {
	t.Helper()
	b, _, err := recordref.Read(context.Background(), dir, tip, id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
