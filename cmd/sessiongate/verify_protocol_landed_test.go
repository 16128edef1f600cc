package main

import (
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestR53LProtocolChangeLanded (F2, end to end with the real binary):
// an agent's session starts on branch feat and commits; a person then
// changes SESSION-PROTOCOL.md on main in a clone of their own and accepts
// it signed (a listed signer: main's push re-checks that commit) and pushes; the session ends and its
// records are pushed. verify origin/main..feat passes with a note naming
// the fork point's protocol (it failed before F2: "and ... on the base
// changed it since"), and so does the push of main that merges feat.
// Lazy twin: after the change landed, the agent checks out the commit
// before it on a new branch and runs a session there under the old
// protocol: verify fails, saying the session started after the change
// reached the base.
func TestR53LProtocolChangeLanded(t *testing.T) {
	t.Parallel()
	sw := newSignedWorld(t, true)
	w := sw.ciWorld
	w.env = append(w.env, "CLAUDECODE=", "CLAUDE_CODE_ENTRYPOINT=")
	fork := w.main

	// The agent: a session on feat, begun before the person's change.
	w.git(t, w.dev, "checkout", "-q", "-b", "feat", fork)
	w.sg(t, w.dev, "session", "start", "--objective", "feat work")
	w.sg(t, w.dev, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the README")
	w.sg(t, w.dev, "session", "evidence", "--phase", "GIT_STATE", "--type", "tool_output", "--value", "git status: clean")
	w.sg(t, w.dev, "session", "advance", "--to", "WORKING")
	w.write(t, "feat1.txt")
	w.git(t, w.dev, "add", "-A")
	w.git(t, w.dev, "commit", "-q", "-m", "feat: first part")
	time.Sleep(1100 * time.Millisecond) // the change's committer time (seconds) after started_at

	// The person: a clone of their own, the protocol changed on main.
	person := filepath.Join(w.dir, "person")
	w.git(t, w.dir, "clone", "-q", w.remote, person)
	pw := *w
	pw.dev = person
	pw.sg(t, person, "install")
	pw.sg(t, person, "records", "pull")
	proto := filepath.Join(person, "SESSION-PROTOCOL.md")
	orig, err := os.ReadFile(proto)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(proto, append(append([]byte{}, orig...), "\n## Review (BLOCKING)\n\nAsk a second reviewer before ending.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	// The person is alice, a listed signer: she signs her commits and the
	// acceptance (what main's push, which re-checks her commit, asks).
	pw.git(t, person, "config", "user.signingkey", filepath.Join(sw.keys, "alice"))
	pw.git(t, person, "config", "user.email", "alice@example.com")
	pw.git(t, person, "config", "commit.gpgsign", "true")
	acceptArgs(t, &pw, "--reason", "review rule", "--sign")
	pw.git(t, person, "commit", "-q", "-am", "docs: protocol asks for a second reviewer")
	change := pw.git(t, person, "rev-parse", "HEAD")
	pw.git(t, person, "push", "-q", "--no-verify", "origin", "main")
	pw.sg(t, person, "records", "push")

	// The agent finishes after the change landed, and pushes.
	w.write(t, "feat2.txt")
	w.git(t, w.dev, "add", "-A")
	w.git(t, w.dev, "commit", "-q", "-m", "feat: second part")
	w.sg(t, w.dev, append([]string{"run", "--phase", "QA_VALIDATION", "--"}, strings.Fields(w.qaCmd)...)...)
	w.sg(t, w.dev, "session", "advance", "--to", "DOCUMENTATION_UPDATE")
	w.sg(t, w.dev, "session", "end", "--summary", "done")
	feat := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "feat")
	w.sg(t, w.dev, "records", "push")

	// Lazy twin: after the change landed, a branch from the commit before
	// it, a session there under the old protocol.
	w.git(t, w.dev, "fetch", "-q", "origin")
	w.git(t, w.dev, "checkout", "-q", "-b", "lazy", fork)
	w.session(t, "lazy.txt")
	lazy := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "lazy")
	w.sg(t, w.dev, "records", "push")

	ref := "+refs/heads/*:refs/remotes/origin/*"
	named := func(t *testing.T, name, tip string) (int, string) {
		t.Helper()
		ci := w.checkout(t, "ci-"+name, false, tip, ref, recsSpec)
		code, out, errb := sgBin(t, ci, w.env, "verify", "origin/main.."+tip)
		return code, out + errb
	}
	t.Run("honest: the branch begun before the change", func(t *testing.T) {
		code, out := named(t, "feat", feat)
		t.Logf("exit %d\n%s", code, out)
		want := regexp.MustCompile(`held it at ` + fork[:12] + `.*before ` + change[:12] + ` brought the change to the base`)
		if code != 0 || !want.MatchString(out) {
			t.Fatalf("exit %d, want 0 with a note matching %s", code, want)
		}
	})
	t.Run("lazy: a session on the old commit after the change landed", func(t *testing.T) {
		code, out := named(t, "lazy", lazy)
		t.Logf("exit %d\n%s", code, out)
		if code != 1 || !strings.Contains(out, "after "+change[:12]+" brought the change to the base") {
			t.Fatalf("exit %d, want 1 saying the session started after %s brought the change", code, change[:12])
		}
	})

	// The same two branches on the CI shapes whose base is the fork
	// point: a GitLab merge request (its diff base is the merge base,
	// whose protocol is the old one) and a GitHub push of the branch (the
	// merge base with the default branch). The lazy branch passed there
	// (exit 0, round 53's open rows): verify trusted the fork point's
	// protocol. The branch the work lands on now says which binds.
	shapeEnv := func(t *testing.T, shape, branch, tip string) []string {
		return forkShapeEnv(t, w, shape, fork, branch, tip, "")
	}
	lazyWant := "after that: a session started after a protocol change runs under it"
	for _, shape := range []string{"gitlab-mr", "github-push"} {
		t.Run("honest: "+shape+" of the branch begun before the change", func(t *testing.T) {
			ci := w.checkout(t, "ci-"+shape, false, feat, ref, recsSpec)
			code, out, errb := sgBin(t, ci, shapeEnv(t, shape, "feat", feat), "verify")
			t.Logf("exit %d\n%s%s", code, out, errb)
			if code != 0 || !strings.Contains(out+errb, "before "+change[:12]+" changed it on main") {
				t.Fatalf("exit %d, want 0 with a note that the session began before %s changed the protocol on main", code, change[:12])
			}
		})
		t.Run("lazy: "+shape+" of the branch begun after the change", func(t *testing.T) {
			ci := w.checkout(t, "ci-"+shape, false, lazy, ref, recsSpec)
			code, out, errb := sgBin(t, ci, shapeEnv(t, shape, "lazy", lazy), "verify")
			t.Logf("exit %d\n%s%s", code, out, errb)
			if code != 1 || !strings.Contains(out+errb, change[:12]+" changed SESSION-PROTOCOL.md on main") || !strings.Contains(out+errb, lazyWant) {
				t.Fatalf("exit %d, want 1 saying %s changed the protocol on main before the session started", code, change[:12])
			}
		})
	}
	// A branch that never takes main's protocol (a release branch whose
	// last push left it at the fork) names its own range in its job, as
	// the failure above says: judged by that branch alone, it passes.
	t.Run("release: the lazy branch's own range, named", func(t *testing.T) {
		ci := w.checkout(t, "ci-release", false, lazy, ref, recsSpec)
		code, out, errb := sgBin(t, ci, w.env, "verify", fork+".."+lazy)
		t.Logf("exit %d\n%s%s", code, out, errb)
		if code != 0 {
			t.Fatalf("exit %d, want 0: a named range is judged by its own base", code)
		}
	})
	// A merge request's clone often holds the source branch alone: the
	// target is fetched, and with --no-fetch the run says what it could
	// not check.
	t.Run("lazy: gitlab-mr in a clone without the target branch", func(t *testing.T) {
		ci := w.checkout(t, "ci-mr-alone", false, lazy, "+refs/heads/lazy:refs/remotes/origin/lazy", recsSpec)
		code, out, errb := sgBin(t, ci, shapeEnv(t, "gitlab-mr", "lazy", lazy), "verify")
		t.Logf("exit %d\n%s%s", code, out, errb)
		if code != 1 || !strings.Contains(out+errb, lazyWant) {
			t.Fatalf("exit %d, want 1 (the target fetched and its protocol change seen)", code)
		}
		ci = w.checkout(t, "ci-mr-alone", false, lazy, "+refs/heads/lazy:refs/remotes/origin/lazy", recsSpec)
		code, out, errb = sgBin(t, ci, shapeEnv(t, "gitlab-mr", "lazy", lazy), "verify", "--no-fetch")
		t.Logf("--no-fetch: exit %d\n%s%s", code, out, errb)
		if !strings.Contains(out+errb, "the branch this work lands on (main) is not in this clone") {
			t.Fatalf("--no-fetch: exit %d, want a note that main was not in the clone", code)
		}
	})
	// Lazy: started_at moved back in the local database (python3's
	// sqlite3 does the same) right after the start, before anything is
	// pushed.
	w.git(t, w.dev, "checkout", "-q", "-b", "lazy-db", fork)
	sid := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`).FindString(w.sg(t, w.dev, "session", "start", "--objective", "backdated"))
	db, err := sql.Open("sqlite", "file:"+filepath.Join(w.dev, ".git", "sessiongate", "sessiongate.db")+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	if res, err := db.Exec(`UPDATE sessions SET created_at = created_at - 7200000000000 WHERE id = ?`, sid); err != nil {
		t.Fatal(err)
	} else if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("backdate session %s: %d rows", sid, n)
	}
	db.Close()
	w.sg(t, w.dev, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the README")
	w.sg(t, w.dev, "session", "evidence", "--phase", "GIT_STATE", "--type", "tool_output", "--value", "git status: clean")
	w.sg(t, w.dev, "session", "advance", "--to", "WORKING")
	w.write(t, "lazy-db.txt")
	w.git(t, w.dev, "add", "-A")
	w.git(t, w.dev, "commit", "-q", "-m", "add lazy-db.txt")
	if code, out, errb := sgBin(t, w.dev, w.env, append([]string{"run", "--phase", "QA_VALIDATION", "--"}, strings.Fields(w.qaCmd)...)...); code != 0 {
		t.Logf("QA after the backdating: exit %d\n%s%s", code, out, errb)
	}
	sgBin(t, w.dev, w.env, "session", "advance", "--to", "DOCUMENTATION_UPDATE")
	if code, out, errb := sgBin(t, w.dev, w.env, "session", "end", "--summary", "done"); code != 0 {
		t.Logf("end after the backdating: exit %d\n%s%s", code, out, errb)
	}
	lazyDB := w.git(t, w.dev, "rev-parse", "HEAD")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "lazy-db")
	w.sg(t, w.dev, "records", "push")
	// It passed (exit 0, "it started at <two hours back>, before <change>
	// brought the change"): the record's events keep the times they were
	// recorded at, and verify now takes the later of started_at and the
	// start events' time.
	t.Run("lazy: started_at moved back in the database", func(t *testing.T) {
		code, out := named(t, "lazy-db", lazyDB)
		if code != 1 || !strings.Contains(out, "brought the change to the base") {
			rec := w.git(t, w.dev, "show", "refs/sessiongate/records:sessions/"+sid[:2]+"/"+sid+".json")
			at := regexp.MustCompile(`"(started_at|at)": ?"[^"]*"`).FindAllString(rec, 4)
			t.Fatalf("exit %d, want 1 saying the session began after the change\n%s\nthe record's first times: %v", code, out, at)
		}
	})

	// The person merges feat into main and pushes: main's push range.
	pw.git(t, person, "fetch", "-q", "origin")
	pw.sg(t, person, "records", "pull")
	pw.git(t, person, "merge", "-q", "--no-ff", "-m", "Merge branch 'feat'", "origin/feat")
	merge := pw.git(t, person, "rev-parse", "HEAD")
	pw.git(t, person, "push", "-q", "--no-verify", "origin", "main")
	pw.sg(t, person, "records", "push")
	t.Run("honest: the push of main that merges the branch", func(t *testing.T) {
		ci := w.checkout(t, "ci-main", false, merge, "+refs/heads/main:refs/remotes/origin/main", recsSpec)
		env := append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push",
			"GITHUB_EVENT_PATH="+w.event(t, "main-push", pushEvent(change, merge, "refs/heads/main")))
		code, out, errb := sgBin(t, ci, env, "verify")
		t.Logf("exit %d\n%s%s", code, out, errb)
		if code != 0 || !strings.Contains(out, "before "+change[:12]+" brought the change to the base") {
			t.Fatalf("exit %d, want 0 with the note naming %s", code, change[:12])
		}
	})

}

// r53LGitEnv runs git in dir with the world's environment plus env.
func r53LGitEnv(t *testing.T, w *ciWorld, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), w.env...), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestR53LProtocolLandedForwardDated: the time F2 takes for "the change
// reached the base" is the committer time of the base's first-parent
// commit that brought it, which on a fast-forward is the commit's author's
// word. An agent proposes a protocol change (a person accepts it signed
// and fast-forwards main to it) committed with GIT_COMMITTER_DATE far
// ahead; then, on the commit before it, it runs sessions under the old
// protocol: every one "started before the change landed" (exit 0 on
// 6cf7d627). Now the landing is bounded by the later first-parent commits'
// times too, and a landing time ahead of verify's clock proves nothing.
func TestR53LProtocolLandedForwardDated(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		ahead time.Duration
		tip   string // what verify says of a session begun while the change is main's tip ("" = not asserted)
	}{
		{"a month ahead", 30 * 24 * time.Hour, "ahead of this run's clock"},
		// Within the clock tolerance: the later commit's time alone closes it.
		{"nine minutes ahead", 9 * time.Minute, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r53LForwardDated(t, c.ahead, c.tip)
		})
	}
}

// r53LForwardDated plays TestR53LProtocolLandedForwardDated with the
// change dated ahead by ahead.
func r53LForwardDated(t *testing.T, ahead time.Duration, tipWant string) {
	sw := newSignedWorld(t, true)
	w := sw.ciWorld
	w.env = append(w.env, "CLAUDECODE=", "CLAUDE_CODE_ENTRYPOINT=")
	fork := w.main
	future := time.Now().Add(ahead).UTC().Format(time.RFC3339)

	// The proposal: the protocol change, accepted by alice (signed), then
	// committed in a session with the committer date a month ahead.
	w.git(t, w.dev, "checkout", "-q", "-b", "proposal", fork)
	proto := filepath.Join(w.dev, "SESSION-PROTOCOL.md")
	orig, err := os.ReadFile(proto)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(proto, append(append([]byte{}, orig...), "\n## Review (BLOCKING)\n\nAsk a second reviewer before ending.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	w.git(t, w.dev, "config", "user.signingkey", filepath.Join(sw.keys, "alice"))
	acceptArgs(t, w, "--reason", "review rule", "--sign")
	w.git(t, w.dev, "config", "--unset", "user.signingkey")
	w.sessionWith(t, func() {
		w.git(t, w.dev, "add", "-A")
		r53LGitEnv(t, w, w.dev, []string{"GIT_COMMITTER_DATE=" + future}, "commit", "-q", "-m", "docs: protocol asks for a second reviewer")
	})
	change := w.git(t, w.dev, "rev-parse", "HEAD")
	// A person fast-forwards main to it.
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "proposal", "proposal:main")
	w.sg(t, w.dev, "records", "push")

	lazySession := func(name string) string {
		t.Helper()
		w.git(t, w.dev, "checkout", "-q", "-b", name, fork)
		if err := os.WriteFile(proto, orig, 0o644); err != nil { // the old protocol, as the fork holds it
			t.Fatal(err)
		}
		w.session(t, name+".txt")
		w.git(t, w.dev, "push", "-q", "--no-verify", "origin", name)
		w.sg(t, w.dev, "records", "push")
		return w.git(t, w.dev, "rev-parse", "HEAD")
	}
	t.Run("honest: the fast-forward push of main that lands the change", func(t *testing.T) {
		ci := w.checkout(t, "ci-main", false, change, "+refs/heads/main:refs/remotes/origin/main", recsSpec)
		env := append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push",
			"GITHUB_EVENT_PATH="+w.event(t, "main-push", pushEvent(fork, change, "refs/heads/main")))
		code, out, errb := sgBin(t, ci, env, "verify")
		t.Logf("exit %d\n%s%s", code, out, errb)
		if code != 0 {
			t.Fatalf("exit %d, want 0: the landing of a signed protocol change passes", code)
		}
	})
	lazyA := lazySession("lazy-a")
	verifyLazy := func(t *testing.T, name, tip, want string) {
		t.Helper()
		ci := w.checkout(t, "ci-"+name, false, tip, "+refs/heads/*:refs/remotes/origin/*", recsSpec)
		code, out, errb := sgBin(t, ci, w.env, "verify", "origin/main.."+tip)
		t.Logf("exit %d\n%s%s", code, out, errb)
		if code != 1 || !strings.Contains(out, want) {
			t.Fatalf("exit %d, want 1 saying %q: a session begun after %s landed, under the protocol it replaced", code, want, change[:12])
		}
	}
	t.Run("lazy: the forward-dated change is main's tip", func(t *testing.T) {
		if tipWant == "" {
			ci := w.checkout(t, "ci-a", false, lazyA, "+refs/heads/*:refs/remotes/origin/*", recsSpec)
			code, out, errb := sgBin(t, ci, w.env, "verify", "origin/main.."+lazyA)
			t.Logf("left open (within the clock tolerance, before main moves on): exit %d\n%s%s", code, out, errb)
			if code != 0 {
				t.Fatalf("exit %d, the open state was exit 0: if verify now fails it, set tipWant and strike the row from security.md's open list", code)
			}
			return
		}
		verifyLazy(t, "a", lazyA, tipWant)
	})
	// Main moves on: a person's commit, dated as made. It was made after
	// the change had landed, so its time bounds the landing.
	w.git(t, w.dev, "fetch", "-q", "origin")
	w.git(t, w.dev, "checkout", "-q", "-B", "main", "origin/main")
	w.write(t, "later.txt")
	w.git(t, w.dev, "add", "-A")
	w.git(t, w.dev, "commit", "-q", "-m", "chore: a later commit on main")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "main")
	w.sg(t, w.dev, "records", "push")
	lazyB := lazySession("lazy-b")
	t.Run("lazy: begun after a later commit on main, the forward date below it", func(t *testing.T) {
		verifyLazy(t, "b", lazyB, "after "+change[:12]+" brought the change to the base")
	})
}
