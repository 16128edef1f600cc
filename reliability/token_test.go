//go:build unix

package reliability

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestTokenFileWithCurl: `serve --token-file` tried with curl as an
// attacker: no route with data answers without the token.
func TestTokenFileWithCurl(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("curl is required under CI=true")
		}
		t.Skip("curl not found: install curl to run this test")
	}
	r := newRepo(t)
	id := startedRE.FindStringSubmatch(r.run(t, binary, "session", "start", "--objective", "token"))[1]
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("hunter2-long-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "serve", "--addr", "127.0.0.1:0", "--token-file", tokenFile)
	cmd.Dir, cmd.Env = r.root, r.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); _ = cmd.Wait() }()
	base := strings.TrimSuffix(waitURL(t, stdout), "/mcp")
	status := func(args ...string) string {
		out, _ := exec.Command(curl, append([]string{"-s", "-o", "/dev/null", "-w", "%{http_code}"}, args...)...).Output()
		return string(out)
	}
	mcp := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"session_start","arguments":{"objective":"x"}}}`
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"overview", []string{base + "/"}, "401"},
		{"sessions", []string{base + "/sessions"}, "401"},
		{"session page", []string{base + "/sessions/" + id}, "401"},
		{"api", []string{base + "/api/sessions"}, "401"},
		{"mcp", []string{"-H", "Content-Type: application/json", "-H", "Accept: application/json, text/event-stream", "-d", mcp, base + "/mcp"}, "401"},
		{"terminate", []string{"-d", "reason=x&_csrf=guess", base + "/sessions/" + id + "/terminate"}, "401"},
		{"browser is sent to sign in", []string{"-H", "Accept: text/html", base + "/"}, "303"},
		{"wrong token", []string{"-H", "Authorization: Bearer hunter2", base + "/api/sessions"}, "401"},
		{"right token", []string{"-H", "Authorization: Bearer hunter2-long-token", base + "/api/sessions"}, "200"},
	} {
		if got := status(c.args...); got != c.want {
			t.Errorf("%s: curl got %s, want %s", c.name, got, c.want)
		}
	}
	if have := stored(t, r.db); len(have) != 1 {
		t.Fatalf("an unauthenticated request wrote: %d sessions", len(have))
	}
}
