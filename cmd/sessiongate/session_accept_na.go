package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/session"
)

// newSessionAcceptNACmd is `sessiongate session accept-na`: a person
// accepts the not-applicable marks a session recorded on a reason alone
// (no condition a machine could check). Until then the session is never
// shown as clean and verify fails its commits.
func newSessionAcceptNACmd(a *app) *cobra.Command {
	var reason string
	var yes, sign bool
	cmd := &cobra.Command{
		Use:   "accept-na SESSION [REQUIREMENT|PHASE]",
		Short: "Accept a session's not-applicable marks that wait for a person (a person, at a terminal)",
		Long: `A requirement or phase without a condition sessiongate can check may be marked not
applicable on the agent's reason; the gate takes it, but the mark waits for a person: the
session is never shown as clean and 'sessiongate verify' fails its commits until a person
accepts it here. Name one requirement (or a phase's own mark), or none for every pending mark
of the session.

The acceptance goes onto the records ref (acceptances/<sha256>.json) with who, why and how,
and names each mark by its reason's sha256: a mark recorded again with another reason is not
covered. --sign signs it with your git key; with verify.allowed_signers set, CI's verify takes
only a signed acceptance by a listed signer. Like 'protocol accept', it refuses under a coding
agent and without a terminal (unless accept_non_interactive: true, then --yes --reason).`,
		Args: args(cobra.RangeArgs(1, 2)),
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			if p, ok := ancestry.Agent(ancestry.Chain()); ok {
				return usage(fmt.Errorf("accept-na refused: it runs under the coding agent %s (pid %d), and the agent a protocol polices cannot accept its own not-applicable marks; a person runs it in a terminal of their own, outside the agent", p.Name, p.PID))
			}
			e, err := a.sessionEngine(ctx)
			if err != nil {
				return err
			}
			r, err := a.gitRepo(ctx)
			if err != nil {
				return err
			}
			// A detached agent has no agent among its ancestors, and
			// script(1) gives it a terminal: as for protocol accept, an
			// agent conversation open in the worktree means an unsigned
			// acceptance cannot be told from the agent's own (personact.go).
			if _, err := refuseUnsignedDuringConversation("accept-na", r, sign); err != nil {
				return err
			}
			id, which := argv[0], ""
			if len(argv) > 1 {
				which = argv[1]
			}
			marks, err := e.NotApplicableMarks(ctx, id)
			if err != nil {
				return sessionErr(err)
			}
			w := c.OutOrStdout()
			pending := session.PendingNA(marks)
			if len(pending) == 0 {
				fmt.Fprintf(w, "nothing to accept: session %s has no not-applicable mark pending a person's acceptance\n", id)
				return nil
			}
			fmt.Fprintln(w, "not-applicable marks pending a person's acceptance:")
			for _, m := range pending {
				if which == "" || m.Requirement == which || m.Requirement == "" && m.Phase == which {
					fmt.Fprintf(w, "  %s: %s\n", m.What(), m.Reason)
				}
			}
			interactive := isTerminal(a.stdin) && isTerminal(a.stderr)
			if !interactive {
				cfg, err := a.config(ctx)
				if err != nil {
					return err
				}
				switch {
				case !cfg.AcceptNonInteractive:
					return usage(errors.New("accept-na refused: stdin and stderr are not both a terminal, so no person can confirm; " +
						"a person runs it at a terminal of their own (for scripts, a person sets accept_non_interactive: true in sessiongate.yaml and commits it: docs/security.md)"))
				case !yes || strings.TrimSpace(reason) == "":
					return usage(errors.New("accept-na refused: without a terminal, pass --yes --reason \"...\" (recorded as non-interactive)"))
				}
			}
			if interactive && !yes {
				if err := confirm(w, a.stdin, &reason); err != nil {
					return err
				}
			}
			via := "terminal"
			if !interactive {
				via = "non-interactive (--yes)"
			} else if yes {
				via = "terminal (--yes)"
			}
			for _, k := range agentEnv {
				if os.Getenv(k) != "" {
					via += ", " + k + " set"
				}
			}
			if sign {
				via += ", signed"
			}
			got, err := e.AcceptNotApplicable(ctx, session.AcceptNARequest{Repo: r, SessionID: id, Which: which, Who: whoAmI(ctx, r.Root()), Reason: reason, Via: via, Sign: sign})
			if err != nil {
				return sessionErr(err)
			}
			fmt.Fprintf(w, "accepted %d not-applicable mark(s) of session %s (%s); the acceptance is on %s", len(got), id, via, a.acceptanceRef(ctx))
			if !sign {
				fmt.Fprint(w, " (unsigned: with verify.allowed_signers set, CI's verify takes only a signed acceptance, --sign)")
			}
			fmt.Fprintln(w)
			return nil
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why the marks are accepted (required)")
	cmd.Flags().BoolVar(&yes, "yes", false, "do not ask; needed (with --reason) when stdin is not a terminal, and recorded")
	cmd.Flags().BoolVar(&sign, "sign", false, "sign the acceptance on the records ref with your git signing key: the proof verify takes in CI")
	return cmd
}

// confirm asks a person at a terminal to accept, and for a reason.
func confirm(w io.Writer, stdin io.Reader, reason *string) error {
	in := bufio.NewReader(stdin)
	fmt.Fprint(w, "accept these? [y/N] ")
	if ans, _ := in.ReadString('\n'); !strings.EqualFold(strings.TrimSpace(ans), "y") && !strings.EqualFold(strings.TrimSpace(ans), "yes") {
		return blocked("not accepted")
	}
	for strings.TrimSpace(*reason) == "" {
		fmt.Fprint(w, "reason: ")
		line, err := in.ReadString('\n')
		*reason = line
		if err != nil && strings.TrimSpace(*reason) == "" {
			return usage(errors.New("a reason is required"))
		}
	}
	return nil
}

// printNotApplicable lists a session's not-applicable marks: checked ones,
// and those pending or given a person's acceptance.
func printNotApplicable(w io.Writer, v *session.StateView) {
	if len(v.NotApplicable) == 0 {
		return
	}
	fmt.Fprintln(w, "\nnot applicable:")
	for _, m := range v.NotApplicable {
		switch m.Standing {
		case session.NAPending:
			fmt.Fprintf(w, "  %s: N/A pending acceptance (%s): a person runs sessiongate session accept-na %s %s\n", m.What(), oneLine(m.Reason, 80), v.Session.ID, naArg(m))
		case session.NAAccepted:
			fmt.Fprintf(w, "  %s: N/A accepted by %s (%s)\n", m.What(), m.AcceptedBy, oneLine(m.Reason, 80))
		case session.NAOptional:
			fmt.Fprintf(w, "  %s: N/A, an optional phase (%s)\n", m.What(), oneLine(m.Reason, 80))
		default:
			fmt.Fprintf(w, "  %s: N/A, checked (%s)\n", m.What(), oneLine(m.Reason, 80))
		}
	}
}

func naArg(m session.NAMark) string {
	if m.Requirement != "" {
		return m.Requirement
	}
	return m.Phase
}

// naPendingLine is what keeps a session with pending marks from being clean.
func naPendingLine(pending []session.NAMark) string {
	ids := make([]string, len(pending))
	for i, m := range pending {
		ids[i] = m.What()
	}
	return fmt.Sprintf("%d N/A pending acceptance (%s)", len(pending), strings.Join(ids, ", "))
}
