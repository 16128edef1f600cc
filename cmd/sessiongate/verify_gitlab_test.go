package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestVerifyGitLabTemplate replays ci/gitlab/sessiongate-verify.gitlab-ci.yml
// as a GitLab runner would: the checkout the runner makes (git init, fetch
// refs/pipelines/<id> and the branches at GIT_DEPTH, a detached checkout of
// CI_COMMIT_SHA), the variables GitLab sets for merge request, merged
// results, push and new-branch pipelines and for a fork's merge request,
// then the template's own script lines (read from the file, never retyped)
// in one bash, with the released binary fetched from a local release host
// and checked against its checksums.txt.
func TestVerifyGitLabTemplate(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("curl"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("curl is required under CI=true: %v", err)
		}
		t.Skip("curl not found: the template's install step needs it")
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "ci", "gitlab", "sessiongate-verify.gitlab-ci.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var tmpl map[string]struct {
		Variables map[string]string
		Script    []string
		Artifacts struct {
			Reports struct{ Codequality string }
		}
	}
	if err := yaml.Unmarshal(b, &tmpl); err != nil {
		t.Fatal(err)
	}
	job, ok := tmpl["sessiongate-verify"]
	if !ok || len(job.Script) == 0 || job.Artifacts.Reports.Codequality == "" {
		t.Fatalf("the template has no sessiongate-verify job with a script and a codequality report: %+v", tmpl)
	}
	srv, _ := newReleaseHost(t)
	w := newCIWorld(t)
	w.git(t, w.dir, "clone", "-q", "--mirror", w.remote, w.fork)
	// A merged-results pipeline runs on a merge commit GitLab makes of the
	// source branch into the target's tip (no trailer).
	mergeResult := func(n, head string) string {
		tmp := filepath.Join(w.dir, "gitlab-merge-"+n)
		w.git(t, w.dir, "clone", "-q", w.remote, tmp)
		w.git(t, tmp, "-c", "user.name=GitLab", "-c", "user.email=noreply@gitlab.invalid", "-c", "core.hooksPath=/dev/null",
			"merge", "-q", "--no-ff", "-m", "Merge branch into main", head)
		w.git(t, tmp, "push", "-q", "origin", "HEAD:refs/merge-requests/"+n+"/merge")
		return w.git(t, tmp, "rev-parse", "HEAD")
	}
	merged := mergeResult("3", w.work2)
	pipeline := 0
	// checkout is the runner's fetch strategy: GitLab points
	// refs/pipelines/<id> at the commit; the runner fetches it and the
	// branches at depth, then checks the commit out detached.
	checkout := func(t *testing.T, sha string, depth int) string {
		pipeline++
		return w.gitlabBuild(t, strconv.Itoa(pipeline), sha, depth, "+refs/heads/*:refs/remotes/origin/*")
	}
	project := []string{"GITLAB_CI=true", "CI=true", "CI_PROJECT_ID=1", "CI_DEFAULT_BRANCH=main", "CI_SERVER_URL=https://gitlab.invalid"}
	mr := func(iid, head string, extra ...string) []string {
		return append([]string{"CI_PIPELINE_SOURCE=merge_request_event", "CI_MERGE_REQUEST_IID=" + iid, "CI_MERGE_REQUEST_DIFF_BASE_SHA=" + w.main,
			"CI_COMMIT_BEFORE_SHA=" + zero40, "CI_COMMIT_REF_NAME=" + head, "CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main",
			"CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=" + head, // the records of its sessions say the branch: checked against it
			"CI_MERGE_REQUEST_SOURCE_PROJECT_URL=file://" + w.remote, "CI_MERGE_REQUEST_SOURCE_PROJECT_ID=1"}, extra...)
	}
	push := func(branch, before, sha string) []string {
		return []string{"CI_PIPELINE_SOURCE=push", "CI_COMMIT_BRANCH=" + branch, "CI_COMMIT_REF_NAME=" + branch, "CI_COMMIT_BEFORE_SHA=" + before, "CI_COMMIT_SHA=" + sha}
	}
	cases := []struct {
		name   string
		sha    string // what the runner checks out
		depth  int    // GIT_DEPTH (0: full)
		env    []string
		code   int
		want   []string
		issues int // Code Quality entries
		setup  func(t *testing.T)
		check  func(t *testing.T)
	}{
		{name: "merge request pipeline, honest", sha: w.work2, depth: 20,
			env:  append(mr("1", "feature"), "CI_COMMIT_SHA="+w.work2),
			want: []string{`(?m)^2 commit\(s\)`, `GitLab merge request !1`, `installed sessiongate v1\.2\.3 `}},
		{name: "merge request pipeline, GIT_DEPTH 1, a commit without trailer", sha: w.notrailer, depth: 1,
			env:  append(mr("2", "bad-notrailer"), "CI_COMMIT_SHA="+w.notrailer),
			code: 1, issues: 1, want: []string{`(?m)^FAIL .* sneak a change`, `(?m)^3 commit\(s\)`, `(?m)^fetched: git fetch`}},
		{name: "merged results pipeline: the source branch's commits, not GitLab's merge commit", sha: merged, depth: 20,
			env:  append(mr("3", "feature"), "CI_COMMIT_SHA="+merged, "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA="+w.work2, "CI_MERGE_REQUEST_EVENT_TYPE=merged_result"),
			want: []string{`(?m)^2 commit\(s\)`, `not the merged-results commit`}},
		{name: "push pipeline, GIT_DEPTH 1, copied trailers", sha: w.copied, depth: 1,
			env:  push("bad-copied", w.work2, w.copied),
			code: 1, issues: 1, want: []string{`(?m)^FAIL .* borrowed trailers`, `trailers copied`, `CI_COMMIT_BEFORE_SHA\.\.CI_COMMIT_SHA`}},
		{name: "push pipeline creating a branch (all-zero CI_COMMIT_BEFORE_SHA)", sha: w.work2, depth: 20,
			env:  push("feature", zero40, w.work2),
			want: []string{`(?m)^2 commit\(s\) in origin/main\.\.`, `new branch feature`}},
		{name: "a fork's merge request: records fetched from the source project", sha: w.work2, depth: 20,
			setup: func(t *testing.T) { w.git(t, w.remote, "update-ref", "-d", "refs/sessiongate/records") },
			env: append(mr("4", "feature"), "CI_COMMIT_SHA="+w.work2, "CI_MERGE_REQUEST_SOURCE_PROJECT_URL=file://"+w.fork,
				"CI_MERGE_REQUEST_SOURCE_PROJECT_ID=2"),
			want: []string{`(?m)^2 commit\(s\)`, `(?m)^OK .* add work1\.txt`}},
		// SESSIONGATE_FORK_RECORDS=push: the job pushes the merge request's
		// records to this project with the job token (its https URL led to
		// the bare origin by url.insteadOf); a session the fork ran that no
		// commit of the merge request names stays on the fork.
		{name: "a fork's merge request, SESSIONGATE_FORK_RECORDS=push: only its sessions' records reach the project", sha: w.work2, depth: 20,
			setup: func(t *testing.T) {
				w.git(t, w.remote, "update-ref", "-d", "refs/sessiongate/records")
				forgeRecord(t, w, w.fork, "sessions/0f/0f0f0f0f-0000-4000-8000-000000000002.json", `{"session_id":"0f0f0f0f-0000-4000-8000-000000000002"}`)
			},
			env: append(mr("5", "feature"), "CI_COMMIT_SHA="+w.work2, "CI_MERGE_REQUEST_SOURCE_PROJECT_URL=file://"+w.fork,
				"CI_MERGE_REQUEST_SOURCE_PROJECT_ID=2", "SESSIONGATE_FORK_RECORDS=push", "CI_JOB_TOKEN=tok", "CI_SERVER_HOST=gitlab.invalid",
				"CI_PROJECT_PATH=acme/project", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=url.file://"+w.remote+".insteadOf",
				"GIT_CONFIG_VALUE_0=https://gitlab-ci-token:tok@gitlab.invalid/acme/project.git"),
			want: []string{`(?m)^OK .* add work1\.txt`, `pushed \d+ record file\(s\) of session\(s\) `},
			check: func(t *testing.T) {
				held := w.git(t, w.remote, "ls-tree", "-r", "--name-only", "refs/sessiongate/records")
				if strings.Contains(held, "0f0f0f0f-0000-4000-8000-000000000002") {
					t.Error("the project holds the fork's unrelated session record")
				}
				sid := w.git(t, w.remote, "log", "-1", "--format=%(trailers:key=Session-Id,valueonly)", w.work2)
				if sid == "" || !strings.Contains(held, sid) {
					t.Errorf("the project lacks the merge request's session record %q:\n%s", sid, held)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.setup != nil {
				c.setup(t)
			}
			ci := checkout(t, c.sha, c.depth)
			binDir := t.TempDir()
			env := append([]string{}, w.env...)
			for k, v := range job.Variables {
				env = append(env, k+"="+v)
			}
			env = append(env, project...)
			env = append(env, c.env...)
			env = append(env, "GIT_DEPTH="+strconv.Itoa(c.depth), "CI_PROJECT_DIR="+ci,
				"SESSIONGATE_VERSION=v1.2.3", "SESSIONGATE_RELEASES="+srv.URL+"/releases", "SESSIONGATE_BIN_DIR="+binDir)
			// The job's image has no sessiongate: only the one installed.
			var path []string
			for _, d := range filepath.SplitList(os.Getenv("PATH")) {
				if _, err := os.Stat(filepath.Join(d, "sessiongate")); err != nil {
					path = append(path, d)
				}
			}
			env = append(env, "PATH="+binDir+string(os.PathListSeparator)+strings.Join(path, string(os.PathListSeparator)))
			jobTmp := t.TempDir()
			env = append(env, "TMPDIR="+jobTmp)
			cmd := exec.Command("bash", "-e", "-c", strings.Join(job.Script, "\n"))
			cmd.Dir = ci
			cmd.Env = append(os.Environ(), env...)
			out, err := cmd.CombinedOutput()
			// The download folder goes when the job's shell ends.
			if left, _ := os.ReadDir(jobTmp); len(left) > 0 {
				t.Fatalf("the job left %d entries in TMPDIR (%s first)", len(left), left[0].Name())
			}
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != c.code {
				t.Fatalf("the template's script: exit %d, want %d\n%s", code, c.code, out)
			}
			for _, re := range c.want {
				if !regexp.MustCompile(re).Match(out) {
					t.Errorf("output does not match %s:\n%s", re, out)
				}
			}
			if regexp.MustCompile(`(?m)^(OK|FAIL|WARN) .*Merge branch`).Match(out) {
				t.Errorf("GitLab's merge commit was checked:\n%s", out)
			}
			if c.check != nil {
				c.check(t)
			}
			rb, err := os.ReadFile(filepath.Join(ci, job.Artifacts.Reports.Codequality))
			if err != nil {
				t.Fatalf("no Code Quality report at %s: %v", job.Artifacts.Reports.Codequality, err)
			}
			var issues []map[string]any
			if err := json.Unmarshal(rb, &issues); err != nil || len(issues) < c.issues || c.issues == 0 && len(issues) != 0 {
				t.Errorf("Code Quality report: %d issue(s), want %d (%v):\n%s", len(issues), c.issues, err, rb)
			}
		})
	}
}

// forgeRecord commits body at path onto the records ref of the repository
// at dir, as the owner of a fork can.
func forgeRecord(t *testing.T, w *ciWorld, dir, path, body string) {
	t.Helper()
	idx := "GIT_INDEX_FILE=" + filepath.Join(t.TempDir(), "index")
	run := func(stdin string, args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(append(os.Environ(), w.env...), idx)
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
	run("", "update-ref", "refs/sessiongate/records", run("", "commit-tree", "-p", tip, "-m", "forged", tree))
}
