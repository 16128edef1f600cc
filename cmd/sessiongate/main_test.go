package main

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sg runs the CLI in-process and returns the exit code and outputs.
func sg(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// repoDir makes a real repository with one commit and chdirs into it.
func repoDir(t *testing.T) string {
	t.Helper()
	dir := newRepoDir(t)
	t.Chdir(dir)
	t.Setenv("SESSIONGATE_DB", "")
	t.Setenv("SESSIONGATE_PROTOCOL", "")
	t.Setenv("SESSIONGATE_SESSION", "")
	return dir
}

// newRepoDir makes a real repository with one commit and stays where it
// is: a test that runs only the real binary (cmd.Dir, sgEnv) can call
// t.Parallel, which t.Chdir and t.Setenv forbid.
func newRepoDir(t *testing.T) string {
	t.Helper()
	gittest.Require(t)
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"commit", "-q", "--allow-empty", "-m", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return dir
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "fixtures", "ai-agents", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("fixture %s missing under CI=true: %v", p, err)
		}
		t.Skipf("fixture %s not found (../shared beside the repository): %v", p, err)
	}
	return p
}

func TestUsageErrorsExit2(t *testing.T) {
	cases := [][]string{
		{"--no-such-flag"},
		{"protocol", "show", "a", "b"},
		{"session", "show"},
		{"protocol", "show", "/nonexistent/SESSION-PROTOCOL.md"},
	}
	for _, args := range cases {
		code, _, stderr := sg(t, "", args...)
		if code != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d stderr %q, want 2 with a message", args, code, stderr)
		}
	}
	if code, out, _ := sg(t, "", "version"); code != 0 || !strings.HasPrefix(out, "sessiongate ") {
		t.Errorf("version: %d %q", code, out)
	}
}

func TestProtocolShowJSONOnRealFixture(t *testing.T) {
	p := fixture(t, "SESSION-PROTOCOL_2025-12-22_3821367d2.md")
	code, out, stderr := sg(t, "", "protocol", "show", "--json", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var spec struct {
		Phases []struct {
			ID, Section, Number, Title, Gate, Condition string
			Line                                        int
			Requirements                                []map[string]any
			Checklist                                   []map[string]any
			Checks                                      []map[string]any
		}
		Checklists []map[string]any
		Warnings   []map[string]any
		SHA256     string
	}
	if err := json.Unmarshal([]byte(out), &spec); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range spec.Phases {
		got = append(got, p.Section+":"+p.Number+":"+p.Gate)
	}
	want := "start:1:BLOCKING start:2:BLOCKING start:1.5:BLOCKING start:3:REQUIRED start:4:RECOMMENDED end:1:REQUIRED end:2:REQUIRED end:2.5:BLOCKING end:3:REQUIRED end:4:RECOMMENDED"
	if strings.Join(got, " ") != want {
		t.Fatalf("phases %s\nwant   %s", strings.Join(got, " "), want)
	}
	if len(spec.SHA256) != 64 || len(spec.Checklists) != 2 || len(spec.Warnings) == 0 {
		t.Fatalf("sha %q checklists %d warnings %d", spec.SHA256, len(spec.Checklists), len(spec.Warnings))
	}
	// Human output names the phases too.
	code, out, _ = sg(t, "", "protocol", "show", p)
	if code != 0 || !strings.Contains(out, "QA_VALIDATION") || !strings.Contains(out, "1.5 Skill Validation") {
		t.Fatalf("table output: %s", out)
	}
}

func TestProtocolLint(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.md")
	os.WriteFile(bad, []byte("# P\n\n## Session Start\n\n### Phase 1: A (BLOCKING)\n\n<!-- gate: file_exists -->\n"), 0o644)
	code, _, stderr := sg(t, "", "protocol", "lint", bad)
	if code != exitBlocked || !strings.Contains(stderr, "bad.md:7:") {
		t.Fatalf("lint bad: exit %d stderr %q", code, stderr)
	}
	good := filepath.Join(dir, "good.md")
	os.WriteFile(good, starterProtocol, 0o644)
	code, out, _ := sg(t, "", "protocol", "lint", good)
	if code != 0 || !strings.Contains(out, "gate coverage:") {
		t.Fatalf("lint good: exit %d out %q", code, out)
	}
}

func TestInitRefusesOverwrite(t *testing.T) {
	dir := repoDir(t)
	if code, _, stderr := sg(t, "", "init"); code != 0 {
		t.Fatalf("init: %d %s", code, stderr)
	}
	os.WriteFile(filepath.Join(dir, "SESSION-PROTOCOL.md"), []byte("mine"), 0o644)
	code, _, stderr := sg(t, "", "init")
	if code != exitUsage || !strings.Contains(stderr, "already exists") {
		t.Fatalf("second init: %d %q", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "SESSION-PROTOCOL.md")); string(b) != "mine" {
		t.Fatal("init overwrote the protocol")
	}
}

func TestSessionCLI(t *testing.T) {
	dir := repoDir(t)
	if code, _, stderr := sg(t, "", "init"); code != 0 {
		t.Fatal(stderr)
	}
	// No session yet: acting on "the active session" is a usage error.
	if code, _, stderr := sg(t, "", "session", "advance"); code != exitUsage || !strings.Contains(stderr, "session start") {
		t.Fatalf("advance without session: %d %q", code, stderr)
	}
	code, out, stderr := sg(t, "", "session", "start", "--objective", "cli test", "--json")
	if code != 0 {
		t.Fatalf("start: %d %s", code, stderr)
	}
	var st struct {
		SessionID string `json:"session_id"`
		Phase     string
	}
	json.Unmarshal([]byte(out), &st)
	if st.Phase != "CONTEXT_RETRIEVAL" {
		t.Fatalf("start output %s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "sessiongate", "sessiongate.db")); err != nil {
		t.Fatalf("default database not created: %v", err)
	}
	// Blocked advance exits 1 and says why.
	code, _, stderr = sg(t, "", "session", "advance")
	if code != exitBlocked || !strings.Contains(stderr, "CONTEXT_RETRIEVAL") {
		t.Fatalf("blocked advance: %d %q", code, stderr)
	}
	if code, _, _ = sg(t, "", "session", "gate"); code != exitBlocked {
		t.Fatalf("failing gate exit %d", code)
	}
	// Evidence from stdin, then the advance passes.
	if code, _, stderr = sg(t, "read the README", "session", "evidence", "--type", "tool_output", "--value", "-"); code != 0 {
		t.Fatalf("evidence: %d %s", code, stderr)
	}
	if code, out, stderr = sg(t, "", "session", "advance"); code != 0 || !strings.Contains(out, "CONTEXT_RETRIEVAL -> GIT_STATE") {
		t.Fatalf("advance: %d %s %s", code, out, stderr)
	}
	if code, out, _ = sg(t, "", "session", "status", "--session", st.SessionID); code != 0 || !strings.Contains(out, "GIT_STATE") {
		t.Fatalf("status: %d %s", code, out)
	}
	if code, _, stderr = sg(t, "", "session", "status", "--session", "not-a-uuid"); code != exitUsage || !strings.Contains(stderr, "invalid session id") {
		t.Fatalf("bad id: %d %q", code, stderr)
	}
	if code, out, _ = sg(t, "", "session", "list", "--json"); code != 0 || !strings.Contains(out, st.SessionID) {
		t.Fatalf("list: %d %s", code, out)
	}
	// A refusal by a sequence rule is a block (1), not a usage error.
	if code, _, stderr = sg(t, "", "session", "advance", "--force", "--reason", "a"); code != 0 {
		t.Fatalf("first force: %d %s", code, stderr)
	}
	if code, _, stderr = sg(t, "", "session", "advance", "--force", "--reason", "b"); code != exitBlocked || !strings.Contains(stderr, "repeated-forced-advance") {
		t.Fatalf("second force: %d %q", code, stderr)
	}
	if code, _, _ = sg(t, "", "session", "delete", st.SessionID); code != exitUsage {
		t.Fatalf("delete without --yes: %d", code)
	}
	if code, _, _ = sg(t, "", "session", "terminate", st.SessionID, "--reason", "done testing"); code != 0 {
		t.Fatalf("terminate: %d", code)
	}
	if code, out, _ = sg(t, "", "session", "show", st.SessionID, "--json"); code != 0 || !strings.Contains(out, "session:terminated") {
		t.Fatalf("show: %d %s", code, out)
	}
	// The session forced a gate: a plain delete would erase that violation.
	if code, _, stderr = sg(t, "", "session", "delete", st.SessionID, "--yes"); code != exitBlocked || !strings.Contains(stderr, "terminate keeps them") {
		t.Fatalf("delete of a session with violations: %d %q", code, stderr)
	}
	if _, under := ancestry.Agent(ancestry.Chain()); under {
		t.Skip("delete --erase-violations is refused under a coding agent, which runs this test")
	}
	if code, _, stderr = sg(t, "", "session", "delete", st.SessionID, "--yes", "--erase-violations"); code != 0 {
		t.Fatalf("delete: %d %s", code, stderr)
	}
	if code, _, _ = sg(t, "", "session", "show", st.SessionID); code != exitUsage {
		t.Fatalf("show deleted: %d", code)
	}
}

func TestUnusableDatabaseExit2(t *testing.T) {
	repoDir(t)
	sg(t, "", "init")
	notDB := filepath.Join(t.TempDir(), "junk.db")
	os.WriteFile(notDB, bytes.Repeat([]byte("not a database "), 100), 0o600)
	code, _, stderr := sg(t, "", "--db", notDB, "session", "list")
	if code != exitUsage || !strings.Contains(stderr, "junk.db") {
		t.Fatalf("junk db: exit %d %q", code, stderr)
	}
	if b, _ := os.ReadFile(notDB); !bytes.HasPrefix(b, []byte("not a database")) {
		t.Fatal("the unusable file was modified")
	}
}

func TestDemo(t *testing.T) {
	gittest.Require(t)
	code, out, stderr := sg(t, "", "demo")
	if code != 0 {
		t.Fatalf("demo: %d %s", code, stderr)
	}
	for _, want := range []string{"advanced=false", "FORCED_ADVANCE", "refused by sequence rule end-after-forced-blocking-gate", "COMPLETE"} {
		if !strings.Contains(out, want) {
			t.Fatalf("demo output lacks %q:\n%s", want, out)
		}
	}
}

func TestSnapshotCommands(t *testing.T) {
	_, a, _ := sg(t, `{"b": [1, 2.0], "a": "x"}`, "snapshot", "id")
	_, b, _ := sg(t, "{\"a\":\"x\",\"b\":[1,2]}\n", "snapshot", "id")
	if a != b || !strings.HasPrefix(a, "sha256:") || len(strings.TrimSpace(a)) != 71 {
		t.Fatalf("ids %q %q", a, b)
	}
	if code, _, stderr := sg(t, `{"a":`, "snapshot", "id"); code != exitUsage || !strings.Contains(stderr, "stdin") {
		t.Fatalf("bad JSON: %d %q", code, stderr)
	}
	repoDir(t)
	sg(t, "", "init")
	_, out, _ := sg(t, "", "session", "start", "--objective", "export", "--json")
	var st struct {
		SessionID string `json:"session_id"`
	}
	json.Unmarshal([]byte(out), &st)
	code, out, stderr := sg(t, "", "snapshot", "export", st.SessionID)
	if code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	var env map[string]any
	if err := json.Unmarshal([]byte(out), &env); err != nil || env["schema_version"] != "session_state_window_v1" {
		t.Fatalf("envelope %s", out)
	}
}

// TestHookTakesDBFlag: the hook command passes git's arguments through
// untouched but still honours sessiongate's own --db before the hook name.
func TestHookTakesDBFlag(t *testing.T) {
	dir := repoDir(t)
	os.WriteFile(filepath.Join(dir, "sessiongate.yaml"), []byte("require_session: true\n"), 0o644)
	t.Setenv("CLAUDECODE", "1") // an agent's commit: a person's needs no session
	for i, args := range [][]string{
		{"--db", filepath.Join(dir, "a.db"), "hook", "pre-commit"},
		{"hook", "--db=" + filepath.Join(dir, "b.db"), "pre-commit"},
	} {
		code, _, stderr := sg(t, "", args...)
		if code != exitBlocked || !strings.Contains(stderr, "require_session") {
			t.Fatalf("%v: exit %d %q", args, code, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, []string{"a.db", "b.db"}[i])); err != nil {
			t.Fatalf("%v: the named database was not used: %v", args, err)
		}
	}
	if code, _, stderr := sg(t, "", "hook", "--bogus", "pre-commit"); code != exitUsage || !strings.Contains(stderr, "--bogus") {
		t.Fatalf("unknown flag: %d %q", code, stderr)
	}
}

// TestSessionStartSaysSuperseded: a second `session start` while a session
// is active in the worktree replaces it (the first becomes ABANDONED, as
// the MCP tool and the agent hooks rely on); the CLI said nothing of it
// (issue 25 field pass). It now names the first session, where it was and
// what became of it, on stderr; a start with no active session says none
// of this.
func TestSessionStartSaysSuperseded(t *testing.T) {
	repoDir(t)
	if code, _, stderr := sg(t, "", "init"); code != 0 {
		t.Fatal(stderr)
	}
	code, out, stderr := sg(t, "", "session", "start", "--objective", "first", "--json")
	if code != 0 {
		t.Fatalf("first start: %d %s", code, stderr)
	}
	if strings.Contains(stderr, "ABANDONED") {
		t.Fatalf("a first start speaks of a superseded session: %s", stderr)
	}
	var first struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &first); err != nil || first.SessionID == "" {
		t.Fatalf("first start output %q: %v", out, err)
	}
	code, out, stderr = sg(t, "", "session", "start", "--objective", "second")
	if code != 0 {
		t.Fatalf("second start: %d %s", code, stderr)
	}
	for _, want := range []string{first.SessionID, "at CONTEXT_RETRIEVAL", "ABANDONED (superseded by", "session status"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("second start's stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(out, "ABANDONED") {
		t.Errorf("the notice went to stdout, which scripts read for the new session:\n%s", out)
	}
}
