package main

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestVerifyAdvCIForkRecordsAction: the maintainer's step for a fork's
// pull request (records pull from the fork, records push to origin),
// automated by action.yml's fork-records: push on pull_request_target.
// Before it, a fork's honest pull request merged on GitHub turned the push
// to main red ("no session record") until a person ran the step. Now the
// pull request's job pushes the fork's records once its commits verify,
// and the push to main after a merge commit or a rebase merge passes with
// no person's step (the rebase's rewritten commits map to the originals
// at refs/pull/N/head by patch-id, whose records are now on origin). Lazy
// twins: a fork's hooks-off commit fails and pushes nothing; only the
// records of the sessions behind the pull request's commits are pushed
// (round 23: the fork's whole ref went, an unrelated session's record and
// an actor claim included); a fork whose records ref rewrites another
// record origin holds pushes nothing of it; --rerun with fork-records:
// push is refused (exit 2): it would run the fork's code in a job that can
// write to origin.
func TestVerifyAdvCIForkRecordsAction(t *testing.T) {
	w := newCIWorld(t)
	w.qaCmd = "test ! -f broken.txt" // main's QA command (newCIWorld ends on bad-qa's)
	fork := "file://" + w.fork
	w.git(t, w.dir, "clone", "-q", "--mirror", w.remote, w.fork)
	w.git(t, w.dev, "remote", "set-url", "origin", fork)
	w.git(t, w.dev, "checkout", "-q", "-b", "contrib", w.main)
	w.session(t, "fork1.txt", "fork2.txt")
	honest := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "origin", "contrib")
	w.git(t, w.dev, "checkout", "-q", "-b", "contrib-bad", honest)
	lazy := w.noHooks(t, "fork-sneak.txt", "sneak a change in through a fork")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "contrib-bad")
	// GitHub serves each pull request's head on the base repository.
	w.git(t, w.remote, "fetch", "-q", fork, "+refs/heads/contrib:refs/pull/1/head", "+refs/heads/contrib-bad:refs/pull/2/head")
	originRecords := func() string { return w.git(t, w.remote, "rev-parse", "refs/sessiongate/records") }

	src, _ := filepath.Abs(filepath.Join("..", ".."))
	// The pull_request_target job: actions/checkout of the base (main,
	// depth 1), then the action with fork-records: push.
	job := func(t *testing.T, n int, head string, inputs map[string]string) (int, string) {
		ci := w.checkout(t, "prt", true, w.main, "+refs/heads/main:refs/remotes/origin/main")
		vals := map[string]string{
			"github.event.pull_request.head.repo.clone_url": fork,
			"github.event.pull_request.head.repo.full_name": "contributor/project",
			"github.event.pull_request.base.sha":            w.main,
			"github.event.pull_request.head.sha":            head,
			"github.repository":                             "acme/project",
			"github.action_path":                            src,
			"github.action_ref":                             "main",
		}
		ev := prEvent(n, w.main, head)
		ev["repository"] = map[string]any{"default_branch": "main"}
		env := append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request_target",
			"GITHUB_EVENT_PATH="+w.event(t, filepath.Base(ci), ev))
		inputs["version"] = "source"
		code, out := replayAction(t, ci, env, vals, inputs)
		t.Logf("exit %d\n%s", code, out)
		return code, out
	}
	matches := func(t *testing.T, out string, res ...string) {
		t.Helper()
		for _, re := range res {
			if !regexp.MustCompile(re).MatchString(out) {
				t.Errorf("output does not match %s:\n%s", re, out)
			}
		}
	}
	// forge commits a file onto the fork's records ref, as a fork can.
	forge := func(t *testing.T, path, body string) {
		idx := filepath.Join(t.TempDir(), "index")
		run := func(stdin string, args ...string) string {
			cmd := exec.Command("git", args...)
			cmd.Dir = w.fork
			cmd.Env = append(append(os.Environ(), w.env...), "GIT_INDEX_FILE="+idx)
			cmd.Stdin = strings.NewReader(stdin)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
			return strings.TrimSpace(string(out))
		}
		tip := run("", "rev-parse", "refs/sessiongate/records")
		run("", "read-tree", tip)
		blob := run(body, "hash-object", "-w", "--stdin")
		run("", "update-index", "--add", "--cacheinfo", "100644,"+blob+","+path)
		tree := run("", "write-tree")
		c := run("", "commit-tree", "-p", tip, "-m", "forged", tree)
		run("", "update-ref", "refs/sessiongate/records", c)
	}

	gh := filepath.Join(w.dir, "github-land")
	w.git(t, w.dir, "clone", "-q", w.remote, gh)
	asGitHub := []string{"-c", "user.name=GitHub", "-c", "user.email=noreply@github.com", "-c", "core.hooksPath=/dev/null"}
	ghGit := func(args ...string) string { return w.git(t, gh, append(append([]string{}, asGitHub...), args...)...) }
	ghGit("fetch", "-q", "origin", "+refs/pull/1/head:refs/remotes/pull/1")
	// GitHub's "Rebase and merge": the fork's commits rewritten onto main.
	ghGit("checkout", "-q", "-B", "rb", "refs/remotes/pull/1")
	ghGit("rebase", "-q", "--force-rebase", "origin/main")
	rebased := ghGit("rev-parse", "HEAD")
	ghGit("push", "-q", "origin", "HEAD:refs/heads/land-rebase")
	// The push to main the merge makes: actions/checkout's default (depth
	// 1, main alone), records from origin; no person brought them.
	pushJob := func(t *testing.T, name, before, after string, code int, want []string) {
		ci := w.checkout(t, name, true, after, "+"+after+":refs/remotes/origin/main", "+refs/sessiongate/records:refs/sessiongate/records")
		env := append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push",
			"GITHUB_EVENT_PATH="+w.event(t, name, pushEvent(before, after, "refs/heads/main")), "GITHUB_REF=refs/heads/main", "GITHUB_SHA="+after)
		verifyWants(t, ci, env, nil, code, want)
	}
	t.Run("rebase merge before the fork's records reach origin: fails, naming the step", func(t *testing.T) {
		pushJob(t, "fork-rebase-early", w.main, rebased, 1, []string{`(?m)^FAIL .* add fork1\.txt`, `sessiongate records pull <the fork's URL> && sessiongate records push`})
	})
	t.Run("--rerun with fork-records: push is refused", func(t *testing.T) {
		before := originRecords()
		code, out := job(t, 1, honest, map[string]string{"fork-records": "push", "args": "--rerun"})
		if code != 2 {
			t.Fatalf("exit %d, want 2", code)
		}
		matches(t, out, `fork-records: push with --rerun`)
		if originRecords() != before {
			t.Error("origin's records ref moved")
		}
	})
	t.Run("lazy: a fork's hooks-off commit fails and pushes nothing", func(t *testing.T) {
		before := originRecords()
		code, out := job(t, 2, lazy, map[string]string{"fork-records": "push"})
		if code != 1 {
			t.Fatalf("exit %d, want 1", code)
		}
		matches(t, out, `(?m)^::error .*sneak a change in through a fork`)
		if originRecords() != before {
			t.Error("origin's records ref moved")
		}
	})
	t.Run("a token that cannot push (pull_request, not _target): exit 2 naming contents: write", func(t *testing.T) {
		hook := filepath.Join(w.remote, "hooks", "pre-receive")
		if err := os.WriteFile(hook, []byte("#!/bin/sh\necho read-only token >&2\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(hook)
		before := originRecords()
		code, out := job(t, 1, honest, map[string]string{"fork-records": "push"})
		if code != 2 {
			t.Fatalf("exit %d, want 2", code)
		}
		matches(t, out, `(?m)^OK .* add fork1\.txt`, `contents: write`)
		if originRecords() != before {
			t.Error("origin's records ref moved")
		}
	})
	t.Run("honest: the pull request's records reach origin, nothing else of the fork's", func(t *testing.T) {
		// The fork also ran a session no commit of the pull request names,
		// and claims a commit for a person: neither is the pull request's.
		// `records push` sent the fork's whole ref, both included.
		const other = "0f0f0f0f-0000-4000-8000-000000000001"
		otherPath := "sessions/0f/" + other + ".json"
		forge(t, otherPath, `{"schema":"sessiongate.record/v1","session_id":"`+other+`"}`)
		actor := "actors/" + lazy[:2] + "/" + lazy + ".json"
		forge(t, actor, `{"commit": "`+lazy+`", "actor": "person"}`)
		sid := w.git(t, w.dev, "log", "-1", "--format=%(trailers:key=Session-Id,valueonly)", honest)
		code, out := job(t, 1, honest, map[string]string{"fork-records": "push"})
		if code != 0 {
			t.Fatalf("exit %d, want 0", code)
		}
		matches(t, out, `(?m)^OK .* add fork1\.txt`, `pushed \d+ record file\(s\) of session\(s\) `+sid+` to origin refs/sessiongate/records`)
		held := w.git(t, w.remote, "ls-tree", "-r", "--name-only", "refs/sessiongate/records")
		for _, p := range []string{otherPath, actor} {
			if strings.Contains(held, p) {
				t.Errorf("origin holds the fork's %s, no record of the pull request's sessions", p)
			}
		}
		rec := "sessions/" + sid[:2] + "/" + sid + ".json"
		if w.git(t, w.remote, "rev-parse", "refs/sessiongate/records:"+rec) != w.git(t, w.fork, "rev-parse", "refs/sessiongate/records:"+rec) {
			t.Errorf("origin's %s is not the fork's", rec)
		}
		// Its history came along: verify reads a record's first version.
		versions := func(dir string) string {
			seen := map[string]bool{}
			for _, l := range strings.Split(w.git(t, dir, "log", "--full-history", "--format=", "--raw", "--no-abbrev", "refs/sessiongate/records", "--", rec), "\n") {
				if f := strings.Fields(l); len(f) >= 4 {
					seen[f[3]] = true
				}
			}
			return strings.Join(slices.Sorted(maps.Keys(seen)), " ")
		}
		if got, want := versions(w.remote), versions(w.fork); got != want {
			t.Errorf("origin holds versions %s of %s, want the fork's %s", got, rec, want)
		}
	})
	t.Run("merge commit of the fork's pull request: the push to main passes", func(t *testing.T) {
		ghGit("checkout", "-q", "-B", "m", "origin/main")
		ghGit("merge", "-q", "--no-ff", "-m", "Merge pull request #1 from contributor/contrib", "refs/remotes/pull/1")
		after := ghGit("rev-parse", "HEAD")
		ghGit("push", "-q", "origin", "HEAD:refs/heads/land-merge")
		pushJob(t, "fork-land-merge", w.main, after, 0, []string{`(?m)^OK .* add fork1\.txt`, `(?m)^OK .* Merge pull request #1`})
	})
	t.Run("rebase merge of the fork's pull request: the push to main passes", func(t *testing.T) {
		pushJob(t, "fork-land-rebase", w.main, rebased, 0, []string{`(?m)^OK .* add fork2\.txt`, `a rebase of verified work|a rewrite of checked work`})
	})
	t.Run("lazy: a fork's records rewrite a record origin holds: not pushed", func(t *testing.T) {
		// A record of another session than the pull request's own: forging
		// the pull request's own record fails its check instead (session
		// ids are random, so the first in ls-tree's order may be either).
		sid := w.git(t, w.dev, "log", "-1", "--format=%(trailers:key=Session-Id,valueonly)", honest)
		if sid == "" {
			t.Fatal("the fork's honest commit has no Session-Id trailer")
		}
		first := ""
		for _, p := range strings.Split(w.git(t, w.remote, "ls-tree", "-r", "--name-only", "refs/sessiongate/records", "sessions/"), "\n") {
			if p != "" && !strings.Contains(p, sid) {
				first = p
				break
			}
		}
		if first == "" {
			t.Fatal("origin holds no record but the pull request's own")
		}
		forge(t, first, `{"forged": true}`)
		before := originRecords()
		code, out := job(t, 1, honest, map[string]string{"fork-records": "push"})
		if code != 0 {
			t.Fatalf("exit %d, want 0 (the pull request's own check)", code)
		}
		matches(t, out, `already holds the \d+ record file\(s\) of session\(s\) `+sid)
		if originRecords() != before {
			t.Error("origin's records ref moved")
		}
	})
}
