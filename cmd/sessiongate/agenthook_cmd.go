package main

import (
	"errors"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/agenthook"
)

// newAgentHookCmd is what the agents' hook configs run: one process per
// lifecycle event, JSON in on stdin, the agent's JSON out on stdout.
func newAgentHookCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "agent-hook AGENT EVENT",
		Short: "Run an agent lifecycle hook (Claude Code, Cursor, Gemini CLI); the agents' hook configs call this",
		Long: `Read one lifecycle event of a coding agent as JSON on stdin and answer in that
agent's hook format on stdout: bind the agent's session to a sessiongate session
and inject its state at session start, deny file edits and git commit/push
before the start gates pass, record shell commands as observed evidence, and
block a stop while work is done and the end protocol is not. AGENT is claude,
codex, copilot, cursor or gemini; EVENT is the agent's event name (PreToolUse,
preToolUse, agentStop, beforeShellExecution, BeforeTool, ...). See docs/agents.md.`,
		Args:   args(cobra.ExactArgs(2)),
		Hidden: false,
		RunE: func(c *cobra.Command, argv []string) error {
			// A hook process lives for milliseconds: collecting garbage is
			// wasted time unless memory really grows (a huge tool output).
			debug.SetGCPercent(-1)
			debug.SetMemoryLimit(256 << 20)
			wd, err := os.Getwd()
			if err != nil {
				return usage(err)
			}
			r := &agenthook.Runner{Dir: wd, DBPath: a.dbFlag, ProtocolPath: a.protocolFlag, Stdin: a.stdin,
				Stdout: c.OutOrStdout(), Stderr: c.ErrOrStderr(), LeaveOpen: true, Argv: os.Args}
			if code := r.Run(c.Context(), strings.ToLower(argv[0]), argv[1]); code != 0 {
				return &exitError{code: code, err: errors.New("")}
			}
			return nil
		},
	}
}
