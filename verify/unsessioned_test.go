package verify_test

import (
	"context"
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
