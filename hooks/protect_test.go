package hooks_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// weakProtocol has no start gate: what an agent would like its protocol to be.
const weakProtocol = "# Protocol\n\n## Session Start\n\n### Phase 1: Context Retrieval (OPTIONAL)\n\n1. The agent MAY read.\n\n" +
	"## Session End\n\n### Phase 1: QA Validation (OPTIONAL)\n\n1. The agent MAY test.\n"

// protectedView is what `session show --json` prints, the parts these tests read.
type protectedView struct {
	Session struct {
		ProtocolSHA string `json:"protocol_sha256"`
	} `json:"session"`
	Violations []struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"violations"`
	Events []struct {
		Token  string `json:"token"`
		Detail string `json:"detail"`
	} `json:"events"`
}

func (r *repo) showProtected(id string) protectedView {
	r.t.Helper()
	var v protectedView
	if err := json.Unmarshal([]byte(r.sg(r.root, "session", "show", id, "--json")), &v); err != nil {
		r.t.Fatal(err)
	}
	return v
}

func countCode(v protectedView, code string) int {
	n := 0
	for _, x := range v.Violations {
		if x.Code == code {
			n++
		}
	}
	return n
}

// TestProtectedFilesDuringSession: each protected file changed by the agent
// during a session blocks the commit with a PROTECTED_CHANGE violation and
// the next session start, until a person accepts it; accept refuses a
// non-terminal stdin without --yes --reason.
func TestProtectedFilesDuringSession(t *testing.T) {
	skipUnderAgent(t)
	tests := []struct {
		name   string
		change func(r *repo)
		path   string
		stage  bool // git add -A before committing
	}{
		{"weakened protocol staged", func(r *repo) {
			writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), weakProtocol)
		}, "SESSION-PROTOCOL.md", true},
		{"config switches protection off, not staged", func(r *repo) {
			writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), "protect: false\nrequire_session: false\n")
		}, "sessiongate.yaml", false},
		{"config deleted", func(r *repo) {
			if err := os.Remove(filepath.Join(r.root, "sessiongate.yaml")); err != nil {
				t.Fatal(err)
			}
		}, "sessiongate.yaml was deleted", true},
		{"claude hooks created", func(r *repo) {
			writeFile(t, filepath.Join(r.root, ".claude", "settings.json"), `{"hooks":{}}`)
		}, ".claude/settings.json was created", true},
		{"pre-commit config created", func(r *repo) {
			writeFile(t, filepath.Join(r.root, ".pre-commit-config.yaml"), "repos: []\n")
		}, ".pre-commit-config.yaml", true},
		{"staged only, work tree restored", func(r *repo) {
			p := filepath.Join(r.root, "SESSION-PROTOCOL.md")
			orig := readFile(t, p)
			writeFile(t, p, weakProtocol)
			r.git("add", "SESSION-PROTOCOL.md")
			writeFile(t, p, orig)
		}, "SESSION-PROTOCOL.md (staged) changed", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.sg(r.root, "install")
			id := r.startWorking(r.root)
			pinned := r.showProtected(id).Session.ProtocolSHA
			tc.change(r)
			writeFile(t, filepath.Join(r.root, "a.txt"), "work\n")
			if tc.stage {
				r.git("add", "-A")
			} else {
				r.git("add", "a.txt")
			}
			before := r.head(r.root)
			res := r.commit(r.root, nil, "-m", "change")
			if res.code != 1 || !strings.Contains(res.err, "protected files changed") || !strings.Contains(res.err, tc.path) || !strings.Contains(res.err, "protocol accept") {
				t.Fatalf("commit: exit %d, want 1 naming %q and protocol accept\n%s", res.code, tc.path, res.err)
			}
			if r.head(r.root) != before {
				t.Fatal("the commit landed")
			}
			// A second blocked commit does not record the same violation again.
			r.commit(r.root, nil, "-m", "change")
			if n := countCode(r.showProtected(id), "PROTECTED_CHANGE"); n != 1 {
				t.Fatalf("%d PROTECTED_CHANGE violations, want 1", n)
			}
			// No new session under the changed files.
			start := r.run(r.root, nil, binary, "session", "start", "--objective", "fresh start")
			if start.code != 1 || !strings.Contains(start.err, "protected files changed") {
				t.Fatalf("session start: exit %d, want 1\n%s%s", start.code, start.out, start.err)
			}
			// An agent's shell (stdin not a terminal) cannot accept quietly.
			acc := r.run(r.root, nil, binary, "protocol", "accept", "--reason", "agent says so")
			if acc.code != 2 || !strings.Contains(acc.err, "not both a terminal") {
				t.Fatalf("accept without --yes: exit %d, want 2\n%s%s", acc.code, acc.out, acc.err)
			}
			// Nor behind a terminal it opened (script(1)) with its variables
			// removed: its own process is among accept's ancestors.
			if underAgent := acceptUnderAgent(t, r); underAgent.code != 2 || !strings.Contains(underAgent.out+underAgent.err, "runs under the coding agent claude") { // script(1) sends both streams to its terminal
				t.Fatalf("accept under an agent process: exit %d, want 2\n%s%s", underAgent.code, underAgent.out, underAgent.err)
			}
			// Nor with --yes: a script needs accept_non_interactive in an accepted config.
			if acc := r.run(r.root, nil, binary, "protocol", "accept", "--yes", "--reason", "agent says so"); acc.code != 2 || !strings.Contains(acc.err, "accept_non_interactive") {
				t.Fatalf("accept --yes without a terminal: exit %d, want 2\n%s%s", acc.code, acc.out, acc.err)
			}
			out := acceptAtTerminal(t, r, "reviewed by the lead")
			if !strings.Contains(out, "accepted") || !strings.Contains(out, "Test <test@example.com>") || !strings.Contains(out, "terminal (--yes)") {
				t.Fatalf("accept output: %s", out)
			}
			v := r.showProtected(id)
			var accepted string
			for _, ev := range v.Events {
				if ev.Token == "protect:accept" {
					accepted = ev.Detail
				}
			}
			if !strings.Contains(accepted, "reviewed by the lead") || !strings.Contains(accepted, "terminal") {
				t.Fatalf("protect:accept event detail %q", accepted)
			}
			if v.Session.ProtocolSHA != pinned {
				t.Fatalf("the running session's protocol changed from %s to %s", pinned, v.Session.ProtocolSHA)
			}
			if res := r.commit(r.root, nil, "-m", "change"); res.code != 0 {
				t.Fatalf("commit after accept: exit %d\n%s", res.code, res.err)
			}
		})
	}
}

// TestProtectedStartRefused: an agent edits the protocol between sessions
// (no commit) and starts a fresh session under it: refused, with a
// repository violation; after a person accepts, the new session pins the
// new protocol while the old one keeps its own.
func TestProtectedStartRefused(t *testing.T) {
	skipUnderAgent(t)
	r := newRepo(t)
	first := r.startWorking(r.root)
	old := r.showProtected(first).Session.ProtocolSHA
	writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), weakProtocol)
	for range 2 {
		res := r.run(r.root, nil, binary, "session", "start", "--objective", "under the weak protocol")
		if res.code != 1 || !strings.Contains(res.err, "SESSION-PROTOCOL.md changed") {
			t.Fatalf("start: exit %d, want 1\n%s", res.code, res.err)
		}
	}
	doc := r.run(r.root, nil, binary, "doctor")
	if doc.code != 1 || !strings.Contains(doc.out, "changed without a person's acceptance: SESSION-PROTOCOL.md changed") {
		t.Fatalf("doctor: exit %d\n%s", doc.code, doc.out)
	}
	if out := acceptAtTerminal(t, r, "new protocol v2"); !strings.Contains(out, "SESSION-PROTOCOL.md changed") {
		t.Fatalf("accept lists no change: %s", out)
	}
	if out := acceptAtTerminal(t, r, "again"); !strings.Contains(out, "nothing to accept") {
		t.Fatalf("second accept: %s", out)
	}
	if doc := r.run(r.root, nil, binary, "doctor"); !strings.Contains(doc.out, "as a person accepted them") {
		t.Fatalf("doctor after accept:\n%s", doc.out)
	}
	out := r.sg(r.root, "session", "start", "--objective", "under the accepted protocol", "--json")
	var st struct {
		ID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if got := r.showProtected(st.ID).Session.ProtocolSHA; got == old {
		t.Fatal("the new session pinned the old protocol")
	}
	if got := r.showProtected(first).Session.ProtocolSHA; got != old {
		t.Fatalf("the first session's protocol changed to %s", got)
	}
}

// TestProtectOff: with protect: false from the start, changes are not policed.
func TestProtectOff(t *testing.T) {
	r := newRepo(t)
	writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), testConfig+"protect: false\n")
	r.git("commit", "-qam", "protect off")
	r.sg(r.root, "install")
	r.startWorking(r.root)
	writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), weakProtocol)
	r.git("add", "-A")
	if res := r.commit(r.root, nil, "-m", "weaken"); res.code != 0 {
		t.Fatalf("commit with protect: false: exit %d\n%s", res.code, res.err)
	}
}

// TestProtectedPush: after a session ended, an unstaged edit of
// sessiongate.yaml that empties hooks.pre-push does not let a push through.
func TestProtectedPush(t *testing.T) {
	r := newRepo(t)
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.gitIn(filepath.Dir(remote), "init", "-q", "--bare", remote)
	r.git("remote", "add", "origin", remote)
	r.sg(r.root, "install")
	id := r.startWorking(r.root)
	writeFile(t, filepath.Join(r.root, "a.txt"), "work\n")
	r.git("add", "a.txt")
	if res := r.commit(r.root, nil, "-m", "work"); res.code != 0 {
		t.Fatal(res.err)
	}
	writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), "require_session: false\nhooks:\n  pre-push: []\n")
	res := r.run(r.root, nil, "git", "push", "-q", "origin", "main")
	if res.code == 0 || !strings.Contains(res.err, "protected files changed") || !strings.Contains(res.err, "sessiongate.yaml changed") {
		t.Fatalf("push with a weakened config: exit %d\n%s", res.code, res.err)
	}
	if n := countCode(r.showProtected(id), "PROTECTED_CHANGE"); n != 1 {
		t.Fatalf("%d PROTECTED_CHANGE violations, want 1", n)
	}
	if out := r.run(r.root, nil, "git", "ls-remote", remote); strings.Contains(out.out, "refs/heads/main") {
		t.Fatal("the remote got main")
	}
}

// acceptUnderAgent runs protocol accept the way an agent could hide itself:
// from a shell whose process is named claude (a copy of sh, as Claude Code
// names its own), inside a terminal script(1) opens when it is installed,
// with the agents' variables removed.
func acceptUnderAgent(t *testing.T, r *repo) result {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	b, err := os.ReadFile(sh)
	if err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(claude, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := "env -u CLAUDECODE -u CLAUDE_CODE_ENTRYPOINT " + binary + " protocol accept --yes --reason sure"
	if script, err := exec.LookPath("script"); err == nil {
		cmd = script + " -qec '" + cmd + "' /dev/null"
	}
	return r.run(r.root, nil, claude, "-c", cmd)
}

// acceptAtTerminal runs `protocol accept --yes --reason` the way a person
// does, at a terminal: script(1) gives it one (stdin and stderr), which is
// also how an agent with a pty would fake it (docs/security.md).
func acceptAtTerminal(t *testing.T, r *repo, reason string) string {
	t.Helper()
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) to give accept a terminal")
	}
	res := r.run(r.root, nil, script, "-qec", binary+" protocol accept --yes --reason '"+reason+"'", "/dev/null")
	if res.code != 0 {
		t.Fatalf("accept at a terminal: exit %d\n%s%s", res.code, res.out, res.err)
	}
	return res.out
}

// TestAcceptNonInteractive: without a terminal, accept --yes works only
// when sessiongate.yaml, as a person accepted it, says
// accept_non_interactive: true; the agent writing that line itself gets
// nothing from it.
func TestAcceptNonInteractive(t *testing.T) {
	skipUnderAgent(t)
	tests := []struct {
		name      string
		committed string // the config as committed (first use trusts it)
		workTree  string // the config the agent leaves in the work tree ("" unchanged)
		wantCode  int
		want      string
	}{
		{"not allowed", testConfig, "", 2, "not both a terminal"},
		{"allowed by the accepted config", testConfig + "accept_non_interactive: true\n", "", 0, "non-interactive (--yes)"},
		{"allowed by the agent's own edit", testConfig, testConfig + "accept_non_interactive: true\n", 2, "itself an unaccepted change"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), tc.committed)
			r.git("commit", "-q", "--allow-empty", "-am", "config")
			r.startWorking(r.root) // first use: the committed files are trusted
			writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), weakProtocol)
			if tc.workTree != "" {
				writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), tc.workTree)
			}
			res := r.run(r.root, nil, binary, "protocol", "accept", "--yes", "--reason", "provisioning")
			if res.code != tc.wantCode || !strings.Contains(res.out+res.err, tc.want) {
				t.Fatalf("accept: exit %d, want %d with %q\n%s%s", res.code, tc.wantCode, tc.want, res.out, res.err)
			}
		})
	}
}

// skipUnderAgent skips a test that runs protocol accept when the tests
// themselves run under a coding agent (accept then refuses, as it must);
// CI runs under none, so there it fails instead.
func skipUnderAgent(t *testing.T) {
	t.Helper()
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the tests run under the coding agent %s (pid %d): protocol accept refuses there", p.Name, p.PID)
		}
		t.Skipf("the tests run under the coding agent %s (pid %d), where protocol accept refuses (as it must): run them in a terminal of your own", p.Name, p.PID)
	}
}

// TestProtectedChangeAtEveryGate: an edit of the protocol or the config
// that is never committed still decides nothing: session gate, advance
// (even --force) and end each exit 1 naming the file, one PROTECTED_CHANGE
// is recorded, and once the edit is reverted the session goes on.
func TestProtectedChangeAtEveryGate(t *testing.T) {
	skipUnderAgent(t)
	edits := []struct {
		name   string
		change func(r *repo)
		want   string
	}{
		{"config edited in the work tree", func(r *repo) {
			writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), testConfig+"commands:\n  QA_VALIDATION: \"true\"\n")
		}, "sessiongate.yaml changed"},
		{"protocol weakened and staged only", func(r *repo) {
			writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), weakProtocol)
			r.git("add", "SESSION-PROTOCOL.md")
		}, "SESSION-PROTOCOL.md"},
		{"agent hook config created", func(r *repo) {
			writeFile(t, filepath.Join(r.root, ".claude", "settings.json"), `{"hooks":{}}`)
		}, ".claude/settings.json was created"},
	}
	calls := [][]string{
		{"session", "gate", "--phase", "QA_VALIDATION"},
		{"session", "advance"},
		{"session", "advance", "--force", "--reason", "in a hurry"},
		{"session", "end", "--summary", "done"},
	}
	for _, tc := range edits {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.sg(r.root, "install")
			id := r.startWorking(r.root)
			tc.change(r)
			for _, call := range calls {
				res := r.run(r.root, nil, binary, append(call, "--session", id)...)
				if res.code != 1 || !strings.Contains(res.err, "protected files changed") || !strings.Contains(res.err, tc.want) {
					t.Fatalf("%s: exit %d, want 1 naming %q\n%s%s", strings.Join(call, " "), res.code, tc.want, res.out, res.err)
				}
			}
			v := r.showProtected(id)
			if n := countCode(v, "PROTECTED_CHANGE"); n != 1 {
				t.Fatalf("%d PROTECTED_CHANGE violations, want 1: %+v", n, v.Violations)
			}
			if n := countCode(v, "FORCED_ADVANCE"); n != 0 {
				t.Fatalf("force went past a protected change: %+v", v.Violations)
			}
			// Reverted: the session goes on.
			r.git("reset", "-q", "--hard")
			r.git("clean", "-qfd")
			if res := r.run(r.root, nil, binary, "session", "advance", "--session", id); res.code != 0 {
				t.Fatalf("advance after revert: exit %d\n%s%s", res.code, res.out, res.err)
			}
		})
	}
}

// TestAcceptSignedCommit: with accept_signers in the accepted config,
// `protocol accept --signed-commit REV` accepts, without a terminal, the
// protected files exactly as in a commit whose ssh signature git verifies
// and whose signer is listed; an unsigned commit, another signer, a work
// tree that differs from the commit and an older signed version brought
// back are refused.
func TestAcceptSignedCommit(t *testing.T) {
	keygen, err := exec.LookPath("ssh-keygen")
	if err != nil {
		t.Skip("no ssh-keygen to sign commits")
	}
	keys := t.TempDir()
	signers := ""
	for _, who := range []string{"alice", "bob"} {
		k := filepath.Join(keys, who)
		if out, err := exec.Command(keygen, "-q", "-t", "ed25519", "-N", "", "-C", who, "-f", k).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
		signers += who + "@example.com " + strings.TrimSpace(readFile(t, k+".pub")) + "\n"
	}
	tests := []struct {
		name     string
		do       func(r *repo) string // makes the change, returns the REV to accept
		wantCode int
		want     string
	}{
		{"signed by a listed person", func(r *repo) string {
			r.signedCommit("alice", "v2 of the protocol")
			return "HEAD"
		}, 0, "signed commit"},
		{"unsigned", func(r *repo) string {
			writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), weakProtocol)
			r.git("commit", "-q", "-am", "unsigned")
			return "HEAD"
		}, 2, "no ssh signature"},
		{"signed by someone not listed", func(r *repo) string {
			r.signedCommit("bob", "bob's protocol")
			return "HEAD"
		}, 2, "not by one of accept_signers"},
		{"work tree differs from the signed commit", func(r *repo) string {
			r.signedCommit("alice", "v2 of the protocol")
			writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), weakProtocol+"\n")
			return "HEAD"
		}, 2, "not as in the signed commit"},
		{"an older signed version brought back", func(r *repo) string {
			r.signedCommit("alice", "v2 of the protocol")
			old := r.git("rev-parse", "HEAD")
			writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), testProtocol+"\n<!-- v3 -->\n")
			r.signedCommit("alice", "v3")
			r.git("checkout", "-q", old, "--", "SESSION-PROTOCOL.md")
			return old
		}, 2, "not the last commit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.git("config", "gpg.format", "ssh")
			r.keys = keys
			// The signers as the repository commits them: the agent (the
			// repository's git runs as one) may accept what they signed.
			writeFile(t, filepath.Join(r.root, ".github", "allowed_signers"), signers)
			writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), testConfig+"accept_signers: [alice@example.com]\nverify:\n  allowed_signers: .github/allowed_signers\n")
			r.git("add", "-A")
			r.git("commit", "-q", "-m", "signers")
			r.startWorking(r.root) // first use trusts the committed files
			rev := tc.do(r)
			res := r.run(r.root, nil, binary, "protocol", "accept", "--signed-commit", rev)
			if res.code != tc.wantCode || !strings.Contains(res.out+res.err, tc.want) {
				t.Fatalf("accept --signed-commit %s: exit %d, want %d with %q\n%s%s", rev, res.code, tc.wantCode, tc.want, res.out, res.err)
			}
		})
	}
}

// signedCommit commits a new protocol version signed with who's ssh key.
func (r *repo) signedCommit(who, msg string) {
	r.t.Helper()
	writeFile(r.t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), testProtocol+"\n<!-- "+msg+" -->\n")
	r.git("-c", "user.signingkey="+filepath.Join(r.keys, who), "-c", "user.email="+who+"@example.com", "commit", "-q", "-S", "-am", msg)
}

// TestAcceptSignedCommitTrust (lazy-agent pass 26): the signature that lets
// the agent run `protocol accept --signed-commit` is judged by something
// the agent cannot write. Before, git's own verification judged it, from
// config the agent's shell sets as easily as a person's: the agent made an
// ssh key, wrote "alice@example.com <its key>" into a signers file of its
// own, pointed gpg.ssh.allowedSignersFile at it (GIT_CONFIG_COUNT, or
// .git/config) and got its weakened protocol accepted as Alice's. Now
// verify.allowed_signers (the committed file) judges; without it, accept
// --signed-commit is a person's only: no agent variable or ancestor, and
// (round 27) a terminal, since a detached agent with its variables unset
// has neither. Honest twins: Alice's real signature, accepted by the agent
// or by a person at a terminal (script(1)); the signers file changed by a
// signed commit, then the new signer's protocol.
func TestAcceptSignedCommitTrust(t *testing.T) {
	keygen, err := exec.LookPath("ssh-keygen")
	if err != nil {
		t.Skip("no ssh-keygen to sign commits")
	}
	keys := t.TempDir()
	pub := map[string]string{}
	for _, who := range []string{"alice", "bob", "agent"} {
		k := filepath.Join(keys, who)
		if out, err := exec.Command(keygen, "-q", "-t", "ed25519", "-N", "", "-C", who, "-f", k).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
		pub[who] = strings.TrimSpace(readFile(t, k+".pub"))
	}
	person := "alice@example.com " + pub["alice"] + "\n"
	forged := filepath.Join(keys, "agent_signers") // the agent's own file: its key, Alice's name
	writeFile(t, forged, "alice@example.com "+pub["agent"]+"\n")
	forgedEnv := []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=gpg.ssh.allowedSignersFile", "GIT_CONFIG_VALUE_0=" + forged}
	const listed = "accept_signers: [alice@example.com, bob@example.com]\n"
	const inRepo = "verify:\n  allowed_signers: .github/allowed_signers\n"
	tests := []struct {
		name     string
		config   string   // appended to testConfig
		person   bool     // accept runs as a person (no agent variable)
		tty      bool     // accept runs at a terminal (script(1))
		env      []string // accept's extra environment
		do       func(r *repo) string
		wantCode int
		want     string
	}{
		{"lazy: the agent's key as Alice in its own signers file (environment), signers committed", listed + inRepo, false, false, forgedEnv, func(r *repo) string {
			r.signedCommit("agent", "weakened")
			return "HEAD"
		}, 2, "not by one of accept_signers"},
		{"lazy: the same through .git/config, signers committed", listed + inRepo, false, false, nil, func(r *repo) string {
			r.git("config", "gpg.ssh.allowedSignersFile", forged)
			r.signedCommit("agent", "weakened")
			return "HEAD"
		}, 2, "not by one of accept_signers"},
		{"lazy: the agent's key put into the committed signers file by an unsigned commit first", listed + inRepo, false, false, nil, func(r *repo) string {
			writeFile(t, filepath.Join(r.root, ".github", "allowed_signers"), person+"alice@example.com "+pub["agent"]+"\n")
			r.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-am", "chore: signers")
			r.signedCommit("agent", "weakened")
			return "HEAD"
		}, 2, "without a listed signer's signature"},
		{"lazy: the agent's key as Alice in its own signers file, no signers committed", listed, false, false, forgedEnv, func(r *repo) string {
			r.signedCommit("agent", "weakened")
			return "HEAD"
		}, 2, "runs under the coding agent"},
		{"honest: Alice signs, the agent accepts, signers committed", listed + inRepo, false, false, nil, func(r *repo) string {
			r.signedCommit("alice", "v2 of the protocol")
			return "HEAD"
		}, 0, "signed commit"},
		{"honest: Alice signs bob into the signers file, Bob signs the protocol", listed + inRepo, false, false, nil, func(r *repo) string {
			writeFile(t, filepath.Join(r.root, ".github", "allowed_signers"), person+"bob@example.com "+pub["bob"]+"\n")
			r.git("-c", "core.hooksPath=/dev/null", "-c", "user.signingkey="+filepath.Join(keys, "alice"), "commit", "-q", "-S", "-am", "chore: bob signs too")
			r.signedCommit("bob", "v2 of the protocol")
			return "HEAD"
		}, 0, "signed commit"},
		{"lazy: detached (agent variables unset, no agent ancestor, no terminal), its key as Alice in its own signers file, no signers committed", listed, true, false, forgedEnv, func(r *repo) string {
			r.signedCommit("agent", "weakened")
			return "HEAD"
		}, 2, "no terminal is attached"},
		// A limit kept visible (review of c1, round 27): any process of the
		// user can open a pty, so the detached agent runs accept under
		// script(1) and its own key passes as Alice's. Only a committed
		// verify.allowed_signers holds (the first rows); docs/security.md,
		// "Review of c1 (round 27, c9)". When this row starts failing,
		// update the docs with it.
		{"limit: detached, through script(1)'s pty, its key as Alice in its own signers file, no signers committed", listed, true, true, forgedEnv, func(r *repo) string {
			r.signedCommit("agent", "weakened")
			return "HEAD"
		}, 0, "signed commit"},
		{"honest: Alice signs, a person accepts at a terminal with git's config, no signers committed", listed, true, true, nil, func(r *repo) string {
			writeFile(t, filepath.Join(keys, "person_signers"), person)
			r.git("config", "gpg.ssh.allowedSignersFile", filepath.Join(keys, "person_signers"))
			r.signedCommit("alice", "v2 of the protocol")
			return "HEAD"
		}, 0, "signed commit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			if tc.person {
				r.asPerson()
			}
			r.git("config", "gpg.format", "ssh")
			r.keys = keys
			writeFile(t, filepath.Join(r.root, ".github", "allowed_signers"), person)
			writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), testConfig+tc.config)
			r.git("add", "-A")
			r.git("commit", "-q", "-m", "signers")
			r.startWorking(r.root)
			rev := tc.do(r)
			var res result
			if !tc.tty {
				res = r.run(r.root, tc.env, binary, "protocol", "accept", "--signed-commit", rev)
			} else {
				script, err := exec.LookPath("script")
				if err != nil {
					if os.Getenv("CI") != "" {
						t.Fatalf("script(1) is required under CI=true (util-linux): %v", err)
					}
					t.Skip("script(1) not found: a person's terminal cannot be played")
				}
				// script -e gives accept the pty as stdin and stderr; its
				// own exit code is accept's.
				res = r.run(r.root, tc.env, script, "-qec", binary+" protocol accept --signed-commit "+rev, "/dev/null")
			}
			if res.code != tc.wantCode || !strings.Contains(res.out+res.err, tc.want) {
				t.Fatalf("accept --signed-commit %s: exit %d, want %d with %q\n%s%s", rev, res.code, tc.wantCode, tc.want, res.out, res.err)
			}
		})
	}
}
