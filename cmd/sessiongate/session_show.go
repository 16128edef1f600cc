package main

import (
	"context"
	"errors"
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
			var none *noActiveSession
			if errors.As(err, &none) {
				// Right after `session end` there is no active session:
				// show the last one of this worktree, and say so.
				if e, id, err = a.lastSession(ctx); err == nil {
					fmt.Fprintf(c.ErrOrStderr(), "no active session in %s: showing the last one\n", none.root)
				}
			}
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
					viewWithVerdict
					Events []session.Event `json:"events"`
				}{withVerdict(v), evs})
			}
			printView(c.OutOrStdout(), v)
			if !v.Session.Active() {
				fmt.Fprintln(c.OutOrStdout(), "\nverdict:", verdict(v))
			}
			fmt.Fprintln(c.OutOrStdout(), "\nevents:")
			for _, ev := range evs {
				fmt.Fprintf(c.OutOrStdout(), "  %4d  %s  %s\n", ev.Seq, ev.CreatedAt.Local().Format(time.DateTime), ev.Token)
				if r := ev.Repeated; r != nil {
					fmt.Fprintf(c.OutOrStdout(), "        asked again %d time(s) with the same answer, %s to %s\n", r.Repeats,
						r.FirstAt.Local().Format(time.DateTime), r.LastAt.Local().Format(time.DateTime))
				}
			}
			return nil
		},
	}
	addSessionFlag(a, show, &sessionID)
	addJSON(show, &asJSON)
	return show
}

// lastSession is the newest session of this worktree, active or not.
func (a *app) lastSession(ctx context.Context) (*session.Engine, string, error) {
	e, err := a.sessionEngine(ctx)
	if err != nil {
		return nil, "", err
	}
	r, err := a.gitRepo(ctx)
	if err != nil {
		return nil, "", err
	}
	none := usage(&noActiveSession{root: r.Root()})
	repo, err := e.Store.RepositoryByRoot(ctx, r.MainRoot())
	if err != nil {
		return nil, "", none
	}
	ss, err := e.Store.ListSessions(ctx, session.SessionFilter{RepoID: repo.ID, Worktree: r.Root(), Limit: 1})
	if err != nil || len(ss) == 0 {
		return nil, "", none
	}
	return e, ss[0].ID, nil
}
