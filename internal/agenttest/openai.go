package agenttest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// OpenAIStub is ../shared/tools/openai-api-stub.py running on 127.0.0.1:
// the scripted model of the Codex CLI (Responses API) and the Copilot CLI
// (Chat Completions). A step is {"tool": NAME, "input": {...}},
// {"text": "..."} or {"http_error": N}; each model request that carries
// tools takes the next one.
type OpenAIStub struct {
	URL string // http://127.0.0.1:PORT/v1
	Log string // one JSON line per request
}

// Step is one scripted model answer.
type Step map[string]any

// ToolStep calls tool with input; TextStep ends the turn with text.
func ToolStep(tool string, input any) Step { return Step{"tool": tool, "input": input} }
func TextStep(text string) Step            { return Step{"text": text} }

// StubScript is where the shared stub lives; tests skip (or fail under
// CI=true) when it is missing.
func StubScript(t testing.TB) string {
	t.Helper()
	p := filepath.Join(ModuleRoot(t), "..", "shared", "tools", "openai-api-stub.py")
	if _, err := os.Stat(p); err != nil {
		Missing(t, "the scripted OpenAI model %s is not available (%v)", p, err)
	}
	return p
}

// StartOpenAIStub starts the stub with steps and stops it when the test
// ends (the process is killed by its id).
func StartOpenAIStub(t testing.TB, steps ...Step) *OpenAIStub {
	t.Helper()
	script := StubScript(t)
	py := Python3(t)
	dir := t.TempDir()
	b, err := json.Marshal(steps)
	if err != nil {
		t.Fatalf("openai stub: encode the script: %v", err)
	}
	scriptPath := filepath.Join(dir, "script.json")
	if err := os.WriteFile(scriptPath, b, 0o644); err != nil {
		t.Fatalf("openai stub: write the script: %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("openai stub: find a free port: %v", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	s := &OpenAIStub{URL: fmt.Sprintf("http://127.0.0.1:%d/v1", port), Log: filepath.Join(dir, "requests.jsonl")}
	cmd := exec.Command(py, script, fmt.Sprint(port), scriptPath, s.Log)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatalf("openai stub: start: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := http.Get(s.URL + "/models")
		if err == nil {
			resp.Body.Close()
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("openai stub: not answering on port %d after 15s: %v\n%s", port, err, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// StubRequest is one logged model request.
type StubRequest struct {
	Seq       int             `json:"seq"`
	API       string          `json:"api"`
	StepIndex *int            `json:"step_index"`
	ToolNames []string        `json:"tool_names"`
	New       json.RawMessage `json:"new"`
	Last      json.RawMessage `json:"last"`
}

// NewText is what the client added since the model last spoke (tool
// results, hook feedback), as JSON text with its escapes undone enough to
// search.
func (r StubRequest) NewText() string {
	s := string(r.New)
	return strings.NewReplacer(`\"`, `"`, `\n`, "\n", `\u003e`, ">", `\u003c`, "<", `\u0026`, "&").Replace(s)
}

// Requests reads the stub's log.
func (s *OpenAIStub) Requests(t testing.TB) []StubRequest {
	t.Helper()
	f, err := os.Open(s.Log)
	if err != nil {
		t.Fatalf("openai stub: read the log: %v", err)
	}
	defer f.Close()
	var out []StubRequest
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r StubRequest
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("openai stub: log line: %v", err)
		}
		out = append(out, r)
	}
	return out
}

// Scripted lists the requests that took a step (the model's turns).
func (s *OpenAIStub) Scripted(t testing.TB) []StubRequest {
	var out []StubRequest
	for _, r := range s.Requests(t) {
		if r.StepIndex != nil {
			out = append(out, r)
		}
	}
	return out
}

// CLIResult is one run of an agent CLI.
type CLIResult struct {
	Stdout, Stderr string
	ExitCode       int
	Elapsed        time.Duration
	Home           string // the isolated HOME (CODEX_HOME / COPILOT_HOME inside)
}

func runCLI(t testing.TB, dir, home string, timeout time.Duration, env []string, bin string, args ...string) CLIResult {
	t.Helper()
	if timeout == 0 {
		timeout = 10 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = nil
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	res := CLIResult{Stdout: stdout.String(), Stderr: stderr.String(), Elapsed: time.Since(start), Home: home}
	if ctx.Err() != nil {
		t.Fatalf("%s timed out after %s\nstdout: %s\nstderr: %s", filepath.Base(bin), timeout, res.Stdout, res.Stderr)
	}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("run %s: %v", bin, err)
		}
		res.ExitCode = ee.ExitCode()
	}
	return res
}

// RunCodex runs the real Codex CLI in dir: `codex exec --json` against
// stub, with CODEX_HOME in an isolated HOME whose config.toml trusts dir
// (an untrusted project's .codex/ is not loaded) and
// --dangerously-bypass-hook-trust (else every hook is skipped silently).
func RunCodex(t testing.TB, dir, prompt string, stub *OpenAIStub, env []string, timeout time.Duration) CLIResult {
	t.Helper()
	return RunCodexIn(t, dir, t.TempDir(), prompt, stub, env, timeout)
}

// RunCodexIn is RunCodex with the HOME to use (a second run in the same
// HOME sees the first's rollouts) and extra arguments before the prompt
// (`resume --last`: `codex exec resume --last PROMPT`), or `--sandbox
// MODE` to run the tool calls in Codex's sandbox.
func RunCodexIn(t testing.TB, dir, home, prompt string, stub *OpenAIStub, env []string, timeout time.Duration, sub ...string) CLIResult {
	t.Helper()
	bin := FindCLI(t, "codex")
	codexHome := filepath.Join(home, ".codex")
	if err := os.MkdirAll(codexHome, 0o700); err != nil {
		t.Fatal(err)
	}
	real := dir
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		real = r
	}
	cfg := fmt.Sprintf(`model = "gpt-5.5"
model_provider = "stub"
check_for_update_on_startup = false
allow_login_shell = false # a login shell's profile would reset PATH (sessiongate first)
[model_providers.stub]
name = "stub"
base_url = %q
wire_api = "responses"
env_key = "STUB_API_KEY"
[features]
plugins = false
apps = false
remote_plugin = false
[analytics]
enabled = false
[projects.%q]
trust_level = "trusted"
`, stub.URL, real)
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	e := agentEnv(home, append([]string{"CODEX_HOME=" + codexHome, "STUB_API_KEY=x"}, env...))
	args := []string{"exec"}
	if len(sub) > 1 && sub[0] == "--sandbox" {
		// Codex's own sandbox for the tool calls (read-only, `codex
		// exec`'s default; workspace-write, the TUI's in a trusted
		// project) instead of none.
		args = append(args, "--skip-git-repo-check", "--sandbox", sub[1],
			"--dangerously-bypass-hook-trust", "--json", "-C", dir, prompt)
		return runCLI(t, dir, home, timeout, e, bin, args...)
	}
	if len(sub) > 0 {
		// `codex exec resume` takes no -C: the run's directory is dir
		args = append(append(args, sub...), "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox",
			"--dangerously-bypass-hook-trust", "--json", prompt)
	} else {
		args = append(args, "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox",
			"--dangerously-bypass-hook-trust", "--json", "-C", dir, prompt)
	}
	return runCLI(t, dir, home, timeout, e, bin, args...)
}

// RunCopilot runs the real Copilot CLI in dir: `copilot -p prompt
// --allow-all-tools` against stub in BYOK offline mode, with repository
// hooks loaded (GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true) and an isolated
// HOME. Its ~235 MB package is unpacked once per test binary run into
// COPILOT_PKG_CACHE_HOME (a shared temp dir) when the caller sets none.
func RunCopilot(t testing.TB, dir, prompt string, stub *OpenAIStub, env []string, timeout time.Duration) CLIResult {
	t.Helper()
	return RunCopilotIn(t, dir, t.TempDir(), prompt, stub, env, timeout)
}

// RunCopilotIn is RunCopilot with the isolated HOME given (a second run
// in the same one can --continue the first's session) and extra args.
func RunCopilotIn(t testing.TB, dir, home, prompt string, stub *OpenAIStub, env []string, timeout time.Duration, args ...string) CLIResult {
	t.Helper()
	bin := FindCLI(t, "copilot")
	e := agentEnv(home, append([]string{
		"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + stub.URL, "COPILOT_PROVIDER_TYPE=openai",
		"COPILOT_PROVIDER_API_KEY=x", "COPILOT_MODEL=gpt-4.1", "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true",
		"COPILOT_HOME=" + filepath.Join(home, ".copilot"), "COPILOT_PKG_CACHE_HOME=" + copilotPkgCache(),
	}, env...))
	return runCLI(t, dir, home, timeout, e, bin, append([]string{"-p", prompt, "--allow-all-tools", "--no-auto-update", "--output-format", "json"}, args...)...)
}

// copilotPkgCache is where Copilot CLI unpacks itself (235 MB): a cache
// beside the go build cache (the user's cache folder), shared by the
// packages and runs that start it, not a folder left in TMPDIR by every
// run. SESSIONGATE_COPILOT_PKG_CACHE names another.
func copilotPkgCache() string {
	if p := os.Getenv("SESSIONGATE_COPILOT_PKG_CACHE"); p != "" {
		return p
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "sessiongate-tests", "copilot-pkg")
	}
	return filepath.Join(os.TempDir(), "sessiongate-copilot-pkg")
}

// Python3 is a python3 interpreter that is not a version manager's shim
// (pyenv's takes about a second to start here): the first python3 on PATH
// outside a "shims" folder, else the shim.
func Python3(t testing.TB) string {
	t.Helper()
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if strings.Contains(dir, "shims") {
			continue
		}
		p := filepath.Join(dir, "python3")
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	p, err := exec.LookPath("python3")
	if err != nil {
		Missing(t, "python3 not found (the scripted OpenAI model and the Python hook comparison need it)")
	}
	return p
}
