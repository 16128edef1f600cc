package session

import "testing"

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
	} {
		got := cliDetail(c.req)
		if got != c.want {
			t.Errorf("cliDetail(%+v) = %q, want %q", c.req, got, c.want)
		}
		if key, conv, _ := newestCLI([]Event{{Token: cliToken("claude"), Detail: got}}, "claude"); key != "42:7" || conv != c.req.AgentSession {
			t.Errorf("read back %q as key %q, conversation %q", got, key, conv)
		}
	}
}
