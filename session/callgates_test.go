package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/hooks"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// realProtocol reads one of the real team's protocols from ../shared
// (never copied into the project).
func realProtocol(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "shared", "fixtures", "ai-agents", name))
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the real protocol in ../shared/fixtures: %v", err)
		}
		t.Skipf("the real protocols in ../shared/fixtures/ai-agents are not here (%v)", err)
	}
	return string(b)
}

const (
	protoV14  = "SESSION-PROTOCOL_2025-12-22_3821367d2.md"
	protoV1   = "SESSION-PROTOCOL_2025-12-18_fd7d1d61d.md"
	serenaMCP = `{"mcpServers":{"serena":{"command":"serena","args":["start-mcp-server"]}}}`
)

// bindClaude binds a Claude Code transcript under a temp folder to the
// session and returns its path.
func (e *env) bindClaude(t *testing.T, id string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "projects", "p", "s.jsonl")
	os.MkdirAll(filepath.Dir(path), 0o700)
	appendTo(t, path, "")
	if err := e.engine.BindTranscript(context.Background(), id, "claude", "agent-1", path); err != nil {
		t.Fatal(err)
	}
	return path
}

func (e *env) commitFile(rel, body string) {
	e.t.Helper()
	gittest.Write(e.t, e.root, rel, body)
	gittest.Git(e.t, e.root, "add", rel)
	gittest.Git(e.t, e.root, "commit", "-q", "-m", "add "+rel)
}

func (e *env) gate(id, phase string) *session.GateResult {
	e.t.Helper()
	g, err := e.engine.ValidateGate(context.Background(), id, phase)
	if err != nil {
		e.t.Fatalf("validate %s: %v", phase, err)
	}
	return g
}

func hasCheck(g *session.GateResult, kind session.CheckKind) bool {
	for _, c := range g.Checks {
		if c.Kind == kind && c.Status == session.StatusFail {
			return true
		}
	}
	return false
}

// TestQAValidationNeedsTheSubAgent: on the real v1.4 protocol
// QA_VALIDATION's gate is a fresh file under .agents/qa/, and its text
// says to invoke the qa agent. A hand-written report passed the phase
// (issue 25.4); now, while Claude Code's transcript is known and a qa
// sub-agent is defined, the call must be in it too (the file gate still
// applies). A team without the sub-agent passes on the file as before.
func TestQAValidationNeedsTheSubAgent(t *testing.T) {
	requireGit(t)
	realRun, err := os.ReadFile(filepath.Join("..", "transcript", "testdata", "claude-2.1-agent.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		defined  bool
		bind     bool
		call     bool
		report   bool
		want     session.GateStatus
		calls    bool // the transcript_calls check fails
		claimRef bool // a named claim for the requirement is refused
	}{
		{"lazy: a hand-written report, no qa run", true, true, false, true, session.StatusFail, true, true},
		{"honest: the qa sub-agent ran (real Claude Code 2.1 transcript) and wrote its report", true, true, true, true, session.StatusPass, false, false},
		{"the qa run alone does not replace the report", true, true, true, false, session.StatusFail, false, false},
		{"honest team without a qa sub-agent: the report as before", false, true, false, true, session.StatusPass, false, false},
		{"no transcript known: the report as before", true, false, false, true, session.StatusPass, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, realProtocol(t, protoV14))
			ctx := context.Background()
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
			if tt.defined {
				e.commitFile(".claude/agents/qa.md", "---\nname: qa\ndescription: QA\n---\nValidate.\n")
			}
			id := e.start("qa")
			if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING", Force: true, Reason: "this test is about an end phase"}); err != nil {
				t.Fatal(err)
			}
			if tt.bind {
				path := e.bindClaude(t, id)
				if tt.call {
					appendTo(t, path, string(realRun))
				}
			}
			if tt.report {
				gittest.Write(t, e.root, ".agents/qa/2026-11-28-feature.md", "# QA report\n\nAll 12 checks passed.\n")
			}
			g := e.gate(id, "QA_VALIDATION")
			if g.Status != tt.want || hasCheck(g, session.CheckTranscriptCalls) != tt.calls {
				t.Fatalf("gate %s (%s), want %s with transcript_calls failing %v", g.Status, g.Message, tt.want, tt.calls)
			}
			if tt.calls && !strings.Contains(g.Message, `subagent_type "qa"`) {
				t.Fatalf("the failing gate does not say which call is owed: %s", g.Message)
			}
			err := e.claim(id, "QA_VALIDATION.invoke-qa-after-completing", session.EvidenceManual, "I invoked the qa agent and it passed every check")
			if (err != nil) != tt.claimRef {
				t.Fatalf("named claim: %v, want refused %v", err, tt.claimRef)
			}
		})
	}
}

// TestSerenaInitializationNeedsTheCalls: SERENA_INITIALIZATION's gate on
// the real protocols is any tool output, so a claim passed it while its
// text asks for two serena calls (issue 25.4). With serena configured
// and the transcript known, the calls must be in it; blanking .mcp.json
// in the work tree (committed at the session's start) does not bring
// claims back. A team without serena claims as before.
func TestSerenaInitializationNeedsTheCalls(t *testing.T) {
	requireGit(t)
	calls := claudeLines("m1", "mcp__serena__activate_project", `{"project":"."}`, "Activated", false) +
		claudeLines("m2", "mcp__serena__initial_instructions", `{}`, "Instructions", false)
	tests := []struct {
		name       string
		proto      string
		configured bool
		blank      bool // .mcp.json blanked in the work tree after the start
		user       bool // serena in Claude Code's user config instead
		after      string
		want       session.GateStatus
	}{
		{"lazy: a claim, no call (v1.4)", protoV14, true, false, false, "", session.StatusFail},
		{"lazy: a claim, no call (first version)", protoV1, true, false, false, "", session.StatusFail},
		{"lazy: one call of two", protoV14, true, false, false, claudeLines("m1", "mcp__serena__activate_project", `{"project":"."}`, "Activated", false), session.StatusFail},
		{"lazy: .mcp.json blanked at claim time", protoV14, true, true, false, "", session.StatusFail},
		{"lazy: serena in the user config only", protoV14, false, false, true, "", session.StatusFail},
		{"honest: both calls made", protoV14, true, false, false, calls, session.StatusPass},
		{"honest: both calls made, server in the user config", protoV14, false, false, true, calls, session.StatusPass},
		// A team without serena: its claim is refused since round 62 (the
		// call cannot have been made), its honest path the checked
		// not-applicable mark (TestR62H360HonestWithoutServer).
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, realProtocol(t, tt.proto))
			cfgDir := t.TempDir()
			t.Setenv("CLAUDE_CONFIG_DIR", cfgDir)
			if tt.configured {
				e.commitFile(".mcp.json", serenaMCP)
			}
			if tt.user {
				os.WriteFile(filepath.Join(cfgDir, ".claude.json"), []byte(serenaMCP), 0o600)
			}
			id := e.start("serena")
			path := e.bindClaude(t, id)
			appendTo(t, path, tt.after)
			if tt.blank {
				gittest.Write(t, e.root, ".mcp.json", `{"mcpServers":{}}`)
			}
			// The per-requirement phase naming serena's read_memory: a
			// claim is refused while the server is (or was at the start)
			// configured, blanked file or not.
			err := e.claim(id, "SKILL_VALIDATION.read-skill-usage-mandatory", session.EvidenceManual, "read the skill-usage-mandatory memory with serena")
			if err == nil {
				t.Fatalf("claim for read_memory taken, want it refused")
			}
			e.evidence(id, "SERENA_INITIALIZATION", session.EvidenceToolOutput, "Serena activated, initial instructions read")
			g := e.gate(id, "SERENA_INITIALIZATION")
			if g.Status != tt.want || hasCheck(g, session.CheckTranscriptCalls) != (tt.want == session.StatusFail) {
				t.Fatalf("gate %s (%s), want %s", g.Status, g.Message, tt.want)
			}
			if tt.want == session.StatusFail && !strings.Contains(g.Message, "mcp__serena__") {
				t.Fatalf("the failing gate does not name the tool: %s", g.Message)
			}
		})
	}
}

// TestSerenaNotApplicableChecked: "not applicable" marks about the serena
// MCP server on the real 2025-12-22 protocol are checked by the machine
// against .mcp.json (work tree, start commit, HEAD) and Claude Code's user
// config: taken with no person's acceptance when they are true, refused
// when not.
func TestSerenaNotApplicableChecked(t *testing.T) {
	requireGit(t)
	const (
		phase    = "SERENA_INITIALIZATION"
		readMem  = "SKILL_VALIDATION.read-skill-usage-mandatory"
		ifNoMCP  = "SKILL_VALIDATION.serena-mcp-not-available"
		noSerena = "this repository configures no serena MCP server"
	)
	tests := []struct {
		name    string
		where   string // "", "commit", "blanked", "user"
		mark    string // requirement id, or "" for the phase
		reason  string
		refused bool
	}{
		{"honest team without serena: the phase", "", "", noSerena, false},
		{"honest team without serena: read_memory", "", readMem, noSerena, false},
		{"lazy: serena configured, the phase", "commit", "", noSerena, true},
		{"lazy: serena configured, read_memory", "commit", readMem, noSerena, true},
		{"lazy: .mcp.json blanked, the phase", "blanked", "", noSerena, true},
		{"lazy: serena in the user config, the phase", "user", "", noSerena, true},
		{"honest: serena configured, so 'if not available' does not apply", "commit", ifNoMCP, "serena is configured in .mcp.json", false},
		{"lazy: no serena, yet 'if not available' marked", "", ifNoMCP, "serena is available", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, realProtocol(t, protoV14))
			ctx := context.Background()
			cfgDir := t.TempDir()
			t.Setenv("CLAUDE_CONFIG_DIR", cfgDir)
			switch tt.where {
			case "commit", "blanked":
				e.commitFile(".mcp.json", serenaMCP)
			case "user":
				os.WriteFile(filepath.Join(cfgDir, ".claude.json"), []byte(`{"projects":{`+strconv.Quote(e.root)+`:`+serenaMCP+`}}`), 0o600)
			}
			id := e.start("na")
			if tt.where == "blanked" {
				os.Remove(filepath.Join(e.root, ".mcp.json"))
			}
			p := phase
			if tt.mark != "" {
				p = "SKILL_VALIDATION"
			}
			_, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: p, Requirement: tt.mark, NotApplicable: true, Evidence: tt.reason})
			if (err != nil) != tt.refused {
				t.Fatalf("mark: %v, want refused %v", err, tt.refused)
			}
			if tt.refused {
				if !strings.Contains(err.Error(), "serena MCP server") {
					t.Fatalf("the refusal does not say what the machine saw: %v", err)
				}
				return
			}
			marks, err := e.engine.NotApplicableMarks(ctx, id)
			if err != nil || len(marks) != 1 || marks[0].Standing != session.NAChecked {
				t.Fatalf("marks %+v (%v), want one checked (no person needed)", marks, err)
			}
			if tt.mark == "" {
				g := e.gate(id, phase)
				if g.Status != session.StatusSkipped || g.Decision != session.DecisionConditionNotMet {
					t.Fatalf("gate %s %s (%s), want skipped as not applying, with no person owed", g.Status, g.Decision, g.Message)
				}
			}
		})
	}
}

// TestMCPConfigEditedMidSession: .mcp.json is protected. With protection
// on, blanking it stops every gate (validate, advance) with a protected
// change; a claim recorded meanwhile is judged against the config as
// committed at the start, so restoring the file afterwards does not leave
// a claim behind that the transcript contradicts.
func TestMCPConfigEditedMidSession(t *testing.T) {
	requireGit(t)
	e := newEnv(t, realProtocol(t, protoV14))
	e.engine.Config.Protect = true
	ctx := context.Background()
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	e.commitFile(".mcp.json", serenaMCP)
	id := e.start("edit")
	e.bindClaude(t, id)
	gittest.Write(t, e.root, ".mcp.json", `{"mcpServers":{}}`)
	if _, err := e.engine.ValidateGate(ctx, id, "SERENA_INITIALIZATION"); !errors.Is(err, session.ErrProtectedChanged) {
		t.Fatalf("validate with .mcp.json blanked: %v, want a protected change", err)
	}
	if _, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id}); !errors.Is(err, session.ErrProtectedChanged) {
		t.Fatalf("advance with .mcp.json blanked: %v, want a protected change", err)
	}
	if err := e.claim(id, "SKILL_VALIDATION.read-skill-usage-mandatory", session.EvidenceManual, "read the skill-usage-mandatory memory"); err == nil {
		t.Fatal("a claim for read_memory taken while .mcp.json was blanked")
	}
	gittest.Write(t, e.root, ".mcp.json", serenaMCP)
	e.evidence(id, "SERENA_INITIALIZATION", session.EvidenceToolOutput, "Serena activated")
	if g := e.gate(id, "SERENA_INITIALIZATION"); g.Status != session.StatusFail || !hasCheck(g, session.CheckTranscriptCalls) {
		t.Fatalf("after the restore: gate %s (%s), want the calls owed", g.Status, g.Message)
	}
}

// TestEitherCallFails: "If either call fails, the agent MUST report the
// failure and stop" (SERENA_INITIALIZATION, real 2025-12 protocols) is
// checked from the transcript's witnessed results. Honest sessions whose
// calls succeeded mark it not applicable with no person's accept-na (five
// compliant bench sessions waited on it); an honest session whose call
// failed reports it; a lazy agent can neither mark it while a call failed
// or before the calls, nor claim a failure the transcript does not show.
func TestEitherCallFails(t *testing.T) {
	requireGit(t)
	const req = "SERENA_INITIALIZATION.either-call-fails-report"
	ok1 := claudeLines("m1", "mcp__serena__activate_project", `{"project":"."}`, "Activated", false)
	ok2 := claudeLines("m2", "mcp__serena__initial_instructions", `{}`, "Instructions", false)
	bad1 := claudeLines("m0", "mcp__serena__activate_project", `{"project":"."}`, "MCP error -32000: Connection closed", true)
	tests := []struct {
		name     string
		bind     bool   // a Claude transcript is known
		lines    string // the transcript's calls
		claims   bool   // the calls' requirements were claimed (no transcript)
		hook     string // "install": the PreToolUse hook routes MCP calls; hookSaw its kept ids
		hookSaw  []string
		naOK     bool
		claimOK  bool
		naReason string
	}{
		{"honest: both calls succeeded", true, ok1 + ok2, false, "", nil, true, false, ""},
		{"honest: a failed call retried and succeeded", true, bad1 + ok1 + ok2, false, "", nil, true, false, ""},
		{"honest: both calls succeeded, witnessed", true, ok1 + ok2, false, "install", []string{"m1", "m2"}, true, false, ""},
		{"honest: the call failed, the failure is reported", true, bad1, false, "", nil, false, true, "failed"},
		{"lazy: no call made yet", true, "", false, "", nil, false, false, "no call"},
		{"lazy: one call of two", true, ok1, false, "", nil, false, false, "no call"},
		{"lazy: a forged failed call no hook saw", true, bad1, false, "install", nil, false, false, "no call"},
		{"no transcript: after the calls' claims", false, "", true, "", nil, true, true, ""},
		{"no transcript: before the calls' claims", false, "", false, "", nil, false, true, "has its evidence"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, realProtocol(t, protoV14))
			ctx := context.Background()
			t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
			if tt.hook == "install" {
				if _, err := hooks.InstallAgents(e.root, hooks.AgentConfigs[:1]); err != nil {
					t.Fatal(err)
				}
			}
			gittest.Write(t, e.root, ".mcp.json", serenaMCP)
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "serena")
			id := e.start("calls")
			if tt.bind {
				path := e.bindClaude(t, id)
				for _, saw := range tt.hookSaw {
					if err := e.engine.AgentToolCall(ctx, id, "claude", saw, "mcp__serena__x", "", false); err != nil {
						t.Fatal(err)
					}
				}
				appendTo(t, path, tt.lines)
			}
			if tt.claims {
				for req, out := range map[string]string{
					"SERENA_INITIALIZATION.call-mcp-serena-activate": "mcp__serena__activate_project: Activated existing project with name 'greet'",
					"SERENA_INITIALIZATION.call-mcp-serena-initial":  "mcp__serena__initial_instructions: You are a professional coding agent",
				} {
					if err := e.claim(id, req, session.EvidenceToolOutput, out); err != nil {
						t.Fatalf("claim for %s: %v", req, err)
					}
				}
			}
			_, naErr := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "SERENA_INITIALIZATION", Requirement: req, NotApplicable: true, Evidence: "both Serena calls succeeded"})
			if (naErr == nil) != tt.naOK {
				t.Fatalf("not-applicable mark: %v, want taken %v", naErr, tt.naOK)
			}
			if naErr != nil && !strings.Contains(naErr.Error(), tt.naReason) {
				t.Fatalf("the refusal does not say what the machine saw (%q): %v", tt.naReason, naErr)
			}
			if tt.naOK {
				marks, err := e.engine.NotApplicableMarks(ctx, id)
				if err != nil || len(marks) != 1 || marks[0].Standing != session.NAChecked {
					t.Fatalf("marks %+v (%v), want one checked: no person's accept-na", marks, err)
				}
				return
			}
			err := e.claim(id, req, session.EvidenceManual, "serena's activate_project failed: reported the failure to the user and stopped")
			if (err == nil) != tt.claimOK {
				t.Fatalf("claim of a reported failure: %v, want accepted %v", err, tt.claimOK)
			}
		})
	}
}

// TestUserConfigDeletedMidSession: serena in Claude Code's user config
// (~/.claude.json) or a user-level sub-agent (~/.claude/agents/qa.md) at
// the session's start counts for the whole session: deleting it mid-session
// no longer makes the call "not available" and wins back claims or
// not-applicable marks. A team that never had them keeps its claims and
// marks (honest).
func TestUserConfigDeletedMidSession(t *testing.T) {
	requireGit(t)
	tests := []struct {
		name     string
		protocol string // "v14" or the delegate protocol
		atStart  bool   // configured at user level when the session starts
		deleted  bool   // removed after the start
		na       bool   // mark the phase not applicable instead of claiming
		taken    bool
	}{
		{"lazy: serena deleted from ~/.claude.json, a claim", "v14", true, true, false, false},
		{"lazy: serena deleted from ~/.claude.json, the phase marked", "v14", true, true, true, false},
		// Round 62 (helper 360): with no serena ever, a claim of its call
		// cannot be true and is refused; the mark (next row) is the way.
		{"no serena ever, a claim", "v14", false, false, false, false},
		{"honest: no serena ever, the phase marked", "v14", false, false, true, true},
		{"lazy: ~/.claude/agents/qa.md removed, a claim", "delegate", true, true, false, false},
		{"honest: no qa sub-agent ever, a claim", "delegate", false, false, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			proto := delegateProtocol
			if tt.protocol == "v14" {
				proto = realProtocol(t, protoV14)
			}
			e := newEnv(t, proto)
			ctx := context.Background()
			cfgDir := t.TempDir()
			t.Setenv("CLAUDE_CONFIG_DIR", cfgDir)
			userFile := filepath.Join(cfgDir, ".claude.json")
			if tt.protocol == "delegate" {
				userFile = filepath.Join(cfgDir, "agents", "qa.md")
				os.MkdirAll(filepath.Dir(userFile), 0o700)
			}
			if tt.atStart {
				body := serenaMCP
				if tt.protocol == "delegate" {
					body = "---\nname: qa\ndescription: QA\n---\nValidate.\n"
				}
				if err := os.WriteFile(userFile, []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			id := e.start("user")
			e.bindClaude(t, id)
			if tt.deleted {
				if err := os.Remove(userFile); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			switch {
			case tt.protocol == "delegate":
				err = e.claim(id, txReqQA, session.EvidenceManual, "ran the qa agent on the change and it passed")
			case tt.na:
				_, err = e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "SERENA_INITIALIZATION", NotApplicable: true, Evidence: "this machine configures no serena MCP server"})
			default:
				err = e.claim(id, "SKILL_VALIDATION.read-skill-usage-mandatory", session.EvidenceManual, "read the skill-usage-mandatory memory with serena")
			}
			if (err == nil) != tt.taken {
				t.Fatalf("got %v, want taken %v", err, tt.taken)
			}
			if err != nil && tt.na && !strings.Contains(err.Error(), "when the session started") {
				t.Fatalf("the refusal does not say the server was configured at the start: %v", err)
			}
		})
	}
}
