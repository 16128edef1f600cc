package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Round 54: a branch's CI reads the protocol where the work lands, not
// only at the fork point (verify/targetprotocol.go). These rows are the
// two holes helper 324's review found in its first cut, end to end.

// r54PersonChange: alice, a listed signer, changes main in a clone of her
// own (edit), accepts signed, commits signed and pushes; then the agent's
// clone fetches. It returns the change's commit.
func r54PersonChange(t *testing.T, sw *signedWorld, edit func(person string)) string {
	t.Helper()
	w := sw.ciWorld
	person := filepath.Join(w.dir, "person")
	w.git(t, w.dir, "clone", "-q", w.remote, person)
	pw := *w
	pw.dev = person
	pw.sg(t, person, "install")
	pw.sg(t, person, "records", "pull")
	edit(person)
	pw.git(t, person, "config", "user.signingkey", filepath.Join(sw.keys, "alice"))
	pw.git(t, person, "config", "user.email", "alice@example.com")
	pw.git(t, person, "config", "commit.gpgsign", "true")
	pw.git(t, person, "add", "-A")
	acceptArgs(t, &pw, "--reason", "stricter protocol", "--sign")
	pw.git(t, person, "commit", "-q", "-am", "docs: protocol asks for a second reviewer")
	change := pw.git(t, person, "rev-parse", "HEAD")
	pw.git(t, person, "push", "-q", "--no-verify", "origin", "main")
	pw.sg(t, person, "records", "push")
	time.Sleep(1100 * time.Millisecond) // the session's start after the change's committer time (seconds)
	w.git(t, w.dev, "fetch", "-q", "origin")
	w.sg(t, w.dev, "records", "pull")
	return change
}

// forkShapeEnv is w's environment as a CI shape whose base is the fork
// point would give verify for branch at tip: "gitlab-mr" (a merge request
// into main, diff base fork; targetSHA, when set, is
// CI_MERGE_REQUEST_TARGET_BRANCH_SHA) or "github-push" (a push creating
// the branch).
func forkShapeEnv(t *testing.T, w *ciWorld, shape, fork, branch, tip, targetSHA string) []string {
	t.Helper()
	env := append([]string{}, w.env...)
	switch shape {
	case "gitlab-mr":
		env = append(env, "GITLAB_CI=true", "CI_PIPELINE_SOURCE=merge_request_event", "CI_MERGE_REQUEST_DIFF_BASE_SHA="+fork,
			"CI_COMMIT_SHA="+tip, "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA="+tip, "CI_MERGE_REQUEST_IID=4",
			"CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main", "CI_DEFAULT_BRANCH=main", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME="+branch)
		if targetSHA != "" {
			env = append(env, "CI_MERGE_REQUEST_TARGET_BRANCH_SHA="+targetSHA)
		}
		return env
	case "github-push":
		return append(env, "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push", "GITHUB_REF=refs/heads/"+branch, "GITHUB_SHA="+tip,
			"GITHUB_EVENT_PATH="+w.event(t, branch+"-"+shape+"-"+tip[:7], pushEvent(zero40, tip, "refs/heads/"+branch)))
	}
	t.Fatalf("no CI shape %q", shape)
	return nil
}

// r54VerifyShapes runs verify on tip (branch) in a fresh CI clone as each
// CI shape whose base is the fork point would, and wants exit 1 with want.
func r54VerifyShapes(t *testing.T, w *ciWorld, fork, branch, tip, want string) {
	t.Helper()
	mainTip := w.git(t, w.dev, "rev-parse", "origin/main")
	for _, shape := range []string{"gitlab-mr", "gitlab-mr-target-sha", "github-push"} {
		t.Run(shape, func(t *testing.T) {
			ci := w.checkout(t, "ci-"+branch+"-"+shape, false, tip, "+refs/heads/*:refs/remotes/origin/*", recsSpec)
			mr, sha := shape, ""
			if shape == "gitlab-mr-target-sha" {
				mr, sha = "gitlab-mr", mainTip
			}
			env := forkShapeEnv(t, w, mr, fork, branch, tip, sha)
			code, out, errb := sgBin(t, ci, env, "verify")
			t.Logf("exit %d\n%s%s", code, out, errb)
			if code != 1 || !strings.Contains(out+errb, want) {
				t.Fatalf("exit %d, want 1 saying %q", code, want)
			}
		})
	}
}

// TestR54TargetProtocolMoved: alice moves the protocol on main to
// docs/SESSION-PROTOCOL.md (protocol: in sessiongate.yaml) and makes it
// stricter; the agent then branches from the fork and runs its session
// under the old file at the old path. The first cut read the old path at
// main's tip, found nothing and passed (exit 0 on every shape).
func TestR54TargetProtocolMoved(t *testing.T) {
	t.Parallel()
	sw := newSignedWorld(t, true)
	w := sw.ciWorld
	w.env = append(w.env, "CLAUDECODE=", "CLAUDE_CODE_ENTRYPOINT=")
	fork := w.main
	change := r54PersonChange(t, sw, func(person string) {
		orig, err := os.ReadFile(filepath.Join(person, "SESSION-PROTOCOL.md"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(person, "docs"), 0o755); err != nil {
			t.Fatal(err)
		}
		w.git(t, person, "mv", "SESSION-PROTOCOL.md", "docs/SESSION-PROTOCOL.md")
		if err := os.WriteFile(filepath.Join(person, "docs", "SESSION-PROTOCOL.md"), append(orig, "\n## Review (BLOCKING)\n\nAsk a second reviewer before ending.\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg := filepath.Join(person, "sessiongate.yaml")
		b, err := os.ReadFile(cfg)
		if err != nil {
			t.Fatal(err)
		}
		b = regexp.MustCompile(`(?m)^protocol:.*$`).ReplaceAll(b, []byte("protocol: docs/SESSION-PROTOCOL.md"))
		if !strings.Contains(string(b), "protocol: docs/") {
			b = append([]byte("protocol: docs/SESSION-PROTOCOL.md\n"), b...)
		}
		if err := os.WriteFile(cfg, b, 0o644); err != nil {
			t.Fatal(err)
		}
	})
	w.git(t, w.dev, "checkout", "-q", "-b", "lazy-moved", fork)
	w.session(t, "lazymoved.txt")
	lazy := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "lazy-moved")
	w.sg(t, w.dev, "records", "push")
	r54VerifyShapes(t, w, fork, "lazy-moved", lazy, change[:12]+" changed docs/SESSION-PROTOCOL.md on main")
}

// TestR54TargetStartAboveTip: with verify.violations: warn (a moved start
// is then only a warning), the agent starts its session on a scratch
// commit above main's tip that restores the old protocol, then does the
// work on a branch from the fork. The first cut measured the change from
// merge-base(start, main) = main's tip, found none there and passed with
// a note.
func TestR54TargetStartAboveTip(t *testing.T) {
	t.Parallel()
	sw := newSignedWorld(t, true, func(w *ciWorld) {
		editConfig(t, w, func(b string) string { return strings.Replace(b, "verify:\n", "verify:\n  violations: warn\n", 1) })
	})
	w := sw.ciWorld
	w.env = append(w.env, "CLAUDECODE=", "CLAUDE_CODE_ENTRYPOINT=")
	fork := w.main
	proto := filepath.Join(w.dev, "SESSION-PROTOCOL.md")
	orig, err := os.ReadFile(proto)
	if err != nil {
		t.Fatal(err)
	}
	r54PersonChange(t, sw, func(person string) {
		if err := os.WriteFile(filepath.Join(person, "SESSION-PROTOCOL.md"), append(append([]byte{}, orig...), "\n## Review (BLOCKING)\n\nAsk a second reviewer before ending.\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	w.git(t, w.dev, "checkout", "-q", "--detach", "origin/main")
	if err := os.WriteFile(proto, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	w.git(t, w.dev, "commit", "-q", "--no-verify", "-am", "scratch: old protocol on main's tip")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "HEAD:refs/heads/scratch")
	w.sg(t, w.dev, "session", "start", "--objective", "start above the tip")
	w.sg(t, w.dev, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the README")
	w.sg(t, w.dev, "session", "evidence", "--phase", "GIT_STATE", "--type", "tool_output", "--value", "git status: clean")
	w.sg(t, w.dev, "session", "advance", "--to", "WORKING")
	w.git(t, w.dev, "checkout", "-q", "-f", "-B", "lazy-above", fork)
	w.write(t, "above.txt")
	w.git(t, w.dev, "add", "-A")
	w.git(t, w.dev, "commit", "-q", "-m", "add above.txt")
	w.sg(t, w.dev, append([]string{"run", "--phase", "QA_VALIDATION", "--"}, strings.Fields(w.qaCmd)...)...)
	w.sg(t, w.dev, "session", "advance", "--to", "DOCUMENTATION_UPDATE")
	w.sg(t, w.dev, "session", "end", "--summary", "done")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "lazy-above")
	w.sg(t, w.dev, "records", "push")
	lazy := w.git(t, w.dev, "rev-parse", "HEAD")
	r54VerifyShapes(t, w, fork, "lazy-above", lazy, "a session started after a protocol change runs under it")
}

// TestR54TargetConfigStricter (helper 326): the fork's sessiongate.yaml
// says missing_trailer: warn and violations: warn; alice makes both fail
// on main. A lazy branch from the fork, its session begun after that,
// commits with the hooks off: a GitLab merge request and a GitHub push of
// the branch passed it with a warning (exit 0), judged by the fork's
// settings; its pull request run failed it. Now the stricter of the fork's
// and main's settings apply. An honest branch from the fork passes.
func TestR54TargetConfigStricter(t *testing.T) {
	t.Parallel()
	sw := newSignedWorld(t, true, func(w *ciWorld) {
		editConfig(t, w, func(b string) string {
			b = strings.Replace(b, "missing_trailer: fail", "missing_trailer: warn", 1)
			return strings.Replace(b, "verify:\n", "verify:\n  violations: warn\n", 1)
		})
	})
	w := sw.ciWorld
	w.env = append(w.env, "CLAUDECODE=", "CLAUDE_CODE_ENTRYPOINT=")
	fork := w.main
	if cfg := w.git(t, w.dev, "show", fork+":sessiongate.yaml"); !strings.Contains(cfg, "missing_trailer: warn") || !strings.Contains(cfg, "violations: warn") {
		t.Fatalf("the fork's config is not the lenient one:\n%s", cfg)
	}
	r54PersonChange(t, sw, func(person string) {
		cfg := filepath.Join(person, "sessiongate.yaml")
		b, err := os.ReadFile(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.Replace(string(b), "missing_trailer: warn", "missing_trailer: fail", 1)
		s = strings.Replace(s, "violations: warn", "violations: fail", 1)
		if err := os.WriteFile(cfg, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	w.git(t, w.dev, "checkout", "-q", "-b", "honest-cfg", fork)
	w.session(t, "honestcfg.txt")
	honest := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "honest-cfg")
	w.sg(t, w.dev, "records", "push")
	w.git(t, w.dev, "checkout", "-q", "-b", "lazy-cfg", fork)
	w.sessionWith(t, func() {
		w.write(t, "cfg1.txt")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "add cfg1.txt")
		w.noHooks(t, "cfg2.txt", "sneak cfg2 past the hooks")
	})
	lazy := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "lazy-cfg")
	w.sg(t, w.dev, "records", "push")
	for _, shape := range []string{"gitlab-mr", "github-push"} {
		t.Run("lazy: "+shape, func(t *testing.T) {
			ci := w.checkout(t, "ci-lazy-cfg-"+shape, false, lazy, "+refs/heads/*:refs/remotes/origin/*", recsSpec)
			code, out, errb := sgBin(t, ci, forkShapeEnv(t, w, shape, fork, "lazy-cfg", lazy, ""), "verify")
			t.Logf("exit %d\n%s%s", code, out, errb)
			if code != 1 || !strings.Contains(out+errb, "verify settings stricter where the work lands (main") {
				t.Fatalf("exit %d, want 1 under main's stricter settings, with the note", code)
			}
			// Both commits passed under the fork's settings: the report
			// names each with the one setting that fails it and what mends
			// it (helper 327's B1).
			sneak := w.git(t, w.dev, "rev-parse", "--short=12", lazy)
			first := w.git(t, w.dev, "rev-parse", "--short=12", lazy+"^")
			for _, want := range []string{
				"commit " + sneak + " (sneak cfg2 past the hooks) passes under the base's settings but fails under the stricter missing_trailer of main at",
				"as its pull request will; to mend it, remake it, an agent's in its session",
				"commit " + first + " (add cfg1.txt) passes under the base's settings but fails under the stricter violations of main",
				"to mend it, redo its work in a new session that records no violation",
			} {
				if !strings.Contains(out+errb, want) {
					t.Fatalf("the report does not say which commit only main's settings fail, or how to mend it: want %q", want)
				}
			}
		})
		t.Run("honest: "+shape, func(t *testing.T) {
			ci := w.checkout(t, "ci-honest-cfg-"+shape, false, honest, "+refs/heads/*:refs/remotes/origin/*", recsSpec)
			code, out, errb := sgBin(t, ci, forkShapeEnv(t, w, shape, fork, "honest-cfg", honest, ""), "verify")
			t.Logf("exit %d\n%s%s", code, out, errb)
			if code != 0 {
				t.Fatalf("exit %d, want 0: a clean session passes main's stricter settings", code)
			}
		})
	}
}
