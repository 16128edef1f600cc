package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// printRequirements lists every requirement and checklist row of every
// phase with its id, the name evidence, not-applicable records and
// `sessiongate run --requirement` use.
func printRequirements(w io.Writer, spec *protocolspec.Spec) {
	fmt.Fprintln(w, "\nrequirements (OWES: evidence owed by a must_evidence gate; cond: may be marked not applicable; summary: met when the rest are):")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tLEVEL\tFLAGS\tLINE\tTEXT")
	for i := range spec.Phases {
		p := &spec.Phases[i]
		owed := map[string]bool{}
		for _, c := range p.Checks {
			if c.Kind == protocolspec.CheckMustEvidence {
				for _, r := range p.OwedRequirements() {
					owed[r.ID] = true
				}
			}
		}
		seen := map[string]bool{}
		row := func(id, level string, line int, text string, cond, summary, checklist bool) {
			var flags []string
			if owed[id] {
				flags = append(flags, "OWES")
			}
			if cond {
				flags = append(flags, "cond")
			}
			if summary {
				flags = append(flags, "summary")
			}
			if checklist {
				flags = append(flags, "row")
			}
			if level == "" {
				level = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", id, level, strings.Join(flags, ","), line, oneLine(text, 70))
		}
		for _, r := range p.Requirements {
			seen[r.ID] = true
			row(r.ID, r.Level, r.Line, r.Text, r.Conditional, r.Summary, false)
		}
		for _, c := range p.Checklist {
			if !seen[c.ID] {
				row(c.ID, c.Level, c.Line, c.Step, p.Condition != "" || protocolspec.IsConditional(c.Step), false, true)
			}
		}
	}
	tw.Flush()
}

// printRequirementStatus lists, for each phase that owes evidence per
// requirement and is not settled, where each requirement stands by id.
func printRequirementStatus(w io.Writer, v *session.StateView) {
	for _, it := range v.Checklist {
		if it.Status == session.PhasePassed || it.Status == session.PhaseForced || it.Status == session.PhaseSkipped {
			continue
		}
		var lines []string
		for _, r := range it.RequirementList {
			if r.Status != "" {
				lines = append(lines, fmt.Sprintf("  %-14s %s", r.Status, r.ID))
			}
		}
		if len(lines) > 0 {
			fmt.Fprintf(w, "\nrequirements of %s (record evidence with --requirement ID):\n%s\n", it.Phase, strings.Join(lines, "\n"))
		}
	}
}
