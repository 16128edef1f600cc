package logfacts_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/logfacts"
)

// TestCommitsNone: the shapes of a commits section that says nothing was
// committed, and the ones that do not.
func TestCommitsNone(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		line      int // 0: no claim
	}{
		{"fixture shape", "# S\n\n### Commits This Session\n\nNone - Work did not progress beyond planning\n", 5},
		{"h2 commits N/A", "## Commits\n\n- N/A\n", 3},
		{"bold label", "- **Commits**: none\n", 1},
		{"no commits words", "## Commits Made\n\nNo commits yet.\n", 3},
		{"lists a sha", "### Commits This Session\n\n- `abc1234` - feat: x\n", 0},
		{"none then a sha", "## Commits\n\nNone before the fix; then 1234abcd.\n", 0},
		{"template placeholder", "### Commits This Session\n\n- `[SHA]` - [message]\n", 0},
		{"none inside code", "```\n## Commits\n\nNone\n```\n", 0},
		{"another heading", "## Commit all changes\n\nNone\n", 0},
		{"nonexistent is not none", "## Commits\n\nnonexistent yet\n", 0},
		{"empty section", "## Commits\n\n## Next\n\nNone\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln, _, ok := logfacts.CommitsNone([]byte(tc.log))
			if ok != (tc.line != 0) || ln != tc.line {
				t.Fatalf("CommitsNone = %d, %v; want line %d", ln, ok, tc.line)
			}
		})
	}
}

// TestAbandoned: a claim about this session, not an earlier one's.
func TestAbandoned(t *testing.T) {
	for _, tc := range []struct {
		log  string
		want bool
	}{
		{"> **Note**: This session was abandoned on 2025-12-26.\n", true},
		{"N/A - Session abandoned\n", true},
		{"**Status**: ABANDONED - Session interrupted\n", false},
		{"The previous session was abandoned; this one finishes it.\n", false},
		{"```\nsession abandoned\n```\n", false},
		{"Nothing was abandoned.\n", false},
	} {
		if _, _, ok := logfacts.Abandoned([]byte(tc.log)); ok != tc.want {
			t.Errorf("Abandoned(%q) = %v, want %v", tc.log, ok, tc.want)
		}
	}
}

// TestNames: a path, a base name as a word, or a commit id prefix names
// the session; a longer name holding the base name does not.
func TestNames(t *testing.T) {
	own := []string{"0123456789abcdef0123456789abcdef01234567"}
	changed := []string{"scripts/greet.sh", ".agents/planning/PROJECT-PLAN.md"}
	for _, tc := range []struct {
		log  string
		want bool
	}{
		{"- `scripts/greet.sh` - takes a name\n", true},
		{"Changed greet.sh.\n", true},
		{"Commit 0123456 done\n", true},
		{"Commit 012345 (six digits)\n", false},
		{"Update enhancement-PROJECT-PLAN.md\n", false},
		{"Update PROJECT-PLAN.md\n", true},
		{"Read HANDOFF.md, wrote nothing.\n", false},
		{"greet.shell is another file\n", false},
	} {
		if got := logfacts.Names([]byte(tc.log), changed, own); got != tc.want {
			t.Errorf("Names(%q) = %v, want %v", tc.log, got, tc.want)
		}
	}
}

// TestCheckAgainstGit: "None" is judged against when the log was last
// written. An honest "None" committed with the code in one commit passes;
// the same log after a separate code commit, or uncommitted after it,
// does not; a log naming nothing of the session does not.
func TestCheckAgainstGit(t *testing.T) {
	ctx := context.Background()
	const log = ".agents/sessions/2026-12-07-session-01.md"
	none := "# Session 01\n\n## Work Log\n\n- `scripts/greet.sh`: takes a name\n\n### Commits This Session\n\nNone\n"
	setup := func(t *testing.T) (string, string) {
		dir := gittest.New(t, nil)
		return dir, gittest.Git(t, dir, "rev-parse", "HEAD")
	}
	judge := func(t *testing.T, dir, start, text string, changed ...string) *logfacts.Finding {
		t.Helper()
		own := strings.Fields(gittest.Git(t, dir, "rev-list", "HEAD", "--not", start))
		f, err := logfacts.Check(ctx, logfacts.Session{Root: dir, Start: start, Own: own, Changed: changed}, log, []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}

	t.Run("honest one commit", func(t *testing.T) {
		dir, start := setup(t)
		gittest.Commit(t, dir, "feat: greet", map[string]string{"scripts/greet.sh": "echo hi\n", log: none})
		if f := judge(t, dir, start, none, "scripts/greet.sh"); f != nil {
			t.Fatalf("honest None in the code's commit: %+v", f)
		}
	})
	t.Run("none after a code commit", func(t *testing.T) {
		dir, start := setup(t)
		code := gittest.Commit(t, dir, "feat: greet", map[string]string{"scripts/greet.sh": "echo hi\n"})
		gittest.Commit(t, dir, "docs: log", map[string]string{log: none})
		f := judge(t, dir, start, none, "scripts/greet.sh")
		if f == nil || f.Line != 9 || !strings.Contains(f.Msg, code[:7]) {
			t.Fatalf("None written after commit %s: %+v, want line 9 naming it", code[:7], f)
		}
	})
	t.Run("none uncommitted after a code commit", func(t *testing.T) {
		dir, start := setup(t)
		gittest.Commit(t, dir, "feat: greet", map[string]string{"scripts/greet.sh": "echo hi\n"})
		gittest.Write(t, dir, log, none)
		if f := judge(t, dir, start, none, "scripts/greet.sh"); f == nil {
			t.Fatal("uncommitted None after a commit passed")
		}
	})
	t.Run("no commit yet", func(t *testing.T) {
		dir, start := setup(t)
		gittest.Write(t, dir, log, none)
		if f := judge(t, dir, start, none, "scripts/greet.sh"); f != nil {
			t.Fatalf("None before any commit: %+v", f)
		}
	})
	t.Run("names nothing of the session", func(t *testing.T) {
		dir, start := setup(t)
		text := "# Session 01\n\n## Work Log\n\nPlanned issue 357.\n\n### Commits This Session\n\n- see git log\n"
		gittest.Commit(t, dir, "feat: greet", map[string]string{"scripts/greet.sh": "echo hi\n", log: text})
		f := judge(t, dir, start, text, "scripts/greet.sh")
		if f == nil || f.Line != 3 || !strings.Contains(f.Msg, "scripts/greet.sh") {
			t.Fatalf("a log naming nothing of the session: %+v, want line 3 naming scripts/greet.sh", f)
		}
	})
}

// TestFixtureLogCopied: the fixtures' real session 91 log, sed-edited as
// helper 353's lazy agent did, contradicts a session that committed code.
func TestFixtureLogCopied(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "shared", "fixtures", "ai-agents", "session-log_canonical-md_2025-12-26-session-91_at-4a00fca3b.md"))
	if err != nil {
		t.Skipf("fixtures not here: %v", err)
	}
	text := strings.NewReplacer("2025-12-26", "2026-12-07", "feat/issue-357-quality-gate-improvements", "feat/greet-name", "48f1900", "1a2b3c4").Replace(string(b))
	if _, _, ok := logfacts.Abandoned([]byte(text)); !ok {
		t.Error("the fixture's abandoned note not found")
	}
	if _, _, ok := logfacts.CommitsNone([]byte(text)); !ok {
		t.Error("the fixture's Commits This Session: None not found")
	}
	if logfacts.Names([]byte(text), []string{"scripts/greet.sh", ".agents/qa/2026-12-07-greet.md"}, []string{"0123456789abcdef0123456789abcdef01234567"}) {
		t.Error("the fixture log names this session's files")
	}
}
