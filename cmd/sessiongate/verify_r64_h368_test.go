package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestR64H368ForkGroundRecordInAction (helper 368, played first with the
// real binary): origin's branch holds a session ABANDONED with its QA never
// run (superseded by a session started on main). A fork opens a pull
// request of that branch; its records ref, rewritten from the root and
// dated 2001, carries origin's record edited to say COMPLETE, whitespace
// added until its blob id is larger than origin's. The action's records
// pull (the larger id wins) made the fork's copy the one verify judged.
// With --keep-local the job judges origin's record ("ended ABANDONED, not
// COMPLETE"), never the fork's bytes (the envelope mismatch of the crude
// edit). Honest twin: the same pull request without the edit passes no
// more than origin's verdict (the same failure, origin's bytes), and
// TestR63H362ForkPRStackedOnOriginBranch keeps the honest fork's session.
func TestR64H368ForkGroundRecordInAction(t *testing.T) {
	w := newCIWorld(t)
	w.git(t, w.dev, "checkout", "-q", "-b", "abandoned", w.main)
	w.sg(t, w.dev, "session", "start", "--objective", "left half done")
	w.sg(t, w.dev, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the README")
	w.sg(t, w.dev, "session", "evidence", "--phase", "GIT_STATE", "--type", "tool_output", "--value", "git status: clean")
	w.sg(t, w.dev, "session", "advance", "--to", "WORKING")
	id := w.sessionID(t)
	w.write(t, "half.txt")
	w.git(t, w.dev, "add", "-A")
	w.git(t, w.dev, "commit", "-q", "-m", "add half.txt, QA never run")
	head := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "checkout", "-q", "main")
	w.sg(t, w.dev, "session", "start", "--objective", "something else") // supersedes: ABANDONED
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "abandoned", "+refs/sessiongate/records:refs/sessiongate/records")

	p := "sessions/" + id[:2] + "/" + id + ".json"
	orig := w.git(t, w.dev, "show", "refs/sessiongate/records:"+p)
	var rec map[string]any
	if err := json.Unmarshal([]byte(orig), &rec); err != nil {
		t.Fatal(err)
	}
	if s, _ := rec["session"].(map[string]any); s == nil || s["state"] != "ABANDONED" {
		t.Fatalf("origin's record is not ABANDONED: %v", rec["session"])
	}
	rec["session"].(map[string]any)["state"] = "COMPLETE"
	if snaps, _ := rec["snapshots"].([]any); len(snaps) > 0 {
		snaps[len(snaps)-1].(map[string]any)["state"].(map[string]any)["state"] = "COMPLETE"
	}
	edited, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	origBlob := w.git(t, w.dev, "rev-parse", "refs/sessiongate/records:"+p)
	f := filepath.Join(w.dir, "edited.json")
	var blob string
	for n := 0; ; n++ {
		if err := os.WriteFile(f, append(append([]byte{}, edited...), []byte(strings.Repeat(" ", n))...), 0o644); err != nil {
			t.Fatal(err)
		}
		if blob = w.git(t, w.dev, "hash-object", "-w", f); blob > origBlob {
			break
		}
	}
	idx := "GIT_INDEX_FILE=" + filepath.Join(w.dir, "h368-index")
	w.gitEnv(t, w.dev, idx, "read-tree", "refs/sessiongate/records")
	w.gitEnv(t, w.dev, idx, "update-index", "--cacheinfo", "100644,"+blob+","+p)
	tree := w.gitEnv(t, w.dev, idx, "write-tree")
	const old = "2001-01-01T00:00:00Z"
	forged := w.gitEnv(t, w.dev, "GIT_COMMITTER_DATE="+old, "commit-tree", tree, "-m", "sessiongate records: 1 session(s)")
	fork := filepath.Join(w.dir, "gh-fork-h368.git")
	w.git(t, w.dir, "init", "-q", "--bare", fork)
	w.git(t, w.dev, "push", "-q", "--no-verify", "file://"+fork, "main", "abandoned", forged+":refs/sessiongate/records")

	src, _ := filepath.Abs(filepath.Join("..", ".."))
	merge := w.pullRef(t, "7", fork, head)
	ci := w.checkout(t, "fork-h368", true, merge, "+"+merge+":refs/remotes/pull/7/merge")
	vals := map[string]string{
		"github.event.pull_request.head.repo.clone_url": "file://" + fork,
		"github.event.pull_request.head.repo.full_name": "contributor/project",
		"github.event.pull_request.base.sha":            w.main,
		"github.event.pull_request.head.sha":            head,
		"github.repository":                             "acme/project",
		"github.action_path":                            src,
		"github.action_ref":                             "main",
	}
	ev := prEvent(7, w.main, head)
	ev["repository"] = map[string]any{"default_branch": "main"}
	env := append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request",
		"GITHUB_EVENT_PATH="+w.event(t, filepath.Base(ci), ev), "GITHUB_BASE_REF=main", "GITHUB_HEAD_REF=abandoned")
	code, out := replayAction(t, ci, env, vals, map[string]string{"version": "source"})
	t.Logf("exit %d\n%s", code, out)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if !regexp.MustCompile(`(?m)^FAIL .* add half\.txt, QA never run`).MatchString(out) || !strings.Contains(out, "ended ABANDONED, not COMPLETE") {
		t.Errorf("the job did not judge origin's ABANDONED record")
	}
	if strings.Contains(out, "does not match the recomputed final snapshot") {
		t.Errorf("the job judged the fork's ground copy of origin's record")
	}
	if got := w.git(t, ci, "rev-parse", "refs/sessiongate/records:"+p); got != origBlob {
		t.Errorf("the job's records ref holds %s for the record, want origin's %s", got, origBlob)
	}
}

// gitEnv is git with extra environment variables (KEY=VALUE, before the
// arguments).
func (w *ciWorld) gitEnv(t *testing.T, dir string, args ...string) string {
	t.Helper()
	var env []string
	for len(args) > 0 && strings.Contains(args[0], "=") && !strings.HasPrefix(args[0], "-") {
		env, args = append(env, args[0]), args[1:]
	}
	c := *w
	c.env = append(append([]string{}, w.env...), env...)
	return c.git(t, dir, args...)
}

// h368GroundFork makes fork a GitLab-style fork of w.remote (its branches)
// whose records ref is rewritten from the root, dated 2001: origin's tree
// with the record of the session that made commit set to ABANDONED and
// whitespace added until its blob id is larger than origin's. A job that
// judges the fork's bytes fails the honest commit; one that keeps the
// project's passes it (TestVerifyGitLabTemplate's TestR64H368 row).
func h368GroundFork(t *testing.T, w *ciWorld, fork, commit string) {
	t.Helper()
	w.git(t, w.dir, "init", "-q", "--bare", fork)
	w.git(t, w.remote, "push", "-q", "file://"+fork, "refs/heads/*:refs/heads/*", "refs/sessiongate/records:refs/h368/origin-records")
	sid := w.git(t, w.remote, "log", "-1", "--format=%(trailers:key=Session-Id,valueonly)", commit)
	p := "sessions/" + sid[:2] + "/" + sid + ".json"
	var rec map[string]any
	if err := json.Unmarshal([]byte(w.git(t, fork, "show", "refs/h368/origin-records:"+p)), &rec); err != nil {
		t.Fatal(err)
	}
	rec["session"].(map[string]any)["state"] = "ABANDONED"
	edited, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	origBlob := w.git(t, fork, "rev-parse", "refs/h368/origin-records:"+p)
	f := filepath.Join(w.dir, "h368-ground.json")
	var blob string
	for n := 0; ; n++ {
		if err := os.WriteFile(f, append(append([]byte{}, edited...), []byte(strings.Repeat(" ", n))...), 0o644); err != nil {
			t.Fatal(err)
		}
		if blob = w.git(t, fork, "hash-object", "-w", f); blob > origBlob {
			break
		}
	}
	idx := "GIT_INDEX_FILE=" + filepath.Join(w.dir, "h368-ground-index")
	w.gitEnv(t, fork, idx, "read-tree", "refs/h368/origin-records")
	w.gitEnv(t, fork, idx, "update-index", "--cacheinfo", "100644,"+blob+","+p)
	tree := w.gitEnv(t, fork, idx, "write-tree")
	forged := w.gitEnv(t, fork, "GIT_COMMITTER_DATE=2001-01-01T00:00:00Z", "commit-tree", tree, "-m", "sessiongate records: 1 session(s)")
	w.git(t, fork, "update-ref", "refs/sessiongate/records", forged)
	w.git(t, fork, "update-ref", "-d", "refs/h368/origin-records")
}
