package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/session"
)

// newSessionEvidenceCmd is `sessiongate session evidence`.
func newSessionEvidenceCmd(a *app) *cobra.Command {
	var sessionID string
	var asJSON bool
	var phase, kind, value, step, requirement, notApplicable, ref string
	evidence := &cobra.Command{
		Use:   "evidence [ID]",
		Short: "Record evidence for a phase or one of its requirements (--value TEXT, or --value - to read stdin)",
		Long: `Record evidence for a phase, or for one of its requirements (--requirement ID;
the ids are in 'sessiongate protocol show'). A conditional requirement that
does not apply is recorded with --not-applicable "REASON" instead.`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			e, id, err := a.resolveSession(ctx, sessionID, argv)
			if err != nil {
				return err
			}
			if kind == "" && !c.Flags().Changed("not-applicable") {
				return usage(fmt.Errorf("--type is required: one of %s\nSee '%s --help'.", strings.Join(session.EvidenceKinds, ", "), c.CommandPath()))
			}
			body := value
			if notApplicable != "" {
				if value != "" {
					return usage(errors.New("--not-applicable carries the reason; drop --value"))
				}
				body = notApplicable
			}
			var stream io.Reader
			if value == "-" {
				// Streamed into the hash: a go test -v log is larger than
				// the 64 KiB a stored body may be.
				stream, body = a.stdin, ""
			}
			cwd, _ := os.Getwd() // a relative path is read from here when it names a file here
			ev, err := e.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: phase, Kind: kind, Evidence: body, Step: step,
				Requirement: requirement, NotApplicable: c.Flags().Changed("not-applicable"), Ref: ref, Stream: stream, Cwd: cwd})
			if err != nil {
				return sessionErr(err)
			}
			if asJSON {
				return writeJSON(c.OutOrStdout(), ev)
			}
			for _, w := range ev.Warnings {
				fmt.Fprintln(c.OutOrStdout(), "warning:", w)
			}
			if ev.Step == session.StepNotApplicable {
				fmt.Fprintf(c.OutOrStdout(), "recorded %s as not applicable: %s\n", ev.Requirement, ev.Ref)
				return nil
			}
			fmt.Fprintf(c.OutOrStdout(), "recorded %s evidence for %s%s: sha256:%s %s\n", ev.Kind, ev.Phase, forRequirement(ev.Requirement), ev.SHA256, ev.Ref)
			return nil
		},
	}
	evidence.Flags().StringVar(&phase, "phase", "", "phase id (default: current)")
	evidence.Flags().StringVar(&kind, "type", "", "evidence type: "+strings.Join(session.EvidenceKinds, ", "))
	evidence.Flags().StringVar(&value, "value", "", "the evidence: output, path, commit sha or decision; - reads stdin")
	evidence.Flags().StringVar(&step, "step", "", "checklist step; 'condition' records that a conditional gate does not apply")
	evidence.Flags().StringVar(&requirement, "requirement", "", "requirement id the evidence satisfies (PHASE.slug, or the slug within --phase)")
	evidence.Flags().StringVar(&notApplicable, "not-applicable", "", "REASON: record that --requirement (or, without it, the phase) does not apply; without a condition sessiongate can check, the mark waits for a person (session accept-na)")
	evidence.Flags().StringVar(&ref, "ref", "", "manual evidence: the short reference stored (the text itself is not stored, only its sha256)")
	addSessionFlag(a, evidence, &sessionID)
	addJSON(evidence, &asJSON)
	return evidence
}
