package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/hooks"
)

// selfPath is the absolute path the git hooks exec: this binary's, symlinks
// resolved, except that a symlink on PATH the user ran it by (Homebrew's
// bin/sessiongate into a versioned Cellar folder) is kept, so an upgrade
// that replaces the versioned folder leaves the hooks working. The hooks
// never look sessiongate up on PATH themselves (hooks.Script).
func selfPath() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find this binary's path: %w", err)
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return stableSelfPath(p, os.Args[0]), nil
}

// stableSelfPath is arg0's PATH entry when arg0 is a bare name that PATH
// resolves to the file exe, else exe.
func stableSelfPath(exe, arg0 string) string {
	if arg0 == "" || strings.ContainsRune(arg0, filepath.Separator) {
		return exe
	}
	lp, err := exec.LookPath(arg0)
	if err != nil || !filepath.IsAbs(lp) {
		return exe
	}
	a, err1 := os.Stat(lp)
	b, err2 := os.Stat(exe)
	if err1 != nil || err2 != nil || !os.SameFile(a, b) {
		return exe
	}
	return filepath.Clean(lp)
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func newInstallCmd(a *app) *cobra.Command {
	var hookList, mcpList, agentList string
	var force bool
	c := &cobra.Command{
		Use:   "install",
		Short: "Install the git hooks (and, with --mcp, MCP client configs)",
		Long: `Install sessiongate's git hooks into the folder git uses for this repository
(` + "`git rev-parse --git-path hooks`" + `: linked worktrees and core.hooksPath included).
Each hook is a small sh script that execs this binary by absolute path (the
PATH symlink you ran it by, such as Homebrew's, when there is one), never a
sessiongate found on PATH: if that file goes away the hooks exit 2 until you
run install again.

A hook already there is moved aside to NAME.sessiongate-orig and chained: it runs
first, with the same arguments and stdin, and its failure fails the hook.
Installing twice changes nothing. When core.hooksPath points at a folder another
tool manages (husky, or any folder holding hooks that are not sessiongate's),
install refuses and says how to proceed; --force chains that tool's hooks anyway.

--mcp claude,cursor,vscode writes or merges .mcp.json, .cursor/mcp.json and
.vscode/mcp.json (JSONC: comments, formatting and your other servers kept) so
the clients start ` + "`sessiongate mcp`" + ` from PATH: the files are committed and
carry no path of this machine.

--agent claude,codex,copilot,cursor,gemini merges sessiongate's lifecycle hooks
into .claude/settings.json, .codex/hooks.json, .github/hooks/sessiongate.json,
.cursor/hooks.json and .gemini/settings.json (comments,
formatting and your own hooks kept); they run ` + "`sessiongate agent-hook`" + ` from PATH.
Every file is read and merged before anything is written: a file that cannot
be parsed refuses the whole install and nothing is changed (the git hooks
included); a write that fails half way puts back what was already written.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			bin, err := selfPath()
			if err != nil {
				return usage(err)
			}
			wd, err := os.Getwd()
			if err != nil {
				return usage(err)
			}
			opts := hooks.Options{Dir: wd, Binary: bin, MCP: splitList(mcpList), Agents: splitList(agentList), Force: force}
			if c.Flags().Changed("hooks") {
				opts.Hooks = splitList(hookList)
			}
			rep, err := hooks.Install(c.Context(), opts)
			if rep != nil {
				printChanges(c, rep)
			}
			if err != nil {
				if errors.Is(err, hooks.ErrManagedElsewhere) {
					return blocked("%w", err)
				}
				return usage(err)
			}
			if (len(opts.MCP) > 0 || len(opts.Agents) > 0) && hooks.OnPath() == "" {
				fmt.Fprintln(c.ErrOrStderr(), "warning: `sessiongate` is not on PATH, and the MCP and agent configs run it from there: go install github.com/sessiongate/sessiongate/cmd/sessiongate@latest (and put $(go env GOPATH)/bin on PATH)")
			}
			if strings.Contains(bin, string(filepath.Separator)+"go-build") {
				fmt.Fprintf(c.ErrOrStderr(), "warning: %s looks like a `go run` build that will disappear: install sessiongate (go install) and run install again\n", bin)
			}
			return nil
		},
	}
	c.Flags().StringVar(&hookList, "hooks", strings.Join(hooks.Hooks, ","), "hooks to install")
	c.Flags().StringVar(&mcpList, "mcp", "", "MCP clients to configure: claude, cursor, vscode (comma-separated)")
	c.Flags().BoolVar(&force, "force", false, "install into a core.hooksPath folder another tool manages, chaining its hooks")
	c.Flags().StringVar(&agentList, "agent", "", "coding agents whose hook configs to merge: claude, codex, copilot, cursor, gemini (comma-separated; docs/agents.md)")
	return c
}

func printChanges(c *cobra.Command, rep *hooks.Report) {
	w := c.OutOrStdout()
	for _, ch := range rep.Changes {
		if ch.Note != "" {
			fmt.Fprintf(w, "%-9s %s (%s)\n", ch.Action, ch.Path, ch.Note)
		} else {
			fmt.Fprintf(w, "%-9s %s\n", ch.Action, ch.Path)
		}
	}
	if len(rep.Changes) == 0 {
		fmt.Fprintf(w, "nothing to do in %s\n", rep.HooksDir)
	}
}

func newUninstallCmd(a *app) *cobra.Command {
	var agentList, mcpList string
	c := &cobra.Command{
		Use:   "uninstall",
		Short: "Remove sessiongate's git hooks and MCP servers (or, with --agent, its agent hooks)",
		Long: `Remove every hook script sessiongate wrote (they carry a marker line) and put
each chained original (NAME.sessiongate-orig) back, byte for byte with its mode,
then remove the "sessiongate" server that install --mcp added to .mcp.json,
.cursor/mcp.json and .vscode/mcp.json (a file left empty is removed; comments and
other servers stay). Hooks and servers that are not sessiongate's and the
database are left alone.

With --mcp claude,cursor,vscode only those MCP configs change; the git hooks stay.

With --agent claude,cursor,gemini only those agents' hook configs change: exactly
the hooks that run ` + "`sessiongate agent-hook`" + ` are removed (and groups or event keys
left empty by that); everything else in the file stays as it was. The git hooks
are left alone.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			wd, err := os.Getwd()
			if err != nil {
				return usage(err)
			}
			var rep *hooks.Report
			if agentList != "" && mcpList != "" {
				return usage(errors.New("uninstall: pass --agent or --mcp, not both"))
			}
			if mcpList != "" {
				clients, perr := hooks.ParseMCPClients(splitList(mcpList))
				if perr != nil {
					return usage(fmt.Errorf("uninstall: %w", perr))
				}
				rep, err = hooks.UninstallMCP(c.Context(), wd, clients)
			} else if agentList != "" {
				agents, perr := hooks.ParseAgents(splitList(agentList))
				if perr != nil {
					return usage(fmt.Errorf("uninstall: %w", perr))
				}
				rep, err = hooks.UninstallAgents(c.Context(), wd, agents)
			} else {
				rep, err = hooks.Uninstall(c.Context(), wd)
			}
			if rep != nil {
				printChanges(c, rep)
			}
			if err != nil {
				return usage(err)
			}
			return nil
		},
	}
	c.Flags().StringVar(&agentList, "agent", "", "remove sessiongate's hooks from these agents' configs instead: claude, codex, copilot, cursor, gemini")
	c.Flags().StringVar(&mcpList, "mcp", "", "remove sessiongate's server from these MCP configs only: claude, cursor, vscode")
	return c
}

func newDoctorCmd(a *app) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check the installation: hooks, core.hooksPath, database, protocol, git, MCP configs",
		Long: `Check everything the hooks rely on and print a fix for each problem: the
binary path in each hook, that the hooks are present and sessiongate's,
core.hooksPath, the database (reachable and writable), the protocol (parses),
the git version and the MCP client configs. Exit 1 when something is wrong.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			wd, err := os.Getwd()
			if err != nil {
				return usage(err)
			}
			bin, _ := selfPath()
			fs := hooks.Doctor(c.Context(), hooks.DoctorOptions{Dir: wd, Binary: bin, DBPath: a.dbFlag, ProtocolPath: a.protocolFlag})
			if asJSON {
				if err := writeJSON(c.OutOrStdout(), fs); err != nil {
					return err
				}
			} else {
				w := c.OutOrStdout()
				for _, f := range fs {
					fmt.Fprintf(w, "%-4s  %-16s %s\n", f.Status, f.Check, f.Detail)
					if f.Fix != "" && f.Status != hooks.OK {
						fmt.Fprintf(w, "      %-16s fix: %s\n", "", f.Fix)
					}
				}
			}
			if hooks.Failed(fs) {
				return &exitError{code: exitBlocked, err: errors.New("")}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

// newHookCmd is what the installed scripts exec: one process per hook run.
func newHookCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "hook NAME [ARGS...]",
		Short: "Run a git hook (the installed scripts call this)",
		Long: `Run one git hook: NAME is pre-commit, commit-msg, post-commit or pre-push, and
ARGS are git's arguments, passed through untouched. The scripts sessiongate install
writes call it; call it from another hook manager's scripts (husky, lefthook) as
  sessiongate hook pre-commit "$@"
sessiongate's own --db and --protocol go before NAME. Exit 0 lets git proceed,
1 blocks, 2 is a usage or environment error.`,
		Hidden:             true,
		DisableFlagParsing: true, // git's arguments pass through untouched
		RunE: func(c *cobra.Command, argv []string) error {
			// Flag parsing is off so git's arguments pass untouched; take
			// sessiongate's own --db / --protocol from before the hook name.
			if len(argv) > 0 && (argv[0] == "--help" || argv[0] == "-h" || argv[0] == "help") {
				return c.Help()
			}
			for len(argv) > 0 && strings.HasPrefix(argv[0], "--") {
				name, val, hasVal := strings.Cut(argv[0], "=")
				if name != "--db" && name != "--protocol" {
					return usage(fmt.Errorf("unknown flag %s before the hook name", name))
				}
				argv = argv[1:]
				if !hasVal {
					if len(argv) == 0 {
						return usage(fmt.Errorf("%s needs a value", name))
					}
					val, argv = argv[0], argv[1:]
				}
				if name == "--db" {
					a.dbFlag = val
				} else {
					a.protocolFlag = val
				}
			}
			if len(argv) == 0 {
				return usage(fmt.Errorf("hook needs a name: one of %s", strings.Join(hooks.Hooks, ", ")))
			}
			// A hook process lives for milliseconds: collecting garbage is
			// wasted time unless memory really grows (a gate's huge output).
			debug.SetGCPercent(-1)
			debug.SetMemoryLimit(256 << 20)
			wd, err := os.Getwd()
			if err != nil {
				return usage(err)
			}
			rt := &hooks.Runtime{Dir: wd, DBPath: a.dbFlag, Stdin: a.stdin, Stderr: c.ErrOrStderr(), LeaveOpen: true, Parent: os.Getppid()}
			if code := rt.Run(c.Context(), argv[0], argv[1:]); code != 0 {
				return &exitError{code: code, err: errors.New("")}
			}
			return nil
		},
	}
}
