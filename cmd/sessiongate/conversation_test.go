package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// Issue 25, person acts: a detached process (setsid -f, a double fork)
// escapes the process-tree rule, not the agent's conversation. These tests
// run the real binary with real agent hook payloads (Codex CLI's, recorded
// in ../shared/fixtures/agent-payloads) marking a conversation open.

// codexPayload reads a recorded Codex CLI hook payload and points it at
// dir; conv, when set, replaces its conversation id.
// testStartDir is the package folder, where go test starts the binary.
var testStartDir, _ = os.Getwd()

func codexPayload(t *testing.T, name, dir, conv string) []byte {
	t.Helper()
	// From the package folder as the test binary started: tests that
	// work in a repository (repoDir) have changed the working directory.
	p := filepath.Join(testStartDir, "..", "..", "..", "shared", "fixtures", "agent-payloads", "codex", name+".json")
	b, err := os.ReadFile(p)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("payload %s is required under CI=true: %v", p, err)
		}
		t.Skipf("payload %s not available (%v); the shared ones live in ../shared/fixtures/agent-payloads", p, err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["cwd"] = dir
	if conv != "" {
		m["session_id"] = conv
	}
	delete(m, "transcript_path") // a path on the recording machine
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// codexHook runs `sessiongate agent-hook codex EVENT` in dir with the
// recorded payload, as Codex CLI does, and returns its answer.
func codexHook(t *testing.T, dir string, env []string, event string) string {
	t.Helper()
	return codexHookAs(t, dir, env, event, "")
}

// codexHookAs is codexHook for the conversation conv.
func codexHookAs(t *testing.T, dir string, env []string, event, conv string) string {
	t.Helper()
	cmd := exec.Command(realBinary(t), "agent-hook", "codex", event)
	cmd.Dir = dir
	cmd.Env = sgEnv(env)
	cmd.Stdin = bytes.NewReader(codexPayload(t, event, dir, conv))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("agent-hook codex %s: %v\n%s", event, err, errb.String())
	}
	return out.String()
}

// detached runs line under a shell named claude (the agent) that detaches
// it with setsid -f, so its process re-parents to init, and returns what
// it printed and its exit status.
func detached(t *testing.T, dir string, env []string, line string) (int, string) {
	t.Helper()
	if _, err := exec.LookPath("setsid"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("setsid (util-linux) is required under CI=true: %v", err)
		}
		t.Skip("setsid not found (util-linux)")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	claude := filepath.Join(t.TempDir(), "claude")
	if err := os.Symlink(sh, claude); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(claude, "-c", `setsid -f sh -c '`+line+` >`+out+` 2>&1; echo "rc=$?" >`+out+`.rc'`)
	cmd.Dir = dir
	cmd.Env = append(sgEnv(env), "SG="+realBinary(t))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("setsid: %v %s", err, b)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if b, err := os.ReadFile(out + ".rc"); err == nil && bytes.HasSuffix(b, []byte("\n")) {
			o, _ := os.ReadFile(out)
			rc, _ := strings.CutPrefix(strings.TrimSpace(string(b)), "rc=")
			code, err := strconv.Atoi(rc)
			if err != nil {
				t.Fatalf("exit status %q: %v", b, err)
			}
			return code, string(o)
		}
		if time.Now().After(deadline) {
			t.Fatal("the detached command did not finish")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// conversationWorld is a repository with sessiongate set up, its records
// on the records ref, and a Codex conversation whose hooks started
// session first.
type conversationWorld struct {
	*ciWorld
	first string
}

func newConversationWorld(t *testing.T, w *ciWorld) *conversationWorld {
	t.Helper()
	w.git(t, w.dev, "checkout", "-q", "-b", "conv", w.main)
	codexHook(t, w.dev, w.env, "SessionStart")
	return &conversationWorld{ciWorld: w, first: activeSession(t, w)}
}

// activeSession is the id of the worktree's session that is not ended.
func activeSession(t *testing.T, w *ciWorld) string {
	t.Helper()
	var list []struct {
		ID    string `json:"id"`
		State string `json:"state"`
	}
	if err := json.Unmarshal([]byte(w.sg(t, w.dev, "session", "list", "--json")), &list); err != nil {
		t.Fatal(err)
	}
	for _, s := range list {
		if s.State != "TERMINATED" && s.State != "COMPLETE" {
			return s.ID
		}
	}
	t.Fatalf("no active session in %v", list)
	return ""
}

// acts returns the person acts on the records ref.
func acts(t *testing.T, w *ciWorld) []map[string]any {
	t.Helper()
	var out []map[string]any
	ls := w.git(t, w.dev, "ls-tree", "-r", "--name-only", "refs/sessiongate/records", "--", "acts")
	for _, p := range strings.Fields(ls) {
		var m map[string]any
		if err := json.Unmarshal([]byte(w.git(t, w.dev, "show", "refs/sessiongate/records:"+p)), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// violations is what `session show` says of a session's violations.
func violationLines(t *testing.T, w *ciWorld, id string) string {
	t.Helper()
	var b strings.Builder
	for _, l := range strings.Split(w.sg(t, w.dev, "session", "show", id), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "violation:") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// TestDetachedRemovalDuringConversation: the agent detaches (setsid -f
// under a shell named claude: the process tree ends at init) and
// terminates its session, then goes on in the same conversation. Before
// the conversation log this passed as a person's act and the fresh
// session started clean. Now the act is recorded on the records ref as
// made during the open conversation, unsigned, and the fresh session from
// that conversation carries SESSION_RESTARTED; a detached `protocol
// accept` through script(1) and `init --commit` are refused naming the
// conversation.
func TestDetachedRemovalDuringConversation(t *testing.T) {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the test runs under the coding agent %s", p.Name)
	}
	w := newConversationWorld(t, newCIWorld(t))
	code, out := detached(t, w.dev, w.env, `"$SG" session terminate `+w.first+` --reason "start afresh"`)
	if code != 0 || !strings.Contains(out, "while the agent conversation codex:01a21fbc-d94f-7840-ab11-14e78e78bec4 is open") {
		t.Fatalf("detached terminate: exit %d, want 0 with the open conversation named\n%s", code, out)
	}
	as := acts(t, w.ciWorld)
	if len(as) != 1 || as[0]["session_id"] != w.first || as[0]["open_conversations"] == nil || as[0]["signed"] != false {
		t.Fatalf("the act on the records ref: %v, want one terminate of %s with the open conversation, unsigned", as, w.first)
	}
	// The agent goes on in the same conversation: a fresh session.
	codexHook(t, w.dev, w.env, "UserPromptSubmit")
	second := activeSession(t, w.ciWorld)
	if second == w.first {
		t.Fatal("no fresh session")
	}
	if v := violationLines(t, w.ciWorld, second); !strings.Contains(v, "SESSION_RESTARTED") || !strings.Contains(v, w.first) {
		t.Fatalf("the fresh session's violations %q, want SESSION_RESTARTED naming %s", v, w.first)
	}
	// A protected change the agent wants accepted, through a fake terminal.
	w.writeFile(t, "SESSION-PROTOCOL.md", "# weakened\n")
	if _, err := exec.LookPath("script"); err == nil {
		code, out = detached(t, w.dev, w.env, `script -qec "\"$SG\" protocol accept --yes --reason ok" /dev/null`)
		if !strings.Contains(out, "accept refused: the agent conversation codex:") {
			t.Fatalf("detached accept at a fake terminal: exit %d, want a refusal naming the conversation\n%s", code, out)
		}
	}
	code, out = detached(t, w.dev, w.env, `"$SG" init --commit`)
	if code != exitUsage || !strings.Contains(out, "init --commit refused: the agent conversation codex:") {
		t.Fatalf("detached init --commit: exit %d, want %d naming the conversation\n%s", code, exitUsage, out)
	}
}

// TestPersonActsBesideConversations: the honest people. With no agent
// conversation open, or with it closed by its SessionEnd, a person's
// terminate is recorded as theirs (no warning, no open conversation) and
// a resumed conversation starts a clean session; during an open
// conversation, a signed terminate is the person's word too.
func TestPersonActsBesideConversations(t *testing.T) {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the test runs under the coding agent %s", p.Name)
	}
	sw := newSignedWorld(t, true)
	w := sw.ciWorld
	w.git(t, w.dev, "config", "user.signingkey", filepath.Join(sw.keys, "alice"))
	cases := []struct {
		name   string
		before func(cw *conversationWorld)
		args   []string
		open   bool
	}{
		{"no conversation open", func(cw *conversationWorld) {
			// The session is the person's own; no hook has run.
		}, nil, false},
		{"conversation closed by SessionEnd", func(cw *conversationWorld) {
			codexHook(t, w.dev, w.env, "SessionEnd")
		}, nil, false},
		{"signed during an open conversation", func(cw *conversationWorld) {}, []string{"--sign"}, true},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w.git(t, w.dev, "checkout", "-q", "-B", "honest", w.main)
			var cw *conversationWorld
			if i == 0 {
				w.sg(t, w.dev, "session", "start", "--objective", "a person's own session")
				cw = &conversationWorld{ciWorld: w, first: activeSession(t, w)}
			} else {
				codexHook(t, w.dev, w.env, "SessionStart")
				cw = &conversationWorld{ciWorld: w, first: activeSession(t, w)}
			}
			c.before(cw)
			n := len(acts(t, w))
			code, out, errb := sgBin(t, w.dev, w.env, append([]string{"session", "terminate", cw.first, "--reason", "stuck"}, c.args...)...)
			if code != 0 || strings.Contains(errb, "warning") {
				t.Fatalf("terminate: exit %d\n%s%s", code, out, errb)
			}
			as := acts(t, w)
			if len(as) != n+1 {
				t.Fatalf("%d acts on the records ref, want %d", len(as), n+1)
			}
			var act map[string]any
			for _, a := range as {
				if a["session_id"] == cw.first {
					act = a
				}
			}
			if act == nil || (act["open_conversations"] != nil) != c.open {
				t.Fatalf("the act %v: open conversations recorded %v, want %v", act, act["open_conversations"] != nil, c.open)
			}
			if i > 0 {
				// The conversation goes on (a resume starts with the
				// agent's start event): a clean session.
				codexHook(t, w.dev, w.env, "SessionStart")
				codexHook(t, w.dev, w.env, "UserPromptSubmit")
				next := activeSession(t, w)
				if v := violationLines(t, w, next); v != "" {
					t.Fatalf("the session after a person's act carries %q", v)
				}
				w.sg(t, w.dev, "session", "terminate", next, "--reason", "cleanup", "--sign")
				codexHook(t, w.dev, w.env, "SessionEnd")
			}
		})
	}
	if sig := w.git(t, w.dev, "-c", "gpg.ssh.allowedSignersFile="+filepath.Join(w.dev, ".sessiongate", "allowed_signers"), "log", "-1", "--format=%G? %GS", "refs/sessiongate/records", "--", "acts"); !regexp.MustCompile(`^G alice@example.com`).MatchString(sig) {
		t.Fatalf("the signed act's records commit: %q, want signed by alice", sig)
	}
}

// TestVerifySeesRemovals (issue 25, item 3): a session terminated before
// it committed anything is named by no commit; the fresh session started
// from the same conversation commits. verify reads the act on the records
// ref through the conversation both sessions share: unsigned during the
// open conversation fails (with and without verify.allowed_signers), a
// listed signer's signed act passes, and an act with the conversation
// closed (SessionEnd, then resumed) passes with a note.
func TestVerifySeesRemovals(t *testing.T) {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the test runs under the coding agent %s", p.Name)
	}
	sw := newSignedWorld(t, true)
	signed := sw.ciWorld
	signed.git(t, signed.dev, "config", "user.signingkey", filepath.Join(sw.keys, "alice"))
	plain := newSignedWorld(t, false).ciWorld
	cases := []struct {
		name   string
		w      *ciWorld
		closed bool // SessionEnd before the terminate, the conversation resumed after
		args   []string
		code   int
		want   string
	}{
		{"unsigned during, signers", signed, false, nil, 1, `person act terminate of session \S+ at \S+ during the open agent conversation codex:conv-1 \(acts/[0-9a-f]{64}\.json on the records ref at [0-9a-f]+\); the session's record says TERMINATED: made during an open agent conversation and not signed by a key in \.sessiongate/allowed_signers`},
		{"signed during, signers", signed, false, []string{"--sign"}, 0, `person act terminate .* during the open agent conversation codex:conv-2 .*: signed by alice@example\.com`},
		{"unsigned during, no signers", plain, false, nil, 1, `during the open agent conversation codex:conv-3 .*not signed by a key git trusts \(verify\.allowed_signers is not set at the base\)`},
		{"closed, no signers", plain, true, nil, 0, `person act terminate of session \S+ at \S+ \(acts/.*: unsigned, with no agent conversation open: taken as a person's word, unverified`},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := c.w
			conv := "conv-" + strconv.Itoa(i+1)
			branch := "removal-" + strconv.Itoa(i+1)
			w.git(t, w.dev, "checkout", "-q", "-b", branch, w.main)
			codexHookAs(t, w.dev, w.env, "SessionStart", conv)
			first := activeSession(t, w)
			if c.closed {
				codexHookAs(t, w.dev, w.env, "SessionEnd", conv)
			}
			w.sg(t, w.dev, append([]string{"session", "terminate", first, "--reason", "start afresh"}, c.args...)...)
			// The same conversation goes on (resumed with its start event
			// when it had ended): its hook starts the fresh session, which
			// does honest work and commits.
			if c.closed {
				codexHookAs(t, w.dev, w.env, "SessionStart", conv)
			}
			codexHookAs(t, w.dev, w.env, "UserPromptSubmit", conv)
			w.sg(t, w.dev, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the README")
			w.sg(t, w.dev, "session", "evidence", "--phase", "GIT_STATE", "--type", "tool_output", "--value", "git status: clean")
			w.sg(t, w.dev, "session", "advance", "--to", "WORKING")
			w.write(t, branch+".txt")
			w.git(t, w.dev, "add", "-A")
			w.git(t, w.dev, "commit", "-q", "-m", "work after a removal")
			w.sg(t, w.dev, append([]string{"run", "--phase", "QA_VALIDATION", "--"}, strings.Fields(w.qaCmd)...)...)
			w.sg(t, w.dev, "session", "advance", "--to", "DOCUMENTATION_UPDATE")
			w.sg(t, w.dev, "session", "end", "--summary", "done")
			codexHookAs(t, w.dev, w.env, "SessionEnd", conv)
			w.git(t, w.dev, "push", "-q", "--no-verify", "origin", branch, "refs/sessiongate/records")
			tip := w.git(t, w.dev, "rev-parse", "HEAD")
			code, out := w.ciVerify(t, branch, tip)
			if code != c.code || !regexp.MustCompile(c.want).MatchString(out) {
				t.Fatalf("verify: exit %d, want %d matching %s\n%s", code, c.code, c.want, out)
			}
		})
	}
}

// TestDetachedAcceptNADuringConversation (adversarial pass full_f): the
// agent marks a start phase not applicable on its own reason (pending a
// person), then accepts the mark itself from a detached process at a fake
// terminal while its conversation is open. protocol accept refuses this
// (TestDetachedRemovalDuringConversation); accept-na must too, or an
// unsigned acceptance made by the agent passes verify where no signers are
// listed.
func TestDetachedAcceptNADuringConversation(t *testing.T) {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the test runs under the coding agent %s", p.Name)
	}
	if _, err := exec.LookPath("script"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("script(1) (util-linux) is required under CI=true but was not found")
		}
		t.Skip("script(1) not found: install util-linux to run this test")
	}
	w := newConversationWorld(t, newCIWorld(t))
	w.sg(t, w.dev, "session", "evidence", "--session", w.first, "--phase", "CONTEXT_RETRIEVAL",
		"--not-applicable", "Fresh repository with no history, notes or handoff files to read yet, first session")
	code, out := detached(t, w.dev, w.env, `script -qec "\"$SG\" session accept-na `+w.first+` --yes --reason ok" /dev/null`)
	if !strings.Contains(out, "the agent conversation codex:") || strings.Contains(out, "accepted 1 not-applicable") {
		t.Fatalf("detached accept-na at a fake terminal during the open conversation: exit %d, want a refusal naming the conversation\n%s", code, out)
	}
}
