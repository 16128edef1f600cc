// Package notapplicable reads what a "not applicable" mark on a protocol's
// requirement or phase may rest on, from the protocol's text alone: the
// condition a machine can check ("if docs/legacy.md exists", "when the
// change touches db/migrations/", "if a session log exists", "if the
// serena MCP is not available"), the work itself that no reason waives
// (running the tests, committing), a requirement to fix what the checks
// report, and when two reasons are the same. It needs no session: whether
// a checkable condition holds in a repository, and a mark's standing, are
// the engine's (session/conditions.go, session/notapplicable.go).
package notapplicable

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// MinReasonWords is the fewest words a reason a person must accept may
// have: "not needed here" says nothing a person could accept.
const MinReasonWords = 4

var (
	conditionClauseRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:if|when|whenever|where)\b([^,;:]*)`)
	})
	existsRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:exists?|is present|are present|there is|there are)\b`)
	})
	touchesRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:touch(?:es|ed)?|chang(?:es|ed|e)|modif(?:y|ies|ied)|edit(?:s|ed)?|updat(?:es|ed|e))\b`)
	})
	negatedRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:not|no|never|doesn't|does not|isn't|aren't)\b`)
	})
	sessionLogRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bsession logs?\b`) })
	// mcpConditionRE finds a condition about an MCP server being there:
	// "if the serena MCP is not available", "when the serena MCP server is
	// configured".
	mcpConditionRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b([a-z][\w-]*)\s+MCP(?:\s+server)?\s+(?:is\s+|are\s+)?(not\s+|un)?(available|configured|installed|enabled|set\s+up|present)\b`)
	})
	// coreWorkRE finds requirement words about the work itself: running
	// the tests or checks, linting, building, committing, pushing. These
	// are never waved on a reason; a person forces the gate instead
	// (a recorded violation) when one truly cannot run.
	coreWorkRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:tests?|testing|test suite|QA|lint(?:s|ers?|ing)?|linters?|build(?:s|ing)?|compil(?:e|es|ing)|commits?|committing|push(?:es|ing)?|checks?)\b`)
	})
	coreTitleRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:QA|tests?|testing|quality|lint(?:ing)?|git operations?|commit)\b`)
	})
	// fixReqRE matches a requirement to fix what checks, tests or linters
	// report ("Fix what the checks report before you commit", "Fix any
	// failing tests"): answered by a passing run, never by a mark.
	fixReqRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\W*(?:\w+\W+)?fix\b.*\b(?:checks?|tests?|lint\w*|linters?|failures?|failing|errors?|warnings?|report(?:s|ed)?)\b`)
	})
)

// Clause is the condition clause of text: what follows its first "if",
// "when", "whenever" or "where", up to a comma, semicolon or colon. ok is
// false when text states no condition.
func Clause(text string) (clause string, ok bool) {
	m := conditionClauseRE().FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// Condition is a condition whose truth a machine can check in a
// repository.
type Condition struct {
	// Paths are the path globs it names, or for "a session log" the
	// paths the protocol names for session logs.
	Paths []string
	// Exists: it holds when one of Paths is there ("if X exists");
	// else it holds when the session changed a file Paths name ("when
	// the change touches X").
	Exists bool
}

// Checkable reads the condition text states, if a machine can check it:
// a path that exists or a change that touches one. A negated clause ("if
// X does not exist") and one that names no path are left to a reason.
func Checkable(spec *protocolspec.Spec, text string) (Condition, bool) {
	clause, ok := Clause(text)
	if !ok || negatedRE().MatchString(clause) {
		return Condition{}, false
	}
	paths := protocolspec.Requirement{Text: clause}.NamedPaths()
	if len(paths) == 0 && sessionLogRE().MatchString(clause) {
		paths = SessionLogPaths(spec)
	}
	if len(paths) == 0 {
		return Condition{}, false
	}
	switch {
	case existsRE().MatchString(clause):
		return Condition{Paths: paths, Exists: true}, true
	case touchesRE().MatchString(clause):
		return Condition{Paths: paths}, true
	}
	return Condition{}, false
}

// SessionLogPaths are the paths the protocol names for session logs.
func SessionLogPaths(spec *protocolspec.Spec) []string {
	var out []string
	for _, p := range spec.Phases {
		for _, r := range p.Requirements {
			for _, g := range r.NamedPaths() {
				if strings.Contains(strings.ToLower(g), "session") {
					out = append(out, g)
				}
			}
		}
	}
	return out
}

// MCPCondition reads a condition about an MCP server being there ("if the
// serena MCP is not available"): the server's name, lower-cased, and
// whether the condition is negated (it holds while the server is not
// configured). ok is false when text states no such condition.
func MCPCondition(text string) (server string, negated, ok bool) {
	clause, found := Clause(text)
	if !found {
		return "", false, false
	}
	c := mcpConditionRE().FindStringSubmatch(clause)
	if c == nil {
		return "", false, false
	}
	return strings.ToLower(c[1]), c[2] != "", true
}

// CoreWork says why requirement r (or phase p as a whole, r nil) is the
// work itself, "" when it is not; gateRunsCommand says the phase's gate
// runs a command (asked only for a phase).
func CoreWork(p *protocolspec.Phase, r *protocolspec.Requirement, gateRunsCommand bool) string {
	if r != nil {
		if m := coreWorkRE().FindString(r.Text); m != "" {
			return fmt.Sprintf("it asks about %q", strings.ToLower(m))
		}
		return ""
	}
	if gateRunsCommand {
		return "its gate runs a command"
	}
	if m := coreTitleRE().FindString(p.Title); m != "" {
		return fmt.Sprintf("its title says %q", m)
	}
	for _, o := range p.OwedRequirements() {
		if m := coreWorkRE().FindString(o.Text); m != "" {
			return fmt.Sprintf("its requirement %s asks about %q", o.ID, strings.ToLower(m))
		}
	}
	return ""
}

// FixesReports reports a requirement to fix what checks, tests or
// linters report: whether there is anything to fix is the checks' own
// answer, never a mark's.
func FixesReports(text string) bool { return fixReqRE().MatchString(text) }

// NormalReason is a reason as two marks are compared: without case,
// spacing or end punctuation.
func NormalReason(s string) string {
	return strings.Trim(strings.Join(strings.Fields(strings.ToLower(s)), " "), ".!;:,")
}
