package agenttest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
	t   testing.TB
	dir string
	env []string // PATH with sessiongate first, SESSIONGATE_DB
	// earlier lists sessions a test ran by hand before the agent's
	// (onlySession leaves them out).
	earlier []string
}

// newSGRepo makes the repository, writes protocol (`sessiongate init`'s
// starter protocol and config when empty) and config (when not empty),
// commits them and runs install with extra install args (none when nil).
func newSGRepo(t testing.TB, protocol, config string, install ...string) *sgRepo {
	t.Helper()
	r := &sgRepo{t: t, dir: gitRepo(t)}
	r.env = []string{agenttest.PrependPath(sgBin), "SESSIONGATE_DB=" + filepath.Join(t.TempDir(), "sessiongate.db")}
	if protocol == "" {
		// The starter protocol and config, as a new user gets them.
		if out, code := r.sg("init"); code != 0 {
			t.Fatalf("sessiongate init: exit %d\n%s", code, out)
		}
	} else {
		r.write("SESSION-PROTOCOL.md", protocol)
	}
	if config != "" {
		r.write("sessiongate.yaml", config)
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "protocol")
	if install != nil {
		r.install(install...)
	}
	return r
}

// install runs `sessiongate install` with args.
func (r *sgRepo) install(args ...string) {
	r.t.Helper()
	if out, code := r.sg(append([]string{"install"}, args...)...); code != 0 {
		r.t.Fatalf("sessiongate install %v: exit %d\n%s", args, code, out)
	}
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

// storedToken reports whether a session of the repository holds an event
// with token. It never fails the test: it is polled from a goroutine
// (ClaudeOptions.Interrupt), and a read that fails answers false.
func (r *sgRepo) storedToken(token string) bool {
	run := func(args ...string) []byte {
		cmd := exec.Command(filepath.Join(sgBin, "sessiongate"), args...)
		cmd.Dir = r.dir
		cmd.Env = append(os.Environ(), r.env...)
		out, _ := cmd.Output()
		return out
	}
	var list []struct{ ID string }
	if json.Unmarshal(run("session", "list", "--json"), &list) != nil {
		return false
	}
	for _, s := range list {
		var show struct{ Events []struct{ Token string } }
		if json.Unmarshal(run("session", "show", "--json", s.ID), &show) != nil {
			continue
		}
		for _, e := range show.Events {
			if e.Token == token {
				return true
			}
		}
	}
	return false
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
				r.t.Logf("request %d, answering turn %d's tool call: %.1200s", i, i-1, req.NewText())
			}
		}
	})
	res := agenttest.RunClaude(r.t, r.dir, prompt, opts)
	r.t.Logf("claude run: %s, %d turns, exit %d, result %q", res.Elapsed, res.NumTurns, res.ExitCode, res.Result)
	return res
}

// sessionIDRe finds the session id in a session_start result;
// hookSessionRe in the context the SessionStart agent hook injects.
var (
	sessionIDRe   = regexp.MustCompile(`session_id\W+([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`)
	hookSessionRe = regexp.MustCompile(`sessiongate: session ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}) (started|resumed)`)
)

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
// the session_start result in the conversation so far, else from the
// SessionStart hook's context.
func (s *sessionScript) use(tool string, input func(id string) map[string]any) agenttest.Turn {
	return agenttest.React(func(req agenttest.Request) agenttest.Turn {
		if s.id == "" {
			for _, res := range req.ToolResults("mcp__sessiongate__session_start") {
				if m := sessionIDRe.FindStringSubmatch(res); m != nil {
					s.id = m[1]
				}
			}
			if m := hookSessionRe.FindStringSubmatch(req.AllText()); s.id == "" && m != nil {
				s.id = m[1]
			}
		}
		return agenttest.Use(tool, input(s.id))
	})
}

// requireCleanSession fails the test when an honest session recorded any
// violation or any failed gate: a phase FAILED or FORCED, or a check that
// FAILed inside a phase shown as passed or skipped (issue 25's false FAILs
// on honest sessions). It reads `session show --json`, the store's record.
func requireCleanSession(t testing.TB, show map[string]any) {
	t.Helper()
	if v, _ := show["violations"].([]any); len(v) != 0 {
		t.Errorf("honest session recorded %d violation(s): %v", len(v), v)
	}
	phases, _ := show["phase_results"].([]any)
	for _, p := range phases {
		m, _ := p.(map[string]any)
		if st := fmt.Sprint(m["status"]); st == "FAILED" || st == "FORCED" {
			t.Errorf("honest session recorded phase %v %s: %v", m["phase_id"], st, m["message"])
		}
		checks, _ := m["checks"].([]any)
		for _, c := range checks {
			if cm, _ := c.(map[string]any); fmt.Sprint(cm["status"]) == "FAIL" {
				t.Errorf("honest session recorded a FAIL check in phase %v (%v): %v", m["phase_id"], m["status"], cm["message"])
			}
		}
	}
}
