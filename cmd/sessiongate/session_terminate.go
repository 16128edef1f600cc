package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// newSessionTerminateCmd is `sessiongate session terminate`.
func newSessionTerminateCmd(a *app) *cobra.Command {
	var sessionID, reason string
	terminate := &cobra.Command{
		Use:   "terminate ID",
		Short: "End a session by hand, keeping its data (soft delete)",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			e, id, err := a.resolveNamedSession(ctx, c, sessionID, argv)
			if err != nil {
				return err
			}
			if err := refuseUnderAgent("session terminate"); err != nil {
				return err
			}
			s, err := e.Terminate(ctx, id, reason)
			if err != nil {
				return sessionErr(err)
			}
			fmt.Fprintf(c.OutOrStdout(), "session %s terminated: %s\n", s.ID, s.TerminateReason)
			return nil
		},
	}
	terminate.Flags().StringVar(&reason, "reason", "", "why (required)")
	addSessionFlag(a, terminate, &sessionID)
	return terminate
}
