package agenttest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ModuleRoot is the directory holding go.mod, found upward from the test's
// working directory (a package directory under go test).
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatalf("module root: %v", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("module root: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Missing skips the test with msg, or fails it when CI=true: CI installs
// every external program the tests need (.ci/run), so absence there is a
// broken setup, not a reason to skip.
func Missing(t testing.TB, format string, a ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, a...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (required under CI=true; .ci/run installs it with npm ci in .ci/node)", msg)
	}
	t.Skipf("%s: run `npm ci` in .ci/node to run the real-agent tests", msg)
}

// NodeBin is .ci/node/node_modules/.bin under the module root.
func NodeBin(t testing.TB) string {
	return filepath.Join(ModuleRoot(t), ".ci", "node", "node_modules", ".bin")
}

// FindCLI returns the path of an npm-installed agent CLI: .ci/node's copy
// first, then PATH. It skips (or fails under CI) when neither exists.
func FindCLI(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(NodeBin(t), name)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	Missing(t, "%s not found in .ci/node/node_modules/.bin or PATH", name)
	return ""
}

// agentEnv is the test process environment without anything that could
// point a CLI at a real account, a real config directory or a real model:
// variables of the coding client running the tests included.
func agentEnv(home string, extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "ANTHROPIC_"), strings.HasPrefix(k, "CLAUDE"),
			strings.HasPrefix(k, "GEMINI_"), strings.HasPrefix(k, "GOOGLE_"),
			strings.HasPrefix(k, "OTEL_"), strings.HasPrefix(k, "XDG_"),
			strings.HasPrefix(k, "GIT_"), strings.HasPrefix(k, "SESSIONGATE_"),
			k == "HOME", k == "USERPROFILE", k == "MCP_TIMEOUT", k == "DEBUG":
			continue
		}
		env = append(env, kv)
	}
	// The CLIs' temporary files go in the test's folder: Claude Code
	// wrote /tmp/claude-0 (CLAUDE_CODE_TMPDIR, not TMPDIR, moves it), and
	// the others write under TMPDIR; none of it was removed.
	tmp := filepath.Join(home, "tmp")
	_ = os.MkdirAll(tmp, 0o700) // a CLI that cannot use it fails visibly
	env = append(env,
		"TMPDIR="+tmp, "CLAUDE_CODE_TMPDIR="+tmp,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
		// The isolated HOME has no global git config; commits made by the
		// agent or by hooks still need an identity.
		"GIT_AUTHOR_NAME=agenttest", "GIT_AUTHOR_EMAIL=agenttest@sessiongate.invalid",
		"GIT_COMMITTER_NAME=agenttest", "GIT_COMMITTER_EMAIL=agenttest@sessiongate.invalid",
	)
	// Later entries win: exec keeps the last value of a duplicated key.
	return dedupeEnv(append(env, extra...))
}

func dedupeEnv(env []string) []string {
	seen := map[string]int{}
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if i, ok := seen[k]; ok {
			out[i] = kv
			continue
		}
		seen[k] = len(out)
		out = append(out, kv)
	}
	return out
}

// PrependPath returns "PATH=dir:$PATH" for ClaudeOptions.Env, so a test can
// put a freshly built sessiongate binary ahead of everything else.
func PrependPath(dir string) string {
	return "PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")
}

// ClaudeOptions configures one RunClaude.
type ClaudeOptions struct {
	// Server is the scripted model; required.
	Server *ClaudeServer
	// MCPConfig is passed as --mcp-config (a path relative to dir works).
	MCPConfig string
	// AllowedTools is passed as --allowedTools, one argument per entry.
	// Write, Edit and Bash need it (or PermissionMode) in -p mode.
	AllowedTools []string
	// PermissionMode is passed as --permission-mode when set.
	PermissionMode string
	// Args are appended to the command line.
	Args []string
	// Env entries (KEY=value) override the prepared environment, e.g.
	// PrependPath(bin) or SESSIONGATE_DB=...
	Env []string
	// Timeout kills the run; 90s when zero.
	Timeout time.Duration
	// Interrupt, when set, is polled every 100 ms while the CLI runs; once
	// it returns true the CLI gets InterruptSignal (SIGINT, a person's
	// Ctrl+C, when nil), once, and a run that then prints no JSON result
	// does not fail the test (ClaudeResult.Interrupted).
	Interrupt       func() bool
	InterruptSignal os.Signal
	// KillGroup runs the CLI in its own process group and sends
	// InterruptSignal to the whole group (kill -9 of the CLI, its shells
	// and hooks: an agent killed outright).
	KillGroup bool
}

// ClaudeResult is the parsed `--output-format json` result of one run.
type ClaudeResult struct {
	Type      string  `json:"type"`
	Subtype   string  `json:"subtype"`
	IsError   bool    `json:"is_error"`
	Result    string  `json:"result"`
	SessionID string  `json:"session_id"`
	NumTurns  int     `json:"num_turns"`
	CostUSD   float64 `json:"total_cost_usd"`

	Stdout   []byte
	Stderr   string
	ExitCode int
	Elapsed  time.Duration
	// Home is the isolated HOME the run used (its .claude holds the
	// transcript), kept until the test ends.
	Home string
	// Interrupted: ClaudeOptions.Interrupt fired and the signal was sent.
	Interrupted bool
}

// RunClaude runs the real Claude Code CLI in dir: `claude -p prompt
// --output-format json` against opts.Server, with an isolated HOME and
// config directory in t.TempDir() (the real ~/.claude is never read or
// written) and a hard timeout. It returns the parsed result; it fails the
// test when the run times out or prints no JSON result, not when claude
// exits non-zero (the caller asserts on ExitCode and IsError).
func RunClaude(t testing.TB, dir, prompt string, opts ClaudeOptions) ClaudeResult {
	t.Helper()
	bin := FindCLI(t, "claude")
	if opts.Server == nil {
		t.Fatal("RunClaude: ClaudeOptions.Server is required")
	}
	home := t.TempDir()
	configDir := filepath.Join(home, ".claude")
	if err := os.MkdirAll(configDir, 0o700); err != nil {
		t.Fatal(err)
	}
	timeout := opts.Timeout
	if timeout == 0 {
		// A hang guard, not a speed check: one run took 65s at load 40
		// and 90s failed runs that were only slow.
		timeout = 10 * time.Minute
	}
	args := []string{"-p", prompt, "--output-format", "json"}
	if opts.MCPConfig != "" {
		args = append(args, "--mcp-config", opts.MCPConfig)
	}
	if len(opts.AllowedTools) > 0 {
		args = append(args, "--allowedTools")
		args = append(args, opts.AllowedTools...)
	}
	if opts.PermissionMode != "" {
		args = append(args, "--permission-mode", opts.PermissionMode)
	}
	args = append(args, opts.Args...)

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = agentEnv(home, append([]string{
		"ANTHROPIC_BASE_URL=" + opts.Server.URL,
		"ANTHROPIC_API_KEY=test",
		"CLAUDE_CONFIG_DIR=" + configDir,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
	}, opts.Env...))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	var interrupted bool
	var err error
	if opts.KillGroup {
		ownGroup(cmd)
	}
	if opts.Interrupt == nil {
		err = cmd.Run()
	} else if err = cmd.Start(); err == nil {
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		sig := opts.InterruptSignal
		if sig == nil {
			sig = os.Interrupt
		}
		tick := time.NewTicker(100 * time.Millisecond)
	wait:
		for {
			select {
			case err = <-done:
				break wait
			case <-tick.C:
				if !interrupted && opts.Interrupt() {
					interrupted = true
					if opts.KillGroup {
						_ = signalGroup(cmd, sig)
					} else {
						_ = cmd.Process.Signal(sig)
					}
				}
			}
		}
		tick.Stop()
	}
	res := ClaudeResult{Stdout: stdout.Bytes(), Stderr: stderr.String(), Elapsed: time.Since(start), Home: home, Interrupted: interrupted}
	if ctx.Err() != nil {
		t.Fatalf("claude timed out after %s\nstdout: %s\nstderr: %s", timeout, stdout.String(), stderr.String())
	}
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		res.ExitCode = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("run claude: %v", err)
	}
	out := bytes.TrimSpace(stdout.Bytes())
	// The JSON result is the last line; anything before it is noise.
	if i := bytes.LastIndexByte(out, '\n'); i >= 0 {
		out = out[i+1:]
	}
	if err := json.Unmarshal(out, &res); err != nil && !interrupted {
		t.Fatalf("claude printed no JSON result (exit %d): %v\nstdout: %s\nstderr: %s", res.ExitCode, err, stdout.String(), stderr.String())
	}
	return res
}

// GeminiOptions configures one RunGemini.
type GeminiOptions struct {
	// Server is the scripted model; required.
	Server *GeminiServer
	// Args are appended to the command line.
	Args []string
	// Env entries (KEY=value) override the prepared environment.
	Env []string
	// Timeout kills the run; 90s when zero.
	Timeout time.Duration
	// MCPServers go into the isolated user settings' mcpServers (the
	// project's .gemini/settings.json is sessiongate-protected).
	MCPServers map[string]any
	// Home is the isolated HOME to use, a new one when empty: a second run
	// in the same HOME sees the first's chats (`--resume latest`).
	Home string
}

// GeminiResult is the parsed `--output-format json` result of one run.
type GeminiResult struct {
	SessionID string          `json:"session_id"`
	Response  string          `json:"response"`
	Error     json.RawMessage `json:"error"`

	Stdout   []byte
	Stderr   string
	ExitCode int
	Elapsed  time.Duration
	Home     string
}

// RunGemini runs the real Gemini CLI in dir: `gemini -p prompt
// --output-format json --yolo` against opts.Server with API-key auth, the
// workspace trusted, and an isolated HOME in t.TempDir() (the real
// ~/.gemini is never touched). It fails the test on a timeout or when no
// JSON result is printed.
func RunGemini(t testing.TB, dir, prompt string, opts GeminiOptions) GeminiResult {
	t.Helper()
	bin := FindCLI(t, "gemini")
	if opts.Server == nil {
		t.Fatal("RunGemini: GeminiOptions.Server is required")
	}
	home := opts.Home
	if home == "" {
		home = t.TempDir()
	}
	settings := map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":  map[string]any{"usageStatisticsEnabled": false}, "telemetry": map[string]any{"enabled": false},
		"general": map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
	}
	if len(opts.MCPServers) > 0 {
		settings["mcpServers"] = opts.MCPServers
	}
	sb, err := json.Marshal(settings)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), sb, 0o600); err != nil {
		t.Fatal(err)
	}
	timeout := opts.Timeout
	if timeout == 0 {
		// A hang guard, not a speed check: one run took 65s at load 40
		// and 90s failed runs that were only slow.
		timeout = 10 * time.Minute
	}
	args := append([]string{"-p", prompt, "--output-format", "json", "--yolo"}, opts.Args...)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	env := agentEnv(home, append([]string{
		"GEMINI_API_KEY=test",
		"GOOGLE_GEMINI_BASE_URL=" + opts.Server.URL,
		"GEMINI_CLI_TRUST_WORKSPACE=true",
		"GEMINI_TELEMETRY_ENABLED=false",
		"NO_COLOR=1",
	}, opts.Env...))
	// gemini is a node script (#!/usr/bin/env node, node >= 20): the
	// machine's node runs it, or .ci/node's own node 22 where there is none.
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + strings.TrimPrefix(kv, "PATH=") + string(os.PathListSeparator) + NodeBin(t)
		}
	}
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err = cmd.Run()
	res := GeminiResult{Stdout: stdout.Bytes(), Stderr: stderr.String(), Elapsed: time.Since(start), Home: home}
	if ctx.Err() != nil {
		t.Fatalf("gemini timed out after %s\nstdout: %s\nstderr: %s", timeout, stdout.String(), stderr.String())
	}
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		res.ExitCode = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("run gemini: %v", err)
	}
	// The JSON result is one (indented) object; anything before it is noise.
	out := stdout.Bytes()
	if i := bytes.IndexByte(out, '{'); i >= 0 {
		out = out[i:]
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("gemini printed no JSON result (exit %d): %v\nstdout: %s\nstderr: %s", res.ExitCode, err, stdout.String(), stderr.String())
	}
	return res
}
