package reliability

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMCPStartRefusesConfigWithUnknownPhase: a sessiongate.yaml naming a
// phase the protocol lacks (a typo that would disable a gate) is refused by
// MCP session_start as by the CLI, with the phase and the file named.
func TestMCPStartRefusesConfigWithUnknownPhase(t *testing.T) {
	r := newRepo(t)
	cfg := filepath.Join(r.root, "sessiongate.yaml")
	if err := os.WriteFile(cfg, []byte("commands:\n  NOPHASE: \"true\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "mcp")
	cmd.Dir, cmd.Env = r.root, r.env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	input := (`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"session_start","arguments":{"objective":"typo in the config"}}}
`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// stdin stays open until the answer arrives, as a client keeps it.
	if _, err := stdin.Write([]byte(input)); err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"id":2`) {
				done <- sc.Text()
				return
			}
		}
		done <- ""
	}()
	var resp string
	select {
	case resp = <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("no answer to session_start within 20 s")
	}
	stdin.Close()
	_ = cmd.Wait()
	if !strings.Contains(resp, `"isError":true`) || !strings.Contains(resp, "NOPHASE") {
		t.Fatalf("session_start with an unknown phase in the config: %s\nstderr: %s", resp, stderr.String())
	}
	if have := stored(t, r.db); len(have) != 0 {
		t.Fatalf("a session was started anyway: %v", have)
	}
}
