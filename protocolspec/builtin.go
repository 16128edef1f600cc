package protocolspec

import "strings"

// builtinCheck is one row of the built-in gate table (the ADR-011 gates),
// used for phases that carry no gate annotation.
type builtinCheck struct {
	match []string // lower-case substrings of the title; any one matches
	kind  CheckKind
	arg   string
}

// builtinChecks is tried in order; the first row whose substring occurs in
// the (lower-cased) title wins.
var builtinChecks = []builtinCheck{
	// The agent's tool initialisation leaves nothing in the repository;
	// only the tool's own output proves it ran.
	{[]string{"serena", "initialization", "initialisation"}, CheckEvidence, "tool_output"},
	// Reading the handoff is proven by recording the hash of what was read.
	{[]string{"context retrieval"}, CheckContentHash, ".agents/HANDOFF.md"},
	{[]string{"session log"}, CheckFileExists, ".agents/sessions/*"},
	// Git state is known to the engine already (it records branch and
	// starting commit); the phase asks the agent to look, so the proof is
	// the output of git status / git log it saw.
	{[]string{"git state"}, CheckEvidence, "tool_output"},
	// Since v1.4 the handoff file MUST NOT be modified; documentation goes
	// to the session log, so that is what must have changed.
	{[]string{"documentation update"}, CheckChangedSinceStart, ".agents/sessions/*"},
	{[]string{"quality check"}, CheckCommand, "npx markdownlint-cli2 {changed:*.md}"},
	{[]string{"qa validation"}, CheckFileExists, ".agents/qa/*"},
	{[]string{"git operation"}, CheckCommitSinceStart, ""},
}

// builtinFor returns the built-in checks for a phase title: a table row, or
// one must_evidence check (evidence owed for each MUST requirement).
func builtinFor(title string, line int) []Check {
	l := strings.ToLower(title)
	for _, b := range builtinChecks {
		for _, m := range b.match {
			if strings.Contains(l, m) {
				return []Check{{Kind: b.kind, Arg: b.arg, Builtin: true, Line: line}}
			}
		}
	}
	return []Check{{Kind: CheckMustEvidence, Builtin: true, Line: line}}
}
