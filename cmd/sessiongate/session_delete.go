package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// newSessionDeleteCmd is `sessiongate session delete`.
func newSessionDeleteCmd(a *app) *cobra.Command {
	var sessionID string
	var yes bool
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
			if err := e.Delete(ctx, id); err != nil {
				return sessionErr(err)
			}
			fmt.Fprintf(c.OutOrStdout(), "session %s deleted\n", id)
			return nil
		},
	}
	del.Flags().BoolVar(&yes, "yes", false, "confirm the hard delete")
	addSessionFlag(a, del, &sessionID)
	return del
}
