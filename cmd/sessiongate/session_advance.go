package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/session"
)

// newSessionAdvanceCmd is `sessiongate session advance`.
func newSessionAdvanceCmd(a *app) *cobra.Command {
	var sessionID string
	var asJSON bool
	var target, reason string
	var force bool
	advance := &cobra.Command{
		Use:   "advance [ID]",
		Short: "Move to the next phase (or --to PHASE) when gates pass; exit 1 when blocked",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			e, id, err := a.resolveSession(ctx, sessionID, argv)
			if err != nil {
				return err
			}
			res, err := e.Advance(ctx, session.AdvanceRequest{ID: id, Target: target, Force: force, Reason: reason})
			if err != nil {
				return sessionErr(err)
			}
			if asJSON {
				if err := writeJSON(c.OutOrStdout(), res); err != nil {
					return err
				}
			} else {
				w := c.OutOrStdout()
				for _, g := range res.Gates {
					printGate(w, g)
				}
				for _, wa := range res.Warnings {
					fmt.Fprintln(w, "warning:", wa)
				}
				for _, v := range res.Violations {
					fmt.Fprintf(w, "violation recorded: %s %s: %s\n", v.Severity, v.Code, v.Message)
				}
				fmt.Fprintf(w, "%s -> %s (%s)\nnext: %s\n", res.From, res.To, res.State, cliNext(res.NextSteps, res.Next))
			}
			if !res.Advanced {
				return &exitError{code: exitBlocked, err: fmt.Errorf("blocked at %s: %s", res.Blocked.Phase, res.Blocked.Reason)}
			}
			return nil
		},
	}
	advance.Flags().StringVar(&target, "to", "", "target phase id or WORKING")
	advance.Flags().BoolVar(&force, "force", false, "skip failing mandatory gates (recorded as violations)")
	advance.Flags().StringVar(&reason, "reason", "", "why (required with --force)")
	addSessionFlag(a, advance, &sessionID)
	addJSON(advance, &asJSON)
	return advance
}
