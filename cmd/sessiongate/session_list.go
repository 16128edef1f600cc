package main

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/session"
)

// newSessionListCmd is `sessiongate session list`.
func newSessionListCmd(a *app) *cobra.Command {
	var asJSON bool
	var states string
	var limit int
	var who session.SessionFilter // User, Host, Repo
	list := &cobra.Command{
		Use:   "list",
		Short: "List sessions, newest first",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			ctx := c.Context()
			e, err := a.sessionEngine(ctx)
			if err != nil {
				return err
			}
			if limit < 1 || limit > maxListLimit {
				return usage(fmt.Errorf("--limit %d: want 1 to %d", limit, maxListLimit))
			}
			f := session.SessionFilter{Limit: limit, User: who.User, Host: who.Host, Repo: who.Repo}
			if states != "" {
				for _, name := range strings.Split(states, ",") {
					st, err := session.ParseState(name)
					if err != nil {
						return usage(err)
					}
					f.States = append(f.States, st)
				}
			}
			ss, err := e.Store.ListSessions(ctx, f)
			if err != nil {
				return usage(err)
			}
			if asJSON {
				if ss == nil {
					ss = []*session.Session{}
				}
				return writeJSON(c.OutOrStdout(), ss)
			}
			tw := tabwriter.NewWriter(c.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSTATE\tPHASE\tVIOLATIONS\tBRANCH\tUSER\tCREATED\tOBJECTIVE")
			for _, s := range ss {
				user := s.UserEmail
				if user == "" {
					user = s.UserName
				}
				vs, err := e.Store.ListViolations(ctx, session.ViolationFilter{SessionID: s.ID, Limit: 1000})
				if err != nil {
					return fmt.Errorf("list violations of %s: %w", s.ID, err)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.ID, s.State, orDash(s.Phase), violationCount(vs), s.Branch, user, s.CreatedAt.Local().Format(time.DateTime), oneLine(s.Objective, 60))
			}
			return tw.Flush()
		},
	}
	list.Flags().StringVar(&states, "state", "", "comma-separated states (INIT,WORKING,ENDING,COMPLETE,ABANDONED,TERMINATED)")
	list.Flags().IntVar(&limit, "limit", 50, fmt.Sprintf("maximum rows (1 to %d)", maxListLimit))
	list.Flags().StringVar(&who.User, "user", "", "only sessions run by this user (email or name, exact)")
	list.Flags().StringVar(&who.Host, "host", "", "only sessions run on this host")
	list.Flags().StringVar(&who.Repo, "repo", "", "only sessions of this repository: its normalized origin URL (e.g. github.com/o/r), or its root without one")
	addJSON(list, &asJSON)
	return list
}
