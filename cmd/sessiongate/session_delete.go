package main

import (
	"errors"
	"fmt"

	"github.com/sessiongate/sessiongate/session"
	"github.com/spf13/cobra"
)

// newSessionDeleteCmd is `sessiongate session delete`.
func newSessionDeleteCmd(a *app) *cobra.Command {
	var sessionID string
	var yes, eraseViolations, sign bool
	del := &cobra.Command{
		Use:   "delete ID",
		Short: "Remove a session and all its rows (hard delete; needs --yes)",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			if !yes {
				return usage(errors.New("delete removes the session's evidence, events and violations for good: pass --yes (or use terminate to keep them)"))
			}
			ctx := c.Context()
			e, id, err := a.resolveNamedSession(ctx, c, sessionID, argv)
			if err != nil {
				return err
			}
			// The policed agent neither removes its session nor erases its
			// violations: a person runs this outside the agent.
			pa, wt, err := a.personRemoval(ctx, e, session.ActDelete, id, sign)
			if err != nil {
				return err
			}
			del := e.Delete
			if eraseViolations {
				del = e.DeleteWithViolations
			}
			if err := del(ctx, id); err != nil {
				if errors.Is(err, session.ErrRefused) {
					return &exitError{code: exitBlocked, err: err}
				}
				return sessionErr(err)
			}
			a.noteRemoval(ctx, pa, wt)
			fmt.Fprintf(c.OutOrStdout(), "session %s deleted\n", id)
			return nil
		},
	}
	del.Flags().BoolVar(&yes, "yes", false, "confirm the hard delete")
	del.Flags().BoolVar(&eraseViolations, "erase-violations", false, "delete a session with recorded violations too, erasing them (refused under a coding agent)")
	del.Flags().BoolVar(&sign, "sign", false, "sign the act on the records ref with your git signing key: the proof verify takes when an agent conversation is open")
	addSessionFlag(a, del, &sessionID)
	return del
}
