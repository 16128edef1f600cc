package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/snapshot"
	"github.com/sessiongate/sessiongate/verify"
)

func newSnapshotCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "snapshot",
		Short: "Content-addressed state snapshots (ADR-029)",
	}
	id := &cobra.Command{
		Use:   "id",
		Short: "Print the content-addressed id of the JSON on stdin (sha256 of its RFC 8785 form)",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			b, err := io.ReadAll(io.LimitReader(a.stdin, 64<<20))
			if err != nil {
				return usage(fmt.Errorf("read stdin: %w", err))
			}
			sid, _, err := snapshot.IDOf(b)
			if err != nil {
				return usage(fmt.Errorf("stdin: %w", err))
			}
			fmt.Fprintln(c.OutOrStdout(), sid)
			return nil
		},
	}
	var record bool
	var exportSession string
	export := &cobra.Command{
		Use:               "export [ID]",
		Short:             "Print a session's session_state_window_v1 envelope (--record: the whole session record; default: the active session)",
		Args:              args(cobra.MaximumNArgs(1)),
		ValidArgsFunction: a.completeSessionArg,
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			e, id, err := a.resolveSession(ctx, exportSession, argv)
			if err != nil {
				return err
			}
			rec, err := e.Record(ctx, id)
			if err != nil {
				return usage(err)
			}
			if record {
				return writeJSON(c.OutOrStdout(), rec)
			}
			return writeJSON(c.OutOrStdout(), rec.Envelope)
		},
	}
	export.Flags().BoolVar(&record, "record", false, "print the session record (every snapshot payload and the envelope)")
	export.Flags().StringVar(&exportSession, "session", "", "session id or unambiguous prefix (the same as the ID argument)")
	cmd.AddCommand(id, export)
	return cmd
}

func newVerifyCmd(a *app) *cobra.Command {
	var asJSON, requireSigned, noFetch, rerun bool
	var format, output string
	recheck := verify.RecheckFlag{N: verify.DefaultRecheckDepth}
	cmd := &cobra.Command{
		Use:   "verify [REV-RANGE]",
		Short: "Check commits' session trailers against the session records (no database needed)",
		Long: `For each commit in REV-RANGE check its Session-Id and Session-Snapshot trailers: the
session record exists (on the records ref when session_record names one,
refs/sessiongate/records; else, and for sessions recorded before a move to the ref, in
the tree at the tip of the range), its snapshots recompute to their ids, the trailer
names one of them, the session ended COMPLETE with every BLOCKING and REQUIRED gate
passed, and the record lists the commit (a commit carrying copied trailers fails:
"trailers copied"). Commits without trailers fail or warn (config
verify.missing_trailer). --require-signed also checks each commit's signature with
git verify-commit.

With no REV-RANGE the range comes from the CI: GitHub Actions' event
(GITHUB_EVENT_PATH: a push's before..after (to the default branch, with the last
--recheck first-parent commits below before re-checked), a new branch's commits not on the default
branch, a pull request's base.sha..head.sha, never GitHub's merge commit), GitLab CI's
CI_MERGE_REQUEST_DIFF_BASE_SHA..CI_COMMIT_SHA or CI_COMMIT_BEFORE_SHA..CI_COMMIT_SHA;
GitHub events naming no commits: GITHUB_SHA on GITHUB_REF; Jenkins, Buildkite, CircleCI,
Azure Pipelines, Bitbucket Pipelines: the commit they built, its commits not on the target
or default branch (on the default branch: its tip and the --recheck window below it, exit 2
when history is deeper than the window and --recheck is not given); else
@{upstream}..HEAD when it holds a commit; else the commits not on the default branch. When
none tells (HEAD on the default branch, no CI variables) it exits 2 rather than check
fewer commits.
In a shallow clone it fetches what the range needs (--no-fetch: exit 2 instead).
The report says how the range was chosen.

sessiongate.yaml and the protocol are read as committed at the range's base, never from
the commits under check; a record naming another protocol fails. A commit that removes or
weakens sessiongate's hooks in a committed hook config fails unless a listed signer signed.
--rerun runs every command gate of the base on the head in a fresh worktree, {changed}
taking the range's changed files; a gate whose program this CI lacks exits 2 (run npm ci
first for npm linters). Under GitHub Actions it also prints
::error/::warning annotations and appends a Markdown summary to $GITHUB_STEP_SUMMARY;
--format json|sarif|junit|github|gitlab|markdown (with --output FILE: to a file).

Exit 1 on any failure. Exit 2 when the range cannot be chosen or completed, or the
records ref is not in this clone (CI: git fetch origin
refs/sessiongate/records:refs/sessiongate/records). Needs only git, so it runs in any CI.
What this proves and what it does not: docs/security.md.`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, argv []string) error {
			ctx := c.Context()
			if err := verify.ObjectHistory(); err != nil {
				return usage(fmt.Errorf("read history as the commit objects record it: %w", err))
			}
			r, err := a.gitRepo(ctx)
			if err != nil {
				return err
			}
			cfg, err := a.config(ctx)
			if err != nil {
				return err
			}
			a.foldPendingStops(ctx)
			var rg *verify.Range
			if len(argv) == 1 {
				if err := verify.CheckNamed(argv[0]); err != nil {
					return usage(fmt.Errorf("choose the range to verify: %w", err))
				}
				rg = verify.Named(argv[0], rangeTip(argv[0]))
			} else if rg, err = verify.ChooseRange(ctx, r, os.Getenv); err != nil {
				return usage(fmt.Errorf("choose the range to verify: %w", err))
			}
			rg.ChooseDepth(recheck.Chosen)
			if rg.NeedsWindow() && recheck.N <= 0 {
				return usage(fmt.Errorf("choose the range to verify: %s, and --recheck 0 leaves its tip alone (the other commits of a push would pass unchecked): name the range (sessiongate verify BASE..HEAD) or drop --recheck 0", rg.How))
			}
			if err := rg.Complete(ctx, r, !noFetch); err != nil {
				return usage(err)
			}
			// Complete makes a push whose before is gone a tip build, or a
			// range from a list of pushed commits that may be cut.
			if rg.NeedsWindow() && recheck.N <= 0 {
				what := "leaves its tip alone (the other commits of a push would pass unchecked)"
				if !rg.TipOnly() {
					what = "leaves the commits of the push below the listed ones unchecked (the list may be cut)"
				}
				return usage(fmt.Errorf("choose the range to verify: %s, and --recheck 0 %s: name the range (sessiongate verify BASE..HEAD) or drop --recheck 0", rg.How, what))
			}
			if err := rg.CheckNotEmpty(ctx, r); err != nil {
				return usage(err)
			}
			rng := rg.Text
			// The config and protocol verify trusts are the base's: the
			// commits under check could relax the one in the work tree.
			base, err := rg.BaseCommit(ctx, r)
			if err != nil {
				return usage(fmt.Errorf("find the range's base: %w", err))
			}
			bl, err := verify.BaselineAt(ctx, r, base)
			if err != nil {
				return usage(verify.ExplainGitError(err))
			}
			// A base without a config (or no base: an orphan branch) is an
			// adoption only when the repository has none yet
			// (AdoptedBaseline).
			if bl, err = verify.AdoptedBaseline(ctx, r, rg, bl, !noFetch); err != nil {
				return usage(verify.ExplainGitError(err))
			}
			vc := bl.Config
			// Signs that code ran before verify in this job (jobsigns.go):
			// an origin that is not the job's repository, a signature
			// program in the clone's own config, the branch's programs on PATH.
			signs := verify.ReadJobSigns(ctx, r, os.Getenv, requireSigned || vc.Verify.RequireSigned)
			if len(signs.Fail) > 0 {
				return usage(fmt.Errorf("this job's checkout was changed before verify ran: %s", strings.Join(signs.Fail, "; ")))
			}
			vs, stricter := verify.TargetSettings(ctx, r, rg, bl, !noFetch)
			opts := verify.Options{RecordPath: vc.SessionRecord, MissingTrailer: vs.MissingTrailer, Unsessioned: vs.Unsessioned,
				Unrecorded: vs.Unrecorded, Violations: vs.Violations, RequireSigned: requireSigned || vs.RequireSigned, Baseline: bl, Rerun: rerun, NoFetch: noFetch}
			rep, err := verify.RunRange(ctx, r, rg, opts)
			if err != nil {
				return usage(verify.ExplainGitError(err))
			}
			if stricter.Note != "" {
				rep.Notes = append(rep.Notes, stricter.Note)
				why, err := stricter.Explain(ctx, r, rg, opts, requireSigned, rep)
				if err != nil {
					return usage(verify.ExplainGitError(err))
				}
				rep.Notes = append(rep.Notes, why...)
			}
			// A push to the default branch: the window below it too, so a
			// later push does not turn main green over a failed one.
			if err := verify.RecheckEarlier(ctx, r, rg, rep, recheck.N, verify.Options{RequireSigned: requireSigned, NoFetch: noFetch}); err != nil {
				return usage(fmt.Errorf("re-check the default branch below the push: %w", verify.ExplainGitError(err)))
			}
			for _, w := range signs.Warn {
				rep.Notes = append(rep.Notes, "warning: "+w)
			}
			if bl.Rev != "" && (cfg.Verify != vc.Verify || cfg.SessionRecord != vc.SessionRecord) {
				rep.Notes = append(rep.Notes, "the work tree's sessiongate.yaml changes verify's settings; they apply once merged, so this run uses the base's")
			}
			if rerun {
				res, err := verify.Rerun(ctx, r, bl, rep.Tip, time.Duration(vc.CommandTimeout))
				if err != nil {
					return usage(err)
				}
				rep.Rerun = res
				for _, x := range res {
					if x.Status == "fail" {
						rep.OK = false
					}
				}
			}
			w := c.OutOrStdout()
			if asJSON {
				format = "json"
			}
			if !slices.Contains(verify.Formats, format) {
				return usage(fmt.Errorf("--format %q: want one of %s", format, strings.Join(verify.Formats, ", ")))
			}
			if output != "" {
				// The machine format to a file, the text report to stdout.
				f, err := os.Create(output)
				if err != nil {
					return usage(fmt.Errorf("--output: %w", err))
				}
				err = verify.Write(f, rep, format)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					return usage(fmt.Errorf("write %s: %w", output, err))
				}
				format = "text"
			}
			if format != "text" {
				if err := verify.Write(w, rep, format); err != nil {
					return err
				}
			} else {
				writeVerifyText(w, rep)
			}
			if os.Getenv("GITHUB_ACTIONS") == "true" {
				// Annotations on the run and the PR, and the job summary.
				if format != "github" {
					if err := verify.GitHubAnnotations(w, rep); err != nil {
						return err
					}
				}
				if p := os.Getenv("GITHUB_STEP_SUMMARY"); p != "" {
					f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
					if err != nil {
						return usage(fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err))
					}
					err = verify.Markdown(f, rep)
					if cerr := f.Close(); err == nil {
						err = cerr
					}
					if err != nil {
						return usage(fmt.Errorf("write the job summary: %w", err))
					}
				}
			}
			if !rep.OK {
				return &exitError{code: exitBlocked, err: fmt.Errorf("verify failed for %s", rng)}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (--format json)")
	cmd.Flags().StringVar(&format, "format", "text", "report format: "+strings.Join(verify.Formats, ", ")+" (github: ::error annotations; gitlab: Code Quality JSON; markdown: a job summary or PR comment)")
	cmd.Flags().StringVar(&output, "output", "", "write the --format report to this file and the text report to stdout")
	cmd.Flags().BoolVar(&rerun, "rerun", false, "run the command gates (commands: of sessiongate.yaml, command checks of the protocol, {changed} as the range's changed files) as committed at the range's base, on the head, in a fresh worktree; a failure fails verify, a missing program exits 2")
	cmd.Flags().Var(&recheck, "recheck", "on a push to the default branch, also re-check this many first-parent commits below the push's before (0: off; all: every one since the adoption). A default-branch build that names no before exits 2 when its history is deeper than the default window, unless --recheck is given")
	cmd.Flags().BoolVar(&noFetch, "no-fetch", false, "never fetch: in a shallow clone missing commits are an error (exit 2), not fetched")
	cmd.Flags().BoolVar(&requireSigned, "require-signed", false, "fail every commit whose signature `git verify-commit` does not accept (config verify.require_signed)")
	return cmd
}

// rangeTip is the commit a named range ends at ("A..B" -> B, "A.." -> HEAD).
func rangeTip(rng string) string {
	if i := strings.LastIndex(rng, ".."); i >= 0 {
		if t := strings.TrimLeft(rng[i:], "."); t != "" {
			return t
		}
		return "HEAD"
	}
	if strings.HasSuffix(rng, "^!") {
		return strings.TrimSuffix(rng, "^!")
	}
	return rng
}

func writeVerifyText(w io.Writer, rep *verify.Report) {
	for _, cr := range rep.Commits {
		fmt.Fprintf(w, "%-4s %.12s %s\n", strings.ToUpper(cr.Status), cr.SHA, oneLine(cr.Subject, 60))
		for _, p := range cr.Problems {
			fmt.Fprintf(w, "       %s\n", p)
		}
	}
	fmt.Fprintf(w, "%d commit(s) in %s\n", len(rep.Commits), rep.Range)
	for _, x := range rep.Rerun {
		files := ""
		if x.Files > 0 {
			files = fmt.Sprintf("%d changed file(s), ", x.Files)
		}
		fmt.Fprintf(w, "%-4s rerun %s: %s (%sexit %d, %.1fs; from %s)\n", strings.ToUpper(x.Status), x.Phase, x.Command, files, x.ExitCode, x.Seconds, x.Source)
		if x.Note != "" {
			fmt.Fprintf(w, "       %s\n", x.Note)
		}
		if x.Status == "fail" && x.Output != "" {
			for _, l := range strings.Split(x.Output, "\n") {
				fmt.Fprintf(w, "       %s\n", l)
			}
		}
	}
	fmt.Fprintf(w, "range: %s\n", rep.How)
	if rep.Baseline != "" {
		fmt.Fprintf(w, "trusted: %s\n", rep.Baseline)
	}
	for _, f := range rep.Fetched {
		fmt.Fprintf(w, "fetched: %s\n", f)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}
