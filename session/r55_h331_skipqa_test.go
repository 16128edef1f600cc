package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestR55H331SkipQALeaveNotALeave: a MAY sentence that names skipping tests
// but does not let the agent skip QA (a narrower leave, a prohibition
// written "MAY NOT", a sentence about asking first) unlocks skip_qa today.
func TestR55H331SkipQALeaveNotALeave(t *testing.T) {
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

	for _, leave := range []string{
		"2. The agent MAY NOT skip QA.\n",
		"2. The agent MAY skip tests of unchanged vendored code.\n",
		"2. The agent MAY ask the user before skipping tests.\n",
	} {
		t.Run(leave, func(t *testing.T) {
			e := newEnv(t, strings.Replace(body, "%s", leave, 1))
			e.engine.Config.Commands = map[string]string{"QA_VALIDATION": "sh scripts/test.sh"}
			ctx := context.Background()
			id := e.start("docs")
			e.toWorking(id)
			gittest.Write(t, e.root, "README.md", "# greet\n\nUsage: greet NAME\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "docs: usage")
			end, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "docs", SkipQA: true})
			if err == nil || !strings.Contains(err.Error(), "skip_qa refused") {
				t.Fatalf("skip_qa taken under %q: %+v, %v", leave, end, err)
			}
		})
	}
}

// TestR55H331SkipQALeaveWordedOtherwise: a protocol's leave to skip QA for
// documentation changes, worded as protocols word it, is not read as one:
// skip_qa is refused for a README-only session (a false block).
func TestR55H331SkipQALeaveWordedOtherwise(t *testing.T) {
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

	for _, leave := range []string{
		"2. QA MAY be skipped when every changed file is documentation.\n",
		"2. The agent MAY skip running the tests when every changed file is documentation.\n",
		"2. Tests MAY be skipped for documentation-only changes.\n",
		"2. The agent MAY omit QA for documentation-only changes.\n",
	} {
		t.Run(leave, func(t *testing.T) {
			e := newEnv(t, strings.Replace(body, "%s", leave, 1))
			e.engine.Config.Commands = map[string]string{"QA_VALIDATION": "sh scripts/test.sh"}
			ctx := context.Background()
			id := e.start("docs")
			e.toWorking(id)
			gittest.Write(t, e.root, "README.md", "# greet\n\nUsage: greet NAME\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "docs: usage")
			end, err := e.engine.End(ctx, session.EndRequest{ID: id, Summary: "docs", SkipQA: true})
			if err != nil || !end.Ended {
				t.Fatalf("docs-only skip refused under %q (a false block): %v", leave, err)
			}
		})
	}
}
