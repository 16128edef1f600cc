package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// naPlanReason is an honest reason to mark the starter's Plan phase (no
// condition) not applicable as a whole.
const naPlanReason = "the change is one typo in the README, so a written plan would repeat the objective"

// naSession runs, on a new branch from main, a session that marks the
// starter's Plan phase not applicable (pending a person: the phase has no
// condition), commits a file, and ends; it pushes the branch and the
// records ref and returns the tip and the session id.
func naSession(t *testing.T, w *ciWorld, name string) (tip, sid string) {
	t.Helper()
	w.git(t, w.dev, "checkout", "-q", "-b", name, w.main)
	out := w.sg(t, w.dev, "session", "start", "--objective", "fix a typo", "--json")
	var st struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.SessionID == "" {
		t.Fatalf("session start: %q %v", out, err)
	}
	w.sg(t, w.dev, "session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the README")
	w.sg(t, w.dev, "session", "evidence", "--phase", "GIT_STATE", "--type", "tool_output", "--value", "git status: clean")
	w.sg(t, w.dev, "session", "evidence", "--phase", "PLAN", "--not-applicable", naPlanReason)
	w.sg(t, w.dev, "session", "advance", "--to", "WORKING")
	w.write(t, name+".txt")
	w.git(t, w.dev, "add", "-A")
	w.git(t, w.dev, "commit", "-q", "-m", "fix: "+name)
	w.sg(t, w.dev, append([]string{"run", "--phase", "QA_VALIDATION", "--"}, strings.Fields(w.qaCmd)...)...)
	w.sg(t, w.dev, "session", "advance", "--to", "DOCUMENTATION_UPDATE")
	w.sg(t, w.dev, "session", "end", "--summary", "done")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", name, "refs/sessiongate/records")
	return w.git(t, w.dev, "rev-parse", "HEAD"), st.SessionID
}

// acceptNA runs `session accept-na` at a terminal (script(1)), as a person.
func acceptNA(t *testing.T, w *ciWorld, args ...string) {
	t.Helper()
	script := needTool(t, "script", "util-linux")
	line := realBinary(t) + " session accept-na --yes"
	for _, a := range args {
		line += " '" + a + "'"
	}
	cmd := exec.Command(script, "-qec", line, "/dev/null")
	cmd.Dir = w.dev
	cmd.Env = sgEnv(w.env)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("session accept-na %v at a terminal: %v\n%s", args, err, out)
	}
}

// TestVerifyNotApplicablePending (issue 25.4): a phase without a condition
// marked not applicable on the agent's reason lets the session go on, but
// the session is not clean (session show) and verify fails its commits
// until a person accepts the mark. With verify.allowed_signers at the
// base, only a listed signer's signed acceptance counts: an unsigned one
// (what the agent's shell can write with `git hash-object` as well) fails.
// The agent itself cannot run accept-na.
func TestVerifyNotApplicablePending(t *testing.T) {
	t.Parallel()
	sw := newSignedWorld(t, true)
	w := sw.ciWorld

	pending, pendingID := naSession(t, w, "pending")
	show := w.sg(t, w.dev, "session", "show", pendingID)
	if !strings.Contains(show, "PLAN: N/A pending acceptance") && !strings.Contains(show, "phase PLAN: N/A pending acceptance") {
		t.Fatalf("session show does not list the pending mark:\n%s", show)
	}
	if !strings.Contains(show, "not clean: ") || !strings.Contains(show, "1 N/A pending acceptance (phase PLAN)") {
		t.Fatalf("session show's verdict does not say the pending mark keeps it from clean:\n%s", show)
	}
	for _, format := range []string{"text", "json", "sarif", "junit", "github"} {
		code, out := w.ciVerify(t, "pending-"+format, pending, "--format", format)
		if code != 1 || !strings.Contains(out, "N/A pending acceptance") {
			t.Fatalf("verify --format %s of a session with an unaccepted mark: exit %d, want 1 naming the pending mark\n%s", format, code, out)
		}
	}

	// The agent runs accept-na itself: refused under its process.
	if _, under := ancestry.Agent(ancestry.Chain()); !under {
		claude := filepath.Join(t.TempDir(), "claude")
		b, err := os.ReadFile(needTool(t, "sh", "dash"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(claude, b, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(claude, "-c", `"$SG" session accept-na "$ID" --yes --reason "it does not apply"`)
		cmd.Dir = w.dev
		cmd.Env = append(append(append(os.Environ(), "SG="+realBinary(t), "ID="+pendingID), binaryEnv()...), w.env...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		err = cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitUsage || !strings.Contains(errb.String(), "under the coding agent claude") {
			t.Fatalf("accept-na under the agent: %v %q, want a refusal naming the agent", err, errb.String())
		}
	}
	if code, out := w.ciVerify(t, "pending-after-agent", pending); code != 1 {
		t.Fatalf("verify after the agent's refused accept: exit %d\n%s", code, out)
	}

	// A forged acceptance: written without a listed signer's signature.
	forged, forgedID := naSession(t, w, "forged")
	acceptNA(t, w, forgedID, "--reason", "looks fine")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "refs/sessiongate/records")
	if code, out := w.ciVerify(t, "forged", forged); code != 1 || !strings.Contains(out, "no listed signer") {
		t.Fatalf("verify with an unsigned acceptance and allowed_signers set: exit %d, want 1 naming the missing signature\n%s", code, out)
	}

	// The honest path: a listed signer accepts, signed.
	signed, signedID := naSession(t, w, "signed")
	w.git(t, w.dev, "config", "user.signingkey", filepath.Join(sw.keys, "alice"))
	acceptNA(t, w, signedID, "PLAN", "--reason", "agreed: a typo needs no plan", "--sign")
	w.git(t, w.dev, "config", "--unset", "user.signingkey")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "refs/sessiongate/records")
	if code, out := w.ciVerify(t, "signed", signed); code != 0 || !strings.Contains(out, "accepted by alice@example.com") {
		t.Fatalf("verify with a signed acceptance by a listed signer: exit %d, want 0 naming alice\n%s", code, out)
	}
	if show := w.sg(t, w.dev, "session", "show", signedID); !strings.Contains(show, "N/A accepted by") || strings.Contains(show, "pending acceptance") {
		t.Fatalf("session show after the acceptance:\n%s", show)
	}
}

// TestVerifyNotApplicableNoSigners: without signers at the base, an
// unsigned acceptance passes, and the output says it is unverified.
func TestVerifyNotApplicableNoSigners(t *testing.T) {
	t.Parallel()
	w := newSignedWorld(t, false).ciWorld
	tip, id := naSession(t, w, "nosigners")
	if code, out := w.ciVerify(t, "nosigners-pending", tip); code != 1 || !strings.Contains(out, "N/A pending acceptance: phase PLAN") {
		t.Fatalf("verify before the acceptance: exit %d\n%s", code, out)
	}
	acceptNA(t, w, id, "--reason", "agreed: a typo needs no plan")
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "refs/sessiongate/records")
	if code, out := w.ciVerify(t, "nosigners-accepted", tip); code != 0 || !strings.Contains(out, "unverified") {
		t.Fatalf("verify after an unsigned acceptance without signers: exit %d, want 0 saying unverified\n%s", code, out)
	}
}
