package mcpserver_test

import (
	"bufio"
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/internal/testbin"
	"github.com/sessiongate/sessiongate/session"
)

// mcpBuildBinary builds cmd/sessiongate into a temporary folder.
func mcpBuildBinary(t testing.TB) string {
	t.Helper()
	gittest.Require(t)
	bin := filepath.Join(t.TempDir(), "sessiongate")
	if err := testbin.Build(bin, "../../cmd/sessiongate", nil); err != nil {
		t.Fatal(err)
	}
	return bin
}

// mcpCleanEnv is the environment without sessiongate's own overrides, so
// the binary finds the database and protocol of the repository it runs in.
func mcpCleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SESSIONGATE_") {
			env = append(env, kv)
		}
	}
	return env
}

// mcpServe runs `sessiongate serve` in repo on a free loopback port and
// returns the /mcp URL it printed. It is stopped with SIGINT at cleanup.
func mcpServe(t testing.TB, bin, repo string, extra ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, extra...)...)
	cmd.Dir, cmd.Env, cmd.Stderr = repo, mcpCleanEnv(), os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start sessiongate serve: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGINT)
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("sessiongate serve exited with %v after SIGINT", err)
			}
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("sessiongate serve did not stop within 10s of SIGINT")
		}
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
	}()
	select {
	case l := <-lines:
		// "sessiongate VERSION serving http://127.0.0.1:PORT (MCP at http://127.0.0.1:PORT/mcp)"
		i := strings.Index(l, "(MCP at ")
		if i < 0 {
			t.Fatalf("serve printed %q, want the MCP URL", l)
		}
		return strings.TrimSuffix(l[i+len("(MCP at "):], ")")
	case err := <-done:
		t.Fatalf("sessiongate serve exited at start: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("sessiongate serve printed no URL within 30s")
	}
	return ""
}

// TestMCPCommandOverStdio spawns `sessiongate mcp` with the Go SDK's
// CommandTransport, as a client would.
func TestMCPCommandOverStdio(t *testing.T) {
	bin := mcpBuildBinary(t)
	repo := mcpNewRepo(t)
	cmd := exec.Command(bin, "mcp")
	cmd.Dir, cmd.Env = repo, mcpCleanEnv()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "sessiongate-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to sessiongate mcp: %v\n%s", err, stderr.String())
	}
	start := mcpOK[session.StartResult](t, cs, "session_start", map[string]any{"objective": "spawned over stdio"})
	if start.Phase != "CONTEXT_RETRIEVAL" {
		t.Fatalf("session_start %+v", start)
	}
	mcpOK[map[string]any](t, cs, "record_evidence", map[string]any{"session_id": start.SessionID, "phase": "CONTEXT_RETRIEVAL", "evidence_type": "tool_output", "evidence": "read"})
	if adv := mcpOK[session.AdvanceResult](t, cs, "advance_phase", map[string]any{"session_id": start.SessionID}); !adv.Advanced {
		t.Fatalf("advance %+v", adv)
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("close (stdin EOF must end sessiongate mcp cleanly): %v\n%s", err, stderr.String())
	}
	// The session lives in the repository's database, not in the process.
	if _, err := os.Stat(filepath.Join(repo, ".git", "sessiongate", "sessiongate.db")); err != nil {
		t.Fatalf("database not in the repository's git dir: %v", err)
	}
}

func TestServeCommand(t *testing.T) {
	bin := mcpBuildBinary(t)
	repo := mcpNewRepo(t)
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	gittest.Write(t, dir, "empty", "  \n")
	gittest.Write(t, dir, "token", "tok-"+strings.Repeat("x", 20)+"\n")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"missing token file", []string{"--token-file", filepath.Join(dir, "nope")}, "does not exist"},
		{"empty token file", []string{"--token-file", empty}, "is empty"},
		{"non-loopback address", []string{"--addr", "0.0.0.0:0"}, "only loopback addresses"},
		{"bad address", []string{"--addr", "nonsense"}, "bad --addr"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(bin, append([]string{"serve"}, c.args...)...)
			cmd.Dir, cmd.Env = repo, mcpCleanEnv()
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 2 {
				t.Fatalf("exit %v, want 2 (usage)\n%s", err, out)
			}
			if !strings.Contains(string(out), c.want) {
				t.Fatalf("output %q lacks %q", out, c.want)
			}
		})
	}
	t.Run("token required", func(t *testing.T) {
		url := mcpServe(t, bin, repo, "--token-file", filepath.Join(dir, "token"))
		list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
		if resp, _ := mcpPost(t, url, list, nil); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("without token: %d, want 401", resp.StatusCode)
		}
		resp, body := mcpPost(t, url, list, http.Header{"Authorization": {"Bearer tok-" + strings.Repeat("x", 20)}})
		if resp.StatusCode != 200 || mcpDecodeRPC(t, body).Error != nil {
			t.Fatalf("with token: %d %s", resp.StatusCode, body)
		}
		if resp, _ := mcpPost(t, url, list, http.Header{"Host": {"evil.example"}}); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("evil Host: %d, want 403", resp.StatusCode)
		}
	})
}
