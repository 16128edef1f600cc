package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/session"
)

// newSessionEndCmd is `sessiongate session end`.
func newSessionEndCmd(a *app) *cobra.Command {
	var sessionID string
	var asJSON bool
	var summary, notes string
	var skipQA bool
	end := &cobra.Command{
		Use:   "end [ID]",
		Short: "Validate the end phases and complete the session; exit 1 when blocked",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			e, id, err := a.resolveSession(ctx, sessionID, argv)
			if err != nil {
				return err
			}
			// A stop let through unchecked whose note was deleted is on
			// the records ref: judged before the session can complete.
			a.foldRecordedStops(ctx)
			res, err := e.End(ctx, session.EndRequest{ID: id, Summary: summary, NextNotes: notes, SkipQA: skipQA})
			if err != nil {
				return sessionErr(err)
			}
			if res.Ended {
				// The verdict, not the bare state: COMPLETE with a
				// CRITICAL BYPASS, or a gate that checked nothing, is not
				// what it seems (the same line MCP session_end gives).
				if v, err := e.View(ctx, id); err == nil {
					res.Verdict = verdict(v)
				}
			}
			if asJSON {
				if err := writeJSON(c.OutOrStdout(), res); err != nil {
					return err
				}
			} else {
				for _, g := range res.Gates {
					printGate(c.OutOrStdout(), g)
				}
				for _, w := range res.Warnings {
					fmt.Fprintln(c.OutOrStdout(), "warning:", w)
				}
				line := string(res.State)
				if res.Verdict != "" {
					line = res.Verdict
				}
				fmt.Fprintf(c.OutOrStdout(), "%s\nnext: %s\n", line, cliNext(res.NextSteps, res.Next))
			}
			if !res.Ended {
				return &exitError{code: exitBlocked, err: fmt.Errorf("session end blocked at %s: %s", res.Blocked.Phase, res.Blocked.Reason)}
			}
			return nil
		},
	}
	end.Flags().StringVar(&summary, "summary", "", "what the session did (required)")
	end.Flags().StringVar(&notes, "notes", "", "notes for the next session")
	end.Flags().BoolVar(&skipQA, "skip-qa", false, "skip QA validation (only when every changed file is documentation, and the protocol lets the agent skip QA or QA runs no command)")
	addSessionFlag(a, end, &sessionID)
	addJSON(end, &asJSON)
	return end
}
