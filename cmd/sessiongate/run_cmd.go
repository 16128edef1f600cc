package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/session"
)

// newRunCmd is `sessiongate run`: run a command and record it as observed
// evidence, the rank a claim cannot outweigh.
func newRunCmd(a *app) *cobra.Command {
	var sessionID, phase, requirement string
	var timeout time.Duration
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "run --phase PHASE [--requirement ID] -- COMMAND [ARGS...]",
		Short: "Run a command and record it as observed evidence (exit code, duration, output hash)",
		Long: `Run a command and record it as observed evidence for a phase (and one of its
requirements): sessiongate sees the exit code, the duration and the sha256 of
the output itself, so the record outranks any claim. The command is run as an
argv, without a shell, in the folder you run it from (recorded as
"cd DIR && COMMAND" from a subfolder of the work tree; the root otherwise), with the config's
command_timeout (or --timeout); on timeout its whole process group is killed.
Its output passes through; sessiongate run exits with the command's exit code,
or 2 when the command cannot start, times out, or the phase or requirement is
wrong (then nothing is recorded, except a timed-out run, recorded as failed).`,
		Example: `  sessiongate run --phase QA_VALIDATION -- go test ./...
  sessiongate run --phase QUALITY_CHECKS --requirement QUALITY_CHECKS.run-npx-markdownlint-cli2 -- npx markdownlint-cli2 "**/*.md"`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			e, id, err := a.resolveSession(ctx, sessionID, nil)
			if err != nil {
				return err
			}
			cwd, _ := os.Getwd() // "" runs at the root
			res, err := e.Run(ctx, session.RunRequest{ID: id, Phase: phase, Requirement: requirement, Argv: argv,
				Timeout: timeout, Cwd: cwd, Stdout: c.OutOrStdout(), Stderr: c.ErrOrStderr()})
			if errors.Is(err, session.ErrCannotRun) {
				return usage(err)
			}
			if err != nil {
				return sessionErr(err)
			}
			ev := res.Evidence
			if asJSON {
				if err := writeJSON(c.ErrOrStderr(), res); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(c.ErrOrStderr(), "sessiongate: observed %s for %s%s: exit %d in %s, output sha256:%s\n",
					ev.Command, ev.Phase, forRequirement(ev.Requirement), res.ExitCode, res.Duration.Round(time.Millisecond), ev.SHA256)
				if res.ExitCode == 0 && ev.ExitCode != nil && *ev.ExitCode != 0 {
					fmt.Fprintf(c.ErrOrStderr(), "sessiongate: recorded as exit unknown: %s\n", ev.Ref)
				}
			}
			switch {
			case res.ExitCode == 0 && res.ProvesNothing != "":
				// Exit 0 would read as "the phase has its evidence".
				return &exitError{code: exitBlocked, err: fmt.Errorf("recorded, but it proves nothing: %s", res.ProvesNothing)}
			case res.ExitCode == 0:
				return nil
			case res.ExitCode > 0 && res.ExitCode < 256:
				return &exitError{code: res.ExitCode, err: errors.New("")}
			}
			return &exitError{code: exitBlocked, err: fmt.Errorf("%s ended without an exit code (killed by a signal)", argv[0])}
		},
	}
	cmd.Flags().SetInterspersed(false) // flags after COMMAND belong to it
	cmd.Flags().StringVar(&phase, "phase", "", "phase id the command proves (required)")
	cmd.Flags().StringVar(&requirement, "requirement", "", "requirement id (PHASE.slug, from sessiongate protocol show)")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "kill the command after this long (default: command_timeout from sessiongate.yaml, 2m)")
	cmd.Flags().StringVar(&sessionID, "session", "", "session id or unambiguous prefix (default: SESSIONGATE_SESSION, then this worktree's active session)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the record as JSON on stderr (stdout carries the command's output)")
	return cmd
}

func forRequirement(id string) string {
	if id == "" {
		return ""
	}
	return " (" + id + ")"
}
