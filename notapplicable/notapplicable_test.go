package notapplicable

import (
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

const protocol = "# P\n\n## Session Start\n\n### Phase 1: Context (BLOCKING)\n\n" +
	"1. If `docs/legacy.md` exists, the agent MUST read `docs/legacy.md`.\n" +
	"2. Session logs go to `.agents/sessions/YYYY-MM-DD-session-NN.md`; the agent SHOULD write one.\n\n" +
	"## Session End\n\n### Phase 1: QA (REQUIRED)\n\n- The agent MUST run the tests.\n\n" +
	"### Phase 2: Handoff (REQUIRED)\n\n- The agent MUST update `HANDOFF.md`.\n"

func parse(t *testing.T) *protocolspec.Spec {
	t.Helper()
	spec, err := protocolspec.Parse("P.md", []byte(protocol))
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// TestCheckable: a condition a machine can check names a path that
// exists or a change that touches one; a negated one, or one naming
// nothing, is left to the reason.
func TestCheckable(t *testing.T) {
	spec := parse(t)
	for _, tt := range []struct {
		text   string
		ok     bool
		exists bool
		path   string // one of the paths it must name
	}{
		{"If `docs/legacy.md` exists, the agent MUST read it.", true, true, "docs/legacy.md"},
		{"When the change touches `db/migrations/`, run the check.", true, false, "db/migrations/**"},
		{"If a session log exists, link it.", true, true, ".agents/sessions/*-*-*-session-*.md"}, // the protocol's session-log path
		{"If `docs/legacy.md` does not exist, write it.", false, false, ""},
		{"If the user asks, explain the plan.", false, false, ""},
		{"The agent MUST read `docs/legacy.md`.", false, false, ""},
		{"If `docs/legacy.md` is stale, refresh it.", false, false, ""},
		{"", false, false, ""},
	} {
		c, ok := Checkable(spec, tt.text)
		if ok != tt.ok || c.Exists != tt.exists || tt.path != "" && !slices.Contains(c.Paths, tt.path) {
			t.Errorf("Checkable(%q) = %+v, %v; want ok=%v exists=%v naming %q", tt.text, c, ok, tt.ok, tt.exists, tt.path)
		}
	}
}

// TestMCPCondition: "if the serena MCP is not available" is negated (it
// holds while the server is not configured); "when ... is configured" is
// not; a server named outside a condition is no condition.
func TestMCPCondition(t *testing.T) {
	for _, tt := range []struct {
		text    string
		server  string
		negated bool
		ok      bool
	}{
		{"If the serena MCP is not available, MUST read .serena/memories/x.md", "serena", true, true},
		{"When the Serena MCP server is configured, call it.", "serena", false, true},
		{"If the context7 MCP is unavailable, search the web.", "context7", true, true},
		{"The agent MUST call mcp__serena__activate_project.", "", false, false},
		{"If the tests fail, stop.", "", false, false},
	} {
		server, negated, ok := MCPCondition(tt.text)
		if server != tt.server || negated != tt.negated || ok != tt.ok {
			t.Errorf("MCPCondition(%q) = %q, %v, %v; want %q, %v, %v", tt.text, server, negated, ok, tt.server, tt.negated, tt.ok)
		}
	}
}

// TestCoreWork: the work itself (tests, commits, a gate that runs a
// command) is never waived on a reason; a requirement about anything
// else may be.
func TestCoreWork(t *testing.T) {
	spec := parse(t)
	qa, _ := spec.Phase(spec.Phases[1].ID)
	handoff, _ := spec.Phase(spec.Phases[2].ID)
	req := func(text string) *protocolspec.Requirement { return &protocolspec.Requirement{Text: text} }
	for _, tt := range []struct {
		name     string
		p        *protocolspec.Phase
		r        *protocolspec.Requirement
		runsCmd  bool
		coreWork bool
	}{
		{"requirement to run the tests", handoff, req("The agent MUST run the tests."), false, true},
		{"requirement to commit", handoff, req("Commit the work."), false, true},
		{"requirement to write the handoff", handoff, req("The agent MUST update HANDOFF.md."), false, false},
		{"phase titled QA", qa, nil, false, true},
		{"phase whose gate runs a command", handoff, nil, true, true},
		{"handoff phase", handoff, nil, false, false},
	} {
		if got := CoreWork(tt.p, tt.r, tt.runsCmd); (got != "") != tt.coreWork {
			t.Errorf("%s: CoreWork = %q, want core work %v", tt.name, got, tt.coreWork)
		}
	}
}

// TestFixesReports: requirements to fix what checks report are answered
// by a passing run (their not-applicable refusal says so); other
// requirements keep the general refusal.
func TestFixesReports(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"Fix what the checks report before you commit.", true},
		{"The agent MUST fix failing tests before committing.", false}, // not at the start: the general refusal
		{"Fix any failing tests.", true},
		{"Fix lint warnings in the changed files.", true},
		{"Run checks that cover the changed behavior.", false},
		{"Fix the bug the issue describes.", false},
		{"Do not disable or skip failing tests.", false},
	} {
		if got := FixesReports(tt.text); got != tt.want {
			t.Errorf("%q: %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestNormalReason: a reason copied with other case, spacing or end
// punctuation is the same reason; another reason is not.
func TestNormalReason(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"No migration in this change.", "no  migration in this change", true},
		{"No migration in this change!", "NO MIGRATION IN THIS CHANGE;", true},
		{"No migration in this change.", "No schema in this change.", false},
	} {
		if got := NormalReason(tt.a) == NormalReason(tt.b); got != tt.same {
			t.Errorf("%q vs %q: same %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
}
