package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// ciWorld is an origin with main (one session) and branches made by a
// second session plus bad commits, pushed as a team would, for CI
// checkouts to be built from with real git.
type ciWorld struct {
	dir, remote, fork, dev string
	env                    []string
	main, work2            string // main's tip; the honest branch's tip
	notrailer, copied      string // tips of the bad branches
	protocol, qa           string
	qaCmd                  string // commands.QA_VALIDATION in dev now
}

func (w *ciWorld) git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), w.env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// gitErr runs git as a coding agent's (Claude Code's CLAUDECODE) and
// returns its combined output and error: for a commit a hook refuses.
func (w *ciWorld) gitErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), w.env...), "CLAUDECODE=1")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (w *ciWorld) sg(t *testing.T, dir string, args ...string) string {
	t.Helper()
	code, out, errb := sgBin(t, dir, w.env, args...)
	if code != 0 {
		t.Fatalf("sessiongate %v: exit %d\n%s%s", args, code, out, errb)
	}
	return out
}

// acceptAtTerminal runs `protocol accept --yes` at a terminal, as accept
// requires: script(1) gives it one, which is also how an agent with a pty
// fakes one (docs/security.md). What verify must catch is the local
// acceptance nothing in git carries.
func (w *ciWorld) acceptAtTerminal(t *testing.T, reason string) {
	t.Helper()
	script, err := exec.LookPath("script")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("script(1) is required under CI=true (util-linux): %v", err)
		}
		t.Skipf("script(1) not found: install util-linux to give protocol accept a terminal")
	}
	cmd := exec.Command(script, "-qec", realBinary(t)+" protocol accept --yes --reason '"+reason+"'", "/dev/null")
	cmd.Dir = w.dev
	cmd.Env = sgEnv(w.env)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("protocol accept at a terminal: %v\n%s", err, out)
	}
}

func (w *ciWorld) write(t *testing.T, f string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(w.dev, f), []byte(f+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// setCommand sets commands.QA_VALIDATION in dev's sessiongate.yaml.
func (w *ciWorld) setCommand(t *testing.T, cmd string) {
	t.Helper()
	w.qaCmd = cmd
	p := filepath.Join(w.dev, "sessiongate.yaml")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	out := regexp.MustCompile(`(?m)^commands:.*$`).ReplaceAllString(string(b), "commands: {QA_VALIDATION: \""+cmd+"\"}")
	if out == string(b) {
		t.Fatal("no commands: line in sessiongate.yaml")
	}
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

// session runs one honest session in dev that commits files.
func (w *ciWorld) session(t *testing.T, files ...string) {
	t.Helper()
	w.sessionWith(t, func() {
		for _, f := range files {
			w.write(t, f)
			w.git(t, w.dev, "add", "-A")
			w.git(t, w.dev, "commit", "-q", "-m", "add "+f)
		}
	})
}

// sessionWith runs a session whose work is work().
func (w *ciWorld) sessionWith(t *testing.T, work func()) {
	t.Helper()
	w.sg(t, w.dev, "session", "start", "--objective", "work for CI")
	w.sg(t, w.dev, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the README")
	w.sg(t, w.dev, "session", "evidence", "--phase", "GIT_STATE", "--type", "tool_output", "--value", "git status: clean")
	w.sg(t, w.dev, "session", "advance", "--to", "WORKING")
	work()
	w.sg(t, w.dev, append([]string{"run", "--phase", "QA_VALIDATION", "--"}, strings.Fields(w.qaCmd)...)...)
	w.sg(t, w.dev, "session", "advance", "--to", "DOCUMENTATION_UPDATE")
	w.sg(t, w.dev, "session", "end", "--summary", "done")
}

// noHooks commits outside sessiongate's hooks, as an agent with a shell can.
func (w *ciWorld) noHooks(t *testing.T, file, msg string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(w.dev, file), []byte(msg+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.git(t, w.dev, "add", "-A")
	w.git(t, w.dev, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", msg)
	return w.git(t, w.dev, "rev-parse", "HEAD")
}

// buildCIWorld builds the CI world in dir; tests get a copy of it from
// newCIWorld (ciworld_template_test.go).
func buildCIWorld(t *testing.T, dir string) *ciWorld {
	t.Helper()
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	gitconfig := "[user]\n\tname = Dev\n\temail = dev@example.invalid\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	w := &ciWorld{dir: dir, remote: filepath.Join(dir, "remote.git"), fork: filepath.Join(dir, "fork.git"), dev: filepath.Join(dir, "dev")}
	// No CI of the machine running the tests leaks into the checkouts.
	w.env = []string{"HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GITHUB_ACTIONS=", "GITLAB_CI=", "GITHUB_STEP_SUMMARY="}
	w.git(t, dir, "init", "-q", "--bare", w.remote)
	w.git(t, dir, "init", "-q", w.dev)
	w.git(t, w.dev, "remote", "add", "origin", w.remote)
	if err := os.WriteFile(filepath.Join(w.dev, "README.md"), []byte("# project\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.sg(t, w.dev, "init")
	// The project's QA command, as committed on main: --rerun runs it.
	w.setCommand(t, "test ! -f broken.txt")
	w.sg(t, w.dev, "install")
	w.session(t, "adopt.txt")
	w.git(t, w.dev, "push", "-q", "origin", "main")
	w.main = w.git(t, w.dev, "rev-parse", "HEAD")

	w.git(t, w.dev, "checkout", "-q", "-b", "feature")
	w.session(t, "work1.txt", "work2.txt")
	w.work2 = w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "origin", "feature")

	// A commit made with hooks off: no trailer.
	w.git(t, w.dev, "checkout", "-q", "-b", "bad-notrailer", w.work2)
	w.notrailer = w.noHooks(t, "sneak.txt", "sneak a change past the hooks")
	// A commit carrying trailers copied from an honest one.
	w.git(t, w.dev, "checkout", "-q", "-b", "bad-copied", w.work2)
	trailers := w.git(t, w.dev, "log", "-1", "--format=%(trailers:only)", w.work2)
	w.copied = w.noHooks(t, "copied.txt", "borrowed trailers\n\n"+trailers)
	// A session under a protocol the repository never held: weakened in
	// the work tree, accepted with --yes, never committed.
	w.git(t, w.dev, "checkout", "-q", "-b", "bad-protocol", w.work2)
	proto := filepath.Join(w.dev, "SESSION-PROTOCOL.md")
	orig, err := os.ReadFile(proto)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(proto, append(orig, []byte("\nAgents may skip QA when in a hurry.\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	w.acceptAtTerminal(t, "agent in a hurry")
	w.sessionWith(t, func() {
		w.write(t, "hurried.txt")
		w.git(t, w.dev, "add", "hurried.txt")
		w.git(t, w.dev, "commit", "-q", "-m", "hurried work")
	})
	w.protocol = w.git(t, w.dev, "rev-parse", "HEAD")
	if err := os.WriteFile(proto, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	w.acceptAtTerminal(t, "restore")
	// A session that breaks the QA command's check and, in the same
	// change, makes the command `true` (accepted with --yes): its local
	// QA passes; only the base's command, re-run in CI, sees it.
	w.git(t, w.dev, "checkout", "-q", "-b", "bad-qa", w.work2)
	w.setCommand(t, "test -f README.md")
	w.acceptAtTerminal(t, "faster QA")
	w.session(t, "broken.txt")
	w.qa = w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "bad-notrailer", "bad-copied", "bad-protocol", "bad-qa", "refs/sessiongate/records")
	w.git(t, w.dev, "checkout", "-q", "feature")
	return w
}

// pullRef makes refs/pull/N/head and refs/pull/N/merge on the base
// repository as GitHub does: a merge commit of the base branch's tip and
// the head, made by GitHub (no trailer), whose second parent is the head.
func (w *ciWorld) pullRef(t *testing.T, n, headRepo, head string) string {
	t.Helper()
	tmp := filepath.Join(w.dir, "github-merge-"+n)
	w.git(t, w.dir, "clone", "-q", w.remote, tmp)
	w.git(t, tmp, "fetch", "-q", headRepo, head)
	w.git(t, tmp, "-c", "user.name=GitHub", "-c", "user.email=noreply@github.com", "-c", "core.hooksPath=/dev/null",
		"merge", "-q", "--no-ff", "-m", "Merge "+head+" into main", head)
	w.git(t, tmp, "push", "-q", "origin", head+":refs/pull/"+n+"/head", "HEAD:refs/pull/"+n+"/merge")
	return w.git(t, tmp, "rev-parse", "HEAD")
}

// checkout builds a CI clone as actions/checkout does: init, fetch the
// refspecs (depth 1 when shallow), check out sha detached.
func (w *ciWorld) checkout(t *testing.T, name string, shallow bool, sha string, refspecs ...string) string {
	t.Helper()
	ci := filepath.Join(w.dir, name)
	for i := 2; ; i++ { // the same checkout again, for another case
		if _, err := os.Stat(ci); os.IsNotExist(err) {
			break
		}
		ci = filepath.Join(w.dir, name+"-"+strconv.Itoa(i))
	}
	w.git(t, w.dir, "init", "-q", ci)
	w.git(t, ci, "remote", "add", "origin", "file://"+w.remote)
	args := []string{"fetch", "-q", "--no-tags"}
	if shallow {
		args = append(args, "--depth=1")
	}
	w.git(t, ci, append(append(args, "origin"), refspecs...)...)
	w.git(t, ci, "checkout", "-q", "--detach", sha)
	return ci
}

func (w *ciWorld) event(t *testing.T, name string, ev any) string {
	t.Helper()
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(w.dir, name+".json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func pushEvent(before, after, ref string) map[string]any {
	return map[string]any{"before": before, "after": after, "ref": ref, "repository": map[string]any{"default_branch": "main"}}
}

func prEvent(n int, base, head string) map[string]any {
	return map[string]any{"number": n, "pull_request": map[string]any{"number": n,
		"base": map[string]any{"sha": base, "ref": "main"}, "head": map[string]any{"sha": head}}}
}

const zero40 = "0000000000000000000000000000000000000000"

// TestVerifyCIRanges builds each CI's checkout with real git and runs the
// real binary with that CI's environment: the range comes from the event,
// every commit of the work is checked (never GitHub's merge commit), and
// shallow clones are deepened or refused, never passed unchecked.
func TestVerifyCIRanges(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	const recs = "refs/sessiongate/records:refs/sessiongate/records"
	all := []string{"+refs/heads/*:refs/remotes/origin/*", recs}
	gh := func(event, path string) []string {
		return []string{"GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=" + event, "GITHUB_EVENT_PATH=" + path}
	}
	// The fork holds the feature commits and their records; the base
	// repository gets refs/pull/N/* from GitHub, never the records.
	w.git(t, w.dir, "clone", "-q", "--mirror", w.remote, w.fork)
	merge1 := w.pullRef(t, "1", w.remote, w.work2)
	merge2 := w.pullRef(t, "2", w.remote, w.notrailer)
	merge3 := w.pullRef(t, "3", w.remote, w.copied)

	type tc struct {
		name    string
		dir     func(t *testing.T) string
		env     []string
		args    []string
		code    int
		want    []string // regexps stdout (exit 0/1) or stderr (exit 2) must match
		notWant []string
		after   func(t *testing.T)
	}
	pr := func(n int, merge, head string, shallow bool) func(t *testing.T) string {
		return func(t *testing.T) string {
			ref := []string{"+refs/pull/" + itoa(n) + "/merge:refs/remotes/pull/" + itoa(n) + "/merge", recs}
			if !shallow {
				ref = append(ref, "+refs/heads/*:refs/remotes/origin/*")
			}
			return w.checkout(t, "pr"+itoa(n)+map[bool]string{true: "-shallow", false: ""}[shallow], shallow, merge, ref...)
		}
	}
	cases := []tc{
		{name: "github push of a new branch (all-zero before)", code: 0,
			dir:  func(t *testing.T) string { return w.checkout(t, "push-new", false, w.work2, all...) },
			env:  gh("push", w.event(t, "push-new", pushEvent(zero40, w.work2, "refs/heads/feature"))),
			want: []string{`(?m)^2 commit\(s\) in origin/main\.\.`, `commits not on the default branch main`}},
		{name: "github push of a new branch holding a commit without trailer", code: 1,
			dir:  func(t *testing.T) string { return w.checkout(t, "push-new-bad", false, w.notrailer, all...) },
			env:  gh("push", w.event(t, "push-new-bad", pushEvent(zero40, w.notrailer, "refs/heads/bad-notrailer"))),
			want: []string{`(?m)^FAIL .* sneak a change`, `(?m)^3 commit\(s\)`}},
		{name: "github push to a branch: the branch's commits not on main", code: 0,
			dir:  func(t *testing.T) string { return w.checkout(t, "push-ff", false, w.work2, all...) },
			env:  gh("push", w.event(t, "push-ff", pushEvent(w.main, w.work2, "refs/heads/feature"))),
			want: []string{`(?m)^OK .* add work1\.txt`, `(?m)^OK .* add work2\.txt`, `every commit of the branch, not only before\.\.after`}},
		{name: "github push, shallow depth 1: deepened, all 3 commits checked", code: 1,
			dir: func(t *testing.T) string {
				return w.checkout(t, "push-shallow", true, w.notrailer, "+refs/heads/bad-notrailer:refs/remotes/origin/bad-notrailer", recs)
			},
			env:  gh("push", w.event(t, "push-shallow", pushEvent(w.main, w.notrailer, "refs/heads/bad-notrailer"))),
			want: []string{`(?m)^3 commit\(s\)`, `(?m)^FAIL .* sneak a change`, `(?m)^fetched: git fetch`}},
		{name: "github push, shallow depth 1, --no-fetch: exit 2 saying fetch-depth: 0", code: 2, args: []string{"--no-fetch"},
			dir: func(t *testing.T) string {
				return w.checkout(t, "push-shallow-nofetch", true, w.notrailer, "+refs/heads/bad-notrailer:refs/remotes/origin/bad-notrailer", recs)
			},
			env:  gh("push", w.event(t, "push-shallow-nofetch", pushEvent(w.main, w.notrailer, "refs/heads/bad-notrailer"))),
			want: []string{`fetch-depth: 0`, `GIT_DEPTH`}},
		{name: "github pull_request: the PR's commits, not the merge commit", code: 0,
			dir: pr(1, merge1, w.work2, false), env: gh("pull_request", w.event(t, "pr1", prEvent(1, w.main, w.work2))),
			want:    []string{`(?m)^2 commit\(s\)`, `not the merge commit`},
			notWant: []string{`Merge `}},
		{name: "github pull_request, shallow depth 1 (actions/checkout default)", code: 0,
			dir: pr(1, merge1, w.work2, true), env: gh("pull_request", w.event(t, "pr1s", prEvent(1, w.main, w.work2))),
			want: []string{`(?m)^2 commit\(s\)`, `(?m)^OK .* add work1\.txt`}, notWant: []string{`Merge `}},
		// Round 28 (c2): actions/checkout's default fetches the merge ref
		// alone, depth 1, no records ref: verify fetches it (as it
		// deepens), or with --no-fetch exits 2 naming the fetch.
		{name: "github pull_request, actions/checkout default without the records ref: fetched", code: 0,
			dir: func(t *testing.T) string {
				return w.checkout(t, "pr1-norecs", true, merge1, "+refs/pull/1/merge:refs/remotes/pull/1/merge")
			}, env: gh("pull_request", w.event(t, "pr1n", prEvent(1, w.main, w.work2))),
			want: []string{`(?m)^2 commit\(s\)`, `refs/sessiongate/records`}, notWant: []string{`Merge `}},
		{name: "github pull_request, actions/checkout default without the records ref, --no-fetch: exit 2 naming the fetch", code: 2, args: []string{"--no-fetch"},
			dir: func(t *testing.T) string {
				return w.checkout(t, "pr1-norecs-nofetch", false, merge1, "+refs/pull/1/merge:refs/remotes/pull/1/merge")
			}, env: gh("pull_request", w.event(t, "pr1nn", prEvent(1, w.main, w.work2))),
			want: []string{`not in this clone`, `git fetch origin refs/sessiongate/records`}},
		{name: "github pull_request with a commit without trailer", code: 1,
			dir: pr(2, merge2, w.notrailer, false), env: gh("pull_request", w.event(t, "pr2", prEvent(2, w.main, w.notrailer))),
			want: []string{`(?m)^FAIL .* sneak a change`, `(?m)^3 commit\(s\)`}},
		{name: "github pull_request, shallow, with copied trailers (unrecorded session commit)", code: 1,
			dir: pr(3, merge3, w.copied, true), env: gh("pull_request", w.event(t, "pr3", prEvent(3, w.main, w.copied))),
			want: []string{`(?m)^FAIL .* borrowed trailers`, `trailers copied`}},
		{name: "gitlab merge request", code: 0,
			dir:  func(t *testing.T) string { return w.checkout(t, "gitlab-mr", false, w.work2, all...) },
			env:  []string{"GITLAB_CI=true", "CI_MERGE_REQUEST_DIFF_BASE_SHA=" + w.main, "CI_COMMIT_SHA=" + w.work2, "CI_MERGE_REQUEST_IID=7"},
			want: []string{`(?m)^2 commit\(s\)`, `GitLab merge request !7`}},
		{name: "gitlab merge request with a commit without trailer", code: 1,
			dir:  func(t *testing.T) string { return w.checkout(t, "gitlab-mr-bad", false, w.notrailer, all...) },
			env:  []string{"GITLAB_CI=true", "CI_MERGE_REQUEST_DIFF_BASE_SHA=" + w.main, "CI_COMMIT_SHA=" + w.notrailer},
			want: []string{`(?m)^FAIL .* sneak a change`}},
		{name: "gitlab new branch (all-zero CI_COMMIT_BEFORE_SHA)", code: 1,
			dir:  func(t *testing.T) string { return w.checkout(t, "gitlab-new", false, w.copied, all...) },
			env:  []string{"GITLAB_CI=true", "CI_COMMIT_BEFORE_SHA=" + zero40, "CI_COMMIT_SHA=" + w.copied, "CI_COMMIT_REF_NAME=bad-copied", "CI_DEFAULT_BRANCH=main"},
			want: []string{`(?m)^3 commit\(s\)`, `(?m)^FAIL .* borrowed trailers`}},
		{name: "no CI event, detached at the default branch's tip: exit 2, no silent pass", code: 2,
			dir:  func(t *testing.T) string { return w.checkout(t, "bare-detached", false, w.main, all...) },
			want: []string{`cannot tell which commits to check`, `BASE\.\.HEAD`}},
		{name: "no CI event, detached on a branch: the commits not on the default branch", code: 1,
			dir:  func(t *testing.T) string { return w.checkout(t, "bare-branch", false, w.copied, all...) },
			want: []string{`(?m)^3 commit\(s\) in origin/main\.\.HEAD`}},
	}
	// A range named on the command line gets the same care in a shallow clone.
	shallowNamed := func(t *testing.T) string {
		return w.checkout(t, "named-shallow", true, w.notrailer, "+refs/heads/main:refs/remotes/origin/main",
			"+refs/heads/bad-notrailer:refs/remotes/origin/bad-notrailer", recs)
	}
	cases = append(cases,
		tc{name: "named range, shallow depth 1: deepened, all 3 commits checked", code: 1, args: []string{"origin/main..HEAD"},
			dir: shallowNamed, want: []string{`(?m)^3 commit\(s\) in origin/main\.\.HEAD`, `(?m)^FAIL .* sneak a change`, `(?m)^fetched: git fetch --deepen`}},
		tc{name: "named range, shallow depth 1, --no-fetch: exit 2", code: 2, args: []string{"--no-fetch", "origin/main..HEAD"},
			dir: shallowNamed, want: []string{`parents are not fetched`, `fetch-depth: 0`}},
	)
	// Speaks GitHub: annotations on stdout and the job summary appended.
	summary := filepath.Join(w.dir, "step-summary.md")
	if err := os.WriteFile(summary, []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases = append(cases, tc{name: "github annotations and job summary", code: 1,
		dir:  pr(2, merge2, w.notrailer, false),
		env:  append(gh("pull_request", w.event(t, "pr2-summary", prEvent(2, w.main, w.notrailer))), "GITHUB_STEP_SUMMARY="+summary),
		want: []string{`(?m)^::error file=sneak\.txt,line=1,title=sessiongate verify [0-9a-f]{12}%3A sneak a change past the hooks::no Session-Id trailer`},
		after: func(t *testing.T) {
			b, err := os.ReadFile(summary)
			if err != nil {
				t.Fatal(err)
			}
			for _, re := range []string{`^earlier step\n`, `### sessiongate verify failed: 3 commit\(s\)`, `\| ❌ \| ` + "`" + `[0-9a-f]{12}` + "`" + ` \| sneak a change`, `\| ✅ \| .* add work1\.txt`, `Range: GitHub pull_request #2`} {
				if !regexp.MustCompile(re).Match(b) {
					t.Errorf("job summary does not match %s:\n%s", re, b)
				}
			}
		}})
	// Re-checked in CI: the protocol, and the QA command re-run.
	cases = append(cases,
		tc{name: "a session under a protocol the repository never held", code: 1,
			dir:  func(t *testing.T) string { return w.checkout(t, "gh-protocol", false, w.protocol, all...) },
			env:  gh("push", w.event(t, "gh-protocol", pushEvent(w.work2, w.protocol, "refs/heads/bad-protocol"))),
			want: []string{`(?m)^FAIL .* hurried work`, `not the repository's: SESSION-PROTOCOL.md at the base`, `never held it`}},
		tc{name: "--rerun passes the honest work", code: 0, args: []string{"--rerun"},
			dir:  func(t *testing.T) string { return w.checkout(t, "gh-rerun-ok", false, w.work2, all...) },
			env:  gh("push", w.event(t, "gh-rerun-ok", pushEvent(w.main, w.work2, "refs/heads/feature"))),
			want: []string{`(?m)^OK   rerun QA_VALIDATION: test ! -f broken\.txt`}},
		tc{name: "a change that made the QA command prove nothing fails without --rerun: its config change has no signed acceptance", code: 1,
			dir:  func(t *testing.T) string { return w.checkout(t, "gh-qa", false, w.qa, all...) },
			env:  gh("push", w.event(t, "gh-qa", pushEvent(w.work2, w.qa, "refs/heads/bad-qa"))),
			want: []string{`trusted: config sessiongate\.yaml`, `commit [0-9a-f]{12} changes sessiongate\.yaml \(now sha256 [0-9a-f]{12}\)`}},
		tc{name: "--rerun runs the base's QA command, not the head's test -f README.md", code: 1, args: []string{"--rerun"},
			dir:  func(t *testing.T) string { return w.checkout(t, "gh-qa-rerun", false, w.qa, all...) },
			env:  gh("push", w.event(t, "gh-qa-rerun", pushEvent(w.work2, w.qa, "refs/heads/bad-qa"))),
			want: []string{`(?m)^FAIL rerun QA_VALIDATION: test ! -f broken\.txt \(exit 1`}},
	)
	// Last, as it moves main: a push to main (the feature fast-forwarded),
	// checked out as GitHub does, detached at the pushed commit.
	cases = append(cases, tc{name: "github push to main, full clone, detached at the pushed commit", code: 0,
		dir: func(t *testing.T) string {
			w.git(t, w.dev, "push", "-q", "origin", "feature:main")
			return w.checkout(t, "push-main", false, w.work2, all...)
		},
		env:  gh("push", w.event(t, "push-main", pushEvent(w.main, w.work2, "refs/heads/main"))),
		want: []string{`(?m)^2 commit\(s\)`, `(?m)^OK .* add work2\.txt`}})
	// A pull request from a fork: the base repository holds no records
	// (the contributor's pre-push sent them to the fork); the job fetches
	// them from the fork's clone URL.
	cases = append(cases, tc{name: "github pull_request from a fork, records fetched from the fork", code: 0,
		dir: func(t *testing.T) string {
			w.git(t, w.remote, "update-ref", "-d", "refs/sessiongate/records")
			ci := w.checkout(t, "pr-fork", true, merge1, "+refs/pull/1/merge:refs/remotes/pull/1/merge")
			w.git(t, ci, "fetch", "-q", "file://"+w.fork, "refs/sessiongate/records:refs/sessiongate/records")
			return ci
		},
		env:  gh("pull_request_target", w.event(t, "pr-fork", prEvent(1, w.main, w.work2))),
		want: []string{`(?m)^2 commit\(s\)`, `(?m)^OK .* add work1\.txt`}, notWant: []string{`Merge `}})
	defer t.Run("action.yml replayed on a fork's pull request, shallow", func(t *testing.T) {
		// Runs after the cases: the base repository has no records (the
		// fork case removed them); the action fetches them from the fork.
		src, _ := filepath.Abs(filepath.Join("..", ".."))
		ci := w.checkout(t, "action-fork", true, merge2, "+refs/pull/2/merge:refs/remotes/pull/2/merge")
		vals := map[string]string{
			"github.event.pull_request.head.repo.clone_url": "file://" + w.fork,
			"github.event.pull_request.head.repo.full_name": "contributor/project",
			"github.event.pull_request.base.sha":            w.main,
			"github.event.pull_request.head.sha":            w.notrailer,
			"github.repository":                             "acme/project",
			"github.action_path":                            src,
			"github.action_ref":                             "main",
		}
		sarif := filepath.Join(w.dir, "action.sarif")
		env := append(append([]string{}, w.env...), gh("pull_request", w.event(t, "action-pr2", prEvent(2, w.main, w.notrailer)))...)
		code, out := replayAction(t, ci, env, vals, map[string]string{"version": "source", "sarif": sarif})
		if code != 1 {
			t.Fatalf("the action's verify step: exit %d, want 1 (a commit without trailer)\n%s", code, out)
		}
		for _, re := range []string{`fetching refs/sessiongate/records from origin; the fork's \(file://`, `(?m)^::error .*sneak a change`, `(?m)^OK .* add work1\.txt`} {
			if !regexp.MustCompile(re).MatchString(out) {
				t.Errorf("replay output does not match %s:\n%s", re, out)
			}
		}
		if b, err := os.ReadFile(sarif); err != nil || !strings.Contains(string(b), `"version": "2.1.0"`) {
			t.Errorf("no SARIF report at the sarif input's path: %v", err)
		}
	})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := c.dir(t)
			code, out, errb := sgBin(t, dir, append(append([]string{}, w.env...), c.env...), append([]string{"verify"}, c.args...)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out, errb)
			}
			text := out
			if c.code == 2 {
				text = errb
			}
			for _, re := range c.want {
				if !regexp.MustCompile(re).MatchString(text) {
					t.Errorf("output does not match %s:\n%s%s", re, out, errb)
				}
			}
			for _, re := range c.notWant {
				if regexp.MustCompile(re).MatchString(out) {
					t.Errorf("output matches %s:\n%s", re, out)
				}
			}
			if c.after != nil {
				c.after(t)
			}
		})
	}
}

// replayAction runs action.yml's bash steps in dir as the runner would:
// ${{ }} expressions from vals, inputs from their defaults and overrides,
// `uses:` steps skipped (setup-go: the machine's go is used), `if:` on the
// release step's output honoured, GITHUB_PATH and GITHUB_OUTPUT as files.
func replayAction(t *testing.T, dir string, env []string, vals, inputs map[string]string) (int, string) {
	t.Helper()
	return replayActionSteps(t, dir, env, vals, inputs, nil)
}

// replayActionSteps is replayAction for the steps whose id is in only
// (nil: every step).
func replayActionSteps(t *testing.T, dir string, env []string, vals, inputs map[string]string, only map[string]bool) (int, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct{ Default string }
		Runs   struct {
			Using string
			Steps []struct {
				Name, ID, If, Shell, Run, Uses string
				WorkingDirectory               string `yaml:"working-directory"`
				Env                            map[string]string
			}
		}
	}
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Fatalf("action.yml runs.using = %q", action.Runs.Using)
	}
	for k, v := range action.Inputs {
		if _, ok := inputs[k]; !ok {
			inputs[k] = v.Default
		}
	}
	tmp := t.TempDir()
	pathFile, outFile := filepath.Join(tmp, "path"), filepath.Join(tmp, "output")
	if _, ok := vals["runner.temp"]; !ok {
		vals["runner.temp"] = tmp
	}
	expr := regexp.MustCompile(`\$\{\{\s*([^}]+?)\s*\}\}`)
	subst := func(s string) string {
		return expr.ReplaceAllStringFunc(s, func(m string) string {
			k := expr.FindStringSubmatch(m)[1]
			if strings.HasPrefix(k, "inputs.") {
				return inputs[strings.TrimPrefix(k, "inputs.")]
			}
			v, ok := vals[k]
			if !ok {
				t.Fatalf("action.yml uses ${{ %s }}, which the replay does not know", k)
			}
			return v
		})
	}
	var out strings.Builder
	for _, st := range action.Runs.Steps {
		if st.Uses != "" || only != nil && !only[st.ID] {
			continue
		}
		if st.If != "" {
			o, _ := os.ReadFile(outFile)
			released := strings.Contains(string(o), "ok=true")
			if st.If != "steps.release.outputs.ok != 'true'" {
				t.Fatalf("replay cannot evaluate if: %s", st.If)
			}
			if released {
				continue
			}
		}
		if st.Shell != "bash" {
			t.Fatalf("step %q: shell %q", st.Name, st.Shell)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "bash", "-e", "-c", st.Run)
		cmd.Dir = dir
		if st.WorkingDirectory != "" {
			cmd.Dir = filepath.Join(dir, subst(st.WorkingDirectory))
		}
		path := os.Getenv("PATH")
		if p, err := os.ReadFile(pathFile); err == nil {
			for _, l := range strings.Fields(string(p)) {
				path = l + string(os.PathListSeparator) + path
			}
		}
		cmd.Env = append(append(os.Environ(), env...), "GITHUB_PATH="+pathFile, "GITHUB_OUTPUT="+outFile, "PATH="+path, "RUNNER_TEMP="+vals["runner.temp"])
		// The test's HOME is a temp folder: keep the go tool's caches
		// (setup-go's job on a runner), so the build step needs no network.
		for _, k := range []string{"GOMODCACHE", "GOCACHE", "GOPATH"} {
			if v, err := exec.Command("go", "env", k).Output(); err == nil {
				cmd.Env = append(cmd.Env, k+"="+strings.TrimSpace(string(v)))
			}
		}
		cmd.Env = append(cmd.Env, "GOPROXY=off")
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+subst(v))
		}
		o, err := cmd.CombinedOutput()
		out.Write(o)
		if err != nil {
			code := -1
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			return code, out.String()
		}
	}
	return 0, out.String()
}

func itoa(n int) string { return strconv.Itoa(n) }
