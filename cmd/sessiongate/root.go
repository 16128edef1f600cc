package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version is set at release time: go run ./internal/release stamps
// -ldflags "-X main.version=vX.Y.Z".
var version = ""

// versionString is the version --version, `version`, MCP and the records
// report: the release stamp, else the module version in the build info
// (the tag with `go install ...@vX`, a pseudo-version for a commit), else
// the commit a local build was made from (+ "-dirty" for uncommitted
// changes), else a build that carries neither says so with its Go version:
// a bare "dev" tells a bug report nothing.
func versionString() string {
	bi, ok := debug.ReadBuildInfo()
	return versionFrom(version, bi, ok)
}

func versionFrom(stamp string, bi *debug.BuildInfo, ok bool) string {
	if stamp != "" {
		return stamp
	}
	if !ok || bi == nil {
		return "devel-unstamped (no build info)"
	}
	if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		// GOFLAGS=-buildvcs=false, or a build outside a git checkout.
		return "devel-unstamped (" + bi.GoVersion + ", built without a version stamp or VCS info)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return "devel-" + rev
}

// repoRedirectEnv are the variables that make git use another repository,
// work tree, index or object store than the one found from the directory.
var repoRedirectEnv = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE"}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "sessiongate",
		Short: "Enforce an AI agent's session protocol in a git repository",
		Long: `sessiongate reads your SESSION-PROTOCOL.md, runs each agent session through its
phases, checks gates against the repository, blocks commits that skip them,
and records sessions, evidence, events and violations in SQLite.

Exit codes: 0 pass, 1 gate failed or commit blocked, 2 usage or environment error.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// --version, like the version command: the module version from the
		// build info (a tag when installed with go install ...@vX).
		Version: versionString(),
	}
	root.SetVersionTemplate("sessiongate {{.Version}}\n")
	root.PersistentPreRun = func(c *cobra.Command, _ []string) {
		// sessiongate finds the repository from the working directory.
		// Outside a git hook (where git itself sets them) these variables
		// only come from the caller, and would point sessiongate's own git
		// at another repository, index or object store than the worktree
		// its session records: the gates would check that instead.
		if !strings.HasPrefix(c.CommandPath(), "sessiongate hook") {
			for _, k := range repoRedirectEnv {
				os.Unsetenv(k)
			}
		}
	}
	root.PersistentFlags().StringVar(&a.dbFlag, "db", "", "SQLite database file, or a postgres:// URL for a team database (env SESSIONGATE_DB; default $(git rev-parse --git-common-dir)/sessiongate/sessiongate.db)")
	root.PersistentFlags().StringVar(&a.protocolFlag, "protocol", "", "protocol document (env SESSIONGATE_PROTOCOL; default SESSION-PROTOCOL.md, then .agents/SESSION-PROTOCOL.md)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usage(fmt.Errorf("%w\nSee '%s --help'.", err, c.CommandPath()))
	})
	root.AddCommand(
		&cobra.Command{
			Use:   "version",
			Short: "Print the version",
			Args:  cobra.NoArgs,
			RunE: func(c *cobra.Command, _ []string) error {
				fmt.Fprintln(c.OutOrStdout(), "sessiongate", versionString())
				return nil
			},
		},
		newProtocolCmd(a),
		newInitCmd(a),
		newSessionCmd(a),
		newAgentHookCmd(a),
		newRunCmd(a),
		newIndexCmd(a),
		newInstallCmd(a),
		newUninstallCmd(a),
		newDoctorCmd(a),
		newHookCmd(a),
		newMCPCmd(a),
		newServeCmd(a),
		newSnapshotCmd(a),
		newVerifyCmd(a),
		newRecordsCmd(a),
		newDemoCmd(a),
	)
	// cobra adds its completion command only at Execute; add it now so
	// "completion tcsh" is an unknown shell (exit 2), not help and exit 0.
	root.InitDefaultCompletionCmd()
	rejectUnknownSubcommands(root)
	return root
}

// rejectUnknownSubcommands makes a command group ("session", "snapshot")
// given an unknown subcommand exit 2 with the list, instead of printing
// help and exiting 0; with no arguments it still prints its help.
func rejectUnknownSubcommands(c *cobra.Command) {
	for _, sub := range c.Commands() {
		rejectUnknownSubcommands(sub)
	}
	if !c.HasSubCommands() || c.Run != nil || c.RunE != nil || c.Parent() == nil {
		return
	}
	c.Args = cobra.ArbitraryArgs
	c.RunE = func(c *cobra.Command, a []string) error {
		if len(a) == 0 {
			return c.Help()
		}
		var names []string
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() {
				names = append(names, s.Name())
			}
		}
		return usage(fmt.Errorf("unknown command %q for %q (want one of %s)\nSee '%s --help'.", a[0], c.CommandPath(), strings.Join(names, ", "), c.CommandPath()))
	}
}

// args wraps cobra's argument validators so a wrong count is a usage error.
func args(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(c *cobra.Command, a []string) error {
		if err := v(c, a); err != nil {
			return usage(fmt.Errorf("%w\nSee '%s --help'.", err, c.CommandPath()))
		}
		return nil
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
