package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

func newDemoCmd(a *app) *cobra.Command {
	var keep bool
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run one whole session on a throwaway repository with the starter protocol",
		Long: `Create a git repository in a temporary folder, write the starter protocol
('sessiongate init'), and drive one session through it with a real SQLite
database: a blocked gate, evidence, a forced advance recorded as a violation,
a commit, and the end of the session. Nothing outside the temporary folder is
touched.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			return runDemo(c.Context(), c.OutOrStdout(), keep)
		},
	}
	cmd.Flags().BoolVar(&keep, "keep", false, "keep the temporary repository and database")
	return cmd
}

func runDemo(ctx context.Context, w io.Writer, keep bool) (err error) {
	if _, err := exec.LookPath("git"); err != nil {
		return usage(fmt.Errorf("the demo needs git on PATH: %w", err))
	}
	dir, err := os.MkdirTemp("", "sessiongate-demo-")
	if err != nil {
		return usage(err)
	}
	if keep {
		defer fmt.Fprintf(w, "\nkept %s (database: %s)\n", dir, filepath.Join(dir, ".git", "sessiongate", "sessiongate.db"))
	} else {
		defer os.RemoveAll(dir)
	}
	sh := func(args ...string) error {
		cmd := gitenv.Command(ctx, dir, []string{"GIT_AUTHOR_NAME=demo", "GIT_AUTHOR_EMAIL=demo@example.invalid",
			"GIT_COMMITTER_NAME=demo", "GIT_COMMITTER_EMAIL=demo@example.invalid"}, args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	files := map[string][]byte{"SESSION-PROTOCOL.md": starterProtocol, "README.md": []byte("# demo\n")}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			return usage(err)
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "initial"}} {
		if err := sh(args...); err != nil {
			return usage(err)
		}
	}
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		return usage(err)
	}
	db, err := store.Open(ctx, filepath.Join(repo.CommonDir(), "sessiongate", "sessiongate.db"))
	if err != nil {
		return usage(err)
	}
	defer db.Close()
	e := session.NewEngine(db, session.Config{}, openRepo)
	spec, err := e.LoadSpec(ctx, "SESSION-PROTOCOL.md", starterProtocol)
	if err != nil {
		return usage(err)
	}
	say := func(format string, a ...any) { fmt.Fprintf(w, format+"\n", a...) }
	say("repository %s, protocol sha256:%s (%d phases)", dir, spec.SHA256[:12], len(spec.Phases))

	st, err := e.Start(ctx, session.StartRequest{Repo: repo, Spec: spec, Objective: "demo: fix a typo in the README"})
	if err != nil {
		return usage(err)
	}
	id := st.SessionID
	say("\n$ session_start -> %s at %s; work blocked until %s", id, st.Phase, strings.Join(st.BlockedUntil, ", "))

	adv, err := e.Advance(ctx, session.AdvanceRequest{ID: id})
	if err != nil {
		return usage(err)
	}
	say("$ advance_phase -> advanced=%v: %s", adv.Advanced, adv.Blocked.Reason)

	steps := []session.EvidenceRequest{
		{ID: id, Phase: "CONTEXT_RETRIEVAL", Kind: session.EvidenceToolOutput, Evidence: "read README.md and the previous session's notes"},
		{ID: id, Phase: "GIT_STATE", Kind: session.EvidenceToolOutput, Evidence: "On branch main\nnothing to commit, working tree clean"},
	}
	for _, r := range steps {
		ev, err := e.RecordEvidence(ctx, r)
		if err != nil {
			return usage(err)
		}
		say("$ record_evidence %s %s -> sha256:%s… (%s; the body is not stored)", ev.Phase, ev.Kind, ev.SHA256[:12], ev.Ref)
	}
	if adv, err = e.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING"}); err != nil {
		return usage(err)
	}
	say("$ advance_phase target_phase=WORKING -> %s; warnings: %v", adv.To, adv.Warnings)

	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# Demo\n\nFixed.\n"), 0o644); err != nil {
		return usage(err)
	}
	end, err := e.End(ctx, session.EndRequest{ID: id, Summary: "fixed the README title"})
	if err != nil {
		return usage(err)
	}
	say("$ session_end -> ended=%v, blocked at %s: %s", end.Ended, end.Blocked.Phase, end.Blocked.Reason)

	// The hooks `sessiongate install` puts in place, run by hand here.
	if err := demoCommit(ctx, e, repo, dir, sh, "docs: fix README title"); err != nil {
		return usage(err)
	}
	say("$ git commit -> pre-commit pass, post-commit recorded the commit")
	adv, err = e.Advance(ctx, session.AdvanceRequest{ID: id, Target: "DOCUMENTATION_UPDATE", Force: true, Reason: "demo: tests not set up yet"})
	if err != nil {
		return usage(err)
	}
	for _, v := range adv.Violations {
		say("$ advance_phase force=true -> violation %s %s: %s", v.Severity, v.Code, v.Message)
	}
	_, err = e.End(ctx, session.EndRequest{ID: id, Summary: "fixed the README title"})
	say("$ session_end -> %v", err)
	// A claimed test run is not evidence for the starter's QA gate; a run
	// sessiongate saw (what `sessiongate run` and the agent hooks record) is.
	if _, err := e.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "QA_VALIDATION", Kind: session.EvidenceToolOutput, Evidence: "ok  demo  0.01s"}); err != nil {
		say("$ record_evidence QA_VALIDATION \"ok  demo  0.01s\" -> refused: %v", err)
	} else if g, err := e.ValidateGate(ctx, id, "QA_VALIDATION"); err == nil {
		say("$ record_evidence QA_VALIDATION (a claim); validate_gate QA_VALIDATION -> %s: %s", g.Status, g.Message)
	}
	start := time.Now()
	test := gitenv.Command(ctx, dir, nil, "diff", "--check", "HEAD~1")
	out, err := test.CombinedOutput()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return usage(fmt.Errorf("run the demo's check: %w", err))
		}
		code = ee.ExitCode()
	}
	if _, err := e.RecordObserved(ctx, session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: "run", Command: "git diff --check HEAD~1",
		ExitCode: code, Duration: time.Since(start), Output: out}); err != nil {
		return usage(err)
	}
	g, err := e.ValidateGate(ctx, id, "QA_VALIDATION")
	if err != nil {
		return usage(err)
	}
	say("$ sessiongate run --phase QA_VALIDATION -- git diff --check HEAD~1 -> exit %d (observed); validate_gate QA_VALIDATION -> %s", code, g.Status)
	if end, err = e.End(ctx, session.EndRequest{ID: id, Summary: "fixed the README title", NextNotes: "set commands.QA_VALIDATION in sessiongate.yaml"}); err != nil {
		return usage(err)
	}
	say("$ session_end -> %s at %s, snapshot %s", end.State, end.EndCommit[:12], end.SnapshotID)

	v, err := e.View(ctx, id)
	if err != nil {
		return usage(err)
	}
	say("")
	printView(w, v)
	return nil
}

// demoCommit commits what is modified as the installed hooks would see it:
// pre-commit (which records the tree it allows), the commit, post-commit.
func demoCommit(ctx context.Context, e *session.Engine, repo *gitrepo.Repo, dir string, sh func(...string) error, msg string) error {
	out := func(args ...string) (string, error) {
		b, err := gitenv.Command(ctx, dir, nil, args...).Output()
		return strings.TrimSpace(string(b)), err
	}
	if err := sh("add", "-u"); err != nil {
		return err
	}
	tree := func(ctx context.Context) (string, error) { return out("write-tree") }
	d, err := e.PreCommit(ctx, session.HookRequest{Repo: repo, Tree: tree})
	if err != nil {
		return err
	}
	if !d.Allowed {
		return fmt.Errorf("pre-commit blocked: %s", strings.Join(d.Reasons, "; "))
	}
	if err := sh("commit", "-q", "--no-verify", "-m", msg); err != nil {
		return err
	}
	head, err := out("rev-parse", "HEAD", "HEAD^{tree}")
	if err != nil {
		return err
	}
	f := strings.Fields(head)
	_, err = e.PostCommit(ctx, session.HookRequest{Repo: repo, Commit: f[0], CommitTree: f[1]})
	return err
}
