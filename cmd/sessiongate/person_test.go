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
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestSessionRemovalNeedsAPerson (issue 25 route 1): under a coding agent's
// process, `session delete` and `session terminate` are refused however
// the shell line spells them (the agent hooks match strings; xargs and a
// variable got past them), and the session stays active. A person's run,
// outside the agent, terminates it, and the termination reaches the
// records ref with its event.
func TestSessionRemovalNeedsAPerson(t *testing.T) {
	bin := realBinary(t)
	if _, under := ancestry.Agent(ancestry.Chain()); under {
		t.Skip("this test runs under a coding agent: the person half cannot run")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh: cannot run a shell named after an agent")
	}
	dir := repoDir(t)
	if code, _, stderr := sg(t, "", "init"); code != 0 {
		t.Fatal(stderr)
	}
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "chore: sessiongate")
	code, out, stderr := sg(t, "", "session", "start", "--objective", "removal", "--json")
	if code != 0 {
		t.Fatalf("start: %s", stderr)
	}
	var st struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.SessionID == "" {
		t.Fatalf("start output %q: %v", out, err)
	}
	// The agent: a shell whose process is named claude, as Claude Code's
	// Bash tool runs the agent's lines.
	claude := filepath.Join(t.TempDir(), "claude")
	b, err := os.ReadFile(sh)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(claude, b, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		`echo delete --yes "$ID" | xargs "$SG" session`,
		`S="$SG session"; $S terminate "$ID" --reason "start afresh"`,
		`eval "\"\$SG\" session $(printf 'ter%s' minate) \$ID --reason x"`,
		`"$SG" session delete --yes --erase-violations "$ID"`,
	} {
		cmd := exec.Command(claude, "-c", line)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "SG="+bin, "ID="+st.SessionID)
		cmd.Env = append(cmd.Env, binaryEnv()...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		err := cmd.Run()
		// xargs reports its command's failure as 123.
		ee, ok := err.(*exec.ExitError)
		if !ok || (ee.ExitCode() != exitUsage && ee.ExitCode() != 123) || !strings.Contains(errb.String(), "under the coding agent claude") {
			t.Errorf("%s under the agent: %v %q, want a refusal naming the agent", line, err, errb.String())
		}
	}
	if code, out, _ := sg(t, "", "session", "status", "--session", st.SessionID); code != 0 || strings.Contains(out, "TERMINATED") {
		t.Fatalf("the session did not stay active: %d %s", code, out)
	}
	// A person, outside the agent.
	if code, _, stderr := sgBin(t, dir, nil, "session", "terminate", st.SessionID, "--reason", "the user stops the work"); code != 0 {
		t.Fatalf("a person's terminate: %d %s", code, stderr)
	}
	rec := gittest.Git(t, dir, "log", "-1", "--format=%H", "refs/sessiongate/records")
	body := gittest.Git(t, dir, "grep", "-h", "session:terminated", rec)
	if !strings.Contains(body, st.SessionID) {
		t.Fatalf("the terminated session's record is not on the records ref: %q", body)
	}
}
