package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/stopnote"
)

// TestUncheckedStopThenCompleteOneVerdict: one rule for "a stop let
// through unchecked, then an honest COMPLETE end" on both surfaces. A
// Codex CLI stop (its recorded payload, the real binary) comes with the
// work done and the end protocol undone while the database is locked, so
// the hook lets it through and notes it; the session is then ended
// COMPLETE. The checked stop records END_PROTOCOL_SKIPPED for the same
// stop when it lets it through, so the unchecked one is judged the same:
// `session end` and MCP session_end (a server started before the stop,
// which read no note at its start) both record one END_PROTOCOL_SKIPPED
// and both say "COMPLETE, not clean". Before, MCP left the note to the
// next process, which ran after the end and judged it complete: clean.
// Honest twin: the stop's turn changed nothing (nothing is noted): clean
// on both surfaces.
func TestUncheckedStopThenCompleteOneVerdict(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: runs the real binary, git hooks and a database lock")
	}
	for _, byMCP := range []bool{false, true} {
		for _, honest := range []bool{false, true} {
			name := map[bool]string{false: "session end", true: "MCP session_end"}[byMCP] +
				map[bool]string{false: "/work then an unchecked stop", true: "/honest: the stop changed nothing"}[honest]
			t.Run(name, func(t *testing.T) {
				w := newHintWorld(t, "")
				db := filepath.Join(w.dir, ".git", "sessiongate", "sessiongate.db")
				// Documentation too: the protocol's RECOMMENDED phase asks
				// for it, so the honest twin is clean.
				id := codexWorkAtQA(t, w, db, "NOTES.md", "# Notes\n\nwork\n")
				if honest {
					codexHook(t, w.dir, w.env, "UserPromptSubmit") // a new turn that changes nothing
				}
				var mcp *mcpServer
				if byMCP {
					mcp = startMCP(t, w) // opened the database before the stop
				}
				release := lockedDB(t, db)
				codexStop(t, w.dir, w.env)
				release()
				if stopnote.Pending(db) == honest {
					t.Fatalf("honest=%v: a note of the unchecked stop beside the database is %v", honest, stopnote.Pending(db))
				}
				var said string
				if byMCP {
					said = mcp.call("tools/call", map[string]any{"name": "session_end", "arguments": map[string]any{"session_id": id, "summary": "done"}})
					mcp.close()
				} else {
					code, out := w.sg("", "session", "end", "--summary", "done")
					if code != 0 {
						t.Fatalf("session end: exit %d\n%s", code, out)
					}
					said = out
				}
				got := skippedCount(t, db)
				t.Logf("END_PROTOCOL_SKIPPED: %d; the end said:\n%s", got, said)
				switch {
				case !strings.Contains(said, "COMPLETE"):
					t.Fatalf("the session did not end COMPLETE:\n%s", said)
				case honest && (got != 0 || !strings.Contains(said, "COMPLETE: clean")):
					t.Errorf("honest: %d END_PROTOCOL_SKIPPED, or not clean:\n%s", got, said)
				case !honest && got != 1:
					t.Errorf("%d END_PROTOCOL_SKIPPED recorded for the unchecked stop, want 1", got)
				case !honest && !strings.Contains(said, "COMPLETE, not clean") || !honest && !strings.Contains(said, "END_PROTOCOL_SKIPPED"):
					t.Errorf("the end's verdict does not say the unchecked stop:\n%s", said)
				}
			})
		}
	}
}
