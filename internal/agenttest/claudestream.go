package agenttest

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// ClaudeStream is a real Claude Code run in stream-json mode (`claude -p
// --input-format stream-json`): the test sends user messages and control
// requests (an interrupt, as a user pressing Esc) while it runs.
type ClaudeStream struct {
	t     testing.TB
	cmd   *exec.Cmd
	stdin io.WriteCloser
	// Stdout is where the CLI's stream-json output goes (a file in the
	// test's folder), read after Wait.
	Stdout string
	done   chan struct{} // closed when the CLI exited
}

// StartClaudeStream starts Claude Code in dir against opts.Server, as
// RunClaude does, reading stream-json from the test. opts.Env and
// opts.AllowedTools are used; call Wait (or let cleanup kill it).
func StartClaudeStream(t testing.TB, dir string, opts ClaudeOptions) *ClaudeStream {
	t.Helper()
	bin := FindCLI(t, "claude")
	home := t.TempDir()
	configDir := filepath.Join(home, ".claude")
	if err := os.MkdirAll(configDir, 0o700); err != nil {
		t.Fatal(err)
	}
	args := []string{"-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"}
	if len(opts.AllowedTools) > 0 {
		args = append(args, "--allowedTools")
		args = append(args, opts.AllowedTools...)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = agentEnv(home, append([]string{
		"ANTHROPIC_BASE_URL=" + opts.Server.URL, "ANTHROPIC_API_KEY=test", "CLAUDE_CONFIG_DIR=" + configDir,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
	}, opts.Env...))
	s := &ClaudeStream{t: t, cmd: cmd, Stdout: filepath.Join(home, "stream.jsonl"), done: make(chan struct{})}
	out, err := os.Create(s.Stdout)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start claude: %v", err)
	}
	go func() { _ = cmd.Wait(); out.Close(); close(s.done) }()
	t.Cleanup(func() {
		select {
		case <-s.done:
		default:
			_ = cmd.Process.Kill()
			<-s.done
		}
	})
	return s
}

// Send writes one stream-json message.
func (s *ClaudeStream) Send(msg any) {
	s.t.Helper()
	b, err := json.Marshal(msg)
	if err != nil {
		s.t.Fatal(err)
	}
	if _, err := s.stdin.Write(append(b, '\n')); err != nil {
		s.t.Fatalf("send to claude: %v", err)
	}
}

// Prompt sends a user message.
func (s *ClaudeStream) Prompt(text string) {
	s.Send(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
}

// Interrupt sends the control request a user's Esc sends.
func (s *ClaudeStream) Interrupt(id string) {
	s.Send(map[string]any{"type": "control_request", "request_id": id, "request": map[string]any{"subtype": "interrupt"}})
}

// Wait closes stdin and waits for the CLI to exit, at most timeout.
func (s *ClaudeStream) Wait(timeout time.Duration) {
	s.t.Helper()
	s.stdin.Close()
	select {
	case <-s.done:
	case <-time.After(timeout):
		_ = s.cmd.Process.Kill()
		<-s.done
		b, _ := os.ReadFile(s.Stdout)
		s.t.Fatalf("claude did not exit within %s after stdin closed:\n%s", timeout, b)
	}
}
