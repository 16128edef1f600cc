package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// TestVerifyAdvCIMergedPullRequests: the documented workflow runs verify
// on `push` too, so after GitHub merges a pull request the push to main
// carries a commit no session made. Honest: "Create a merge commit" and
// "Squash and merge" of the verified feature pass (both failed on the old
// code: "no Session-Id trailer" and "trailers copied"), shallow or full.
// Lazy: a merge that resolves a conflict by hand or adds a file, a squash
// with an extra change, a squash titled after a pull request whose commits
// do not verify, a squash whose pull request head cannot be fetched
// (--no-fetch: named). "Rebase and merge" passes (it failed "trailers
// copied" on the old code) when each rewritten commit's change is byte
// for byte a verified original's, found on the remote even when the
// checkout fetched main alone; a whitespace change or a rebase of a
// hooks-off commit still fails.
func TestVerifyAdvCIMergedPullRequests(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	const recs = "refs/sessiongate/records:refs/sessiongate/records"
	gh := func(name string, ev map[string]any) []string {
		return append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push", "GITHUB_EVENT_PATH="+w.event(t, name, ev))
	}
	merge1 := w.pullRef(t, "1", w.remote, w.work2)
	w.pullRef(t, "2", w.remote, w.notrailer)
	// GitHub's merges, made in a clone of the remote and pushed to
	// branches the CI clones fetch (GitHub would move main itself).
	gh1 := filepath.Join(w.dir, "github")
	w.git(t, w.dir, "clone", "-q", w.remote, gh1)
	asGitHub := []string{"-c", "user.name=GitHub", "-c", "user.email=noreply@github.com", "-c", "core.hooksPath=/dev/null"}
	ghGit := func(args ...string) string { return w.git(t, gh1, append(append([]string{}, asGitHub...), args...)...) }
	squash := func(branch, title, pr string, extra string) string {
		ghGit("checkout", "-q", "-B", branch, "origin/main")
		ghGit("merge", "-q", "--squash", pr)
		if extra != "" {
			if err := os.WriteFile(filepath.Join(gh1, extra), []byte("extra\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			ghGit("add", extra)
		}
		msgs := ghGit("log", "--reverse", "--format=* %B", "origin/main.."+pr)
		ghGit("commit", "-q", "-m", title+"\n\n"+msgs)
		ghGit("push", "-q", "origin", "HEAD:refs/heads/"+branch)
		return ghGit("rev-parse", "HEAD")
	}
	sq1 := squash("sq1", "Feature (#1)", "origin/feature", "")
	sqExtra := squash("sq-extra", "Feature (#1)", "origin/feature", "extra.txt")
	sqWrongPR := squash("sq-wrong", "Feature (#2)", "origin/feature", "") // #2's head is the no-trailer commit
	sq2 := squash("sq2", "Sneak (#2)", "origin/bad-notrailer", "")
	sqNoPR := squash("sq-nopr", "Feature (#9)", "origin/feature", "") // no refs/pull/9
	// A merge commit with a change of its own (an "evil merge").
	ghGit("checkout", "-q", "-B", "evil", "origin/main")
	ghGit("merge", "-q", "--no-ff", "--no-commit", "origin/feature")
	if err := os.WriteFile(filepath.Join(gh1, "evil.txt"), []byte("evil\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ghGit("add", "evil.txt")
	ghGit("commit", "-q", "-m", "Merge pull request #1 from dev/feature")
	evil := ghGit("rev-parse", "HEAD")
	ghGit("push", "-q", "origin", "HEAD:refs/heads/evil")
	// GitHub's rebase merge: the feature's commits rewritten onto main.
	ghGit("checkout", "-q", "-B", "rb", "origin/feature")
	ghGit("rebase", "-q", "--force-rebase", "origin/main")
	rb := ghGit("rev-parse", "HEAD")
	ghGit("push", "-q", "origin", "HEAD:refs/heads/rb")
	// The same rebase with a whitespace-only change slipped into the last
	// commit: git patch-id --stable forgives it, --verbatim does not.
	if err := os.WriteFile(filepath.Join(gh1, "work2.txt"), []byte("work2.txt \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ghGit("commit", "-q", "-a", "--amend", "--no-edit")
	rbSpace := ghGit("rev-parse", "HEAD")
	ghGit("push", "-q", "origin", "HEAD:refs/heads/rb-space")
	// A rebase of the commit whose trailers were copied with hooks off:
	// its original fails its own check, so its copy passes nothing.
	ghGit("checkout", "-q", "-B", "rb-copied", "origin/bad-copied")
	ghGit("rebase", "-q", "--force-rebase", "origin/main")
	rbCopied := ghGit("rev-parse", "HEAD")
	ghGit("push", "-q", "origin", "HEAD:refs/heads/rb-copied")

	heads := []string{"+refs/heads/*:refs/remotes/origin/*", "+refs/pull/1/merge:refs/remotes/pull/1/merge", recs}
	push := func(after string) map[string]any { return pushEvent(w.main, after, "refs/heads/main") }
	cases := []struct {
		name    string
		shallow bool
		tip     string
		args    []string
		code    int
		want    []string
		refs    []string // what the checkout fetches (heads when nil)
	}{
		{"merge commit, shallow", true, merge1, nil, 0, []string{`(?m)^OK .*Merge .*\n\s+a clean merge`, `(?m)^OK .* add work1\.txt`}, nil},
		{"merge commit, full clone", false, merge1, nil, 0, []string{`a clean merge`}, nil},
		{"squash merge, shallow", true, sq1, nil, 0, []string{`(?m)^OK .*Feature \(#1\)\n\s+GitHub's squash of pull request #1: .* 2 commit\(s\) verify`}, nil},
		{"squash merge, full clone", false, sq1, nil, 0, []string{`GitHub's squash of pull request #1`}, nil},
		{"merge commit with a change of its own", false, evil, nil, 1, []string{`(?m)^FAIL .*Merge pull request #1`, `not the merge of its parents`}, nil},
		{"squash with an extra change", false, sqExtra, nil, 1, []string{`(?m)^FAIL .*Feature \(#1\)`, `holds a change the pull request's commits do not`}, nil},
		{"squash titled after another pull request", false, sqWrongPR, nil, 1, []string{`(?m)^FAIL .*Feature \(#2\)`}, nil},
		{"squash of a pull request with an unchecked commit", false, sq2, nil, 1, []string{`(?m)^FAIL .*Sneak \(#2\)`, `do not all verify`}, nil},
		{"squash of a pull request GitHub does not have", false, sqNoPR, nil, 1, []string{`(?m)^FAIL .*Feature \(#9\)`, `could not be fetched`}, nil},
		{"squash, --no-fetch: the fetch is named", false, sq1, []string{"--no-fetch"}, 1, []string{`git fetch origin \+refs/pull/1/head:refs/remotes/origin/pull/1/head`}, nil},
		// Failed on the old code ("trailers copied": a false block).
		{"rebase merge, full clone", false, rb, nil, 0, []string{`(?m)^OK .* add work2\.txt\n\s+a rebase of verified work`}, nil},
		{"rebase merge, shallow", true, rb, nil, 0, []string{`a rebase of verified work`}, nil},
		// actions/checkout's default on the push: main alone, depth 1; the
		// originals are looked up on the remote (its branch or refs/pull/1/head).
		// The originals are not in this clone: the change fingerprints the
		// session recorded pass the rewrites (verify/rewrites.go), with
		// --no-fetch too (it failed "trailers copied" before them).
		{"rebase merge, main alone", true, rb, nil, 0, []string{`a rebase of verified work|a rewrite of checked work`}, []string{"+refs/heads/rb:refs/remotes/origin/main", recs}},
		{"rebase merge, --no-fetch, main alone: passed on the recorded fingerprints", false, rb, []string{"--no-fetch"}, 0, []string{`a rewrite of checked work`}, []string{"+refs/heads/rb:refs/remotes/origin/main", recs}},
		// Unsigned rewrites fail --require-signed: the signature check runs
		// after the passes that turn a verdict to ok (and the originals'
		// own run requires signatures too).
		{"rebase merge, --require-signed: unsigned rewrites fail", false, rb, []string{"--require-signed"}, 1, []string{`(?m)^FAIL .* add work2\.txt`, `signature: `}, nil},
		{"rebase with a whitespace change", false, rbSpace, nil, 1, []string{`(?m)^FAIL .* add work2\.txt`, `not a rebase of verified work`, `(?m)^OK .* add work1\.txt\n\s+a rebase of verified work`}, nil},
		{"rebase of a hooks-off commit with copied trailers", false, rbCopied, nil, 1, []string{`(?m)^FAIL .* borrowed trailers`, `not a rebase of verified work`}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			refs := heads
			if c.refs != nil {
				refs = c.refs
			}
			ci := w.checkout(t, "merged", c.shallow, c.tip, refs...)
			verifyWants(t, ci, gh(filepath.Base(ci), push(c.tip)), c.args, c.code, c.want)
		})
	}
}

// TestVerifyAdvCIGitLabMerges: GitLab's merges on the push pipeline to
// main, in the runner's checkout (refs/pipelines/<id> and the branches at
// GIT_DEPTH, detached). "Squash commits" with the default merge method
// lands the squash (titled after the merge request, no number, on the
// request's start) and a merge commit ending "See merge request
// dev/project!1": the squash failed "no Session-Id trailer" on the old
// code (a false block). Honest: it passes when its tree is the merge of
// its parent and refs/merge-requests/1/head, whose commits verify. Lazy:
// a squash with an extra change, a squash of a request whose commit is
// unchecked, a squash whose merge names no merge request.
func TestVerifyAdvCIGitLabMerges(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	w.git(t, w.remote, "update-ref", "refs/merge-requests/1/head", w.work2)
	w.git(t, w.remote, "update-ref", "refs/merge-requests/2/head", w.notrailer)
	gl := filepath.Join(w.dir, "gitlab")
	w.git(t, w.dir, "clone", "-q", w.remote, gl)
	asGitLab := []string{"-c", "user.name=Administrator", "-c", "user.email=admin@example.com", "-c", "core.hooksPath=/dev/null"}
	glGit := func(args ...string) string { return w.git(t, gl, append(append([]string{}, asGitLab...), args...)...) }
	// GitLab's squash (Gitaly UserSquash: the head's tree on the request's
	// start) and merge commit, pushed to a branch the checkout fetches.
	land := func(branch, title, head, mr, extra string) string {
		start := glGit("merge-base", "origin/main", head)
		glGit("checkout", "-q", "--detach", head)
		glGit("reset", "-q", "--soft", start)
		if extra != "" {
			if err := os.WriteFile(filepath.Join(gl, extra), []byte("extra\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			glGit("add", extra)
		}
		glGit("commit", "-q", "--allow-empty", "-m", title)
		squash := glGit("rev-parse", "HEAD")
		glGit("checkout", "-q", "--detach", "origin/main")
		msg := "Merge branch 'feature' into 'main'\n\n" + title
		if mr != "" {
			msg += "\n\nSee merge request dev/project!" + mr
		}
		glGit("merge", "-q", "--no-ff", "-m", msg, squash)
		glGit("push", "-q", "origin", "HEAD:refs/heads/"+branch)
		return glGit("rev-parse", "HEAD")
	}
	honest := land("gl-squash", "Feature", "origin/feature", "1", "")
	extra := land("gl-extra", "Feature", "origin/feature", "1", "extra.txt")
	unchecked := land("gl-unchecked", "Sneak", "origin/bad-notrailer", "2", "")
	noRef := land("gl-noref", "Feature", "origin/feature", "", "")
	pipeline := 0
	checkout := func(t *testing.T, sha string, depth int) string {
		pipeline++
		return w.gitlabBuild(t, strconv.Itoa(pipeline), sha, depth, "+refs/heads/main:refs/remotes/origin/main",
			"+refs/sessiongate/records:refs/sessiongate/records")
	}
	cases := []struct {
		name string
		tip  string
		code int
		want []string
	}{
		{"squash and merge commit", honest, 0, []string{`(?m)^OK .* Feature\n\s+GitLab's squash of merge request !1: .* 2 commit\(s\) verify`, `(?m)^OK .* Merge branch 'feature'`}},
		{"squash with an extra change", extra, 1, []string{`(?m)^FAIL .* Feature\n`, `holds a change`}},
		{"squash of a merge request with an unchecked commit", unchecked, 1, []string{`(?m)^FAIL .* Sneak\n`, `do not all verify`}},
		// No merge request named: the squash is the feature session's whole
		// gated run, whose originals this clone lacks (verify/rewrites.go;
		// it failed "no Session-Id trailer" before).
		{"squash whose merge names no merge request", noRef, 0, []string{`(?m)^OK .* Feature\n\s+no Session-Id trailer, and\n\s+a squash of checked work`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ci := checkout(t, c.tip, 20)
			env := append(append([]string{}, w.env...), "GITLAB_CI=true", "CI_DEFAULT_BRANCH=main", "CI_PIPELINE_SOURCE=push",
				"CI_COMMIT_BRANCH=main", "CI_COMMIT_REF_NAME=main", "CI_COMMIT_BEFORE_SHA="+w.main, "CI_COMMIT_SHA="+c.tip)
			verifyWants(t, ci, env, nil, c.code, c.want)
		})
	}
}

// TestVerifyAdvCICheckoutShapes: checkouts the other CI tests do not make,
// each with actions/checkout's own git commands (init, fetch of one ref at
// depth 1, detached checkout). pull_request_target checks out the base
// branch's tip, not the pull request: the head is fetched from origin
// (GitHub serves refs/pull/N/head), its commits checked. A tag push has an
// all-zero before: the tagged commits not on the default branch are
// checked. Each shape passes honest work and fails a commit without a
// trailer; none passes an unchecked commit.
func TestVerifyAdvCICheckoutShapes(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	const recs = "+refs/sessiongate/records:refs/sessiongate/records"
	w.pullRef(t, "1", w.remote, w.work2)
	w.pullRef(t, "2", w.remote, w.notrailer)
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", w.work2+":refs/tags/v1", w.notrailer+":refs/tags/v2")
	prTarget := func(n int, head string) map[string]any {
		ev := prEvent(n, w.main, head)
		ev["repository"] = map[string]any{"default_branch": "main"}
		return ev
	}
	cases := []struct {
		name, event string
		ev          map[string]any
		checkout    string   // what actions/checkout checks out
		refs        []string // what it fetches
		code        int
		want        []string
	}{
		{"pull_request_target, honest", "pull_request_target", prTarget(1, w.work2), w.main,
			[]string{"+refs/heads/main:refs/remotes/origin/main", recs}, 0, []string{`(?m)^OK .* add work1\.txt`, `(?m)^OK .* add work2\.txt`, `(?m)^2 commit\(s\)`}},
		{"pull_request_target, a commit without trailer", "pull_request_target", prTarget(2, w.notrailer), w.main,
			[]string{"+refs/heads/main:refs/remotes/origin/main", recs}, 1, []string{`(?m)^FAIL .* sneak a change`}},
		{"tag push of verified work", "push", pushEvent(zero40, w.work2, "refs/tags/v1"), w.work2,
			[]string{"+refs/tags/v1:refs/tags/v1", recs}, 0, []string{`(?m)^2 commit\(s\) in origin/main\.\.`}},
		{"tag push of a commit without trailer", "push", pushEvent(zero40, w.notrailer, "refs/tags/v2"), w.notrailer,
			[]string{"+refs/tags/v2:refs/tags/v2", recs}, 1, []string{`(?m)^FAIL .* sneak a change`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ci := w.checkout(t, "shape", true, c.checkout, c.refs...)
			env := append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME="+c.event, "GITHUB_EVENT_PATH="+w.event(t, filepath.Base(ci), c.ev))
			verifyWants(t, ci, env, nil, c.code, c.want)
		})
	}
}

// verifyWants runs verify in dir with env and args, and checks its exit
// code and that its output matches every pattern of want.
func verifyWants(t *testing.T, dir string, env, args []string, wantCode int, want []string) {
	t.Helper()
	code, out, errb := sgBin(t, dir, env, append([]string{"verify"}, args...)...)
	t.Logf("exit %d\n%s%s", code, out, errb)
	if code != wantCode {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, wantCode, out, errb)
	}
	for _, re := range want {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("output does not match %s:\n%s%s", re, out, errb)
		}
	}
}

// gitlabBuild is a GitLab runner's fetch strategy for pipeline id: GitLab
// points refs/pipelines/<id> at sha; the runner fetches it and refspecs
// (at depth, 0 for all), then checks sha out detached.
func (w *ciWorld) gitlabBuild(t *testing.T, id, sha string, depth int, refspecs ...string) string {
	t.Helper()
	w.git(t, w.remote, "update-ref", "refs/pipelines/"+id, sha)
	ci := filepath.Join(w.dir, "gitlab-build-"+id)
	w.git(t, w.dir, "init", "-q", ci)
	w.git(t, ci, "remote", "add", "origin", "file://"+w.remote)
	args := []string{"fetch", "-q", "--no-tags", "--prune"}
	if depth > 0 {
		args = append(args, "--depth="+strconv.Itoa(depth))
	}
	w.git(t, ci, append(append(args, "origin", "+refs/pipelines/"+id+":refs/pipelines/"+id), refspecs...)...)
	w.git(t, ci, "checkout", "-q", "-f", "--detach", sha)
	return ci
}
