package verify_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/verify"
)

// TestVerifyRewoundSession (issue 25 item 8, round 27): a session of the
// range's branch that recorded an unlaunderable violation, that no commit
// of the range names, and that never ended (its database erased) or whose
// recorded commits all left the branch, fails the range: its work was
// reset away and the branch's commits were made around it (the full
// rewind, once records_push put its record on the remote). Honest twins:
// another branch's session, a violation that is not unlaunderable, an
// ended session whose commits shipped, a session from before the base.
func TestVerifyRewoundSession(t *testing.T) {
	const other = "0b80cb0b-2b1e-4c92-9a24-18f9c73b4bec"
	bypass := func(m map[string]any) {
		m["violations"] = []any{map[string]any{"code": "BYPASS", "requirement": "pre-commit hook", "severity": "CRITICAL", "at": m["session"].(map[string]any)["started_at"]}}
	}
	open := func(m map[string]any) {
		s := m["session"].(map[string]any)
		s["state"] = "WORKING"
		delete(s, "ended_at")
		delete(s, "end_commit")
	}
	commitsGone := func(m map[string]any) {
		for _, sn := range m["snapshots"].([]any) {
			st := sn.(map[string]any)["state"].(map[string]any)
			evs, _ := st["evidence"].([]any)
			for _, ev := range evs {
				e := ev.(map[string]any)
				if e["kind"] == "commit_sha" {
					e["sha256"] = strings.Repeat("ab", 32)
				}
			}
		}
	}
	noViolations := func(m map[string]any) { m["violations"] = []any{} }
	elsewhere := func(m map[string]any) {
		m["session"].(map[string]any)["place"] = "0123456789abcdef0123456789abcdef"
	}
	otherConversation := func(m map[string]any) {
		m["session"].(map[string]any)["conversations"] = []any{map[string]any{"agent": "claude", "id": "conv-bob"}}
	}
	teammate := func(m map[string]any) {
		m["session"].(map[string]any)["user_email"] = "bob@example.com"
		elsewhere(m)
		otherConversation(m)
	}
	renamed := func(m map[string]any) { m["session"].(map[string]any)["branch"] = "feat/greet-v2" }
	// The range's own session: Alice, in this worktree, in conversation 1.
	own := func(m map[string]any) {
		s := m["session"].(map[string]any)
		s["user_email"] = "alice@example.com"
		s["conversations"] = []any{map[string]any{"agent": "claude", "id": "conv-1"}}
	}
	for _, c := range []struct {
		name  string
		edits []func(m map[string]any)
		warn  bool
		want  string // "" passes
		// later: a second records commit, a fast-forward the pre-receive
		// hook accepts, rewrites the record (nil: none); del deletes it.
		later []func(m map[string]any)
		del   bool
		// keepCommits: the other session's record lists the range's
		// commit (its commits are on the branch); otherwise they are gone.
		keepCommits bool
	}{
		{"lazy: never ended, BYPASS, this branch", []func(m map[string]any){bypass, open}, false, "never ended, and no commit of this range names it", nil, false, false},
		{"lazy: ended, BYPASS, its commits gone from the branch", []func(m map[string]any){bypass, commitsGone}, false, "none of the 1 commit(s) it recorded is in this branch's history", nil, false, false},
		{name: "lazy: records ref rewritten forward, the record deleted", edits: []func(m map[string]any){bypass, open}, want: "is deleted", del: true},
		{name: "lazy: records ref rewritten forward, the violation dropped", edits: []func(m map[string]any){bypass, open}, want: "no longer carries it", later: []func(m map[string]any){bypass, open, noViolations}},
		{name: "lazy: records ref rewritten forward, the branch renamed", edits: []func(m map[string]any){bypass, open}, want: "never ended", later: []func(m map[string]any){bypass, open, func(m map[string]any) { m["session"].(map[string]any)["branch"] = "feat/other" }}},
		{name: "honest: records ref written again, the violation kept", edits: []func(m map[string]any){bypass}, later: []func(m map[string]any){bypass}},
		{name: "honest: another branch's record deleted (a second worktree)", edits: []func(m map[string]any){bypass, open, elsewhere, otherConversation, func(m map[string]any) { m["session"].(map[string]any)["branch"] = "feat/other" }}, del: true},
		// Round 28 (c2): the BYPASS belongs to the session's commits. A
		// teammate's clone on the same branch (a shared branch, or main
		// under push CI) with an open session that recorded a BYPASS was
		// a false FAIL of everyone's range (review of c1, round 27): tied
		// by nothing but the branch, it is noted; the range that holds
		// its commits fails.
		{name: "honest: a teammate's open BYPASS session on this branch, another person, worktree and conversation", edits: []func(m map[string]any){bypass, open, teammate}},
		{name: "lazy: a teammate's open BYPASS session whose commit is in this branch", edits: []func(m map[string]any){bypass, open, teammate, func(m map[string]any) { m["session"].(map[string]any)["state"] = "WORKING" }}, keepCommits: true, want: "its commits are in this branch's history"},
		{name: "lazy: the rewind with user.email changed first (same worktree)", edits: []func(m map[string]any){bypass, open, func(m map[string]any) { m["session"].(map[string]any)["user_email"] = "bob@example.com" }}, want: "though it ran in"},
		// A renamed branch (git branch -m, or switch -c and the old one
		// deleted): the record is tied by its worktree or conversation.
		{name: "lazy: the rewind on a renamed branch, same worktree", edits: []func(m map[string]any){bypass, open, renamed}, want: "perhaps on a renamed branch"},
		{name: "lazy: the rewind on a renamed branch in a fresh clone, same agent conversation", edits: []func(m map[string]any){bypass, open, renamed, elsewhere}, want: "an agent conversation a session of this range ran in"},
		{name: "honest: the same person's open BYPASS session on another branch, another worktree and conversation", edits: []func(m map[string]any){bypass, open, renamed, elsewhere, otherConversation}},
		{name: "honest: the same person's ended BYPASS session on another branch, the same worktree", edits: []func(m map[string]any){bypass, commitsGone, renamed}},
		{"lazy under verify.violations: warn", []func(m map[string]any){bypass, open}, true, "", nil, false, false},
		{"honest: another branch's open BYPASS session (a second worktree)", []func(m map[string]any){bypass, open, elsewhere, otherConversation, func(m map[string]any) { m["session"].(map[string]any)["branch"] = "feat/other" }}, false, "", nil, false, false},
		{"honest: never ended, no unlaunderable violation", []func(m map[string]any){open, func(m map[string]any) {
			m["violations"] = []any{map[string]any{"code": "SEQUENCE", "severity": "LOW", "at": m["session"].(map[string]any)["started_at"]}}
		}}, false, "", nil, false, false},
		{"honest: ended, BYPASS, its commit on the branch", []func(m map[string]any){bypass}, false, "", nil, false, true},
		{"honest: never ended, BYPASS, started before the range's base", []func(m map[string]any){bypass, open, func(m map[string]any) {
			m["session"].(map[string]any)["started_at"] = time.Now().Add(-48 * time.Hour).UTC().Format(time.RFC3339Nano)
			// Its start commit is below the base, not in this shallow
			// world: a start commit on the base or after it is no older
			// work, whatever the dates say (round 56).
			m["session"].(map[string]any)["start_commit"] = ""
		}}, false, "", nil, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo, base, id, rec := setupRef(t)
			rec = edit(t, rec, own)
			replaceRecord(t, repo.Root(), id, rec)
			body := edit(t, rec, func(m map[string]any) {
				m["session_id"] = other
				for _, f := range c.edits {
					f(m)
				}
				if !c.keepCommits {
					commitsGone(m)
				}
			})
			replaceRecord(t, repo.Root(), other, body)
			if c.later != nil {
				replaceRecord(t, repo.Root(), other, edit(t, rec, func(m map[string]any) {
					m["session_id"] = other
					for _, f := range c.later {
						f(m)
					}
				}))
			}
			if c.del {
				deleteRecord(t, repo.Root(), other)
			}
			opts := verify.Options{RecordPath: ref}
			if c.warn {
				opts.Violations = "warn"
			}
			// The range holds the first session's commit only: the other
			// session is named by none of them.
			rep, err := verify.Run(context.Background(), repo, base+"..HEAD", opts)
			if err != nil {
				t.Fatal(err)
			}
			var text strings.Builder
			for _, cr := range rep.Commits {
				text.WriteString(cr.Status + " " + strings.Join(cr.Problems, "; ") + "\n")
			}
			switch {
			case c.want == "" && !rep.OK:
				t.Fatalf("a false FAIL:\n%s", text.String())
			case c.want != "" && (rep.OK || !strings.Contains(text.String(), c.want)):
				t.Fatalf("route gets through (ok=%v), want %q:\n%s", rep.OK, c.want, text.String())
			case c.warn && !strings.Contains(text.String(), "verify.violations: warn lets it pass"):
				t.Fatalf("warn mode says nothing:\n%s", text.String())
			}
		})
	}
}

// deleteRecord commits the records ref again without id's record: a
// fast-forward, which a forward-only pre-receive hook accepts.
func deleteRecord(t *testing.T, dir, id string) {
	t.Helper()
	p, _ := recordref.Path(id)
	idx := "GIT_INDEX_FILE=" + filepath.Join(t.TempDir(), "index")
	gittest.GitEnv(t, dir, []string{idx}, "read-tree", ref)
	gittest.GitEnv(t, dir, []string{idx}, "update-index", "--force-remove", p)
	tree := gittest.GitEnv(t, dir, []string{idx}, "write-tree")
	c := gittest.Git(t, dir, "commit-tree", tree, "-p", ref, "-m", "records pruned")
	gittest.Git(t, dir, "update-ref", ref, c)
}

// TestVerifyNotesUnpushedViolation (round 28, c2): a session whose
// violation's push did not reach the remote (a records:not-pushed event)
// is named in the report's notes; a session without one is not.
func TestVerifyNotesUnpushedViolation(t *testing.T) {
	for _, unpushed := range []bool{true, false} {
		repo, base, id, rec := setupRef(t)
		if unpushed {
			rec = edit(t, rec, func(m map[string]any) {
				evs, _ := m["events"].([]any)
				m["events"] = append(evs, map[string]any{"seq": 999, "token": "records:not-pushed", "at": m["session"].(map[string]any)["started_at"]})
			})
			replaceRecord(t, repo.Root(), id, rec)
		}
		rep, err := verify.Run(context.Background(), repo, base+"..HEAD", verify.Options{RecordPath: ref})
		if err != nil {
			t.Fatal(err)
		}
		if !rep.OK {
			t.Errorf("unpushed=%v: an honest session failed (a note is no failure): %+v", unpushed, rep.Commits)
		}
		noted := strings.Contains(strings.Join(rep.Notes, "\n"), "records:not-pushed")
		if noted != unpushed {
			t.Errorf("unpushed=%v: noted=%v, notes %q", unpushed, noted, rep.Notes)
		}
	}
}
