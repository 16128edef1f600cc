package agenthook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/testbin"
	"github.com/sessiongate/sessiongate/internal/testshare"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// binary is sessiongate built once for the package's tests: every test
// runs the real `sessiongate agent-hook` process with a payload on stdin.
var binary string

func TestMain(m *testing.M) {
	testshare.Apply()
	// A temp folder of the package's own, removed at the end; a leak
	// fails CI (tmpleak).
	os.Exit(tmpleak.Run(func() int {
		code, err := buildAndRun(m)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return code
	}))
}

func buildAndRun(m *testing.M) (int, error) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			return 1, fmt.Errorf("git is required under CI=true: %w", err)
		}
		fmt.Fprintln(os.Stderr, "agenthook tests skipped: git not found")
		return 0, nil
	}
	dir, err := os.MkdirTemp("", "sessiongate-bin-")
	if err != nil {
		return 1, err
	}
	defer os.RemoveAll(dir)
	binary = filepath.Join(dir, "sessiongate")
	if err := testbin.Build(binary, "../cmd/sessiongate", nil); err != nil {
		return 1, err
	}
	return m.Run(), nil
}

// testProtocol: two start gates (one BLOCKING), and an end protocol whose
// QA phase runs `sh test.sh` and demands tool_output evidence.
const testProtocol = `# Protocol

## Session Start

### Phase 1: Context Retrieval (BLOCKING)

<!-- gate: evidence tool_output -->

1. The agent MUST read the notes.

## Session End

### Phase 1: QA Validation (BLOCKING)

<!-- gate: command "sh test.sh" -->

1. The agent MUST run ` + "`sh test.sh`" + `.
`

type repo struct {
	t    testing.TB
	root string
	env  []string
}

func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || strings.HasPrefix(k, "SESSIONGATE_") || strings.HasPrefix(k, "CLAUDE_") || strings.HasPrefix(k, "GEMINI_") ||
			k == "CLAUDECODE" || strings.HasPrefix(k, "CODEX_") || strings.HasPrefix(k, "COPILOT_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

func newRepo(t testing.TB, config string) *repo {
	t.Helper()
	base := t.TempDir()
	r := &repo{t: t, root: filepath.Join(base, "work")}
	home := filepath.Join(base, "home")
	gitconfig := filepath.Join(home, ".gitconfig")
	writeFile(t, gitconfig, "[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n")
	r.env = append(cleanEnv(), "GIT_CONFIG_GLOBAL="+gitconfig, "GIT_CONFIG_NOSYSTEM=1", "HOME="+home)
	if err := os.MkdirAll(r.root, 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("init", "-q", "-b", "main")
	writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), testProtocol)
	writeFile(t, filepath.Join(r.root, "test.sh"), "echo tests ok\n")
	if config != "" {
		writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), config)
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "initial")
	r.root = r.git("rev-parse", "--show-toplevel")
	// A go command run with the test's HOME and no GOCACHE builds the
	// standard library into home/.cache/go-build from nothing: ~10 CPU s
	// each time (TestRunsNothingAtTheHook, serial, held the package that
	// long). A run of the real toolchain passes goCacheEnv.
	t.Cleanup(func() {
		if p := compiledInto(filepath.Join(home, ".cache", "go-build")); p != "" {
			t.Errorf("a go command compiled into the test's HOME (%s): give it goCacheEnv(t)", p)
		}
	})
	return r
}

// compiledInto returns a compiled package's archive in the build cache
// dir ("" when none): entries start "!<arch>". The hook's own `go list`
// only writes the module index there, which is not compiling.
func compiledInto(dir string) string {
	found := ""
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || found != "" || !strings.HasSuffix(p, "-d") {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return nil
		}
		defer f.Close()
		head := make([]byte, 8)
		if n, _ := f.Read(head); n == 8 && string(head) == "!<arch>\n" {
			found = p
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// goCacheEnv is GOCACHE=<the user's build cache>, for a real go command
// run under a test's own HOME: the standard library is compiled once,
// not per test. It changes no result (the runs say -count=1).
func goCacheEnv(t testing.TB) string {
	t.Helper()
	goCacheOnce.Do(func() {
		out, err := exec.Command("go", "env", "GOCACHE").Output()
		goCache, goCacheErr = strings.TrimSpace(string(out)), err
	})
	if goCacheErr != nil || goCache == "" {
		t.Fatalf("go env GOCACHE: %q %v", goCache, goCacheErr)
	}
	return "GOCACHE=" + goCache
}

var (
	goCacheOnce sync.Once
	goCache     string
	goCacheErr  error
)

func writeFile(t testing.TB, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

type result struct {
	out, err string
	code     int
	took     time.Duration
}

func (r *repo) run(dir string, stdin []byte, env []string, name string, args ...string) result {
	r.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string{}, r.env...), env...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := result{out: stdout.String(), err: stderr.String(), took: time.Since(start)}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			r.t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
		}
		res.code = ee.ExitCode()
	}
	return res
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	res := r.run(r.root, nil, nil, "git", args...)
	if res.code != 0 {
		r.t.Fatalf("git %s: exit %d\n%s%s", strings.Join(args, " "), res.code, res.out, res.err)
	}
	return strings.TrimSpace(res.out)
}

func (r *repo) sg(args ...string) string {
	r.t.Helper()
	res := r.run(r.root, nil, nil, binary, args...)
	if res.code != 0 {
		r.t.Fatalf("sessiongate %s: exit %d\n%s%s", strings.Join(args, " "), res.code, res.out, res.err)
	}
	return res.out
}

// hook runs `sessiongate agent-hook agent event` with payload on stdin and
// checks what every run must do: exit 0 and exactly one JSON object on
// stdout, which it returns decoded.
func (r *repo) hook(agent, event string, payload any, env ...string) (map[string]any, result) {
	r.t.Helper()
	var in []byte
	switch p := payload.(type) {
	case []byte:
		in = p
	case string:
		in = []byte(p)
	default:
		var err error
		if in, err = json.Marshal(p); err != nil {
			r.t.Fatal(err)
		}
	}
	res := r.run(r.root, in, env, binary, "agent-hook", agent, event)
	if res.code != 0 {
		r.t.Fatalf("agent-hook %s %s: exit %d, want 0\nstdout: %s\nstderr: %s", agent, event, res.code, res.out, res.err)
	}
	return decodeOne(r.t, res), res
}

// decodeOne decodes stdout as exactly one JSON object and a newline.
func decodeOne(t testing.TB, res result) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(res.out))
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("stdout is not one JSON object (%v): %q\nstderr: %s", err, res.out, res.err)
	}
	if dec.More() || strings.TrimSpace(res.out[dec.InputOffset():]) != "" {
		t.Fatalf("stdout has more than one JSON object: %q", res.out)
	}
	return m
}

// db opens the repository's database (the real SQLite store).
func (r *repo) db() *store.DB {
	r.t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(r.root, ".git", "sessiongate", "sessiongate.db"))
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { db.Close() })
	return db
}

// active returns the worktree's active session.
func (r *repo) active() *session.Session {
	r.t.Helper()
	db := r.db()
	ctx := context.Background()
	repo, err := db.RepositoryByRoot(ctx, r.root)
	if err != nil {
		r.t.Fatal(err)
	}
	s, err := db.ActiveSession(ctx, repo.ID, r.root)
	if err != nil {
		r.t.Fatal(err)
	}
	return s
}

// path reads a nested value: path(m, "hookSpecificOutput", "additionalContext").
func path(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}

func pathStr(m map[string]any, keys ...string) string {
	s, _ := path(m, keys...).(string)
	return s
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
