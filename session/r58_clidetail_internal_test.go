package session

import (
	"strings"
	"testing"
)

// TestR58CLIDetail: a kept CLI's detail is read by position (newestCLI,
// EarlierLiveCLI): the PID namespace follows a conversation id, never
// stands in its place.
func TestR58CLIDetail(t *testing.T) {
	for _, c := range []struct {
		req  AgentBindRequest
		want string
	}{
		{AgentBindRequest{CLI: "42:7", AgentSession: "conv", CLINamespace: "pid:[1]"}, "42:7 conv pid:[1]"},
		{AgentBindRequest{CLI: "42:7", AgentSession: "conv"}, "42:7 conv"},
		{AgentBindRequest{CLI: "42:7", CLINamespace: "pid:[1]"}, "42:7"},
		// Round 60: a conversation id is one word, whatever the payload
		// named (a space shifted the namespace to a word of the id).
		{AgentBindRequest{CLI: "42:7", AgentSession: "a b", CLINamespace: "pid:[1]"}, "42:7 a%20b pid:[1]"},
		{AgentBindRequest{CLI: "42:7", AgentSession: "a\u00a0b\tc", CLINamespace: "pid:[1]"}, "42:7 a%C2%A0b%09c pid:[1]"},
		{AgentBindRequest{CLI: "42:7", AgentSession: "100%", CLINamespace: "pid:[1]"}, "42:7 100%25 pid:[1]"},
		{AgentBindRequest{CLI: "42:7", AgentSession: "conv", CLINamespace: "pid:[1]", CLIMountNamespace: "mnt:[2]"}, "42:7 conv pid:[1] mnt:[2]"},
		{AgentBindRequest{CLI: "42:7", CLINamespace: "pid:[1]", CLIMountNamespace: "mnt:[2]"}, "42:7"},
	} {
		got := cliDetail(c.req)
		if got != c.want {
			t.Errorf("cliDetail(%+v) = %q, want %q", c.req, got, c.want)
		}
		if f := strings.Fields(got); c.req.AgentSession != "" && c.req.CLINamespace != "" && (len(f) < 3 || f[2] != c.req.CLINamespace) {
			t.Errorf("cliDetail(%+v) = %q: the namespace is not its third word", c.req, got)
		}
		if key, conv, _ := newestCLI([]Event{{Token: cliToken("claude"), Detail: got}}, "claude"); key != "42:7" || conv != c.req.AgentSession {
			t.Errorf("read back %q as key %q, conversation %q", got, key, conv)
		}
	}
}
