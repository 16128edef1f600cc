package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyAdvBranchFromBeforeAdoption (helper 319): a range whose base
// has no sessiongate.yaml was read as adopting sessiongate, and the work
// tree's config was trusted. A lazy agent's branch forked from a commit
// older than the adoption has such a base (GitLab's diff base, the merge
// base of a GitHub push to a branch), so the branch's own config ruled:
// `.sessiongate.yaml` with `missing_trailer: warn` and `unsessioned: allow`
// (no clash with main's sessiongate.yaml: the request merges cleanly) and a
// hooks-off commit passed, exit 0, on both. When the default branch holds a
// config, it is trusted now; an orphan branch (no base at all) read the work
// tree's too. Honest twins: the adoption itself (a person's
// commit on a branch, into a main without a config: its merge request and
// its push) still reads the work tree's config and passes.
func TestVerifyAdvBranchFromBeforeAdoption(t *testing.T) {
	t.Parallel()
	realBinary(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = Dev\n\temail = dev@example.invalid\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GITHUB_ACTIONS=", "GITLAB_CI=", "GITHUB_STEP_SUMMARY=", "CLAUDECODE=", "CLAUDE_CODE_ENTRYPOINT="}
	git := func(d string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = d, append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(d, name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(d, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sg := func(d string, args ...string) {
		t.Helper()
		if code, out, errb := sgBin(t, d, env, args...); code != 0 {
			t.Fatalf("sessiongate %v: exit %d\n%s%s", args, code, out, errb)
		}
	}
	// Two repositories: "adopted" (main took sessiongate after its first
	// commit) and "fresh" (main never did: its adoption is under review).
	build := func(name string, adopt bool) (remote, dev, pre string) {
		remote, dev = filepath.Join(dir, name+".git"), filepath.Join(dir, name)
		git(dir, "init", "-q", "--bare", remote)
		git(dir, "init", "-q", dev)
		git(dev, "remote", "add", "origin", remote)
		write(dev, "README.md", "# project\n")
		write(dev, "greet.txt", "hello\n")
		git(dev, "add", "-A")
		git(dev, "commit", "-q", "-m", "initial")
		pre = git(dev, "rev-parse", "HEAD")
		git(dev, "push", "-q", "origin", "main")
		if adopt {
			sg(dev, "init")
			sg(dev, "install")
			git(dev, "add", "-A")
			git(dev, "commit", "-q", "-m", "chore: adopt sessiongate")
			git(dev, "push", "-q", "origin", "main", "refs/sessiongate/records")
		}
		return remote, dev, pre
	}
	adoptedRemote, adoptedDev, adoptedPre := build("adopted", true)
	freshRemote, freshDev, _ := build("fresh", false)

	// lazy: forked from the commit before the adoption, its own config
	// under the other name, a commit made with the hooks off.
	git(adoptedDev, "checkout", "-q", "-b", "lazy", adoptedPre)
	write(adoptedDev, ".sessiongate.yaml", "verify:\n  missing_trailer: warn\n  unsessioned: allow\n")
	write(adoptedDev, "greet.txt", "broken\n")
	git(adoptedDev, "add", "-A")
	git(adoptedDev, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "feat: change greeting")
	git(adoptedDev, "push", "-q", "--no-verify", "origin", "lazy")
	// lazy: the same on an orphan branch, which has no base at all.
	git(adoptedDev, "checkout", "-q", "--orphan", "orphan")
	git(adoptedDev, "rm", "-rq", "--cached", ".")
	if err := os.Remove(filepath.Join(adoptedDev, ".sessiongate.yaml")); err != nil {
		t.Fatal(err)
	}
	write(adoptedDev, "sessiongate.yaml", "verify:\n  missing_trailer: warn\n  unsessioned: allow\n")
	git(adoptedDev, "add", "sessiongate.yaml", "greet.txt")
	git(adoptedDev, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "feat: orphan greeting")
	git(adoptedDev, "push", "-q", "--no-verify", "origin", "orphan")
	// honest: the adoption of "fresh", on a branch of its own.
	git(freshDev, "checkout", "-q", "-b", "adopt")
	sg(freshDev, "init")
	sg(freshDev, "install")
	git(freshDev, "add", "-A")
	git(freshDev, "commit", "-q", "-m", "chore: adopt sessiongate")
	git(freshDev, "push", "-q", "origin", "adopt", "refs/sessiongate/records")

	n := 0
	checkout := func(remote, branch string) (ci, head, main string) {
		t.Helper()
		n++
		ci = filepath.Join(dir, fmt.Sprintf("ci-%d-%s", n, branch))
		git(dir, "clone", "-q", remote, ci)
		if out := git(ci, "ls-remote", "origin", "refs/sessiongate/records"); out != "" {
			git(ci, "fetch", "-q", "origin", "refs/sessiongate/records:refs/sessiongate/records")
		}
		git(ci, "checkout", "-q", "--detach", "origin/"+branch)
		return ci, git(ci, "rev-parse", "HEAD"), git(ci, "rev-parse", "origin/main")
	}
	gitlabMR := func(ci, head, main string) []string {
		mb := git(ci, "merge-base", head, main)
		return []string{"GITLAB_CI=true", "CI_PIPELINE_SOURCE=merge_request_event", "CI_MERGE_REQUEST_DIFF_BASE_SHA=" + mb,
			"CI_COMMIT_SHA=" + head, "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA=" + head, "CI_MERGE_REQUEST_IID=4",
			"CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main", "CI_DEFAULT_BRANCH=main", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME=x"}
	}
	githubPush := func(ci, ref, before, after string) []string {
		ev := filepath.Join(ci, "..", filepath.Base(ci)+"-push.json")
		write(filepath.Dir(ev), filepath.Base(ev), `{"before":"`+before+`","after":"`+after+`","ref":"`+ref+`","repository":{"default_branch":"main"},"commits":[]}`)
		return []string{"GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push", "GITHUB_EVENT_PATH=" + ev, "GITHUB_REF=" + ref, "GITHUB_SHA=" + after}
	}
	const zero = "0000000000000000000000000000000000000000"
	cases := []struct {
		name   string
		run    func() (string, []string)
		code   int
		want   string
		refuse string
	}{
		{"lazy: GitLab merge request from before the adoption", func() (string, []string) {
			ci, head, main := checkout(adoptedRemote, "lazy")
			return ci, gitlabMR(ci, head, main)
		}, 1, "sessiongate was adopted there", "(verify.unsessioned: allow)"},
		{"lazy: GitHub push creating a branch from before the adoption", func() (string, []string) {
			ci, head, _ := checkout(adoptedRemote, "lazy")
			return ci, githubPush(ci, "refs/heads/lazy", zero, head)
		}, 1, "sessiongate was adopted there", "(verify.unsessioned: allow)"},
		{"lazy: GitHub push creating an orphan branch (no base at all)", func() (string, []string) {
			ci, head, _ := checkout(adoptedRemote, "orphan")
			return ci, githubPush(ci, "refs/heads/orphan", zero, head)
		}, 1, "sessiongate was adopted there", "(verify.unsessioned: allow)"},
		{"honest: the adoption's merge request", func() (string, []string) {
			ci, head, main := checkout(freshRemote, "adopt")
			return ci, gitlabMR(ci, head, main)
		}, 0, "this range adopts sessiongate", "was adopted there"},
		{"honest: the adoption's push creating its branch", func() (string, []string) {
			ci, head, _ := checkout(freshRemote, "adopt")
			return ci, githubPush(ci, "refs/heads/adopt", zero, head)
		}, 0, "this range adopts sessiongate", "was adopted there"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ci, ev := c.run()
			code, out, errb := sgBin(t, ci, append(append([]string{}, env...), ev...), "verify")
			t.Logf("exit %d\n%s%s", code, out, errb)
			if code != c.code {
				t.Fatalf("exit %d, want %d", code, c.code)
			}
			if !strings.Contains(out+errb, c.want) || strings.Contains(out+errb, c.refuse) {
				t.Fatalf("want %q and not %q in the report", c.want, c.refuse)
			}
		})
	}
}
