package protocolspec

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAdvMustOwedWhenBuiltinReplacesEvidence (adversarial pass): a phase
// whose built-in check (content_hash of the handoff, commit_since_start,
// a fresh file) takes the place of must_evidence owes nothing for its
// other MUSTs, so a lazy agent skips them and the phase passes. Each row
// is a positive, unconditional MUST a machine check does not cover; it
// must be owed (the phase keeps must_evidence) or cited by a check.
// Real documents: the v3.0-style protocol and the team's 2025-12-22 one.
func TestAdvMustOwedWhenBuiltinReplacesEvidence(t *testing.T) {
	v3, err := os.ReadFile(filepath.Join("testdata", "v3-style.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string][]byte{"v3-style.md": v3}
	tests := []struct {
		doc, id string
	}{
		{"v3-style.md", "CONTEXT_RETRIEVAL.read-issue-task-were"},      // "Read the issue or task you were given."
		{"v3-style.md", "GIT_OPERATIONS.re-verify-branch-before"},      // "Re-verify the branch before commit."
		{"2025-12-22", "GIT_OPERATIONS.stage-changed-files-including"}, // "MUST stage all changed files including .agents/ files"
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			b, ok := docs[tt.doc]
			if !ok {
				b = fixture(t, "SESSION-PROTOCOL_2025-12-22_3821367d2.md")
			}
			spec, err := Parse(tt.doc, b)
			if err != nil {
				t.Fatal(err)
			}
			p, r, ok := spec.FindRequirement(tt.id)
			if !ok {
				t.Fatalf("requirement %s not parsed", tt.id)
			}
			if r.Level != LevelMust || r.Summary || r.Conditional {
				t.Fatalf("%s parsed as %s summary=%v conditional=%v, want a plain MUST", tt.id, r.Level, r.Summary, r.Conditional)
			}
			owed := false
			for _, c := range p.Checks {
				if c.Kind == CheckMustEvidence || c.Inferred != nil && c.Inferred.Requirement == tt.id {
					owed = true
				}
			}
			if !owed {
				var kinds []CheckKind
				for _, c := range p.Checks {
					kinds = append(kinds, c.Kind)
				}
				t.Errorf("route gets through: %s (line %d, %q) owes no evidence and no check cites it: %s's checks are %v", tt.id, r.Line, r.Text, p.ID, kinds)
			}
		})
	}
}
