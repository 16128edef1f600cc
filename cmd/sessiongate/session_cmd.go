package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/policy"
	"github.com/sessiongate/sessiongate/session"
)

func newSessionCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "session",
		Short: "Drive a session from the command line (the MCP tools' mirror)",
		Long: `Drive a session from the command line. Every command that acts on a session
names it the same way: an ID argument or --session ID (the same thing; a full id
or an unambiguous prefix of at least 4 characters, as 'session list' prints
them), else SESSIONGATE_SESSION, else the active session of this worktree.
terminate and delete need the session named explicitly.`,
	}
	var sessionID string
	var asJSON bool
	addSessionFlag := func(c *cobra.Command) {
		c.Flags().StringVar(&sessionID, "session", "", "session id or unambiguous prefix (default: SESSIONGATE_SESSION, then this worktree's active session)")
		if c.ValidArgsFunction == nil {
			c.ValidArgsFunction = a.completeSessionArg
		}
	}
	addJSON := func(c *cobra.Command) { c.Flags().BoolVar(&asJSON, "json", false, "print JSON") }

	// start
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
	addJSON(start)

	// status
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
				return writeJSON(c.OutOrStdout(), v)
			}
			printView(c.OutOrStdout(), v)
			return nil
		},
	}
	addSessionFlag(status)
	addJSON(status)

	// gate
	var phase string
	gate := &cobra.Command{
		Use:   "gate [ID]",
		Short: "Check a phase's gate (default: the current phase); exit 1 when it fails",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			e, id, err := a.resolveSession(ctx, sessionID, argv)
			if err != nil {
				return err
			}
			g, err := e.ValidateGate(ctx, id, phase)
			if err != nil {
				return sessionErr(err)
			}
			if asJSON {
				if err := writeJSON(c.OutOrStdout(), g); err != nil {
					return err
				}
			} else {
				printGate(c.OutOrStdout(), *g)
			}
			if g.Status == session.StatusFail {
				return &exitError{code: exitBlocked, err: errors.New("")}
			}
			return nil
		},
	}
	gate.Flags().StringVar(&phase, "phase", "", "phase id (default: current)")
	addSessionFlag(gate)
	addJSON(gate)

	// advance
	var target, reason string
	var force bool
	advance := &cobra.Command{
		Use:   "advance [ID]",
		Short: "Move to the next phase (or --to PHASE) when gates pass; exit 1 when blocked",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			e, id, err := a.resolveSession(ctx, sessionID, argv)
			if err != nil {
				return err
			}
			res, err := e.Advance(ctx, session.AdvanceRequest{ID: id, Target: target, Force: force, Reason: reason})
			if err != nil {
				return sessionErr(err)
			}
			if asJSON {
				if err := writeJSON(c.OutOrStdout(), res); err != nil {
					return err
				}
			} else {
				w := c.OutOrStdout()
				for _, g := range res.Gates {
					printGate(w, g)
				}
				for _, wa := range res.Warnings {
					fmt.Fprintln(w, "warning:", wa)
				}
				for _, v := range res.Violations {
					fmt.Fprintf(w, "violation recorded: %s %s: %s\n", v.Severity, v.Code, v.Message)
				}
				fmt.Fprintf(w, "%s -> %s (%s)\nnext: %s\n", res.From, res.To, res.State, cliNext(res.NextSteps, res.Next))
			}
			if !res.Advanced {
				return &exitError{code: exitBlocked, err: fmt.Errorf("blocked at %s: %s", res.Blocked.Phase, res.Blocked.Reason)}
			}
			return nil
		},
	}
	advance.Flags().StringVar(&target, "to", "", "target phase id or WORKING")
	advance.Flags().BoolVar(&force, "force", false, "skip failing mandatory gates (recorded as violations)")
	advance.Flags().StringVar(&reason, "reason", "", "why (required with --force)")
	addSessionFlag(advance)
	addJSON(advance)

	// evidence
	var kind, value, step, requirement, notApplicable, ref string
	evidence := &cobra.Command{
		Use:   "evidence [ID]",
		Short: "Record evidence for a phase or one of its requirements (--value TEXT, or --value - to read stdin)",
		Long: `Record evidence for a phase, or for one of its requirements (--requirement ID;
the ids are in 'sessiongate protocol show'). A conditional requirement that
does not apply is recorded with --not-applicable "REASON" instead.`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			e, id, err := a.resolveSession(ctx, sessionID, argv)
			if err != nil {
				return err
			}
			if kind == "" && !c.Flags().Changed("not-applicable") {
				return usage(fmt.Errorf("--type is required: one of %s\nSee '%s --help'.", strings.Join(session.EvidenceKinds, ", "), c.CommandPath()))
			}
			body := value
			if notApplicable != "" {
				if value != "" {
					return usage(errors.New("--not-applicable carries the reason; drop --value"))
				}
				body = notApplicable
			}
			var stream io.Reader
			if value == "-" {
				// Streamed into the hash: a go test -v log is larger than
				// the 64 KiB a stored body may be.
				stream, body = a.stdin, ""
			}
			ev, err := e.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: phase, Kind: kind, Evidence: body, Step: step,
				Requirement: requirement, NotApplicable: c.Flags().Changed("not-applicable"), Ref: ref, Stream: stream})
			if err != nil {
				return sessionErr(err)
			}
			if asJSON {
				return writeJSON(c.OutOrStdout(), ev)
			}
			for _, w := range ev.Warnings {
				fmt.Fprintln(c.OutOrStdout(), "warning:", w)
			}
			if ev.Step == session.StepNotApplicable {
				fmt.Fprintf(c.OutOrStdout(), "recorded %s as not applicable: %s\n", ev.Requirement, ev.Ref)
				return nil
			}
			fmt.Fprintf(c.OutOrStdout(), "recorded %s evidence for %s%s: sha256:%s %s\n", ev.Kind, ev.Phase, forRequirement(ev.Requirement), ev.SHA256, ev.Ref)
			return nil
		},
	}
	evidence.Flags().StringVar(&phase, "phase", "", "phase id (default: current)")
	evidence.Flags().StringVar(&kind, "type", "", "evidence type: "+strings.Join(session.EvidenceKinds, ", "))
	evidence.Flags().StringVar(&value, "value", "", "the evidence: output, path, commit sha or decision; - reads stdin")
	evidence.Flags().StringVar(&step, "step", "", "checklist step; 'condition' records that a conditional gate does not apply")
	evidence.Flags().StringVar(&requirement, "requirement", "", "requirement id the evidence satisfies (PHASE.slug, or the slug within --phase)")
	evidence.Flags().StringVar(&notApplicable, "not-applicable", "", "REASON: record that the conditional --requirement does not apply")
	evidence.Flags().StringVar(&ref, "ref", "", "manual evidence: the short reference stored (the text itself is not stored, only its sha256)")
	addSessionFlag(evidence)
	addJSON(evidence)

	// end
	var summary, notes string
	var skipQA bool
	end := &cobra.Command{
		Use:   "end [ID]",
		Short: "Validate the end phases and complete the session; exit 1 when blocked",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			e, id, err := a.resolveSession(ctx, sessionID, argv)
			if err != nil {
				return err
			}
			res, err := e.End(ctx, session.EndRequest{ID: id, Summary: summary, NextNotes: notes, SkipQA: skipQA})
			if err != nil {
				return sessionErr(err)
			}
			if asJSON {
				if err := writeJSON(c.OutOrStdout(), res); err != nil {
					return err
				}
			} else {
				for _, g := range res.Gates {
					printGate(c.OutOrStdout(), g)
				}
				for _, w := range res.Warnings {
					fmt.Fprintln(c.OutOrStdout(), "warning:", w)
				}
				fmt.Fprintf(c.OutOrStdout(), "%s\nnext: %s\n", res.State, cliNext(res.NextSteps, res.Next))
			}
			if !res.Ended {
				return &exitError{code: exitBlocked, err: fmt.Errorf("session end blocked at %s: %s", res.Blocked.Phase, res.Blocked.Reason)}
			}
			return nil
		},
	}
	end.Flags().StringVar(&summary, "summary", "", "what the session did (required)")
	end.Flags().StringVar(&notes, "notes", "", "notes for the next session")
	end.Flags().BoolVar(&skipQA, "skip-qa", false, "skip QA validation (only when every changed file is documentation)")
	addSessionFlag(end)
	addJSON(end)

	// list
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
			fmt.Fprintln(tw, "ID\tSTATE\tPHASE\tBRANCH\tUSER\tCREATED\tOBJECTIVE")
			for _, s := range ss {
				user := s.UserEmail
				if user == "" {
					user = s.UserName
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.ID, s.State, s.Phase, s.Branch, user, s.CreatedAt.Local().Format(time.DateTime), oneLine(s.Objective, 60))
			}
			return tw.Flush()
		},
	}
	list.Flags().StringVar(&states, "state", "", "comma-separated states (INIT,WORKING,ENDING,COMPLETE,ABANDONED,TERMINATED)")
	list.Flags().IntVar(&limit, "limit", 50, fmt.Sprintf("maximum rows (1 to %d)", maxListLimit))
	list.Flags().StringVar(&who.User, "user", "", "only sessions run by this user (email or name, exact)")
	list.Flags().StringVar(&who.Host, "host", "", "only sessions run on this host")
	list.Flags().StringVar(&who.Repo, "repo", "", "only sessions of this repository: its normalized origin URL (e.g. github.com/o/r), or its root without one")
	addJSON(list)

	// show
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
	addSessionFlag(show)
	addJSON(show)

	// terminate
	terminate := &cobra.Command{
		Use:   "terminate ID",
		Short: "End a session by hand, keeping its data (soft delete)",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			e, id, err := a.resolveNamedSession(ctx, c, sessionID, argv)
			if err != nil {
				return err
			}
			s, err := e.Terminate(ctx, id, reason)
			if err != nil {
				return sessionErr(err)
			}
			fmt.Fprintf(c.OutOrStdout(), "session %s terminated: %s\n", s.ID, s.TerminateReason)
			return nil
		},
	}
	terminate.Flags().StringVar(&reason, "reason", "", "why (required)")
	addSessionFlag(terminate)

	// delete
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
	addSessionFlag(del)

	cmd.AddCommand(start, status, gate, advance, evidence, end, list, show, terminate, del)
	return cmd
}

// noActiveSession is resolveSession's answer when nothing names a session
// and the worktree has no active one.
type noActiveSession struct{ root string }

func (n *noActiveSession) Error() string {
	return fmt.Sprintf("no active session in %s: %s", n.root, n.next())
}

func (n *noActiveSession) next() string {
	return `start one: sessiongate session start --objective "..."`
}

// sessionRef is the session a command names: its ID argument or --session
// (one way to name a session, either spelling; both must then agree).
func sessionRef(flag string, argv []string) (string, error) {
	if len(argv) == 0 {
		return flag, nil
	}
	if flag != "" && flag != argv[0] {
		return "", usage(fmt.Errorf("the session is named twice (%s and --session %s): give one", argv[0], flag))
	}
	return argv[0], nil
}

// resolveSession picks the ID argument or --session, SESSIONGATE_SESSION,
// or the worktree's active session. An id may be an unambiguous prefix.
func (a *app) resolveSession(ctx context.Context, flag string, argv []string) (*session.Engine, string, error) {
	ref, err := sessionRef(flag, argv)
	if err != nil {
		return nil, "", err
	}
	e, err := a.sessionEngine(ctx)
	if err != nil {
		return nil, "", err
	}
	if ref == "" {
		ref = os.Getenv("SESSIONGATE_SESSION")
	}
	if ref != "" {
		id, err := e.ResolveID(ctx, ref)
		if err != nil {
			return nil, "", usage(err)
		}
		return e, id, nil
	}
	r, err := a.gitRepo(ctx)
	if err != nil {
		return nil, "", err
	}
	s, err := e.ActiveSession(ctx, r)
	if errors.Is(err, session.ErrNotFound) {
		return nil, "", usage(&noActiveSession{root: r.Root()})
	}
	if err != nil {
		return nil, "", usage(err)
	}
	return e, s.ID, nil
}

// resolveNamedSession is resolveSession for commands that must not act on
// a session by default (terminate, delete): the ID argument or --session.
func (a *app) resolveNamedSession(ctx context.Context, c *cobra.Command, flag string, argv []string) (*session.Engine, string, error) {
	ref, err := sessionRef(flag, argv)
	if err != nil {
		return nil, "", err
	}
	if ref == "" {
		return nil, "", usage(fmt.Errorf("name the session: %s ID (or --session ID; 'sessiongate session list' shows the ids)", c.CommandPath()))
	}
	return a.resolveSession(ctx, ref, nil)
}

// sessionErr maps engine errors to exit codes: a refusal by a sequence rule
// or of force is a block (1); a bad handle or bad input is 2.
func sessionErr(err error) error {
	if errors.Is(err, policy.ErrBlocked) || errors.Is(err, session.ErrForceRefused) {
		return &exitError{code: exitBlocked, err: err}
	}
	return usage(err)
}

func printGate(w io.Writer, g session.GateResult) {
	fmt.Fprintf(w, "%-8s %s (%s) %s\n", g.Status, g.Phase, g.Level, g.Message)
	for _, c := range g.Checks {
		fmt.Fprintf(w, "  %-8s %s %s: %s\n", c.Status, c.Kind, c.Arg, c.Message)
		if c.Fix != nil {
			fmt.Fprintf(w, "           fix: %s\n", cliStep(*c.Fix))
		}
	}
	if g.Output != "" {
		for _, l := range strings.Split(g.Output, "\n") {
			fmt.Fprintln(w, "  | "+l)
		}
	}
	for _, wa := range g.Warnings {
		fmt.Fprintln(w, "warning:", wa)
	}
}

func printView(w io.Writer, v *session.StateView) {
	s := v.Session
	fmt.Fprintf(w, "session   %s\nstate     %s %s\nobjective %s\nbranch    %s\nstarted   %s at %s\nprotocol  sha256:%s\n",
		s.ID, s.State, s.Phase, oneLine(s.Objective, 200), s.Branch, s.CreatedAt.Local().Format(time.DateTime), shortCommit(s.StartCommit), s.ProtocolSHA)
	if s.Terminated {
		fmt.Fprintf(w, "terminated: %s\n", s.TerminateReason)
	}
	if v.Expired {
		fmt.Fprintln(w, "expired: the idle timeout has passed; start a new session")
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nPHASE\tGATE\tSTATUS\tCHECKS")
	for _, it := range v.Checklist {
		cur := ""
		if it.Current {
			cur = " <- current"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s%s\t%s\n", it.Phase, it.Level, it.Status, cur, strings.Join(it.Checks, "; "))
	}
	tw.Flush()
	printRequirementStatus(w, v)
	printEvidence(w, v)
	for _, vi := range v.Violations {
		fmt.Fprintf(w, "violation: %s %s %s: %s\n", vi.Severity, vi.Code, vi.Phase, vi.Message)
	}
}

func shortCommit(c string) string {
	if c == "" {
		return "(unborn)"
	}
	return shorten.SHA(c)
}

// oneLine is s on one line, cut to n bytes for a table cell.
func oneLine(s string, n int) string { return shorten.Line(s, n, "…") }

// maxListLimit bounds `session list --limit`.
const maxListLimit = 10000

// printEvidence lists evidence with observed apart from claimed: what
// sessiongate saw run (command, exit code, duration) and what it was told.
func printEvidence(w io.Writer, v *session.StateView) {
	c := v.EvidenceCounts
	if len(v.Evidence) == 0 {
		return
	}
	fmt.Fprintf(w, "\nevidence: %d observed (%d failed), %d claimed\n", c.Observed, c.ObservedFailed, c.Claimed)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ORIGIN\tPHASE\tKIND\tWHAT\tSHA256")
	for _, e := range v.Evidence {
		what := oneLine(e.Ref, 60)
		if e.Observed() && e.Command == "" {
			// Seen by a hook, not a command run: a commit the hooks recorded.
			what = oneLine(e.Ref, 40) + " (" + orDash(e.Step) + ")"
		} else if e.Observed() {
			exit := "exit ?"
			if e.ExitCode != nil && *e.ExitCode >= 0 {
				exit = fmt.Sprintf("exit %d", *e.ExitCode)
			}
			what = fmt.Sprintf("`%s` %s %s by %s", oneLine(e.Command, 50), exit, e.Duration.Round(time.Millisecond), e.Source)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.Origin, orDash(e.Phase), e.Kind, what, shorten.SHA(e.SHA256))
	}
	tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
