package verify_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/snapshot"
	"github.com/sessiongate/sessiongate/verify"
)

// TestUnsessionedPolicy: each commit without a session under each
// verify.unsessioned policy, with the evidence verify has in CI: the
// post-commit hook's actor record on the records ref and the agents' own
// co-author trailers (their real formats). Every verdict says why.
func TestUnsessionedPolicy(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "base")
	base := gittest.Git(t, dir, "rev-parse", "HEAD")
	commit := func(msg string) string {
		gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
		return gittest.Git(t, dir, "rev-parse", "HEAD")
	}
	put := func(sha, actor, agent, kind string) {
		if _, err := recordref.PutActor(ctx, dir, recordref.DefaultRef, snapshot.CommitActor{Commit: sha, Actor: actor, Agent: agent, Kind: kind,
			Author: "Pat <pat@example.com>", Via: "no coding agent in the environment or process ancestry"}); err != nil {
			t.Fatal(err)
		}
	}
	adoption := commit("adopt")
	put(adoption, snapshot.ActorPerson, "", snapshot.KindAdoption)
	person := commit("a person's fix")
	put(person, snapshot.ActorPerson, "", snapshot.KindCommit)
	// A person record, but the message credits Claude Code: the trailer wins.
	claude := commit("fix\n\nCo-Authored-By: Claude Opus 4.5 <noreply@anthropic.com>")
	put(claude, snapshot.ActorPerson, "", snapshot.KindCommit)
	copilot := commit("fix\n\nCo-authored-by: Copilot <223556219+Copilot@users.noreply.github.com>")
	codex := commit("fix\n\nCo-authored-by: Codex <noreply@openai.com>")
	cursor := commit("fix\n\nCo-authored-by: Cursor Agent <cursoragent@cursor.com>")
	hooked := commit("agent, recorded by the hook")
	put(hooked, snapshot.ActorAgent, "gemini", snapshot.KindCommit)
	unknown := commit("plumbing, nobody recorded it")
	human := commit("pair\n\nCo-authored-by: Sam Person <sam@example.com>") // a person co-author is no agent
	put(human, snapshot.ActorPerson, "", snapshot.KindCommit)

	names := map[string]string{adoption: "adoption", person: "person", claude: "claude", copilot: "copilot", codex: "codex",
		cursor: "cursor", hooked: "hooked", unknown: "unknown", human: "human"}
	type want map[string]string // commit name -> status
	agents := want{"claude": "fail", "copilot": "fail", "codex": "fail", "cursor": "fail", "hooked": "fail"}
	for _, tc := range []struct {
		policy, missing string
		want            want
	}{
		{"people", "fail", merge(agents, want{"adoption": "ok", "person": "ok", "human": "ok", "unknown": "fail"})},
		{"", "fail", merge(agents, want{"adoption": "ok", "person": "ok", "human": "ok", "unknown": "fail"})},
		{"fail", "fail", merge(agents, want{"adoption": "fail", "person": "fail", "human": "fail", "unknown": "fail"})},
		{"agents", "fail", merge(agents, want{"adoption": "ok", "person": "ok", "human": "ok", "unknown": "warn"})},
		{"allow", "fail", want{"adoption": "ok", "person": "ok", "human": "ok", "unknown": "warn", "claude": "warn", "copilot": "warn", "codex": "warn", "cursor": "warn", "hooked": "warn"}},
		// missing_trailer: warn (the older key) still turns failures into warnings.
		{"people", "warn", want{"adoption": "ok", "person": "ok", "human": "ok", "unknown": "warn", "claude": "warn", "copilot": "warn", "codex": "warn", "cursor": "warn", "hooked": "warn"}},
	} {
		t.Run(tc.policy+"/"+tc.missing, func(t *testing.T) {
			repo, err := gitrepo.Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := verify.Run(ctx, repo, base+"..HEAD", verify.Options{RecordPath: recordref.DefaultRef, MissingTrailer: tc.missing, Unsessioned: tc.policy})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Commits) != len(names) {
				t.Fatalf("%d commits reported, want %d", len(rep.Commits), len(names))
			}
			for _, c := range rep.Commits {
				n := names[c.SHA]
				if c.Status != tc.want[n] {
					t.Errorf("%s: %s, want %s: %v", n, c.Status, tc.want[n], c.Problems)
				}
				why := strings.Join(c.Problems, "; ")
				switch {
				case n == "adoption" && !strings.Contains(why, "the adoption commit (sessiongate init --commit) by Pat <pat@example.com>"),
					n == "claude" && !strings.Contains(why, "an agent made it: claude (Co-Authored-By: Claude Opus 4.5 <noreply@anthropic.com>)"),
					n == "hooked" && !strings.Contains(why, "the post-commit hook recorded it as gemini's"),
					n == "unknown" && !strings.Contains(why, "no record of who made it"):
					t.Errorf("%s: the reason does not name its evidence: %s", n, why)
				}
			}
		})
	}
}

func merge(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// TestUnsessionedMerges: what a merge commit no session made gets under
// each policy. Decided (issue 25): a clean merge (its tree is git
// merge-tree's of its parents) passes under every policy, fail included:
// it holds no change of its own, and each change it brings in is a commit
// the policy judges itself (the side commit below fails under fail).
// Failing it would fail every "Create a merge commit" push without
// checking anything more. A merge with a change of its own fails under
// people and fail; agents and allow pass unrecorded commits by design.
func TestUnsessionedMerges(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "base")
	base := gittest.Git(t, dir, "rev-parse", "HEAD")
	write := func(f string) {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		gittest.Git(t, dir, "add", f)
	}
	gittest.Git(t, dir, "checkout", "-q", "-b", "side")
	write("side.txt")
	gittest.Git(t, dir, "commit", "-q", "-m", "a person's side work")
	side := gittest.Git(t, dir, "rev-parse", "HEAD")
	if _, err := recordref.PutActor(ctx, dir, recordref.DefaultRef, snapshot.CommitActor{Commit: side, Actor: snapshot.ActorPerson, Kind: snapshot.KindCommit,
		Author: "Pat <pat@example.com>", Via: "no coding agent in the environment or process ancestry"}); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "checkout", "-q", "-")
	write("main.txt")
	gittest.Git(t, dir, "commit", "-q", "-m", "main work")
	mainWork := gittest.Git(t, dir, "rev-parse", "HEAD")
	gittest.Git(t, dir, "merge", "-q", "--no-ff", "-m", "Merge side", "side")
	clean := gittest.Git(t, dir, "rev-parse", "HEAD")
	gittest.Git(t, dir, "reset", "-q", "--hard", mainWork)
	gittest.Git(t, dir, "merge", "-q", "--no-ff", "--no-commit", "side")
	write("evil.txt")
	gittest.Git(t, dir, "commit", "-q", "-m", "Merge side, and more")
	evil := gittest.Git(t, dir, "rev-parse", "HEAD")
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		policy, clean, evil, side string
	}{
		{"fail", "ok", "fail", "fail"},
		{"people", "ok", "fail", "ok"},
		{"agents", "warn", "warn", "ok"},
		{"allow", "warn", "warn", "ok"},
	} {
		for _, m := range []struct{ tip, want string }{{clean, tc.clean}, {evil, tc.evil}} {
			rep, err := verify.Run(ctx, repo, base+".."+m.tip, verify.Options{RecordPath: recordref.DefaultRef, Unsessioned: tc.policy})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]verify.CommitReport{}
			for _, c := range rep.Commits {
				got[c.SHA] = c
			}
			if c := got[m.tip]; c.Status != m.want {
				t.Errorf("%s: merge %s: %s, want %s: %v", tc.policy, c.Subject, c.Status, m.want, c.Problems)
			}
			if c := got[side]; c.Status != tc.side {
				t.Errorf("%s: the side commit: %s, want %s: %v", tc.policy, c.Status, tc.side, c.Problems)
			}
		}
	}
}
