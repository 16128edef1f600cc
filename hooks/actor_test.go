package hooks_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// fakeAgent puts a shell named like an agent's CLI in a folder and returns
// its path: a process that runs git under it has the agent among its
// ancestors, as under the real CLI (whose process is named claude).
func fakeAgent(t *testing.T, name string) string {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("sh not found")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, name)
	if err := os.Symlink(sh, p); err != nil {
		t.Fatal(err)
	}
	return p
}

// commitActors reads what the hooks recorded about commits made with no
// session, from the repository's database.
func commitActors(t *testing.T, r *repo) map[string]string {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(r.root, ".git", "sessiongate", "sessiongate.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.CommitActors(context.Background(), time.Time{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, row := range rows {
		out[row.Commit] = row.Actor + ":" + row.Agent + ":" + row.Kind + ":" + row.Author
	}
	return out
}

// violationCodes lists the codes of every violation the database holds.
func violationCodes(t *testing.T, r *repo) []string {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(r.root, ".git", "sessiongate", "sessiongate.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	vs, err := db.ListViolations(context.Background(), session.ViolationFilter{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, v := range vs {
		codes = append(codes, v.Code)
	}
	return codes
}

// TestPeopleBesideAgents: with require_session: true and no session, a
// person's commit goes through and is recorded as theirs; an agent's is
// blocked, however it is recognized: its variable in git's environment, or
// its process among git's ancestors when it cleared the environment
// (env -i) or ran git through script(1).
func TestPeopleBesideAgents(t *testing.T) {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the test runs under the coding agent %s: every commit here is the agent's", p.Name)
	}
	type how struct {
		name  string
		env   []string // added to git's environment
		shell string   // run git through this shell line under a process named claude ("" : directly)
		agent string   // the agent the hooks must see; "" a person
	}
	cases := []how{
		{name: "person"},
		{name: "Claude Code", env: []string{"CLAUDECODE=1"}, agent: "claude"},
		{name: "Claude Code entrypoint", env: []string{"CLAUDE_CODE_ENTRYPOINT=cli"}, agent: "claude"},
		{name: "Gemini CLI", env: []string{"GEMINI_CLI=1"}, agent: "gemini"},
		{name: "Codex", env: []string{"CODEX_THREAD_ID=019a"}, agent: "codex"},
		{name: "Codex sandbox", env: []string{"CODEX_SANDBOX=seatbelt"}, agent: "codex"},
		{name: "Copilot CLI", env: []string{"COPILOT_CLI_BINARY_VERSION=1.0.102"}, agent: "copilot"},
		{name: "Cursor", env: []string{"CURSOR_AGENT=1"}, agent: "cursor"},
		{name: "agent ancestry", shell: `git commit -q -m change`, agent: "claude"},
		{name: "agent ancestry, env -i", shell: `env -i PATH="$PATH" HOME="$HOME" GIT_CONFIG_GLOBAL="$GIT_CONFIG_GLOBAL" git commit -q -m change`, agent: "claude"},
	}
	if _, err := exec.LookPath("script"); err == nil {
		cases = append(cases, how{name: "agent ancestry, through script(1)", shell: `script -qec "git commit -q -m change" /dev/null`, agent: "claude"})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.asPerson()
			r.sg(r.root, "install")
			writeFile(t, filepath.Join(r.root, "a.txt"), "hello\n")
			r.git("add", "a.txt")
			before := r.head(r.root)
			var res result
			if tc.shell != "" {
				res = r.run(r.root, tc.env, fakeAgent(t, "claude"), "-c", tc.shell)
			} else {
				res = r.commit(r.root, tc.env, "-q", "-m", "change")
			}
			landed := r.head(r.root) != before
			if tc.agent == "" {
				if res.code != 0 || !landed {
					t.Fatalf("a person's commit: exit %d, landed %v\n%s", res.code, landed, res.err)
				}
				if !strings.Contains(res.err, "no session needed: this commit is a person's") {
					t.Errorf("stderr does not say why it passed:\n%s", res.err)
				}
				got := commitActors(t, r)[r.head(r.root)]
				if got != "person::commit:Test <test@example.com>" {
					t.Errorf("recorded %q, want the person's commit by its author", got)
				}
				if v := violationCodes(t, r); len(v) > 0 {
					t.Errorf("a person's commit recorded violations %v", v)
				}
				return
			}
			if res.code != 1 || landed {
				t.Fatalf("%s's commit: exit %d, landed %v, want blocked\n%s", tc.agent, res.code, landed, res.err)
			}
			// script(1) puts git's stderr on its terminal: stdout here.
			if !strings.Contains(res.err+res.out, "requires an active session (require_session: true)") {
				t.Errorf("output:\n%s%s", res.out, res.err)
			}
		})
	}
}

// TestPersonNoVerifyDoesNotBarForce: a person's --no-verify commit (the
// adoption commit, say) is the person's work, not a BYPASS, so the next
// session may still force a gate; an agent's --no-verify is a BYPASS, and
// bars force for the next sessions.
func TestPersonNoVerifyDoesNotBarForce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		person bool
	}{{"person", true}, {"agent", false}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			if tc.person {
				r.asPerson()
			}
			r.sg(r.root, "install")
			writeFile(t, filepath.Join(r.root, "a.txt"), "hello\n")
			r.git("add", "a.txt")
			res := r.commit(r.root, nil, "-q", "--no-verify", "-m", "adopt")
			if res.code != 0 {
				t.Fatalf("--no-verify commit: exit %d\n%s", res.code, res.err)
			}
			if got := strings.Contains(res.err, "BYPASS"); got == tc.person {
				t.Fatalf("BYPASS reported %v for the %s:\n%s", got, tc.name, res.err)
			}
			want := "agent:claude:commit:Test <test@example.com>"
			if tc.person {
				want = "person::commit:Test <test@example.com>"
			}
			if got := commitActors(t, r)[r.head(r.root)]; got != want {
				t.Errorf("recorded %q, want %q", got, want)
			}
			// The next session forces its start gate (no evidence).
			r.sg(r.root, "session", "start", "--objective", "next")
			adv := r.run(r.root, nil, binary, "session", "advance", "--to", "WORKING", "--force", "--reason", "no notes to read")
			refused := strings.Contains(adv.err+adv.out, "force refused")
			if refused == tc.person {
				t.Fatalf("force refused=%v after the %s's --no-verify commit (exit %d):\n%s%s", refused, tc.name, adv.code, adv.out, adv.err)
			}
		})
	}
}

// TestDetachedAgentIsHeldBySession: an agent that detaches from its own
// process tree (setsid) and clears its environment looks like a person to
// the hook: that is the limit of what a hook can see (docs/security.md).
// What holds it is decidable locally: while a session is active in the
// worktree, every commit is the session's, whoever runs git.
func TestDetachedAgentIsHeldBySession(t *testing.T) {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the test runs under the coding agent %s", p.Name)
	}
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid not found (util-linux)")
	}
	r := newRepo(t)
	r.asPerson()
	r.sg(r.root, "install")
	detached := func() (int, string) {
		writeFile(t, filepath.Join(r.root, "a.txt"), time.Now().String())
		r.git("add", "a.txt")
		before := r.head(r.root)
		out := filepath.Join(t.TempDir(), "out")
		// setsid -f forks and exits: git's parent is gone, its ancestry
		// ends at init; the agent's variables are cleared.
		line := `setsid -f sh -c 'env -i PATH="$PATH" HOME="$HOME" GIT_CONFIG_GLOBAL="$GIT_CONFIG_GLOBAL" git commit -q -m detached >` + out + ` 2>&1; echo $? >>` + out + `.rc'`
		if res := r.run(r.root, []string{"CLAUDECODE=1"}, fakeAgent(t, "claude"), "-c", line); res.code != 0 {
			t.Fatalf("setsid: %d %s", res.code, res.err)
		}
		deadline := time.Now().Add(60 * time.Second)
		for {
			if b, err := os.ReadFile(out + ".rc"); err == nil && strings.HasSuffix(string(b), "\n") {
				b2, _ := os.ReadFile(out)
				landed := 0
				if r.head(r.root) != before {
					landed = 1
				}
				return landed, string(b2)
			}
			if time.Now().After(deadline) {
				t.Fatal("the detached commit did not finish")
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if landed, out := detached(); landed != 1 || !strings.Contains(out, "this commit is a person's") {
		t.Fatalf("without a session the detached agent passes for a person (the documented limit); landed=%d\n%s", landed, out)
	}
	r.sg(r.root, "session", "start", "--objective", "agent work")
	if landed, out := detached(); landed != 0 || !strings.Contains(out, "has not finished its start protocol") {
		t.Fatalf("with a session active, the detached commit must be held to it; landed=%d\n%s", landed, out)
	}
}
