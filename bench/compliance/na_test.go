package compliance_test

import (
	"encoding/json"
	"os"
	"os/exec"
)

// Not-applicable marks a person accepts (issue 25.4). A session on the
// real protocols marks "If the serena MCP is not available ..." not
// applicable on its reason: nothing a machine can check, so verify fails
// its commits until a person accepts the marks. That is neither a pass nor
// a block of the session's work: the table counts it apart.

// personAcceptsNA runs `session accept-na` at a terminal (script(1)), as
// the person reviewing the session does after it ends.
func (w *world) personAcceptsNA() {
	w.t.Helper()
	script, err := exec.LookPath("script")
	if err != nil {
		if os.Getenv("CI") != "" {
			w.t.Fatal("script(1) (util-linux) is required under CI=true: a person's accept-na needs a terminal")
		}
		w.t.Skip("script(1) not found (util-linux): a person's accept-na needs a terminal")
	}
	if w.transcript != "" {
		// The person reviews after the agent has exited: an unsigned
		// acceptance while its conversation is open is refused, as
		// protocol accept's is.
		w.hookEnd()
	}
	line := binary + " session accept-na --yes --reason 'reviewed: the marks hold' " + w.id
	if res := w.exec(w.root, "", script, "-qec", line, "/dev/null"); res.code != 0 {
		w.t.Fatalf("session accept-na at a terminal: exit %d\n%s", res.code, res.text())
	}
}

// onlyNAPending reports whether verify failed only on not-applicable
// marks no person accepted: the session has pending marks, and once a
// person accepts them, verify passes. (The acceptance is the last thing the
// scenario does; its verdict is taken before it.)
func (w *world) onlyNAPending() bool {
	w.t.Helper()
	var v struct {
		NotApplicable []struct {
			Standing string `json:"standing"`
		} `json:"not_applicable"`
	}
	if json.Unmarshal([]byte(w.sgOK("session", "status", "--session", w.id, "--json")), &v) != nil {
		return false
	}
	pending := false
	for _, m := range v.NotApplicable {
		pending = pending || m.Standing == "pending"
	}
	if !pending {
		return false
	}
	w.personAcceptsNA()
	return w.sg("verify", w.base+"..HEAD", "--json").code == 0
}
