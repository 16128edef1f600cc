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
	cmd.AddCommand(
		newSessionStartCmd(a),
		newSessionStatusCmd(a),
		newSessionGateCmd(a),
		newSessionAdvanceCmd(a),
		newSessionEvidenceCmd(a),
		newSessionAcceptNACmd(a),
		newSessionEndCmd(a),
		newSessionListCmd(a),
		newSessionShowCmd(a),
		newSessionTerminateCmd(a),
		newSessionDeleteCmd(a),
	)
	return cmd
}

// addSessionFlag gives a session subcommand --session, completed with the
// sessions the store holds.
func addSessionFlag(a *app, c *cobra.Command, sessionID *string) {
	c.Flags().StringVar(sessionID, "session", "", "session id or unambiguous prefix (default: SESSIONGATE_SESSION, then this worktree's active session)")
	if c.ValidArgsFunction == nil {
		c.ValidArgsFunction = a.completeSessionArg
	}
}

func addJSON(c *cobra.Command, asJSON *bool) { c.Flags().BoolVar(asJSON, "json", false, "print JSON") }

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
// or of force, or a gate refused over a protected change, is a block (1);
// a bad handle or bad input is 2.
func sessionErr(err error) error {
	if errors.Is(err, policy.ErrBlocked) || errors.Is(err, session.ErrForceRefused) || errors.Is(err, session.ErrProtectedChanged) {
		return &exitError{code: exitBlocked, err: err}
	}
	return usage(err)
}

func printGate(w io.Writer, g session.GateResult) {
	fmt.Fprintf(w, "%-8s %s (%s) %s\n", g.Status, g.Phase, g.Level, g.Message)
	for _, c := range g.Checks {
		fmt.Fprintf(w, "  %-8s %s %s: %s\n", c.Status, c.Kind, c.Arg, c.Message)
		fixes := session.CapFixes(c.Fixes, g.Phase) // every open requirement's
		if len(fixes) == 0 && c.Fix != nil {
			fixes = []session.NextStep{*c.Fix}
		}
		for _, f := range fixes {
			line := cliStep(f)
			if f.Action == session.StepBlockedReason {
				line = f.Why + ": " + line
			}
			fmt.Fprintf(w, "           fix: %s\n", line)
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
	for _, g := range v.VanishedCLIs {
		// Killed or crashed: no stop judged its turn (round 29, c4).
		fmt.Fprintf(w, "agent CLI vanished: %s (process %s) ended without SessionEnd; resume it to finish the work and the end protocol, or run `sessiongate session end` (a new session or the idle timeout records END_PROTOCOL_SKIPPED when its work was committed)\n", g.Agent, g.Process)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\nPHASE\tGATE\tSTATUS\tCHECKS")
	for _, it := range v.Checklist {
		cur := ""
		if it.Decision == session.DecisionConditionNotMet {
			cur = " (not applicable: condition not met)"
		}
		if it.Current {
			cur += " <- current"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s%s\t%s\n", it.Phase, it.Level, it.Status, cur, strings.Join(it.Checks, "; "))
	}
	tw.Flush()
	printRequirementStatus(w, v)
	printNotApplicable(w, v)
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
	if c.Transcript > 0 {
		fmt.Fprintf(w, "\nevidence: %d observed (%d failed), %d from the agent's transcript, %d claimed\n", c.Observed, c.ObservedFailed, c.Transcript, c.Claimed)
	} else {
		fmt.Fprintf(w, "\nevidence: %d observed (%d failed), %d claimed\n", c.Observed, c.ObservedFailed, c.Claimed)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ORIGIN\tPHASE\tKIND\tWHAT\tSHA256")
	for _, e := range v.Evidence {
		what := oneLine(e.Ref, 60)
		if e.Origin == session.OriginTranscript {
			what = oneLine(e.Ref, 60) + " in the " + e.Source + " transcript"
		} else if e.Observed() && e.Command == "" {
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
