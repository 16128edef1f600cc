package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
)

// newRecordsCmd handles the records ref by hand: the pre-push hook pushes
// it with every push; these are for a push the hook could not make, for
// bringing the team's records into a clone, and for looking.
func newRecordsCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "records",
		Short: "The session records ref (session_record: refs/...): push, pull, list",
	}
	// refOf is the configured records ref; the commands need one.
	refOf := func(c *cobra.Command) (string, string, error) {
		ctx := c.Context()
		r, err := a.gitRepo(ctx)
		if err != nil {
			return "", "", err
		}
		cfg, err := a.config(ctx)
		if err != nil {
			return "", "", err
		}
		if !session.IsRecordRef(cfg.SessionRecord) {
			return "", "", usage(fmt.Errorf("session_record is %q, not a records ref: set session_record: %s in sessiongate.yaml (docs/team.md, Records ref)", cfg.SessionRecord, recordref.DefaultRef))
		}
		return r.Root(), cfg.SessionRecord, nil
	}
	remoteArg := func(argv []string) string {
		if len(argv) == 1 {
			return argv[0]
		}
		return "origin"
	}
	push := &cobra.Command{
		Use:   "push [REMOTE]",
		Short: "Push the records ref (default remote: origin), merging the remote's records first when it moved",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			dir, ref, err := refOf(c)
			if err != nil {
				return err
			}
			a.foldPendingStops(c.Context())
			a.foldRecordedStops(c.Context())
			res, err := recordref.Push(c.Context(), dir, remoteArg(argv), ref)
			if err != nil {
				return usage(err)
			}
			switch {
			case res.Skipped:
				fmt.Fprintf(c.OutOrStdout(), "no records on %s yet: nothing to push\n", ref)
			default:
				fmt.Fprintf(c.OutOrStdout(), "pushed %s at %.12s to %s (%d merge round(s))\n", ref, res.Tip, remoteArg(argv), res.Merges)
			}
			return nil
		},
	}
	pull := &cobra.Command{
		Use:   "pull [REMOTE]",
		Short: "Fetch the remote's records ref and merge it into the local one (nothing local is lost)",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			dir, ref, err := refOf(c)
			if err != nil {
				return err
			}
			tip, err := recordref.Pull(c.Context(), dir, remoteArg(argv), ref)
			if err != nil {
				return usage(err)
			}
			if tip == "" {
				fmt.Fprintf(c.OutOrStdout(), "no records on %s here or on %s\n", ref, remoteArg(argv))
				return nil
			}
			fmt.Fprintf(c.OutOrStdout(), "%s at %.12s\n", ref, tip)
			return nil
		},
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List the session ids with a record on the records ref",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			dir, ref, err := refOf(c)
			if err != nil {
				return err
			}
			tip, err := recordref.Tip(c.Context(), dir, ref)
			if err != nil {
				return usage(err)
			}
			if tip == "" {
				return usage(fmt.Errorf("%s is not in this clone: `sessiongate records pull` brings the remote's", ref))
			}
			ids, err := recordref.List(c.Context(), dir, tip)
			if err != nil {
				return usage(err)
			}
			for _, id := range ids {
				fmt.Fprintln(c.OutOrStdout(), id)
			}
			return nil
		},
	}
	cmd.AddCommand(push, pull, list)
	return cmd
}
