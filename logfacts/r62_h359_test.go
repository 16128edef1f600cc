package logfacts_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/logfacts"
)

// TestR62H359ContinuedSessionAbandoned: an honest log that continues the
// session abandoned before it ("Continues the session abandoned on
// 2025-12-26", as the real team's session 91b did) or answers "Session
// abandoned? | No" says nothing of this session being abandoned (helper
// 359: both failed the session-log gate); the lazy claims still do.
func TestR62H359ContinuedSessionAbandoned(t *testing.T) {
	for _, tc := range []struct {
		log  string
		want bool
	}{
		// Honest.
		{"Continues the work of the session abandoned on 2025-12-26 (session 91).\n", false},
		{"Resumes the session abandoned yesterday.\n", false},
		{"Picked up from the planning session abandoned before implementation.\n", false},
		{"| Session abandoned? | No |\n", false},
		{"- **Session abandoned**: no\n", false},
		// Lazy twins.
		{"> **Note**: This session was abandoned on 2025-12-26 before completion.\n", true},
		{"N/A - Session abandoned\n", true},
		{"Continues nothing: this session was abandoned.\n", true},
		{"Work of this session abandoned before implementation.\n", true},
		{"| Session abandoned? | Yes |\n", true},
		{"No changes made - planning session abandoned before implementation\n", true},
	} {
		if _, _, ok := logfacts.Abandoned([]byte(tc.log)); ok != tc.want {
			t.Errorf("Abandoned(%q) = %v, want %v", tc.log, ok, tc.want)
		}
	}
}

// TestR62H359LogNamesFolder: an honest log of a one-commit session (which
// cannot name its own commit) that describes the files by their folder
// ("the greeting script in `scripts/`") names the session (helper 359: it
// failed the session-log gate as "not this session's log"). The protocol's
// own folders, named by every log its template makes, a part of a path or
// a folder named without its slash do not count.
func TestR62H359LogNamesFolder(t *testing.T) {
	ctx := context.Background()
	const log = ".agents/sessions/2026-12-07-session-01.md"
	honest := "# Session 01\n\n## Work Log\n\n- Added a name argument to the greeting script in `scripts/`.\n\n### Commits This Session\n\n- committed with this log\n"
	dir := gittest.New(t, nil)
	start := gittest.Git(t, dir, "rev-parse", "HEAD")
	gittest.Commit(t, dir, "feat: greet takes a name", map[string]string{"scripts/greet.sh": "echo \"Hello, $1\"\n", log: honest})
	own := strings.Fields(gittest.Git(t, dir, "rev-list", "HEAD", "--not", start))
	f, err := logfacts.Check(ctx, logfacts.Session{Root: dir, Start: start, Own: own, Changed: []string{"scripts/greet.sh"}}, log, []byte(honest))
	if err != nil {
		t.Fatal(err)
	}
	if f != nil {
		t.Fatalf("honest log naming the folder: %+v", f)
	}

	ps := []string{".claude/skills/github/scripts/New-Greeting.ps1"}
	for _, tc := range []struct {
		log     string
		changed []string
		want    bool
	}{
		{"- scripts/: greet takes a name\n", []string{"scripts/greet.sh"}, true},
		{"Updated `src/claude/` prompts.\n", []string{"src/claude/architect.md"}, true},
		// Lazy twins.
		{"| MUST | List skill scripts in `.claude/skills/github/scripts/` | [x] |\n", ps, false},
		{"Updated the scripts.\n", []string{"scripts/greet.sh"}, false},
		{"Updated scripts/lib/ helpers.\n", []string{"scripts/greet.sh"}, false},
		{"See tools/scripts/ for more.\n", []string{"scripts/greet.sh"}, false},
	} {
		if got := logfacts.Names([]byte(tc.log), tc.changed, nil); got != tc.want {
			t.Errorf("Names(%q, %v) = %v, want %v", tc.log, tc.changed, got, tc.want)
		}
	}
}
