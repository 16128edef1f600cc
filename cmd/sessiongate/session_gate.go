package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/session"
)

// newSessionGateCmd is `sessiongate session gate`.
func newSessionGateCmd(a *app) *cobra.Command {
	var sessionID string
	var asJSON bool
	var phase string
	gate := &cobra.Command{
		Use:   "gate [ID]",
		Short: "Check a phase's gate (default: the current phase); exit 1 when it fails",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			e, id, err := a.resolveSession(ctx, sessionID, argv)
			if err != nil {
				return err
			}
			g, err := e.ValidateGate(ctx, id, phase)
			if err != nil {
				return sessionErr(err)
			}
			if asJSON {
				if err := writeJSON(c.OutOrStdout(), g); err != nil {
					return err
				}
			} else {
				printGate(c.OutOrStdout(), *g)
			}
			if g.Status == session.StatusFail {
				return &exitError{code: exitBlocked, err: errors.New("")}
			}
			return nil
		},
	}
	gate.Flags().StringVar(&phase, "phase", "", "phase id (default: current)")
	addSessionFlag(a, gate, &sessionID)
	addJSON(gate, &asJSON)
	return gate
}
