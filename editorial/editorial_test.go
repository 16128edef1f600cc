package editorial

import (
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/repopath"
)

// Only what the protocol has the session write is exempt from the
// editorial check: a path it has the agent read (the project plan) and a
// whole top-level folder are not (exempting them let a new section in the
// plan pass as editorial).
func TestProtocolArtifactsAreWrites(t *testing.T) {
	spec, err := protocolspec.Parse("P.md", []byte("# P\n\n## Session Start\n\n### Phase 1: Context (BLOCKING)\n\n"+
		"1. The agent MUST read `.agents/planning/PLAN.md` and everything in `.agents/`.\n"+
		"3. The agent MUST read `.agents/governance/RULES.md`, then create `.agents/qa/report.md`.\n"+
		"2. The agent MUST create a session log at `.agents/sessions/log.md`.\n\n"+
		"## Session End\n\n### Phase 1: Commit (BLOCKING)\n\n"+
		"1. The agent MUST commit all changes (including .serena/memories).\n"))
	if err != nil {
		t.Fatal(err)
	}
	arts := ProtocolArtifacts(spec)
	for _, want := range []string{".agents/sessions/log.md", ".serena/memories/**", ".agents/qa/report.md"} {
		if !slices.Contains(arts, want) {
			t.Errorf("%s is written by the protocol but not exempt: %q", want, arts)
		}
	}
	for _, f := range []string{".agents/planning/PLAN.md", ".agents/notes.md", ".agents/governance/RULES.md"} {
		if slices.ContainsFunc(arts, func(g string) bool { return repopath.Match(g, f) }) {
			t.Errorf("%s is only read, yet exempt from the editorial check: %q", f, arts)
		}
	}
}

// TestLines: a change is editorial only when it replaces lines one for
// one, touching no heading, no fence and no line inside a code block; the
// file is read only when the lines leave the question open.
func TestLines(t *testing.T) {
	doc := []byte("# Title\n\nSome prose here.\n\n```sh\nmake test\n```\n")
	for _, tt := range []struct {
		name            string
		added, removed  []string
		addedAt         []int
		editorial, read bool
	}{
		{"a typo fixed", []string{"Some prose here."}, []string{"Some prose hre."}, []int{3}, true, true},
		{"a new file", []string{"# New"}, nil, []int{1}, false, false},
		{"a line added", []string{"a", "b"}, []string{"a"}, []int{3, 4}, false, false},
		{"a heading reworded", []string{"# Title"}, []string{"# Titel"}, []int{1}, false, false},
		{"a fence changed", []string{"```sh"}, []string{"```"}, []int{5}, false, false},
		{"a command in a code block", []string{"make test"}, []string{"make check"}, []int{6}, false, true},
	} {
		read := false
		why, err := Lines("docs/a.md", tt.added, tt.removed, tt.addedAt, func() (map[int]bool, error) {
			read = true
			return FencedLines(doc), nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if (why == "") != tt.editorial || read != tt.read {
			t.Errorf("%s: Lines = %q (read the file: %v), want editorial %v (read %v)", tt.name, why, read, tt.editorial, tt.read)
		}
	}
}
