package hooks_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/internal/testbin"

	"github.com/sessiongate/sessiongate/internal/testshare"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

var update = flag.Bool("update", false, "rewrite golden files")

// binary is sessiongate built once for the package's tests.
var binary string

func TestMain(m *testing.M) {
	flag.Parse()
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
		fmt.Fprintln(os.Stderr, "hooks tests skipped: git not found")
		return 0, nil
	}
	dir, err := os.MkdirTemp("", "sessiongate-bin-")
	if err != nil {
		return 1, err
	}
	defer os.RemoveAll(dir)
	binary = filepath.Join(dir, "sessiongate")
	// -trimpath with CGO_ENABLED=0: internal/release's flags, so the release
	// test's build of the same tree finds every package compiled here in the
	// build cache (one compile of the dependencies, not two). CI builds the
	// binary once so (.ci/run) and names it in SESSIONGATE_TEST_BINARY.
	if err := testbin.Build(binary, "../cmd/sessiongate", []string{"CGO_ENABLED=0"}, "-trimpath"); err != nil {
		return 1, err
	}
	return m.Run(), nil
}

// requireTool skips a test without a tool locally and fails it under CI.
func requireTool(t *testing.T, name, why string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is required under CI=true (%s): %v", name, why, err)
		}
		t.Skipf("%s not found: install it to run this test (%s)", name, why)
	}
	return p
}

// repo is a real git repository in t.TempDir() with sessiongate's files.
type repo struct {
	t    testing.TB
	root string
	home string // holds the global git config
	env  []string
	keys string // ssh signing keys (TestAcceptSignedCommit)
}

// cleanEnv is the test process's environment without anything that would
// leak into the repositories under test.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || strings.HasPrefix(k, "SESSIONGATE_") || strings.HasPrefix(k, "PRE_COMMIT") || slices.Contains(ancestry.EnvNames(), k) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

const testConfig = `require_session: true
hooks:
  pre-commit: []
  pre-push: [QA_VALIDATION]
fail_mode: closed
bypass_env: SESSIONGATE_BYPASS
`

// testProtocol: one BLOCKING start gate; a pre-commit check that records
// the staged *.txt files and fails when one holds FORBIDDEN; QA at the end.
const testProtocol = `# Protocol

## Session Start

### Phase 1: Context Retrieval (BLOCKING)

<!-- gate: evidence tool_output -->

1. The agent MUST read the notes.

## Session End

### Phase 1: Quality Checks (REQUIRED)

<!-- gate: command "sh check-staged.sh {staged:*.txt}" hooks=pre-commit -->

1. The agent MUST NOT commit forbidden words.

### Phase 2: QA Validation (BLOCKING)

<!-- gate: evidence tool_output -->

1. The agent MUST run the tests.
`

// checkScript writes the staged list to $SG_STAGED_OUT (when set) and fails
// when a staged file holds FORBIDDEN.
const checkScript = `if [ -n "$SG_STAGED_OUT" ]; then printf '%s\n' "$@" > "$SG_STAGED_OUT"; fi
for f in "$@"; do
	if grep -q FORBIDDEN "$f"; then echo "$f holds FORBIDDEN"; exit 1; fi
done
`

// newRepo makes a repository with a config, protocol and first commit.
func newRepo(t testing.TB) *repo {
	t.Helper()
	base := t.TempDir()
	r := &repo{t: t, root: filepath.Join(base, "work"), home: filepath.Join(base, "home")}
	for _, d := range []string{r.root, r.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gitconfig := filepath.Join(r.home, ".gitconfig")
	// No background gc or maintenance: it would race t.TempDir's cleanup.
	writeFile(t, gitconfig, "[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n"+
		"[advice]\n\tdetachedHead = false\n[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n")
	r.env = append(cleanEnv(), "GIT_CONFIG_GLOBAL="+gitconfig, "GIT_CONFIG_NOSYSTEM=1")
	r.git("init", "-q", "-b", "main")
	writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), testConfig)
	writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), testProtocol)
	writeFile(t, filepath.Join(r.root, "check-staged.sh"), checkScript)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "initial")
	// The root as git reports it (symlinks resolved), which sessions record.
	r.root = r.git("rev-parse", "--show-toplevel")
	// From here git runs as a coding agent's (Claude Code sets CLAUDECODE
	// in its shells): the party the hooks police. A person's commit needs
	// no session (actor_test.go clears it with asPerson).
	r.env = append(r.env, "CLAUDECODE=1")
	return r
}

// asPerson makes the repository's git run as a person's: no agent
// variable in its environment. Under a coding agent (the test process's
// ancestry) a person cannot be had: the test skips.
func (r *repo) asPerson() {
	r.t.Helper()
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		r.t.Skipf("the test runs under the coding agent %s: every commit here is the agent's", p.Name)
	}
	agent := ancestry.EnvNames()
	r.env = slices.DeleteFunc(r.env, func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.Contains(agent, k)
	})
}

func writeFile(t testing.TB, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// result of a command.
type result struct {
	out, err string
	code     int
}

func (r *repo) run(dir string, extraEnv []string, name string, args ...string) result {
	r.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string{}, r.env...), extraEnv...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := result{out: stdout.String(), err: stderr.String()}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			r.t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
		}
		res.code = ee.ExitCode()
	}
	return res
}

// git runs git in the repository and fails the test on error.
func (r *repo) git(args ...string) string {
	r.t.Helper()
	return r.gitIn(r.root, args...)
}

func (r *repo) gitIn(dir string, args ...string) string {
	r.t.Helper()
	res := r.run(dir, nil, "git", args...)
	if res.code != 0 {
		r.t.Fatalf("git %s: exit %d\n%s%s", strings.Join(args, " "), res.code, res.out, res.err)
	}
	return strings.TrimSpace(res.out)
}

// sg runs the sessiongate binary and fails the test on a nonzero exit.
func (r *repo) sg(dir string, args ...string) string {
	r.t.Helper()
	res := r.run(dir, nil, binary, args...)
	if res.code != 0 {
		r.t.Fatalf("sessiongate %s: exit %d\n%s%s", strings.Join(args, " "), res.code, res.out, res.err)
	}
	return res.out
}

// commit runs git commit and returns its result (hooks may refuse it).
func (r *repo) commit(dir string, env []string, args ...string) result {
	r.t.Helper()
	return r.run(dir, env, "git", append([]string{"commit"}, args...)...)
}

func (r *repo) head(dir string) string {
	r.t.Helper()
	return r.gitIn(dir, "rev-parse", "HEAD")
}

// startWorking starts a session in dir and passes its start gate.
func (r *repo) startWorking(dir string) string {
	r.t.Helper()
	out := r.sg(dir, "session", "start", "--objective", "test the hooks")
	id := ""
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, "export SESSIONGATE_SESSION="); ok {
			id = v
		}
	}
	if id == "" {
		r.t.Fatalf("no session id in %q", out)
	}
	r.sg(dir, "session", "evidence", "--session", id, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read the notes")
	r.sg(dir, "session", "advance", "--session", id, "--to", "WORKING")
	return id
}
