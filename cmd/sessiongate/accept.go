package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/session"
)

// agentEnv are variables agent CLIs set in the shells they run; an accept
// run with one of them set is recorded as such.
var agentEnv = []string{"CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CURSOR_AGENT", "GEMINI_CLI", "CODEX_SANDBOX"}

func newAcceptCmd(a *app) *cobra.Command {
	var reason string
	var yes bool
	cmd := &cobra.Command{
		Use:   "accept",
		Short: "Accept changes to the protocol, sessiongate.yaml and hook configs (a person, at a terminal)",
		Long: `During a session the agent being policed may not change the protocol, sessiongate.yaml,
the agent hook configs, the MCP configs or the pre-commit configs (protect: true). A commit
that carries such a change is blocked and recorded as a PROTECTED_CHANGE violation, and a new
session does not start under it, until a person accepts the files as they are now.

accept lists what changed, asks for confirmation and a reason, and records who accepted
(git user.name and user.email, $USER), why, how (terminal or --yes) and the sha256 of each
file. A running session keeps the protocol it started with; the accepted one applies from the
next session.

accept needs a terminal on stdin and stderr: an agent's shell has none, so it refuses
(exit 2). For scripts, a person sets accept_non_interactive: true in sessiongate.yaml (honoured
only while that file is as a person accepted it); then --yes --reason "..." accepts, recorded as
non-interactive, which the dashboard and 'session show' make visible. Agent hooks deny running
it from the agent's shell, and it refuses under a coding agent's process (docs/security.md).`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			ctx := c.Context()
			e, err := a.sessionEngine(ctx)
			if err != nil {
				return err
			}
			r, err := a.gitRepo(ctx)
			if err != nil {
				return err
			}
			changes, err := e.ProtectedChanges(ctx, r)
			if err != nil {
				return usage(err)
			}
			w := c.OutOrStdout()
			if len(changes) == 0 {
				fmt.Fprintln(w, "nothing to accept: every protected file matches what a person accepted")
				return nil
			}
			fmt.Fprintln(w, "protected files changed since a person last accepted them:")
			for _, ch := range changes {
				fmt.Fprintln(w, "  "+ch.String())
			}
			who := whoAmI(ctx, r.Root())
			// A terminal is no proof of a person: an agent can open one with
			// script(1). Its own process, among our ancestors, is evidence.
			chain := ancestry.Chain()
			if p, ok := ancestry.Agent(chain); ok {
				return usage(fmt.Errorf("accept refused: it runs under the coding agent %s (pid %d), and the agent a protocol polices cannot accept changes to it; "+
					"a person runs it in a terminal of their own, outside the agent", p.Name, p.PID))
			}
			// A person has a terminal: both the question (stderr) and the
			// answer (stdin). An agent's tool call has neither.
			interactive := isTerminal(a.stdin) && isTerminal(a.stderr)
			if !interactive {
				cfg, err := a.config(ctx)
				if err != nil {
					return err
				}
				switch {
				case !cfg.AcceptNonInteractive:
					return usage(errors.New("accept refused: stdin and stderr are not both a terminal, so no person can confirm; " +
						"a person runs it at a terminal of their own (for scripts, a person sets accept_non_interactive: true in sessiongate.yaml and commits it: docs/security.md)"))
				case configChanged(changes):
					return usage(errors.New("accept refused: accept_non_interactive comes from a sessiongate.yaml that is itself an unaccepted change; " +
						"a person accepts it at a terminal first"))
				case !yes || strings.TrimSpace(reason) == "":
					return usage(errors.New("accept refused: without a terminal, pass --yes --reason \"...\" (recorded as non-interactive)"))
				}
			}
			if interactive && !yes {
				in := bufio.NewReader(a.stdin)
				fmt.Fprintf(w, "accept these as %s? [y/N] ", who)
				if ans, _ := in.ReadString('\n'); !strings.EqualFold(strings.TrimSpace(ans), "y") && !strings.EqualFold(strings.TrimSpace(ans), "yes") {
					return blocked("not accepted")
				}
				for strings.TrimSpace(reason) == "" {
					fmt.Fprint(w, "reason: ")
					line, err := in.ReadString('\n')
					reason = line
					if err != nil && strings.TrimSpace(reason) == "" {
						return usage(errors.New("a reason is required"))
					}
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
			if len(chain) > 0 {
				// For the reviewer: what the acceptance ran under.
				via += ", under " + ancestry.Names(chain[:min(len(chain), 6)])
			}
			acc, err := e.AcceptProtected(ctx, session.AcceptRequest{Repo: r, Who: who, Reason: reason, Via: via})
			if err != nil {
				return usage(err)
			}
			fmt.Fprintf(w, "accepted %d protected file(s) as %s (%s)\n", len(acc), who, via)
			return nil
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why the change is accepted (required)")
	cmd.Flags().BoolVar(&yes, "yes", false, "do not ask; needed (with --reason) when stdin is not a terminal, and recorded")
	return cmd
}

// configChanged reports whether sessiongate.yaml itself is among the
// unaccepted changes: its settings then decide nothing.
func configChanged(changes []session.ProtectedChange) bool {
	for _, c := range changes {
		if strings.EqualFold(c.Path, "sessiongate.yaml") || strings.EqualFold(c.Path, ".sessiongate.yaml") {
			return true
		}
	}
	return false
}

// isTerminal reports whether r (a reader or writer) is a terminal (not
// /dev/null, a pipe or a file).
func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

// whoAmI names the person accepting: git's user.name and user.email and
// the login name.
func whoAmI(ctx context.Context, dir string) string {
	get := func(key string) string {
		cmd := exec.CommandContext(ctx, "git", "config", "--get", key)
		cmd.Dir = dir
		out, _ := cmd.Output()
		return strings.TrimSpace(string(out))
	}
	name, email := get("user.name"), get("user.email")
	user := os.Getenv("USER")
	if user == "" {
		user = os.Getenv("USERNAME")
	}
	var b strings.Builder
	b.WriteString(name)
	if email != "" {
		fmt.Fprintf(&b, " <%s>", email)
	}
	if user != "" {
		fmt.Fprintf(&b, " (%s)", user)
	}
	if s := strings.TrimSpace(b.String()); s != "" {
		return s
	}
	return "unknown"
}
