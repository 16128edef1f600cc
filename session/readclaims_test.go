package session_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// readReqProtocol asks to read a file by its path, and (conditionally) another.
const readReqProtocol = "# P\n\n## Session Start\n\n### Phase 1: Context (BLOCKING)\n\n" +
	"1. The agent MUST read `docs/guide.md`.\n2. If `docs/legacy.md` exists, the agent MUST read `docs/legacy.md`.\n3. The agent MUST read `.agents/memories/`.\n\n" +
	"## Session End\n\n### Phase 1: Done (OPTIONAL)\n\n<!-- gate: evidence manual -->\n"

// TestClaimedReadOfAMissingFile: a claim (a manual note, tool output, the
// hash of another file) that a file was read is refused when the file the
// requirement names does not exist; with the file there it is accepted.
func TestClaimedReadOfAMissingFile(t *testing.T) {
	const guide, memories = "CONTEXT.read-docs-guide-md", "CONTEXT.read-agents-memories"
	cases := []struct {
		name    string
		files   map[string]string
		req     string
		kind    string
		body    string
		refused string // substring of the refusal; "" accepted
		// written after the session started (committed when commitAfter)
		afterStart  map[string]string
		commitAfter bool
	}{
		{"manual read of a missing file", nil, guide, session.EvidenceManual, "Read docs/guide.md: nothing new for this task", "docs/guide.md, which does not exist", nil, false},
		{"tool output for a missing file", nil, guide, session.EvidenceToolOutput, "$ cat docs/guide.md\n# Guide\n", "does not exist in the repository", nil, false},
		{"hash of another file for a missing one", map[string]string{"README.md": "# R\n"}, guide, session.EvidenceContentHash, "README.md", "does not exist", nil, false},
		{"missing folder", nil, memories, session.EvidenceManual, "read the memories: none relevant", ".agents/memories, which does not exist", nil, false},
		{"honest read", map[string]string{"docs/guide.md": "# Guide\n"}, guide, session.EvidenceManual, "Read docs/guide.md: the build section applies", "", nil, false},
		{"honest hash", map[string]string{"docs/guide.md": "# Guide\n"}, guide, session.EvidenceContentHash, "docs/guide.md", "", nil, false},
		{"honest folder read", map[string]string{".agents/memories/a.md": "a\n"}, memories, session.EvidenceManual, "read .agents/memories/a.md: notes on the build", "", nil, false},
		// The agent writes the file it is asked to read, then "reads" it.
		{"file made during the session", nil, guide, session.EvidenceContentHash, "docs/guide.md", "made during this session", map[string]string{"docs/guide.md": "# C\n"}, false},
		{"file made and committed during the session", nil, guide, session.EvidenceManual, "Read docs/guide.md: fine", "made during this session", map[string]string{"docs/guide.md": "# C\n"}, true},
		{"honest read of a file changed during the session", map[string]string{"docs/guide.md": "# Guide\n"}, guide, session.EvidenceManual, "Read docs/guide.md: the build section applies", "", map[string]string{"docs/guide.md": "# Guide\n\nMore.\n"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, readReqProtocol)
			for f, b := range c.files {
				gittest.Write(t, e.root, f, b)
			}
			if len(c.files) > 0 {
				gittest.Git(t, e.root, "add", "-A")
				gittest.Git(t, e.root, "commit", "-q", "-m", "files")
			}
			id := e.start(c.name)
			for f, b := range c.afterStart {
				gittest.Write(t, e.root, f, b)
			}
			if c.commitAfter {
				gittest.Git(t, e.root, "add", "-A")
				gittest.Git(t, e.root, "commit", "-q", "-m", "made")
			}
			_, err := e.engine.RecordEvidence(context.Background(), session.EvidenceRequest{ID: id, Requirement: c.req, Kind: c.kind, Evidence: c.body})
			switch {
			case c.refused == "" && err != nil:
				t.Fatalf("honest claim refused: %v", err)
			case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused)):
				t.Fatalf("got %v, want a refusal containing %q", err, c.refused)
			case c.refused != "" && !errors.Is(err, session.ErrRefused):
				t.Fatalf("refusal is not ErrRefused: %v", err)
			}
		})
	}
}
