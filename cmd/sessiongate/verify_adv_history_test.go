package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestVerifyAdvCIRewrittenHistory: the job's checkout is a directory the
// branch's own code can write when it runs before verify (`npm test` in
// the same job, a runner that keeps its clone between jobs, GitLab's
// GIT_STRATEGY: fetch), and a GitHub Actions step can set the next
// steps' environment ($GITHUB_ENV). A hooks-off commit under an honest
// session's commit is hidden from the range by telling git that main's
// parent is the hooks-off commit: `.git/info/grafts`, `git replace
// --graft`, or replace refs under GIT_REPLACE_REF_BASE, or a graft file
// named by GIT_GRAFT_FILE. Each passed on the old code (the range was the
// honest commit alone); verify now reads parents as the commit objects
// record them. The honest twin: the same checkout without the rewrite
// passes when the branch is honest (its hooks-off commit removed).
func TestVerifyAdvCIRewrittenHistory(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	const recs = "refs/sessiongate/records:refs/sessiongate/records"
	// An honest session's commit on top of the hooks-off one.
	w.git(t, w.dev, "checkout", "-q", "-b", "on-sneak", w.notrailer)
	w.qaCmd = "test ! -f broken.txt"
	w.session(t, "after.txt")
	onSneak := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "on-sneak", "refs/sessiongate/records")
	w.git(t, w.dev, "checkout", "-q", "feature")
	graft := w.main + " " + w.notrailer + "\n"
	type tc struct {
		name    string
		tip     string
		rewrite func(t *testing.T, ci string) []string // extra environment
		code    int
		want    []string
	}
	cases := []tc{
		{"honest twin: the feature branch, nothing rewritten", w.work2, nil, 0, []string{`(?m)^OK .* add work2\.txt`}},
		{"nothing rewritten: the hooks-off commit is in the range", onSneak, nil, 1, []string{`(?m)^FAIL .* sneak a change`}},
		{".git/info/grafts", onSneak, func(t *testing.T, ci string) []string {
			if err := os.WriteFile(filepath.Join(ci, ".git", "info", "grafts"), []byte(graft), 0o644); err != nil {
				t.Fatal(err)
			}
			return nil
		}, 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"git replace --graft", onSneak, func(t *testing.T, ci string) []string {
			w.git(t, ci, "replace", "--graft", w.main, w.notrailer)
			return nil
		}, 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"replace refs under GIT_REPLACE_REF_BASE (set by an earlier step)", onSneak, func(t *testing.T, ci string) []string {
			w.git(t, ci, "replace", "--graft", w.main, w.notrailer)
			sha := w.git(t, ci, "rev-parse", "refs/replace/"+w.main)
			w.git(t, ci, "update-ref", "refs/elsewhere/"+w.main, sha)
			w.git(t, ci, "update-ref", "-d", "refs/replace/"+w.main)
			return []string{"GIT_REPLACE_REF_BASE=refs/elsewhere/"}
		}, 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"GIT_GRAFT_FILE (set by an earlier step)", onSneak, func(t *testing.T, ci string) []string {
			p := filepath.Join(ci, "..", filepath.Base(ci)+".grafts")
			if err := os.WriteFile(p, []byte(graft), 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{"GIT_GRAFT_FILE=" + p}
		}, 1, []string{`(?m)^FAIL .* sneak a change`}},
		// A shallow entry is a graft git keeps for shallow clones: the tip
		// made a root hides its parents, but it is a cut-off point in the
		// range, which verify deepens or (--no-fetch) refuses.
		{".git/shallow naming the tip", onSneak, func(t *testing.T, ci string) []string {
			if err := os.WriteFile(filepath.Join(ci, ".git", "shallow"), []byte(onSneak+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return nil
		}, 2, nil},
		{"honest twin: .git/info/grafts of an honest branch changes nothing it needs", w.work2, func(t *testing.T, ci string) []string {
			if err := os.WriteFile(filepath.Join(ci, ".git", "info", "grafts"), []byte(w.work2+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return nil
		}, 0, []string{`(?m)^OK .* add work1\.txt`, `(?m)^OK .* add work2\.txt`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ci := w.checkout(t, "rewritten", false, c.tip, "+refs/heads/*:refs/remotes/origin/*", recs)
			env := append([]string{}, w.env...)
			if c.rewrite != nil {
				env = append(env, c.rewrite(t, ci)...)
			}
			ref := "refs/heads/on-sneak"
			if c.tip == w.work2 {
				ref = "refs/heads/feature"
			}
			env = append(env, "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push",
				"GITHUB_EVENT_PATH="+w.event(t, filepath.Base(ci), pushEvent(w.main, c.tip, ref)))
			code, out, errb := sgBin(t, ci, env, "verify", "--no-fetch")
			t.Logf("exit %d\n%s%s", code, out, errb)
			if code == 2 && !strings.Contains(errb, "cut off") && !strings.Contains(errb, "parents are not fetched") {
				t.Errorf("exit 2 without naming the cut-off point:\n%s", errb)
			}
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out, errb)
			}
			for _, re := range c.want {
				if !regexp.MustCompile(re).MatchString(out) {
					t.Errorf("output does not match %s:\n%s%s", re, out, errb)
				}
			}
		})
	}
}

// TestVerifyAdvMovedOriginMain: `git update-ref refs/remotes/origin/main
// X` is a local ref the agent can write: the local gates take the commits
// under it for origin's (docs/security.md, "Nothing lost"), and the local
// `sessiongate verify` of the branch cannot tell what is new under it
// (exit 2; "0 commit(s)", exit 0, before the empty upstream range was
// refused). The ref
// never leaves the machine: CI, in a fresh clone with the push's event,
// checks the hooks-off commit and fails it. The honest twin: the same
// push without the hooks-off commit passes.
func TestVerifyAdvMovedOriginMain(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	const recs = "refs/sessiongate/records:refs/sessiongate/records"
	// The agent's branch: a hooks-off commit, then origin/main moved onto
	// it and set as the branch's upstream, so @{upstream}..HEAD is empty.
	w.git(t, w.dev, "checkout", "-q", "-b", "moved", w.work2)
	sneak := w.noHooks(t, "moved.txt", "a change under a moved origin/main")
	w.git(t, w.dev, "update-ref", "refs/remotes/origin/main", sneak)
	w.git(t, w.dev, "branch", "-q", "--set-upstream-to=origin/main")
	code, out, errb := sgBin(t, w.dev, w.env, "verify")
	t.Logf("local verify: exit %d\n%s%s", code, out, errb)
	// The empty @{upstream}..HEAD is no longer "0 commit(s), OK": with
	// HEAD on the moved ref, it cannot tell (exit 2).
	if code != 2 || !strings.Contains(errb, "cannot tell which commits to check") {
		t.Fatalf("the local verify was expected to refuse the empty range under the moved ref (exit 2): exit %d\n%s%s", code, out, errb)
	}
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "moved", "refs/sessiongate/records")
	for _, c := range []struct {
		name, branch string
		tip          string
		code         int
		want         string
	}{
		{"the pushed hooks-off commit", "moved", sneak, 1, `(?m)^FAIL .* a change under a moved origin/main`},
		{"honest twin: the branch's honest commits", "feature", w.work2, 0, `(?m)^OK .* add work2\.txt`},
	} {
		t.Run(c.name, func(t *testing.T) {
			ci := w.checkout(t, "moved-"+strconv.Itoa(c.code), true, c.tip, "+refs/heads/"+c.branch+":refs/remotes/origin/"+c.branch, recs)
			env := append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push",
				"GITHUB_EVENT_PATH="+w.event(t, filepath.Base(ci), pushEvent(zero40, c.tip, "refs/heads/"+c.branch)))
			code, out, errb := sgBin(t, ci, env, "verify")
			t.Logf("exit %d\n%s%s", code, out, errb)
			if code != c.code || !regexp.MustCompile(c.want).MatchString(out) {
				t.Fatalf("exit %d, want %d and %s\nstdout:\n%s\nstderr:\n%s", code, c.code, c.want, out, errb)
			}
		})
	}
}

// TestVerifyAdvGitLabMergeTrain: a merge train runs each merge request's
// pipeline on refs/merge-requests/N/train, a merge commit GitLab makes of
// the request onto the target and the requests ahead of it in the train
// (CI_MERGE_REQUEST_EVENT_TYPE=merge_train). The range is the request's
// own commits, CI_MERGE_REQUEST_DIFF_BASE_SHA..CI_MERGE_REQUEST_SOURCE_
// BRANCH_SHA, never the train commit. Honest: the second request of a
// train passes; lazy: a request with a hooks-off commit fails, first or
// second in the train.
func TestVerifyAdvGitLabMergeTrain(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	w.git(t, w.dev, "checkout", "-q", "-b", "feature2", w.main)
	w.qaCmd = "test ! -f broken.txt"
	w.session(t, "other.txt")
	feature2 := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "origin", "feature2", "refs/sessiongate/records")
	w.git(t, w.dev, "checkout", "-q", "feature")
	gl := filepath.Join(w.dir, "gitlab-train")
	w.git(t, w.dir, "clone", "-q", w.remote, gl)
	// train makes refs/merge-requests/N/train: the request's head merged
	// onto on (main's tip, or the train commit ahead of it).
	train := func(n, on, head string) string {
		w.git(t, gl, "checkout", "-q", "--detach", on)
		w.git(t, gl, "-c", "user.name=GitLab", "-c", "user.email=noreply@gitlab.invalid", "-c", "core.hooksPath=/dev/null",
			"merge", "-q", "--no-ff", "-m", "Merge branch 'b"+n+"' into 'main'\n\nSee merge request dev/project!"+n, head)
		sha := w.git(t, gl, "rev-parse", "HEAD")
		w.git(t, gl, "push", "-q", "origin", "HEAD:refs/merge-requests/"+n+"/train", head+":refs/merge-requests/"+n+"/head")
		return sha
	}
	first := train("1", w.main, w.work2)
	second := train("3", first, feature2)
	badSecond := train("2", first, w.notrailer)
	badFirst := train("4", w.main, w.notrailer)
	pipeline := 100
	for _, c := range []struct {
		name             string
		n, trainSHA, src string
		code             int
		want             string
	}{
		{"honest: second in the train", "3", second, feature2, 0, `(?m)^OK .* add other\.txt`},
		{"honest: first in the train", "1", first, w.work2, 0, `(?m)^OK .* add work2\.txt`},
		{"a hooks-off commit, second in the train", "2", badSecond, w.notrailer, 1, `(?m)^FAIL .* sneak a change`},
		{"a hooks-off commit, first in the train", "4", badFirst, w.notrailer, 1, `(?m)^FAIL .* sneak a change`},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The runner: refs/pipelines/<id> at the train commit, fetched
			// at GIT_DEPTH 20 with the records, checked out detached.
			pipeline++
			id := strconv.Itoa(pipeline)
			w.git(t, w.remote, "update-ref", "refs/pipelines/"+id, c.trainSHA)
			ci := filepath.Join(w.dir, "gitlab-train-build-"+id)
			w.git(t, w.dir, "init", "-q", ci)
			w.git(t, ci, "remote", "add", "origin", "file://"+w.remote)
			w.git(t, ci, "fetch", "-q", "--no-tags", "--depth=20", "origin", "+refs/pipelines/"+id+":refs/pipelines/"+id,
				"+refs/sessiongate/records:refs/sessiongate/records")
			w.git(t, ci, "checkout", "-q", "-f", "--detach", c.trainSHA)
			env := append(append([]string{}, w.env...), "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=merge_request_event",
				"CI_MERGE_REQUEST_EVENT_TYPE=merge_train", "CI_MERGE_REQUEST_IID="+c.n, "CI_COMMIT_SHA="+c.trainSHA,
				"CI_COMMIT_REF_NAME=refs/merge-requests/"+c.n+"/train", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main",
				"CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=b"+c.n, "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA="+c.src,
				"CI_MERGE_REQUEST_DIFF_BASE_SHA="+w.main, "CI_MERGE_REQUEST_TARGET_BRANCH_SHA="+w.main)
			code, out, errb := sgBin(t, ci, env, "verify")
			t.Logf("exit %d\n%s%s", code, out, errb)
			if code != c.code || !regexp.MustCompile(c.want).MatchString(out) {
				t.Fatalf("exit %d, want %d and %s\nstdout:\n%s\nstderr:\n%s", code, c.code, c.want, out, errb)
			}
		})
	}
}

// TestVerifyAdvCILaterPush: a push to a branch checked only before..after.
// The lazy agent pushes a hooks-off commit (CI fails), then pushes an
// honest commit on top: the second run checked that commit alone and
// passed, putting a green status for the same workflow on the branch's
// tip. The same second push laundered a config change: its base, the
// first push's tip, held the weakened sessiongate.yaml, which verify
// trusted. Both passed on the old code (GitHub and GitLab push events);
// a push to a branch other than the default now checks every commit of
// the branch not on the default branch, with main's config. Honest twin:
// a second push of honest work passes, both commits checked.
func TestVerifyAdvCILaterPush(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	const recs = "refs/sessiongate/records:refs/sessiongate/records"
	w.git(t, w.dev, "checkout", "-q", "-b", "on-sneak", w.notrailer)
	w.qaCmd = "test ! -f broken.txt"
	w.session(t, "after.txt")
	onSneak := w.git(t, w.dev, "rev-parse", "HEAD")
	// On the branch whose first push weakened the QA command.
	w.git(t, w.dev, "checkout", "-q", "-b", "on-qa", w.qa)
	w.qaCmd = "test -f README.md"
	w.session(t, "later.txt")
	onQA := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "on-sneak", "on-qa", "refs/sessiongate/records")
	w.git(t, w.dev, "checkout", "-q", "feature")
	work1 := w.git(t, w.dev, "rev-parse", w.work2+"^")
	for _, c := range []struct {
		name, branch, before, after string
		code                        int
		want                        []string
	}{
		{"a second push on top of a hooks-off commit", "on-sneak", w.notrailer, onSneak, 1, []string{`(?m)^FAIL .* sneak a change`, `every commit of the branch`}},
		{"a second push on top of a weakened config", "on-qa", w.qa, onQA, 1, []string{`changes sessiongate\.yaml`, `trusted: config sessiongate\.yaml .* at the base ` + w.main[:12]}},
		{"honest twin: a second push of honest work", "feature", work1, w.work2, 0, []string{`(?m)^OK .* add work1\.txt`, `(?m)^OK .* add work2\.txt`}},
	} {
		for _, ci := range []string{"github", "gitlab"} {
			t.Run(ci+": "+c.name, func(t *testing.T) {
				dir := w.checkout(t, "later", true, c.after, "+refs/heads/"+c.branch+":refs/remotes/origin/"+c.branch, recs)
				env := append([]string{}, w.env...)
				if ci == "github" {
					env = append(env, "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push",
						"GITHUB_EVENT_PATH="+w.event(t, filepath.Base(dir), pushEvent(c.before, c.after, "refs/heads/"+c.branch)))
				} else {
					env = append(env, "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=push", "CI_COMMIT_BRANCH="+c.branch,
						"CI_COMMIT_REF_NAME="+c.branch, "CI_COMMIT_BEFORE_SHA="+c.before, "CI_COMMIT_SHA="+c.after)
				}
				code, out, errb := sgBin(t, dir, env, "verify")
				t.Logf("exit %d\n%s%s", code, out, errb)
				if code != c.code {
					t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out, errb)
				}
				for _, re := range c.want {
					if !regexp.MustCompile(re).MatchString(out) {
						t.Errorf("output does not match %s:\n%s%s", re, out, errb)
					}
				}
			})
		}
	}
}
