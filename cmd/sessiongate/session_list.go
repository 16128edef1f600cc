package main

import (
	"context"
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
			rows, err := listVerdicts(ctx, e, ss)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(c.OutOrStdout(), rows)
			}
			sevs, err := listSeverities(ctx, e.Store, ss)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(c.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSTATE\tPHASE\tVIOLATIONS\tBRANCH\tUSER\tCREATED\tOBJECTIVE\tVERDICT")
			for _, r := range rows {
				s := r.Session
				user := s.UserEmail
				if user == "" {
					user = s.UserName
				}
				// The verdict last: it is the longest cell, and the one
				// `session status` prints (session.Verdict).
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.ID, s.State, orDash(s.Phase), severityCount(sevs[s.ID]), s.Branch, user, s.CreatedAt.Local().Format(time.DateTime), oneLine(s.Objective, 60), orDash(r.Verdict))
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

// severityReader is the one-query read of a page's violations that both
// stores have (the dashboard's list uses it too).
type severityReader interface {
	ViolationSeverities(ctx context.Context, ids []string) (map[string]map[string]int, error)
}

// listSeverities counts the listed sessions' violations per severity: one
// query for the page, not one per row (a row per session of 1,000 was
// 1,000 queries).
func listSeverities(ctx context.Context, st session.Store, ss []*session.Session) (map[string]map[string]int, error) {
	ids := make([]string, len(ss))
	for i, s := range ss {
		ids[i] = s.ID
	}
	if r, ok := st.(severityReader); ok {
		out, err := r.ViolationSeverities(ctx, ids)
		if err != nil {
			return nil, fmt.Errorf("list sessions: violations: %w", err)
		}
		return out, nil
	}
	// A store without it (a wrapper): a query per session.
	out := map[string]map[string]int{}
	for _, id := range ids {
		vs, err := st.ListViolations(ctx, session.ViolationFilter{SessionID: id, Limit: 1000})
		if err != nil {
			return nil, fmt.Errorf("list violations of %s: %w", id, err)
		}
		for _, v := range vs {
			if out[id] == nil {
				out[id] = map[string]int{}
			}
			out[id][v.Severity]++
		}
	}
	return out, nil
}

// listRow is a session of `session list` with its verdict: the session's
// own fields, then clean (absent while it runs), why not, and the line
// `session status` prints.
type listRow struct {
	*session.Session
	Clean    *bool    `json:"clean,omitempty"`
	NotClean []string `json:"not_clean,omitempty"`
	Verdict  string   `json:"verdict,omitempty"`
}

// listVerdicts reads the ended sessions' verdicts in one batch
// (session.Engine.VerdictViews), not three reads a row; a running one has
// none yet.
func listVerdicts(ctx context.Context, e *session.Engine, ss []*session.Session) ([]listRow, error) {
	views, err := e.VerdictViews(ctx, ss)
	if err != nil {
		return nil, fmt.Errorf("list sessions: verdict: %w", err)
	}
	rows := make([]listRow, len(ss))
	for i, s := range ss {
		rows[i].Session = s
		if v := views[s.ID]; v != nil {
			rows[i].Clean, rows[i].NotClean, rows[i].Verdict = session.Clean(v), session.NotCleanReasons(v), session.Verdict(v)
		}
	}
	return rows, nil
}
