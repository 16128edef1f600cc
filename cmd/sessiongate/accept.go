package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/signerfile"
)

// agentEnv are variables agent CLIs set in the shells they run; an accept
// run with one of them set is recorded as such.
var agentEnv = []string{"CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CURSOR_AGENT", "GEMINI_CLI", "CODEX_SANDBOX"}

func newAcceptCmd(a *app) *cobra.Command {
	var reason, signed string
	var yes, sign bool
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
			if signed != "" {
				// A signature only a listed person's key makes: no terminal
				// needed, and an agent running it gains nothing it could not
				// sign.
				via, err := signedAcceptance(ctx, a, r, changes, signed)
				if err != nil {
					return usage(err)
				}
				if strings.TrimSpace(reason) == "" {
					reason = via
				}
				sha, _ := r.ResolveRev(ctx, signed)
				acc, err := e.AcceptProtected(ctx, session.AcceptRequest{Repo: r, Who: who, Reason: reason, Via: via, Sign: sign, SignedCommit: sha})
				if err != nil {
					return usage(err)
				}
				fmt.Fprintf(w, "accepted %d protected file(s) (%s); the acceptance is on %s\n", len(acc), via, a.acceptanceRef(ctx))
				return nil
			}
			// A terminal is no proof of a person: an agent can open one with
			// script(1). Its own process, among our ancestors, is evidence.
			chain := ancestry.Chain()
			if p, ok := ancestry.Agent(chain); ok {
				return usage(fmt.Errorf("accept refused: it runs under the coding agent %s (pid %d), and the agent a protocol polices cannot accept changes to it; "+
					"a person runs it in a terminal of their own, outside the agent", p.Name, p.PID))
			}
			// A detached agent has no agent among its ancestors, and
			// script(1) gives it a terminal: an agent conversation open in
			// the worktree means an unsigned acceptance cannot be told from
			// the agent's own (personact.go).
			open, err := refuseUnsignedDuringConversation("accept", r, sign)
			if err != nil {
				return err
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
			if sign {
				via += ", signed"
			}
			if len(open) > 0 {
				via += ", during the open agent conversation " + session.ConversationNames(open)
			}
			acc, err := e.AcceptProtected(ctx, session.AcceptRequest{Repo: r, Who: who, Reason: reason, Via: via, Sign: sign})
			if err != nil {
				return usage(err)
			}
			fmt.Fprintf(w, "accepted %d protected file(s) as %s (%s); the acceptance is on %s", len(acc), who, via, a.acceptanceRef(ctx))
			if !sign {
				fmt.Fprint(w, " (unsigned: CI's verify takes only a signed acceptance, --sign, for a protocol change inside the range it checks)")
			}
			fmt.Fprintln(w)
			return nil
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why the change is accepted (required)")
	cmd.Flags().BoolVar(&yes, "yes", false, "do not ask; needed (with --reason) when stdin is not a terminal, and recorded")
	cmd.Flags().BoolVar(&sign, "sign", false, "sign the acceptance on the records ref with your git signing key (user.signingkey, gpg.format): the proof verify takes in CI")
	cmd.Flags().StringVar(&signed, "signed-commit", "", "accept the files as they are in this commit, whose signature (git verify-commit) is by a signer in accept_signers; no terminal needed")
	return cmd
}

// signedAcceptance checks that rev is a commit whose signature git
// verifies, made by a signer listed in the accepted config's
// accept_signers, and that every changed protected file is, in the work
// tree and the index, exactly as in that commit. It returns how the
// acceptance is recorded.
func signedAcceptance(ctx context.Context, a *app, r *gitrepo.Repo, changes []session.ProtectedChange, rev string) (string, error) {
	cfg, err := a.config(ctx)
	if err != nil {
		return "", err
	}
	switch {
	case configChanged(changes):
		return "", errors.New("accept refused: accept_signers comes from a sessiongate.yaml that is itself an unaccepted change; a person accepts it at a terminal first")
	case len(cfg.AcceptSigners) == 0:
		return "", errors.New("accept refused: --signed-commit needs accept_signers in sessiongate.yaml (committed, as a person accepted it)")
	}
	sha, err := r.ResolveRev(ctx, rev)
	if err != nil || sha == "" {
		return "", fmt.Errorf("accept refused: %s is not a commit", rev)
	}
	signer, from, err := commitSigner(ctx, r, sha, cfg.Verify.AllowedSigners, cfg.AcceptSigners, isTerminal(a.stdin) && isTerminal(a.stderr))
	if err != nil {
		return "", fmt.Errorf("accept refused: %w", err)
	}
	for _, c := range changes {
		b, err := r.ReadAt(ctx, sha, c.Path)
		at := ""
		switch {
		case errors.Is(err, gitrepo.ErrNoFile):
		case err != nil:
			return "", err
		default:
			sum := sha256.Sum256(b)
			at = hex.EncodeToString(sum[:])
		}
		if at != c.SHA256 {
			return "", fmt.Errorf("accept refused: %s is not as in the signed commit %.12s: the signature vouches only for the commit's bytes", c.Path, sha)
		}
		// The newest version on HEAD, never an older signed one brought
		// back: an agent restoring last year's weaker protocol from a
		// signed commit of its time must not get it accepted.
		last, err := gitenv.Command(ctx, r.Root(), nil, "log", "-1", "--format=%H", "HEAD", "--", c.Path).Output()
		if err != nil {
			return "", fmt.Errorf("find the last commit of %s: %w", c.Path, err)
		}
		if strings.TrimSpace(string(last)) != sha {
			return "", fmt.Errorf("accept refused: %.12s is not the last commit on HEAD that changed %s: only the newest signed version is accepted", sha, c.Path)
		}
	}
	return fmt.Sprintf("signed commit %.12s by %s (%s)", sha, signer, from), nil
}

// commitSigner returns the listed signer of sha and what judged it. With
// verify.allowed_signers the repository's committed file judges
// (signerfile), whoever runs accept. Without it git's own config judges
// (gpg.ssh.allowedSignersFile, the gpg keyring, gpg.program), which the
// agent's shell writes as a person's does: an agent's own key named after a
// listed person in its own signers file passed. So that way is a person's
// only: refused under a coding agent (its variables, or its CLI among the
// ancestors), and without a terminal (interactive: stdin and stderr are
// one), since a detached agent (setsid, its variables unset) leaves neither
// variables nor ancestors; a person runs it at a terminal.
func commitSigner(ctx context.Context, r *gitrepo.Repo, sha, allowed string, signers []string, interactive bool) (signer, from string, err error) {
	if allowed != "" {
		s, err := signerfile.Verify(ctx, r.Root(), sha, allowed, signers)
		return s, "judged by " + allowed + " as committed", err
	}
	if name, v, ok := ancestry.FromEnv(os.Getenv); ok {
		return "", "", fmt.Errorf("--signed-commit runs under the coding agent %s (%s set), and without verify.allowed_signers the signature is judged by git config that agent can write (gpg.ssh.allowedSignersFile, its keyring); "+
			"set verify.allowed_signers in sessiongate.yaml to a committed allowed-signers file, or a person runs accept outside the agent", name, v)
	}
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		return "", "", fmt.Errorf("--signed-commit runs under the coding agent %s (pid %d), and without verify.allowed_signers the signature is judged by git config that agent can write (gpg.ssh.allowedSignersFile, its keyring); "+
			"set verify.allowed_signers in sessiongate.yaml to a committed allowed-signers file, or a person runs accept outside the agent", p.Name, p.PID)
	}
	if !interactive {
		return "", "", errors.New("--signed-commit without verify.allowed_signers is judged by git config any process of this user can write (gpg.ssh.allowedSignersFile, the gpg keyring), and no terminal is attached to tell a person from a detached agent: " +
			"run it at a terminal, or set verify.allowed_signers in sessiongate.yaml to a committed allowed-signers file (then it needs none)")
	}
	if err := r.VerifyCommit(ctx, sha); err != nil {
		return "", "", err
	}
	out, err := gitenv.Command(ctx, r.Root(), nil, "log", "-1", "--format=%G?%x00%GS", sha).Output()
	if err != nil {
		return "", "", fmt.Errorf("read the signer of %.12s: %w", sha, err)
	}
	status, signer, _ := strings.Cut(strings.TrimSpace(string(out)), "\x00")
	if status != "G" || !slices.ContainsFunc(signers, func(s string) bool { return strings.EqualFold(s, signer) }) {
		return "", "", fmt.Errorf("%.12s is signed by %q (status %s), not by one of accept_signers %v", sha, signer, status, signers)
	}
	return signer, "judged by git's config", nil
}

// acceptanceRef names the ref acceptances are written to.
func (a *app) acceptanceRef(ctx context.Context) string {
	cfg, err := a.config(ctx)
	if err != nil {
		return session.DefaultRecordsRef
	}
	if session.IsRecordRef(cfg.SessionRecord) {
		return cfg.SessionRecord
	}
	return session.DefaultRecordsRef
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
		cmd := gitenv.Command(ctx, dir, nil, "config", "--get", key)
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
