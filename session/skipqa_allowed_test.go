package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestSkipQANeedsTheProtocolsLeave: skip_qa skips a QA phase that runs
// the project's tests only when the protocol has a sentence that lets the
// agent skip QA. Without one (the v3.0 style: "Run checks that cover the
// changed behavior", no exception), an agent that changed the README the
// suite checks ended clean without running it (helper 328's F2). A QA
// phase with no command keeps the docs-only skip: the project has no
// suite to run.
func TestSkipQANeedsTheProtocolsLeave(t *testing.T) {
	const body = `# Protocol

## Session Start

### Phase 1: Context Retrieval (BLOCKING)

<!-- gate: evidence tool_output -->

1. The agent MUST read the notes.

### Phase 2: Issue Context (BLOCKING when an issue is linked)

<!-- gate: evidence manual -->

1. The agent MUST read the linked issue.

## Session End

### Phase 1: QA Validation

1. Run checks that cover the changed behavior.
%s
### Phase 2: Git Operations (REQUIRED)

<!-- gate: commit_since_start -->

1. The agent MUST commit.
`
	const leave = "2. The agent MAY skip QA only when every changed file is documentation.\n"
	for _, c := range []struct {
		name    string
		leave   string
		command string
		allowed bool
	}{
		{"no leave, a test command: refused", "", "sh scripts/test.sh", false},
		{"the protocol's leave, a test command: skipped", leave, "sh scripts/test.sh", true},
		{"no leave, no command (no suite to run): skipped", "", "", true},
		// Not leaves (helper 331: each unlocked skip_qa in the first cut).
		{"MAY NOT", "2. The agent MAY NOT skip QA.\n", "sh scripts/test.sh", false},
		{"a narrower leave", "2. The agent MAY skip tests of unchanged vendored code.\n", "sh scripts/test.sh", false},
		{"asking first", "2. The agent MAY ask the user before skipping tests.\n", "sh scripts/test.sh", false},
		// Leaves worded as protocols word them (refused by the first cut).
		{"passive QA", "2. QA MAY be skipped when every changed file is documentation.\n", "sh scripts/test.sh", true},
		{"skip running the tests", "2. The agent MAY skip running the tests when every changed file is documentation.\n", "sh scripts/test.sh", true},
		{"passive tests", "2. Tests MAY be skipped for documentation-only changes.\n", "sh scripts/test.sh", true},
		{"omit", "2. The agent MAY omit QA for documentation-only changes.\n", "sh scripts/test.sh", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, strings.Replace(body, "%s", c.leave, 1))
			if c.command != "" {
				e.engine.Config.Commands = map[string]string{"QA_VALIDATION": c.command}
			}
			ctx := context.Background()
			id := e.start("docs")
			e.toWorking(id)
			gittest.Write(t, e.root, "README.md", "# greet\n\nUsage: greet NAME\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "docs: usage")
			end, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "docs", SkipQA: true})
			if !c.allowed {
				if err == nil || !strings.Contains(err.Error(), "skip_qa refused: the protocol gives QA_VALIDATION no exception") {
					t.Fatalf("skip_qa taken with no sentence allowing it: %+v, %v", end, err)
				}
				return
			}
			if err != nil || !end.Ended {
				t.Fatalf("docs-only skip refused (a false block): %+v, %v", end, err)
			}
		})
	}
}
