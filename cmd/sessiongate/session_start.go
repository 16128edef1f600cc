package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/session"
)

// newSessionStartCmd is `sessiongate session start`.
func newSessionStartCmd(a *app) *cobra.Command {
	var asJSON bool
	var objective, branch, startCommit string
	start := &cobra.Command{
		Use:   "start",
		Short: "Start a session in this worktree",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			ctx := c.Context()
			e, err := a.sessionEngine(ctx)
			if err != nil {
				return err
			}
			spec, err := a.loadSpec(ctx)
			if err != nil {
				return err
			}
			r, err := a.gitRepo(ctx)
			if err != nil {
				return err
			}
			// A phase id the config names that the protocol lacks would
			// silently disable that gate.
			if err := a.checkConfigPhases(ctx, spec); err != nil {
				return err
			}
			res, err := e.Start(ctx, session.StartRequest{Repo: r, Spec: spec, Objective: objective, Branch: branch, StartingCommit: startCommit})
			if errors.Is(err, session.ErrProtectedChanged) {
				return &exitError{code: exitBlocked, err: err}
			}
			if err != nil {
				return usage(err)
			}
			// A worktree runs one session: the engine ended the one still
			// active as ABANDONED. Said on stderr (stdout stays the new
			// session's), and in --json as superseded_sessions.
			for _, id := range res.Superseded {
				where := ""
				if old, err := e.Store.GetSession(ctx, id); err == nil && old.Phase != "" {
					where = " at " + old.Phase
				}
				fmt.Fprintf(c.ErrOrStderr(), "sessiongate: session %s was still active in this worktree%s: it is now ABANDONED (superseded by %s); "+
					"its commits and violations stay recorded, and it cannot be resumed\n"+
					"  to carry on a session instead of replacing it, check `sessiongate session status` before `session start`\n", id, where, res.SessionID)
			}
			for _, n := range res.Notices {
				fmt.Fprintf(c.ErrOrStderr(), "sessiongate: %s\n", n)
			}
			if asJSON {
				return writeJSON(c.OutOrStdout(), res)
			}
			w := c.OutOrStdout()
			fmt.Fprintf(w, "session %s started at %s (%s)\n", res.SessionID, res.Phase, res.State)
			if len(res.BlockedUntil) > 0 {
				fmt.Fprintf(w, "work is blocked until these gates pass: %s\n", strings.Join(res.BlockedUntil, ", "))
			}
			for _, v := range res.Carried {
				fmt.Fprintf(w, "previous session's violation: %s %s: %s\n", v.Severity, v.Code, v.Message)
			}
			fmt.Fprintf(w, "export SESSIONGATE_SESSION=%s\n", res.SessionID)
			return nil
		},
	}
	start.Flags().StringVar(&objective, "objective", "", "what the session is for (required)")
	start.Flags().StringVar(&branch, "branch", "", "branch (default: the worktree's)")
	start.Flags().StringVar(&startCommit, "starting-commit", "", "starting commit (default: HEAD)")
	addJSON(start, &asJSON)
	return start
}
