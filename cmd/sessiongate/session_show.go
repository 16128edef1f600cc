package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/session"
)

// newSessionShowCmd is `sessiongate session show`.
func newSessionShowCmd(a *app) *cobra.Command {
	var sessionID string
	var asJSON bool
	show := &cobra.Command{
		Use:   "show [ID]",
		Short: "Show a session with its phases, evidence, violations and events (default: the active session)",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			e, id, err := a.resolveSession(ctx, sessionID, argv)
			if err != nil {
				return err
			}
			v, err := e.View(ctx, id)
			if err != nil {
				return sessionErr(err)
			}
			evs, err := e.History(ctx, id)
			if err != nil {
				return sessionErr(err)
			}
			if asJSON {
				return writeJSON(c.OutOrStdout(), struct {
					*session.StateView
					Events []session.Event `json:"events"`
				}{v, evs})
			}
			printView(c.OutOrStdout(), v)
			fmt.Fprintln(c.OutOrStdout(), "\nevents:")
			for _, ev := range evs {
				fmt.Fprintf(c.OutOrStdout(), "  %4d  %s  %s\n", ev.Seq, ev.CreatedAt.Local().Format(time.DateTime), ev.Token)
			}
			return nil
		},
	}
	addSessionFlag(a, show, &sessionID)
	addJSON(show, &asJSON)
	return show
}
