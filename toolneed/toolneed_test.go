package toolneed

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/transcript"
)

// TestOfAndCall: what a requirement's text asks a tool call to do, and
// the call each agent is told to make. A read needs a path it names (a
// "review the design" without one is no read a transcript can show), and
// a named MCP tool is Claude Code's call whatever the verb.
func TestOfAndCall(t *testing.T) {
	for _, tt := range []struct {
		text, agent string
		need        string
		call        string // in Call's answer; "" none
	}{
		{"The agent MUST read `docs/guide.md`.", transcript.Claude, Read, "docs/guide.md with the Read tool"},
		{"The agent MUST read `docs/guide.md`.", transcript.Gemini, Read, "read_file"},
		{"The agent MUST read `docs/guide.md`.", "", Read, "`cat docs/guide.md` in the shell tool"},
		{"The agent MUST review the design.", transcript.Claude, None, ""},
		{"The agent MUST run `git status`.", transcript.Codex, Run, "its shell (exec_command)"},
		{"The agent MUST grep for TODO.", transcript.Claude, Search, "search tool"},
		{"The agent MUST call mcp__serena__activate_project.", transcript.Claude, None, "call the MCP tool mcp__serena__activate_project"},
		{"The agent MUST write the log.", transcript.Claude, None, ""},
	} {
		t.Run(tt.text+" "+tt.agent, func(t *testing.T) {
			r := protocolspec.Requirement{Text: tt.text, ID: "P.r"}
			if got := Of(r); got != tt.need {
				t.Errorf("Of = %q, want %q", got, tt.need)
			}
			got := Call(tt.agent, r, r.ID)
			if (got == "") != (tt.call == "") || !strings.Contains(got, tt.call) {
				t.Errorf("Call = %q, want one saying %q", got, tt.call)
			}
		})
	}
}

// TestWrites: the files a requirement asks to write, and whether each
// session writes a new one. A negative requirement asks for none; one
// naming no path asks for the file of the phase's template check; a
// family of files (a glob) the requirement creates is each session's own,
// a fixed path is one file every session updates.
func TestWrites(t *testing.T) {
	tmpl := &protocolspec.Phase{Checks: []protocolspec.Check{{Kind: protocolspec.CheckNoPlaceholders, Arg: "sessions/*.md"}}}
	for _, tt := range []struct {
		name  string
		r     protocolspec.Requirement
		rel   string
		want  []string
		fresh bool
	}{
		{"names a path", protocolspec.Requirement{Text: "Update `.agents/HANDOFF.md` with the status."}, ".agents/HANDOFF.md", []string{".agents/HANDOFF.md"}, false},
		{"negative", protocolspec.Requirement{Level: protocolspec.LevelMustNot, Text: "Update `.agents/HANDOFF.md`."}, "", nil, false},
		{"from the template", protocolspec.Requirement{Text: "Complete the session log from the template."}, "sessions/2026-11-30-01.md", []string{"sessions/*.md"}, true},
		{"creates one of a family", protocolspec.Requirement{Text: "Create `sessions/*.md` for this session."}, "sessions/2026-11-30-01.md", []string{"sessions/*.md"}, true},
		{"updates one of a family", protocolspec.Requirement{Text: "Update `sessions/*.md`."}, "sessions/2026-11-30-01.md", []string{"sessions/*.md"}, false},
		{"no write", protocolspec.Requirement{Text: "Read `docs/guide.md`."}, "", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Writes(tmpl, tt.r)
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("Writes = %q, want %q", got, tt.want)
			}
			if got != nil && NewEachSession(tmpl, tt.r, got, tt.rel) != tt.fresh {
				t.Errorf("NewEachSession = %v, want %v", !tt.fresh, tt.fresh)
			}
		})
	}
}
