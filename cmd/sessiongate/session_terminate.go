package main

import (
	"fmt"

	"github.com/sessiongate/sessiongate/session"
	"github.com/spf13/cobra"
)

// newSessionTerminateCmd is `sessiongate session terminate`.
func newSessionTerminateCmd(a *app) *cobra.Command {
	var sessionID, reason string
	var sign bool
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
			// A person's act: not under the agent's process, and recorded
			// with the agent conversations open in the worktree (personact.go).
			pa, wt, err := a.personRemoval(ctx, e, session.ActTerminate, id, sign)
			if err != nil {
				return err
			}
			s, err := e.Terminate(ctx, id, reason)
			if err != nil {
				return sessionErr(err)
			}
			a.noteRemoval(ctx, pa, wt)
			fmt.Fprintf(c.OutOrStdout(), "session %s terminated: %s\n", s.ID, s.TerminateReason)
			return nil
		},
	}
	terminate.Flags().StringVar(&reason, "reason", "", "why (required)")
	terminate.Flags().BoolVar(&sign, "sign", false, "sign the act on the records ref with your git signing key: the proof verify takes when an agent conversation is open")
	addSessionFlag(a, terminate, &sessionID)
	return terminate
}
