package toolneed

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestPathCheck: the 2025-12-22 protocol's Skill Validation asks to
// "verify `.claude/skills/` directory exists" and to "list available
// GitHub skill scripts" (a PowerShell Get-ChildItem over
// .claude/skills/github/scripts). Under the agent hooks an honest run of
// `ls -d .claude/skills/` or `ls .claude/skills/github/scripts` met
// neither, and the start protocol was blocked (round 25, c4:
// TestCodexHonestV1222Task). A single command that looks at the path the
// requirement names does; printing the path, another path, or a line that
// does more does not.
func TestPathCheck(t *testing.T) {
	verify, list := v1222Skill(t, "verify"), v1222Skill(t, "list available")
	for _, c := range []struct {
		r    protocolspec.Requirement
		cmd  string
		want bool
	}{
		{verify, "ls -d .claude/skills/", true},
		{verify, "test -d .claude/skills", true},
		{verify, "[ -d .claude/skills ]", true},
		{verify, "stat .claude/skills", true},
		{verify, "ls .claude/skills", true},
		// "List available GitHub skill scripts" names its folder only in
		// the PowerShell block after it, which is not the requirement's
		// text: a listing does not meet it unbound (left open).
		{list, "ls .claude/skills/github/scripts", false},
		// Lazy: printing the path, looking elsewhere, a chained line.
		{verify, "echo .claude/skills/", false},
		{verify, "ls -d .claude", false},
		{verify, "ls /tmp", false},
		{verify, "test -d .claude/skills || true", false},
		{verify, "ls -d .claude/skills/ ; rm -rf x", false},
		{verify, "cat .claude/skills/github/scripts/Get-PRContext.ps1", false},
		{verify, "true .claude/skills", false},
		// A requirement that asks no check of a path.
		{protocolspec.Requirement{Text: "The agent MUST document available skills in session log"}, "ls .claude/skills", false},
	} {
		if got := PathCheck(c.r, c.cmd); got != c.want {
			t.Errorf("PathCheck(%.50q, %q) = %v, want %v", c.r.Text, c.cmd, got, c.want)
		}
	}
}

// v1222Skill is the 2025-12-22 protocol's Skill Validation requirement
// whose text starts with "The agent MUST " + verb.
func v1222Skill(t *testing.T, verb string) protocolspec.Requirement {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	d := os.Getenv("SESSIONGATE_FIXTURES")
	if d == "" {
		d = filepath.Join(filepath.Dir(file), "..", "..", "shared", "fixtures", "ai-agents")
	}
	b, err := os.ReadFile(filepath.Join(d, "SESSION-PROTOCOL_2025-12-22_3821367d2.md"))
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skipf("real protocol fixtures not found: %v", err)
	}
	spec, err := protocolspec.Parse("SESSION-PROTOCOL.md", b)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := spec.Phase("SKILL_VALIDATION")
	if !ok {
		t.Fatal("no SKILL_VALIDATION phase")
	}
	for _, r := range p.Requirements {
		if strings.HasPrefix(r.Text, "The agent MUST "+verb) {
			return r
		}
	}
	t.Fatalf("no requirement %q in %v", verb, p.Requirements)
	return protocolspec.Requirement{}
}
