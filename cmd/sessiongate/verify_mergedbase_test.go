package main

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestR53FMergedBaseConfig (F1): a person changes sessiongate.yaml on main
// (in their own clone, pushed); an agent's session on a feature branch
// merges main mid-session (plain git, no agent hook), so the next gate
// records a HIGH PROTECTED_CHANGE, and a person accepts the content in the
// agent's clone. verify failed that branch: the violation said nothing of
// the content, so the base's config and an agent's edit looked alike. Now
// the honest merge passes; the lazy twins still fail: the agent editing
// the config itself, merging a branch of its own that carries a config
// edit, and merging an old main revision whose config is weaker.
func TestR53FMergedBaseConfig(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script(1) not found: install util-linux to give protocol accept a terminal")
	}
	realBinary(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	gitconfig := "[user]\n\tname = Dev\n\temail = dev@example.invalid\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	w := &ciWorld{dir: dir, remote: filepath.Join(dir, "remote.git"), dev: filepath.Join(dir, "dev")}
	w.env = []string{"HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GITHUB_ACTIONS=", "GITLAB_CI=", "GITHUB_STEP_SUMMARY=", "CLAUDECODE=", "CLAUDE_CODE_ENTRYPOINT="}
	w.git(t, dir, "init", "-q", "--bare", w.remote)
	w.git(t, dir, "init", "-q", w.dev)
	w.git(t, w.dev, "remote", "add", "origin", w.remote)
	if err := os.WriteFile(filepath.Join(w.dev, "README.md"), []byte("# project\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.sg(t, w.dev, "init")
	const qaA = "test ! -f broken.txt"
	w.setCommand(t, qaA)
	w.sg(t, w.dev, "install")
	w.session(t, "adopt.txt")
	w.git(t, w.dev, "push", "-q", "origin", "main", "refs/sessiongate/records")
	m0 := w.git(t, w.dev, "rev-parse", "HEAD")

	// The person's clone: main's config weakened once (P1), then made
	// stronger (P2, a command added to QA), both pushed to main.
	person := filepath.Join(dir, "person")
	w.git(t, dir, "clone", "-q", w.remote, person)
	setQA := func(d, cmd string) {
		t.Helper()
		p := filepath.Join(d, "sessiongate.yaml")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out := regexp.MustCompile(`(?m)^commands:.*$`).ReplaceAllString(string(b), "commands: {QA_VALIDATION: \""+cmd+"\"}")
		if out == string(b) {
			t.Fatalf("sessiongate.yaml in %s: commands line not changed", d)
		}
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const qaWeak = "true"
	const qaEdit, qaTweak = "test -d .", "test -e ."
	const qaStrong = "test ! -f broken.txt -a -f README.md"
	setQA(person, qaWeak)
	w.git(t, person, "commit", "-q", "-am", "ci: QA off while the runner is down")
	p1 := w.git(t, person, "rev-parse", "HEAD")
	setQA(person, qaStrong)
	w.git(t, person, "commit", "-q", "-am", "ci: QA also checks the README")
	p2 := w.git(t, person, "rev-parse", "HEAD")
	w.git(t, person, "push", "-q", "origin", "main")
	w.git(t, w.dev, "fetch", "-q", "origin", "main")

	// A tweak branch of the agent's own making: its config edit committed
	// with the hooks off.
	w.git(t, w.dev, "checkout", "-q", "-b", "tweak", m0)
	setQA(w.dev, qaTweak)
	w.git(t, w.dev, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-am", "tweak the config")
	tweak := w.git(t, w.dev, "rev-parse", "HEAD")

	// branch runs one session on a branch from m0: some work, then move()
	// mid-session, then the QA gate (refused once: the config changed),
	// a person's accept at a terminal, the gates again, the end.
	branch := func(name string, move func(), qa string, afterGate ...func()) string {
		t.Helper()
		w.git(t, w.dev, "checkout", "-q", "-b", name, m0)
		w.qaCmd = qaA
		w.sg(t, w.dev, "session", "start", "--objective", "work on "+name)
		w.sg(t, w.dev, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the README")
		w.sg(t, w.dev, "session", "evidence", "--phase", "GIT_STATE", "--type", "tool_output", "--value", "git status: clean")
		w.sg(t, w.dev, "session", "advance", "--to", "WORKING")
		w.write(t, name+".txt")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "add "+name)
		move()
		w.sg(t, w.dev, append([]string{"run", "--phase", "QA_VALIDATION", "--"}, strings.Fields(qa)...)...)
		code, out, errb := sgBin(t, w.dev, w.env, "session", "advance", "--to", "DOCUMENTATION_UPDATE")
		t.Logf("%s: the gate after the move: exit %d\n%s%s", name, code, out, errb)
		acceptArgs(t, w, "--reason", name+": the config on the branch now")
		for _, f := range afterGate {
			f()
		}
		if code != 0 {
			w.sg(t, w.dev, append([]string{"run", "--phase", "QA_VALIDATION", "--"}, strings.Fields(qa)...)...)
			w.sg(t, w.dev, "session", "advance", "--to", "DOCUMENTATION_UPDATE")
		}
		w.sg(t, w.dev, "session", "end", "--summary", "done")
		w.git(t, w.dev, "push", "-q", "--no-verify", "origin", name, "refs/sessiongate/records")
		return w.git(t, w.dev, "rev-parse", "HEAD")
	}
	merge := func(rev string) func() {
		return func() { w.git(t, w.dev, "merge", "-q", "--no-edit", rev) }
	}
	honest := branch("honest", merge("origin/main"), qaStrong)
	lazyEdit := branch("lazy-edit", func() {
		setQA(w.dev, qaEdit)
		w.git(t, w.dev, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-am", "config")
	}, qaEdit)
	lazyOwn := branch("lazy-own", merge(tweak), qaTweak)
	lazyOld := branch("lazy-old", merge(p1), qaWeak)
	// The agent with a shell rewrites the event that names its edit's
	// content, in the database, to name main's.
	const qaForge = "test -r ."
	mainSum := sha256.Sum256([]byte(w.git(t, w.dev, "cat-file", "blob", p2+":sessiongate.yaml") + "\n"))
	lazyForged := branch("lazy-forged", func() { setQA(w.dev, qaForge) }, qaForge, func() {
		db, err := sql.Open("sqlite", "file:"+filepath.Join(w.dev, ".git", "sessiongate", "sessiongate.db")+"?_pragma=busy_timeout(5000)")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		res, err := db.Exec(`UPDATE events SET token = ? WHERE token LIKE 'protect:content:%' AND session_id = (SELECT id FROM sessions ORDER BY created_at DESC LIMIT 1)`,
			"protect:content:sessiongate.yaml="+hex.EncodeToString(mainSum[:]))
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			t.Fatalf("forged %d protect:content events, want 1", n)
		}
		w.git(t, w.dev, "commit", "-q", "-am", "config")
	})

	const recs = "refs/sessiongate/records:refs/sessiongate/records"
	cases := []struct {
		name string
		tip  string
		code int
		push bool // verify as a GitHub push to the branch, not the range base..tip
	}{
		{"honest: main merged mid-session, accepted", honest, 0, false},
		{"honest: the same, as a GitHub push to its branch", honest, 0, true},
		{"lazy: the agent edits sessiongate.yaml", lazyEdit, 1, false},
		{"lazy: the agent merges its own branch's config edit", lazyOwn, 1, false},
		{"lazy: the agent merges an old main revision with a weaker config", lazyOld, 1, false},
		{"lazy: the agent rewrites the event to name main's content", lazyForged, 1, false},
		{"lazy: the old main revision merged, as a GitHub push (its merge base is that revision)", lazyOld, 1, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ci := w.checkout(t, "ci-"+strings.TrimSuffix(strings.Fields(c.name)[0], ":"), false, c.tip, "+refs/heads/*:refs/remotes/origin/*", recs)
			env, args := w.env, []string{"verify", p2 + ".." + c.tip}
			if c.push {
				ref := "refs/heads/" + map[string]string{honest: "honest", lazyOld: "lazy-old"}[c.tip]
				ev := w.event(t, "push-"+c.tip[:8], pushEvent(m0, c.tip, ref))
				env = append(append([]string{}, w.env...), "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push", "GITHUB_EVENT_PATH="+ev,
					"GITHUB_REF="+ref, "GITHUB_SHA="+c.tip)
				args = []string{"verify"}
			}
			code, out, errb := sgBin(t, ci, env, args...)
			t.Logf("%v: exit %d\n%s%s", args, code, out, errb)
			if code != c.code {
				t.Fatalf("verify: exit %d, want %d", code, c.code)
			}
			if c.code == 1 && !regexp.MustCompile(`recorded \d+ violation\(s\) that bypassed the protocol: [^\n]*PROTECTED_CHANGE`).MatchString(out) {
				t.Fatalf("a lazy branch must fail on its PROTECTED_CHANGE")
			}
			if c.code == 0 && !strings.Contains(out, "PROTECTED_CHANGE violation(s) named sessiongate.yaml holding exactly what the base") {
				t.Fatalf("the honest branch's PROTECTED_CHANGE (recorded at the gate after the merge) must be named as main's content, not dropped unsaid")
			}
		})
	}
}
