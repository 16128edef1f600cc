package verify_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
	"github.com/sessiongate/sessiongate/verify"
)

const ref = recordref.DefaultRef

// setupRef runs one whole session with records on the ref (nothing
// committed for the record); it returns the repository, the base commit,
// the session id and the record's bytes.
func setupRef(t *testing.T) (*gitrepo.Repo, string, string, []byte) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is required under CI=true")
		}
		t.Skip("git not found")
	}
	ctx := context.Background()
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q", "-b", "main")
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "base")
	base := gittest.Git(t, dir, "rev-parse", "HEAD")
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := session.NewEngine(db, session.Config{SessionRecord: ref}, func(ctx context.Context, wt string) (session.Repo, error) {
		return gitrepo.Open(ctx, wt)
	})
	spec, err := e.LoadSpec(ctx, "P.md", []byte(protocol))
	if err != nil {
		t.Fatal(err)
	}
	st, err := e.Start(ctx, session.StartRequest{Repo: repo, Spec: spec, Objective: "verify"})
	if err != nil {
		t.Fatal(err)
	}
	id := st.SessionID
	if _, err := e.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "CONTEXT", Kind: "tool_output", Evidence: "read"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Advance(ctx, session.AdvanceRequest{ID: id}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "work.txt"), []byte("work\n"), 0o644)
	gittest.Git(t, dir, "add", "work.txt")
	hookCommit(t, e, repo, "work", id)
	head := gittest.Git(t, dir, "rev-parse", "HEAD")
	end, err := e.End(ctx, session.EndRequest{ID: id, Summary: "done"})
	if err != nil || !end.Ended || len(end.Warnings) > 0 {
		t.Fatalf("end: %+v %v", end, err)
	}
	p, _ := recordref.Path(id)
	if end.RecordFile != ref+":"+p || !strings.Contains(end.Next, "no commit needed") {
		t.Fatalf("record file %q, next %q", end.RecordFile, end.Next)
	}
	if gittest.Git(t, dir, "rev-parse", "HEAD") != head || gittest.Git(t, dir, "status", "--porcelain") != "" {
		t.Fatal("session end changed HEAD or the work tree")
	}
	b, _, err := recordref.Read(ctx, dir, ref, id)
	if err != nil {
		t.Fatal(err)
	}
	return repo, base, id, b
}

// replaceRecord puts arbitrary bytes at a session's path on the ref,
// bypassing the writer's checks (a hostile or broken pusher).
func replaceRecord(t *testing.T, dir, id string, body []byte) {
	t.Helper()
	p, _ := recordref.Path(id)
	f := filepath.Join(t.TempDir(), "body")
	os.WriteFile(f, body, 0o644)
	blob := gittest.Git(t, dir, "hash-object", "-w", f)
	idx := "GIT_INDEX_FILE=" + filepath.Join(t.TempDir(), "index")
	gittest.GitEnv(t, dir, []string{idx}, "read-tree", ref)
	gittest.GitEnv(t, dir, []string{idx}, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+p)
	tree := gittest.GitEnv(t, dir, []string{idx}, "write-tree")
	c := gittest.Git(t, dir, "commit-tree", tree, "-p", ref, "-m", "tampered")
	gittest.Git(t, dir, "update-ref", ref, c)
}

// edit rewrites the record's JSON.
func edit(t *testing.T, b []byte, f func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// lateEvent appends a gate pass dated an hour after the session's end.
func lateEvent(m map[string]any) {
	end, _ := time.Parse(time.RFC3339Nano, m["session"].(map[string]any)["ended_at"].(string))
	evs, _ := m["events"].([]any)
	m["events"] = append(evs, map[string]any{"seq": 99, "token": "gate:QA:pass", "at": end.Add(time.Hour).Format(time.RFC3339Nano)})
}

func lastSnapshot(m map[string]any) map[string]any {
	snaps := m["snapshots"].([]any)
	return snaps[len(snaps)-1].(map[string]any)
}

func TestVerifyRecordsRef(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(t *testing.T, dir, id string, rec []byte)
		want   string // "" = passes
	}{
		{name: "intact", tamper: func(*testing.T, string, string, []byte) {}},
		{name: "malformed", tamper: func(t *testing.T, dir, id string, _ []byte) {
			replaceRecord(t, dir, id, []byte("{\"schema\": oops"))
		}, want: "not a session record"},
		{name: "oversized", tamper: func(t *testing.T, dir, id string, _ []byte) {
			replaceRecord(t, dir, id, []byte(strings.Repeat(" ", recordref.MaxRecordBytes+1)))
		}, want: "over the 4194304-byte limit"},
		{name: "another repository", tamper: func(t *testing.T, dir, id string, rec []byte) {
			replaceRecord(t, dir, id, edit(t, rec, func(m map[string]any) {
				for _, s := range m["snapshots"].([]any) {
					s.(map[string]any)["session"].(map[string]any)["event_source"] = "sessiongate://elsewhere"
				}
				m["session"].(map[string]any)["start_commit"] = "0123456789abcdef0123456789abcdef01234567"
			}))
		}, want: `claims repository "sessiongate://elsewhere"`},
		{name: "another repository without a start commit", tamper: func(t *testing.T, dir, id string, rec []byte) {
			replaceRecord(t, dir, id, edit(t, rec, func(m map[string]any) {
				for _, s := range m["snapshots"].([]any) {
					s.(map[string]any)["session"].(map[string]any)["event_source"] = "sessiongate://elsewhere"
				}
				delete(m, "session")
			}))
		}, want: `the record names no start commit`},
		{name: "snapshot id does not recompute", tamper: func(t *testing.T, dir, id string, rec []byte) {
			replaceRecord(t, dir, id, edit(t, rec, func(m map[string]any) {
				lastSnapshot(m)["state"].(map[string]any)["violations"] = []any{"FORCED_ADVANCE:CONTEXT"}
			}))
		}, want: "does not match the recomputed final snapshot"},
		{name: "an event dated after the end", tamper: func(t *testing.T, dir, id string, rec []byte) {
			replaceRecord(t, dir, id, edit(t, rec, lateEvent))
		}, want: "after the session ended"},
		// The downgrade: the same forged event with clock_version dropped
		// passed (no time check for a clock_version 0 record); the ref's
		// history says this session's record first carried it.
		{name: "an event dated after the end, clock_version dropped", tamper: func(t *testing.T, dir, id string, rec []byte) {
			replaceRecord(t, dir, id, edit(t, rec, func(m map[string]any) { lateEvent(m); delete(m, "clock_version") }))
		}, want: "clock_version dropped"},
		// The end moved past the forged event: started_at and ended_at are
		// the record's own words unless something the agent cannot edit
		// pins them.
		{name: "an event dated after the end, ended_at moved past it", tamper: func(t *testing.T, dir, id string, rec []byte) {
			replaceRecord(t, dir, id, edit(t, rec, func(m map[string]any) {
				lateEvent(m)
				end, _ := time.Parse(time.RFC3339Nano, m["session"].(map[string]any)["ended_at"].(string))
				m["session"].(map[string]any)["ended_at"] = end.Add(2 * time.Hour).Format(time.RFC3339Nano)
			}))
		}, want: "ended_at"},
		{name: "an event dated before the start, started_at moved before it", tamper: func(t *testing.T, dir, id string, rec []byte) {
			replaceRecord(t, dir, id, edit(t, rec, func(m map[string]any) {
				sm := m["session"].(map[string]any)
				start, _ := time.Parse(time.RFC3339Nano, sm["started_at"].(string))
				evs, _ := m["events"].([]any)
				m["events"] = append(evs, map[string]any{"seq": 98, "token": "gate:CONTEXT:pass", "at": start.Add(-time.Hour).Format(time.RFC3339Nano)})
				sm["started_at"] = start.Add(-2 * time.Hour).Format(time.RFC3339Nano)
			}))
		}, want: "started_at"},
		// Honest twin: a record written again on the ref with its times kept.
		{name: "rewritten on the ref, times kept", tamper: func(t *testing.T, dir, id string, rec []byte) {
			replaceRecord(t, dir, id, append(append([]byte{}, rec...), '\n'))
		}},
		{name: "another session's record", tamper: func(t *testing.T, dir, id string, rec []byte) {
			replaceRecord(t, dir, id, edit(t, rec, func(m map[string]any) { m["session_id"] = "11111111-1111-4111-8111-111111111111" }))
		}, want: "record is for session"},
		{name: "record not pushed", tamper: func(t *testing.T, dir, id string, _ []byte) {
			gittest.Git(t, dir, "update-ref", ref, gittest.Git(t, dir, "commit-tree", gittest.Git(t, dir, "mktree", "--missing"), "-m", "empty"))
		}, want: "no session record for " + "%ID% on " + ref},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			repo, base, id, rec := setupRef(t)
			dir := repo.Root()
			tc.tamper(t, dir, id, rec)
			rep, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{RecordPath: ref})
			if err != nil {
				t.Fatal(err)
			}
			c := rep.Commits[0]
			p, _ := recordref.Path(id)
			problems := strings.Join(c.Problems, "\n")
			if tc.want == "" {
				if !rep.OK || c.Status != "ok" || c.Record != ref+":"+p {
					t.Fatalf("intact record: %+v", rep)
				}
				return
			}
			want := strings.ReplaceAll(tc.want, "%ID%", id)
			if rep.OK || c.Status != "fail" || !strings.Contains(problems, want) {
				t.Fatalf("want a failure with %q, got %s:\n%s", want, c.Status, problems)
			}
			if tc.name != "record not pushed" && !strings.Contains(problems, ref+":"+p) {
				t.Errorf("the problem does not name the record %s:\n%s", ref+":"+p, problems)
			}
		})
	}
}

// Without the ref in this clone, verify says which fetch CI needs.
func TestVerifyRecordsRefMissing(t *testing.T) {
	repo, base, _, _ := setupRef(t)
	gittest.Git(t, repo.Root(), "update-ref", "-d", ref)
	_, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{RecordPath: ref})
	var miss *verify.MissingRefError
	if !errors.As(err, &miss) || !strings.Contains(err.Error(), "git fetch origin "+ref+":"+ref) {
		t.Fatalf("got %v", err)
	}
	// A range without session commits needs no records.
	if _, err := verify.Run(context.Background(), repo, base, verify.Options{RecordPath: ref, MissingTrailer: "warn"}); err != nil {
		t.Fatalf("range without trailers: %v", err)
	}
}

// Migration: a config moved to the ref still verifies the commits whose
// records were committed in the tree before the move.
func TestVerifyRefFallsBackToTreeRecords(t *testing.T) {
	repo, base, _ := setup(t) // records committed in the tree
	// This clone has no records ref yet, but the range has trailers: the
	// ref is required even so (the missing-ref error), so create one.
	dir := repo.Root()
	gittest.Git(t, dir, "update-ref", ref, gittest.Git(t, dir, "commit-tree", gittest.Git(t, dir, "mktree", "--missing"), "-m", "empty"))
	rep, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{RecordPath: ref})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK || rep.Commits[0].Record != session.DefaultRecordPath[:len(".sessiongate/records/")]+rep.Commits[0].SessionID+".json" {
		t.Fatalf("in-tree record after the move: %+v", rep)
	}
}

// A rename of the remote (its last path segment) changes the name a clone
// computes, not the records already written: they still verify, by their
// start commit being in this history, and the report says why.
func TestVerifyRecordsRefSurvivesRename(t *testing.T) {
	for _, tc := range []struct {
		name, url string
	}{
		{"origin renamed", "https://github.com/acme/renamed-project.git"},
		{"origin added after the sessions", "git@example.com:acme/other.git"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo, base, _, _ := setupRef(t)
			gittest.Git(t, repo.Root(), "remote", "add", "origin", tc.url)
			rep, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{RecordPath: ref})
			if err != nil {
				t.Fatal(err)
			}
			c := rep.Commits[0]
			problems := strings.Join(c.Problems, "\n")
			if !rep.OK || c.Status != "ok" {
				t.Fatalf("renamed repository: %s\n%s", c.Status, problems)
			}
			for _, want := range []string{"from the last path segment of remote origin's URL " + tc.url, "start commit " + base[:12] + " is in this history"} {
				if !strings.Contains(problems, want) {
					t.Errorf("the report does not say %q:\n%s", want, problems)
				}
			}
		})
	}
}
