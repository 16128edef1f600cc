package agenttest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// sgRepo is a real git repository with a protocol, sessiongate's git hooks
// and a database of its own, driven by the real sessiongate binary.
type sgRepo struct {
	t   *testing.T
	dir string
	env []string // PATH with sessiongate first, SESSIONGATE_DB
}

// newSGRepo makes the repository, writes protocol (and config when not
// empty), commits them and runs install with extra install args.
func newSGRepo(t *testing.T, protocol, config string, install ...string) *sgRepo {
	t.Helper()
	r := &sgRepo{t: t, dir: gitRepo(t)}
	r.env = []string{agenttest.PrependPath(sgBin), "SESSIONGATE_DB=" + filepath.Join(t.TempDir(), "sessiongate.db")}
	r.write("SESSION-PROTOCOL.md", protocol)
	if config != "" {
		r.write("sessiongate.yaml", config)
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "protocol")
	if out, code := r.sg(append([]string{"install"}, install...)...); code != 0 {
		t.Fatalf("sessiongate install %v: exit %d\n%s", install, code, out)
	}
	return r
}

func (r *sgRepo) write(rel, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *sgRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// sg runs the sessiongate binary in the repository; stdout and stderr
// together, and the exit code.
func (r *sgRepo) sg(args ...string) (string, int) {
	r.t.Helper()
	cmd := exec.Command(filepath.Join(sgBin, "sessiongate"), args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), r.env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		return out.String(), exitErr.ExitCode()
	case err != nil:
		r.t.Fatalf("run sessiongate %v: %v", args, err)
	}
	return out.String(), 0
}

// show is `sessiongate session show --json` for a session, decoded.
func (r *sgRepo) show(id string) map[string]any {
	r.t.Helper()
	cmd := exec.Command(filepath.Join(sgBin, "sessiongate"), "session", "show", "--json", id)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), r.env...)
	out, err := cmd.Output()
	if err != nil {
		r.t.Fatalf("session show %s: %v\n%s", id, err, out)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		r.t.Fatalf("session show %s: %v\n%s", id, err, out)
	}
	return m
}

// claude runs the real Claude Code in the repository with sessiongate on
// PATH and the repository's database.
func (r *sgRepo) claude(prompt string, opts agenttest.ClaudeOptions) agenttest.ClaudeResult {
	r.t.Helper()
	opts.Env = append(append([]string{}, r.env...), opts.Env...)
	// On failure, show what the agent told the model at each turn.
	r.t.Cleanup(func() {
		if r.t.Failed() {
			for i, req := range opts.Server.Conversation() {
				r.t.Logf("request %d (after turn %d): %.600s", i+1, i, req.NewText())
			}
		}
	})
	res := agenttest.RunClaude(r.t, r.dir, prompt, opts)
	r.t.Logf("claude run: %s, %d turns, exit %d, result %q", res.Elapsed, res.NumTurns, res.ExitCode, res.Result)
	return res
}

// sessionIDRe finds the session id in a session_start result.
var sessionIDRe = regexp.MustCompile(`session_id\W+([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`)

// sessionScript builds scripted turns that need the sessiongate session id,
// which the model learns from the session_start tool result.
type sessionScript struct {
	id string
}

// start is a turn that calls session_start through MCP.
func (s *sessionScript) start(objective string) agenttest.Turn {
	return agenttest.Use("mcp__sessiongate__session_start", map[string]any{"objective": objective})
}

// use is a tool call whose input is built with the session id, read from
// the session_start result in the conversation so far.
func (s *sessionScript) use(tool string, input func(id string) map[string]any) agenttest.Turn {
	return agenttest.React(func(req agenttest.Request) agenttest.Turn {
		if s.id == "" {
			for _, res := range req.ToolResults("mcp__sessiongate__session_start") {
				if m := sessionIDRe.FindStringSubmatch(res); m != nil {
					s.id = m[1]
				}
			}
		}
		return agenttest.Use(tool, input(s.id))
	})
}
