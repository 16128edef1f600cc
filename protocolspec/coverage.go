package protocolspec

import (
	"fmt"
	"sort"
)

// PhaseCoverage says how a phase's gate is enforced, for `protocol lint`.
type PhaseCoverage struct {
	ID      string    `json:"id"`
	Section string    `json:"section"`
	Number  string    `json:"number"`
	Title   string    `json:"title"`
	Gate    GateLevel `json:"gate"`
	// Binding is the level enforced (Gate, or what an unmarked phase
	// binds at: binding.go).
	Binding GateLevel `json:"binding"`
	Line    int       `json:"line"`
	// MachineChecked is true when a check other than evidence decides the gate.
	MachineChecked bool `json:"machine_checked"`
	// Builtin is true when the checks came from the built-in title table.
	Builtin bool        `json:"builtin"`
	Kinds   []CheckKind `json:"kinds"`
	// Must counts MUST and MUST NOT requirements: the evidence a
	// must_evidence check asks for.
	Must int `json:"must"`
}

// Coverage lists, per phase in document order, whether its gate is
// machine-checked or relies on recorded evidence.
func (s *Spec) Coverage() []PhaseCoverage {
	out := make([]PhaseCoverage, 0, len(s.Phases))
	for i := range s.Phases {
		p := &s.Phases[i]
		c := PhaseCoverage{
			ID: p.ID, Section: p.Section, Number: p.Number, Title: p.Title, Gate: p.Gate, Binding: p.Level(), Line: p.Line,
			MachineChecked: p.MachineChecked(), Kinds: []CheckKind{},
		}
		for _, ch := range p.Checks {
			c.Kinds = append(c.Kinds, ch.Kind)
			c.Builtin = c.Builtin || ch.Builtin
		}
		for _, r := range p.Requirements {
			if r.Level == LevelMust || r.Level == LevelMustNot {
				c.Must++
			}
		}
		out = append(out, c)
	}
	return out
}

// Lint returns advice about a parsed spec that is valid but weak: gates
// that cannot fail, mandatory phases only an agent's word can pass, phases
// with nothing to require. Parse warnings are not repeated.
func Lint(s *Spec) []Warning {
	var out []Warning
	for _, c := range s.Coverage() {
		p, _ := s.Phase(c.ID)
		if len(p.Requirements) == 0 {
			out = append(out, Warning{Line: c.Line, Message: fmt.Sprintf("phase %s has no RFC 2119 requirements (MUST, SHOULD, MAY ...) and no imperative ones (\"Run the tests\")", c.ID)})
		}
		if !c.MachineChecked && p.Mandatory() {
			out = append(out, Warning{Line: c.Line, Message: fmt.Sprintf("%s phase %s relies on recorded evidence only; add a gate annotation for a machine check", c.Binding, c.ID)})
		}
		if len(c.Kinds) == 1 && c.Kinds[0] == CheckMustEvidence && c.Must == 0 {
			out = append(out, Warning{Line: c.Line, Message: fmt.Sprintf("phase %s has no MUST requirement, so its must_evidence gate asks for a single piece of evidence", c.ID)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}
