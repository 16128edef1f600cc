package main

import (
	"errors"
	"fmt"
	"github.com/sessiongate/sessiongate/eventpin"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/verify"
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
	var sessionsOf string
	var keepLocal bool
	push := &cobra.Command{
		Use:   "push [REMOTE]",
		Short: "Push the records ref (default remote: origin), merging the remote's records first when it moved",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			dir, ref, err := refOf(c)
			if err != nil {
				return err
			}
			if sessionsOf != "" {
				return pushPicked(c, a, dir, remoteArg(argv), ref, sessionsOf)
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
	push.Flags().StringVar(&sessionsOf, "sessions-of", "", "push only the records of the sessions named by the Session-Id trailers of this range's commits (and the sessions they continue): a fork's pull request, BASE..HEAD")
	pull := &cobra.Command{
		Use:   "pull [REMOTE]",
		Short: "Fetch the remote's records ref and merge it into the local one (nothing local is lost)",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			dir, ref, err := refOf(c)
			if err != nil {
				return err
			}
			pullFn := recordref.Pull
			if keepLocal {
				pullFn = recordref.PullKeepLocal
			}
			tip, err := pullFn(c.Context(), dir, remoteArg(argv), ref)
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
	// CI merging a fork's records into origin's: a record both hold with
	// other bytes is judged as origin holds it (docs/security.md, helper 368).
	pull.Flags().BoolVar(&keepLocal, "keep-local", false, "a record both refs hold with other bytes keeps the local version unless the remote's history holds it (a later version): CI merging a fork's records into origin's")
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

// pushPicked pushes only the records of the sessions behind rng's commits
// (fork-records: push in action.yml): a fork's records ref holds every
// session the fork ever ran, and its actor claims and acceptances, which a
// pull request must not bring to origin unseen. Exit 1 when a picked
// record differs from the remote's copy (a person decides), 2 when the
// push itself fails.
func pushPicked(c *cobra.Command, a *app, dir, remote, ref, rng string) error {
	ctx := c.Context()
	r, err := a.gitRepo(ctx)
	if err != nil {
		return err
	}
	commits, err := r.Log(ctx, rng)
	if err != nil {
		return usage(fmt.Errorf("--sessions-of %s: %w", rng, err))
	}
	var ids, pins []string
	for _, cm := range commits {
		for _, id := range cm.Trailers[verify.TrailerSession] {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		// The records commit each commit's pre-commit pinned: verify fails
		// a commit whose pin the ref does not hold (RECORDS_REWOUND).
		if ps := cm.Trailers[eventpin.TrailerPinKey]; len(ps) > 0 && len(cm.Trailers[verify.TrailerSession]) > 0 {
			pins = append(pins, ps[len(ps)-1])
		}
	}
	res, err := recordref.PushPicked(ctx, dir, remote, ref, ids, pins)
	var ce *recordref.ConflictError
	switch {
	case errors.As(err, &ce):
		return blocked("not pushed: %v (sessiongate records pull <the fork's URL> shows both; a person decides)", err)
	case err != nil:
		return usage(err)
	case len(ids) == 0:
		fmt.Fprintf(c.OutOrStdout(), "the commits of %s name no session: no records to push\n", rng)
	case res.Skipped:
		fmt.Fprintf(c.OutOrStdout(), "no records of session(s) %s on %s: nothing to push\n", strings.Join(ids, ", "), ref)
	case !res.Pushed:
		fmt.Fprintf(c.OutOrStdout(), "%s already holds the %d record file(s) of session(s) %s: nothing to push\n", remote, len(res.Paths), strings.Join(res.Sessions, ", "))
	default:
		fmt.Fprintf(c.OutOrStdout(), "pushed %d record file(s) of session(s) %s to %s %s at %.12s; %d other file(s) of %s not pushed\n",
			len(res.Paths), strings.Join(res.Sessions, ", "), remote, ref, res.Tip, res.Left, ref)
	}
	return nil
}
