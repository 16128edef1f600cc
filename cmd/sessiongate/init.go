package main

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/cijob"
	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/hooks"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

//go:embed starter/SESSION-PROTOCOL.md
var starterProtocol []byte

//go:embed starter/sessiongate.yaml
var starterConfig []byte

// protocolHomes are where init looks for an existing protocol, in order.
var protocolHomes = []string{"SESSION-PROTOCOL.md", ".agents/SESSION-PROTOCOL.md", "docs/SESSION-PROTOCOL.md"}

func newInitCmd(a *app) *cobra.Command {
	var commit bool
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Adopt the repository's protocol (or write a starter) and write sessiongate.yaml pointing at it",
		Long: `Find the repository's session protocol: --protocol PATH (or SESSIONGATE_PROTOCOL),
else SESSION-PROTOCOL.md at the root, in .agents/ or in docs/. When one exists, write
only sessiongate.yaml with protocol: set to it, and print its lint summary, the checks
inferred from its sentences and the requirements that stay evidence-only. When none
exists, write the starter protocol (at --protocol PATH, else the root) and the config.
Existing files are never overwritten; a protocol that does not parse is reported and
nothing is written.

--commit also commits what init wrote (and the protocol it found, when untracked), as
you: the adoption commit, recorded as a person's adoption, never a violation. It is
refused under a coding agent: adopting the protocol is a person's act.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			r, err := a.gitRepo(c.Context())
			if err != nil {
				return err
			}
			root := r.Root()
			w := c.OutOrStdout()
			if commit {
				// Before anything is written: an agent gets nothing half done.
				if act := hooks.DetectActor(os.Getenv, nil, root, ""); !act.Person() {
					return usage(fmt.Errorf("init --commit refused: it runs under the coding agent %s (%s), and adopting the protocol is a person's commit; a person runs it in a terminal of their own", act.Agent, act.Via))
				}
				// A detached agent escapes the process tree, not the
				// conversation log its hooks keep (personact.go).
				open, err := openConversations(r.CommonDir(), root)
				if err != nil {
					return usage(err)
				}
				if len(open) > 0 {
					return usage(fmt.Errorf("init --commit refused: the agent conversation %s is open in this worktree (last hook %s), and adopting the protocol is a person's commit; "+
						"close the agent (or wait until %s pass without a hook) and run it again", session.ConversationNames(open), open[0].LastHook.Format(time.RFC3339), session.ConversationIdle))
				}
			}
			rel, found, err := findProtocol(root, a.protocolFlag)
			if err != nil {
				return usage(err)
			}
			cfgPath := filepath.Join(root, "sessiongate.yaml")
			if _, err := os.Stat(cfgPath); err == nil {
				return usage(fmt.Errorf("%s already exists: not overwriting it (set protocol: %s in it, or remove it to start over)", cfgPath, rel))
			} else if !errors.Is(err, fs.ErrNotExist) {
				return usage(err)
			}
			body := starterProtocol
			if found {
				if body, err = boundedread.File(filepath.Join(root, filepath.FromSlash(rel)), boundedread.DefaultLimit); err != nil {
					return usage(fmt.Errorf("read protocol: %w", err))
				}
			}
			spec, err := protocolspec.Parse(rel, body)
			if err != nil {
				fmt.Fprintln(c.ErrOrStderr(), err.Error())
				return blocked("%s does not parse: fix it (sessiongate protocol lint %s), then run init again; nothing was written", rel, rel)
			}
			if found {
				fmt.Fprintf(w, "found protocol %s (%d phases, sha256:%s)\n", rel, len(spec.Phases), spec.SHA256[:12])
			} else {
				p := filepath.Join(root, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					return usage(fmt.Errorf("write %s: %w", p, err))
				}
				if err := writeNew(p, starterProtocol); err != nil {
					return usage(err)
				}
				fmt.Fprintf(w, "no protocol found (looked for %s): wrote the starter protocol %s\n", strings.Join(protocolHomes, ", "), p)
			}
			tc := config.ResolvePytest(config.DetectTestCommand(root), os.Getenv("PATH"))
			defBranch := initDefaultBranch(c.Context(), r)
			ciNamed, ciLocal := cijob.InTree(root)
			if err := writeNew(cfgPath, withProtectedPaths(configFor(rel, spec, tc.Command, defBranch), ciLocal)); err != nil {
				return usage(err)
			}
			fmt.Fprintf(w, "wrote %s (protocol: %s)\n", cfgPath, rel)
			switch {
			case len(ciLocal) > 0:
				fmt.Fprintf(w, "protected_paths: %s, what the CI job that runs sessiongate (%s) runs from the work tree: an agent's change to them is a protected change\n", strings.Join(ciLocal, ", "), strings.Join(ciNamed, ", "))
			case len(ciNamed) == 0:
				fmt.Fprintln(w, "note: no CI file runs sessiongate: commits made with the hooks off reach the default branch unchecked; add `sessiongate verify` to CI (docs/policy.md)")
			}
			if idle := cijob.UnphonyGoals(root); len(idle) > 0 {
				fmt.Fprintf(w, "warning: CI runs sessiongate through make goals .PHONY does not list (%s): a committed file of that name makes make skip the goal and CI's verify with it; declare them .PHONY\n", strings.Join(idle, "; "))
			}
			if _, ok := spec.Phase("QA_VALIDATION"); ok {
				if tc.Command != "" {
					fmt.Fprintf(w, "QA_VALIDATION runs %q (found %s): sessiongate runs it at that gate and before each push, and an observed run must be of it; change commands: in sessiongate.yaml if that is not how this project tests\n", tc.Command, tc.From)
					if tc.Warning != "" {
						fmt.Fprintln(w, "warning: "+tc.Warning)
					}
					if limit := config.Default().CommandTimeout; tc.CITimeout > time.Duration(limit) {
						fmt.Fprintf(w, "warning: the CI gives that step up to %s, and a gate kills its command after command_timeout (%s): if the suite takes longer, set command_timeout: %s in sessiongate.yaml, or the QA gate fails honest work\n", tc.CITimeout, time.Duration(limit), tc.CITimeout)
					}
				} else if tc.Note != "" {
					fmt.Fprintln(w, "no test command picked: "+tc.Note)
				} else {
					fmt.Fprintln(w, "no test command found (looked for a CI test step (GitHub, GitLab, CircleCI, Buildkite, Azure, Bitbucket, Travis), a Makefile test or check target, a justfile, Taskfile, mise or pixi test task, a Bazel workspace, an Earthfile test target, go.mod (at the root or in one folder below) with *_test.go files, a package.json test script, a pnpm workspace, deno.json, mix.exs, Package.swift, a .NET solution, RSpec or a Rakefile test task, composer.json's test script or phpunit.xml, Cargo.toml, pom.xml, a Gradle build, noxfile.py, tox's configuration, pytest's configuration, conftest.py or pytest-named requirements with test_*.py files, scripts/test.sh, test.sh, tests/run.sh): QA_VALIDATION gets no command; the note below says what its gate then takes")
				}
			}
			var commands map[string]string
			if tc.Command != "" {
				// the config just written gives QA_VALIDATION its command
				spec = spec.Bound(protocolspec.BindOptions{Commands: map[string]bool{"QA_VALIDATION": true}})
				if _, ok := spec.Phase("QA_VALIDATION"); ok {
					commands = map[string]string{"QA_VALIDATION": tc.Command}
				}
			}
			printInitSummary(w, spec, commands)
			if commit {
				return adoptionCommit(c.Context(), a, r, w, rel)
			}
			fmt.Fprintln(w, "\nnext: sessiongate protocol lint, then sessiongate install")
			return nil
		},
	}
	cmd.Flags().BoolVar(&commit, "commit", false, "commit the adoption (sessiongate.yaml and the protocol) as you, recorded as a person's adoption")
	return cmd
}

// adoptionCommit commits the config and the protocol, only them, as the
// person running init (git's own identity and hooks: a pre-commit hook of
// sessiongate sees a person and lets it through), then records the commit
// as the adoption: in the database and on the records ref.
func adoptionCommit(ctx context.Context, a *app, r *gitrepo.Repo, w io.Writer, rel string) error {
	root := r.Root()
	files := []string{"sessiongate.yaml", rel}
	if out, err := runGit(ctx, root, nil, append([]string{"add", "--"}, files...)...); err != nil {
		return usage(fmt.Errorf("init --commit: git add: %v: %s", err, out))
	}
	msg := "Adopt sessiongate (protocol " + rel + ")"
	env := []string{hooks.EnvAdoption + "=1"}
	if out, err := runGit(ctx, root, env, append([]string{"commit", "-m", msg, "--"}, files...)...); err != nil {
		return blocked("init --commit: git commit failed (sessiongate.yaml and %s are written and staged; commit them yourself): %v\n%s", rel, err, out)
	}
	head, err := runGit(ctx, root, nil, "rev-parse", "HEAD")
	if err != nil {
		return usage(fmt.Errorf("init --commit: %v", err))
	}
	head = strings.TrimSpace(head)
	e, err := a.sessionEngine(ctx)
	if err != nil {
		return err
	}
	act := hooks.DetectActor(os.Getenv, nil, root, "HEAD")
	rec := snapshot.CommitActor{Commit: head, Actor: snapshot.ActorPerson, Kind: snapshot.KindAdoption,
		Author: act.Author(ctx), Via: "sessiongate init --commit: " + act.Via}
	if err := e.RecordCommitActor(ctx, r, 0, rec); err != nil {
		return err
	}
	fmt.Fprintf(w, "\ncommitted the adoption as %s: %s (recorded as a person's adoption, not a violation)\n", rec.Author, shorten.SHA(head))
	fmt.Fprintln(w, "next: sessiongate protocol lint, then sessiongate install")
	return nil
}

// runGit runs git in dir with extra environment, returning its combined output.
func runGit(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := gitenv.Command(ctx, dir, env, args...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// findProtocol returns the protocol's repository-relative slash path and
// whether it exists. flag (or SESSIONGATE_PROTOCOL) names it explicitly,
// relative to the working directory; it must lie inside the repository.
func findProtocol(root, flag string) (string, bool, error) {
	if flag == "" {
		flag = os.Getenv("SESSIONGATE_PROTOCOL")
	}
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", false, fmt.Errorf("--protocol %s: %w", flag, err)
		}
		// Compare real paths: the repository root is resolved (macOS /tmp, symlinked homes).
		dir, base := filepath.Dir(abs), filepath.Base(abs)
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		realRoot := root
		if rr, err := filepath.EvalSymlinks(root); err == nil {
			realRoot = rr
		}
		rel, err := filepath.Rel(realRoot, filepath.Join(dir, base))
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", false, fmt.Errorf("--protocol %s is outside the repository %s: the protocol must live in the repository it governs", flag, root)
		}
		st, err := os.Stat(abs)
		switch {
		case err == nil && st.IsDir():
			return "", false, fmt.Errorf("--protocol %s is a directory: name the protocol file", flag)
		case err == nil:
			return filepath.ToSlash(rel), true, nil
		case errors.Is(err, fs.ErrNotExist):
			return filepath.ToSlash(rel), false, nil
		default:
			return "", false, fmt.Errorf("--protocol %s: %w", flag, err)
		}
	}
	for _, h := range protocolHomes {
		if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(h))); err == nil && st.Mode().IsRegular() {
			return h, true, nil
		}
	}
	return protocolHomes[0], false, nil
}

// configFor is the starter config with protocol: set to rel. The starter's
// pre-push hook runs QA_VALIDATION; a protocol without that phase (the
// 2025-12-18 ai-agents version) gets an empty list, since a config naming
// a phase the protocol lacks is refused by every later command. testCmd,
// the project's test command when init found one, becomes QA_VALIDATION's
// command: without it the starter's QA gate takes an observed run of any
// command (`sessiongate run --phase QA_VALIDATION -- git status` met it).
func configFor(rel string, spec *protocolspec.Spec, testCmd, defBranch string) []byte {
	const key = "\nprotocol: SESSION-PROTOCOL.md\n"
	out := bytes.Replace(starterConfig, []byte(key), []byte("\nprotocol: "+yamlString(rel)+"\n"), 1)
	if defBranch != "" {
		out = bytes.Replace(out, []byte("\n# default_branch: main\n"), []byte("\ndefault_branch: "+yamlString(defBranch)+"   # found by sessiongate init\n"), 1)
	}
	if _, ok := spec.Phase("QA_VALIDATION"); !ok {
		out = bytes.Replace(out, []byte("\n  pre-push: [QA_VALIDATION]\n"),
			[]byte("\n  pre-push: []             # the protocol has no QA_VALIDATION phase\n"), 1)
	} else if testCmd != "" {
		out = bytes.Replace(out, []byte("\ncommands: {}\n#  QA_VALIDATION: \"go test ./...\"\n"),
			[]byte("\ncommands:\n  QA_VALIDATION: "+yamlString(testCmd)+"   # found by sessiongate init\n"), 1)
	}
	return out
}

// withProtectedPaths appends protected_paths to a config init writes: the
// files the CI job that runs sessiongate runs from the work tree
// (cijob.LocalFiles), which the agent could otherwise edit to make that
// job pass without touching the CI file.
func withProtectedPaths(cfg []byte, paths []string) []byte {
	if len(paths) == 0 {
		return cfg
	}
	var b bytes.Buffer
	b.Write(cfg)
	if !bytes.HasSuffix(cfg, []byte("\n")) {
		b.WriteByte('\n')
	}
	b.WriteString("\n# What the CI job that runs sessiongate runs from the work tree (found by\n# sessiongate init): an agent's change to it is a protected change.\nprotected_paths:\n")
	for _, p := range paths {
		b.WriteString("  - " + yamlString(p) + "\n")
	}
	return b.Bytes()
}

// initDefaultBranch is the branch init pins as default_branch: what
// origin/HEAD names, else an existing main or master, else the branch a
// repository without commits yet is on when it is main or master ("" when
// none tells).
func initDefaultBranch(ctx context.Context, r *gitrepo.Repo) string {
	if b, err := r.DefaultBranch(ctx); err == nil && b != "" {
		return b
	}
	if out, err := runGit(ctx, r.Root(), nil, "symbolic-ref", "--quiet", "--short", "HEAD"); err == nil {
		if b := strings.TrimSpace(out); b == "main" || b == "master" {
			return b
		}
	}
	return ""
}

// yamlString quotes a path when plain YAML would misread it.
func yamlString(s string) string {
	if strings.ContainsAny(s, ":#'\"{}[],&*!|>%@`") || strings.TrimSpace(s) != s {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return s
}

// writeNew creates a file that must not exist yet (O_EXCL: never clobber
// one created since it was looked for).
func writeNew(p string, body []byte) error {
	fh, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	if _, err := fh.Write(body); err != nil {
		fh.Close()
		return fmt.Errorf("write %s: %w", p, err)
	}
	if err := fh.Close(); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}

// printInitSummary is protocol lint's summary: warnings, gate coverage,
// inferred checks and the requirements only evidence can show.
func printInitSummary(w io.Writer, spec *protocolspec.Spec, commands map[string]string) {
	warns := append(append([]protocolspec.Warning{}, spec.Warnings...), protocolspec.Lint(spec)...)
	fmt.Fprintf(w, "\nlint: %d warning(s)\n", len(warns))
	for _, wa := range warns {
		fmt.Fprintf(w, "%s:%d: warning: %s\n", spec.File, wa.Line, wa.Message)
	}
	fmt.Fprintln(w)
	printCoverage(w, spec, commands)
	printInferred(w, spec)
	printEvidenceOnly(w, spec)
}
