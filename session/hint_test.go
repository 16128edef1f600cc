package session_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// TestHintFollowedIsAccepted: every phase that owes evidence per
// requirement, in the real team's protocols and the v3.0-style one, is
// walked by its gate's own hints: validate the gate, take the fix its
// must_evidence check gives (what the CLI and MCP print), do literally what
// it says (write the file it names and record it, record the read file's
// hash, or write a note), and again until the check passes. Every hint must
// name evidence the engine takes. On the old code the handoff's write
// requirement was given `--type manual`, which the engine then refused
// ("writes no file"), and the walk stopped there.
func TestHintFollowedIsAccepted(t *testing.T) {
	requireGit(t)
	v3, err := os.ReadFile(filepath.Join("..", "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatal(err)
	}
	protocols := []struct{ name, text string }{
		{protoV1, realProtocol(t, protoV1)},
		{protoV14, realProtocol(t, protoV14)},
		{"v3-style.md", string(v3)},
	}
	kinds := map[string]int{}
	for _, pr := range protocols {
		t.Run(pr.name, func(t *testing.T) {
			spec, err := protocolspec.Parse("SESSION-PROTOCOL.md", []byte(pr.text))
			if err != nil {
				t.Fatal(err)
			}
			for i := range spec.Phases {
				p := &spec.Phases[i]
				if len(p.OwedRequirements()) == 0 {
					continue
				}
				t.Run(p.ID, func(t *testing.T) { walkHints(t, pr.text, p, kinds) })
			}
		})
	}
	// The walk covers every kind a hint can name.
	for _, k := range []string{session.EvidenceFilePath, session.EvidenceContentHash, session.EvidenceManual} {
		if kinds[k] == 0 && !t.Failed() {
			t.Errorf("no hint named %s evidence (%v): the table no longer covers it", k, kinds)
		}
	}
}

// walkHints starts a session on a repository holding the files p's
// requirements name, then follows the must_evidence check's hints until
// it passes.
func walkHints(t *testing.T, protocol string, p *protocolspec.Phase, kinds map[string]int) {
	e := newEnv(t, protocol)
	ctx := context.Background()
	for _, r := range p.Requirements {
		for _, f := range r.NamedPaths() {
			if !strings.ContainsAny(f, "*?[") {
				// A read requirement is met by a file the repository had.
				gittest.Write(t, e.root, f, "# "+f+"\n\nWhat the team wrote down about this.\n")
			}
		}
	}
	// The team runs the MCP servers its protocol calls (round 62: a claim
	// of a call to a server configured nowhere is refused, and its hint
	// is the not-applicable mark; TestR62H360* play that).
	gittest.Write(t, e.root, ".mcp.json", serenaMCP)
	gittest.Git(t, e.root, "add", "-A")
	gittest.Git(t, e.root, "commit", "-q", "--allow-empty", "-m", "the files the protocol names")
	id := e.start("hints")
	if p.Section == protocolspec.SectionEnd {
		// End evidence is refused before the work; the start gates are
		// other tests' business here.
		err := e.db.Update(ctx, func(w session.Writer) error {
			s, err := w.GetSession(ctx, id)
			if err != nil {
				return err
			}
			s.State, s.Phase = session.StateWorking, "WORKING"
			return w.UpdateSession(ctx, s)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	follow := func(fix session.NextStep) {
		t.Helper()
		kinds[fix.EvidenceType]++
		r, _ := p.Requirement(fix.Requirement)
		value := fix.Value
		if value == "" && fix.EvidenceType != session.EvidenceManual {
			value = fileFor(t, fix.Why)
		}
		body := value
		switch fix.EvidenceType {
		case session.EvidenceFilePath:
			gittest.Write(t, e.root, value, "# Notes\n\nThe greeting script takes a name; its test checks six names.\n")
		case session.EvidenceManual:
			body = fmt.Sprintf("%s: done for the greeting change, see commit notes about the name argument.", r.ID)
		}
		if _, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: p.ID, Requirement: r.ID, Kind: fix.EvidenceType, Evidence: body}); err != nil {
			t.Fatalf("%s %q: the hint (%s %s %q) was followed and refused: %v", r.ID, r.Text, fix.Why, fix.EvidenceType, value, err)
		}
	}
	// The gate's own hints (CLI and MCP), until none names a requirement.
	done := map[string]bool{}
gate:
	for {
		for _, c := range e.gate(id, p.ID).Checks {
			fix := c.Fix
			if c.Status != session.StatusFail || fix == nil || fix.Requirement == "" {
				continue
			}
			if done[fix.Requirement] {
				t.Fatalf("%s: the hint for %s was followed and it is still open (%s)", p.ID, fix.Requirement, c.Message)
			}
			done[fix.Requirement] = true
			switch fix.Action {
			case session.StepRecordEvidence:
				follow(*fix)
			case session.StepRunObserved:
				// Only a run sessiongate sees counts, and the hint says so.
				// The gate's first open requirement stays this one until a
				// run is seen, so the others' hints are the hooks' below.
				if !strings.Contains(c.Message, "observed") {
					t.Errorf("%s: the hint is a run, the gate says %q", fix.Requirement, c.Message)
				}
				break gate
			default:
				t.Fatalf("%s: hint %+v names no evidence", fix.Requirement, fix)
			}
			continue gate
		}
		break
	}
	// The rest: the hint the agent hooks give for a requirement the gate
	// does not ask about (yet).
	for _, r := range p.OwedRequirements() {
		if !done[r.ID] {
			follow(session.RequirementFix(p, r))
		}
	}
}

// fileFor makes a path a hint's glob or folder matches ("write a file
// matching .agents/sessions/*.md").
func fileFor(t *testing.T, why string) string {
	t.Helper()
	if _, dir, ok := strings.Cut(why, "a file under "); ok {
		return strings.TrimSuffix(dir, "/") + "/hint-notes.md"
	}
	_, g, ok := strings.Cut(why, "a file matching ")
	if !ok {
		t.Fatalf("a path hint with no value names no file to write: %q", why)
	}
	g = strings.ReplaceAll(g, "**/", "")
	g = strings.ReplaceAll(g, "*", "hint-notes")
	return strings.NewReplacer("?", "x", "[", "", "]", "").Replace(g)
}
