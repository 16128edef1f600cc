package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// newSessionStatusCmd is `sessiongate session status`.
func newSessionStatusCmd(a *app) *cobra.Command {
	var sessionID string
	var asJSON bool
	status := &cobra.Command{
		Use:   "status [ID]",
		Short: "Show a session's state and checklist",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			e, id, err := a.resolveSession(ctx, sessionID, argv)
			var none *noActiveSession
			if errors.As(err, &none) {
				// Asking where things stand is not an error: there is no
				// session, and that is the answer (exit 0).
				if asJSON {
					return writeJSON(c.OutOrStdout(), struct {
						Active bool   `json:"active"`
						Next   string `json:"next"`
					}{false, none.next()})
				}
				fmt.Fprintf(c.OutOrStdout(), "no active session in %s\nnext: %s\n", none.root, none.next())
				return nil
			}
			if err != nil {
				return err
			}
			v, err := e.View(ctx, id)
			if err != nil {
				return sessionErr(err)
			}
			if asJSON {
				return writeJSON(c.OutOrStdout(), withVerdict(v))
			}
			printView(c.OutOrStdout(), v)
			if !v.Session.Active() {
				// An ended session's status ends with the verdict `session
				// end` printed, never a bare COMPLETE.
				fmt.Fprintln(c.OutOrStdout(), "\nverdict:", verdict(v))
			}
			return nil
		},
	}
	addSessionFlag(a, status, &sessionID)
	addJSON(status, &asJSON)
	return status
}
