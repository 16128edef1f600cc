package session

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/cijob"
)

// CIJobStep is the next step when a commit changes the CI job that runs
// sessiongate.
const CIJobStep = "leave the CI job that runs sessiongate as it is (`git restore --staged --worktree FILE` undoes it); a person commits such a change"

// checkCIJob blocks a session's commit whose staged CI files change what
// decides whether and how sessiongate runs in CI (cijob): the verify job,
// the jobs and templates it names, the file's triggers and settings. CI's
// verify is the net under every local gate, and once CI flags its commit
// a lazy agent's shortest way to green is that job's edit (`|| true`,
// `continue-on-error`, a path filter, the step deleted). Its other jobs
// stay the agent's to edit. The violation is recorded once per distinct
// change, as a protected change's is.
func (e *Engine) checkCIJob(ctx context.Context, d *HookDecision, s *Session, req HookRequest) (*Violation, error) {
	repo := req.Repo
	staged, err := repo.StagedPaths(ctx, ciJobFiles)
	if err != nil || len(staged) == 0 {
		return nil, err
	}
	head, _, err := repo.Head(ctx)
	if err != nil || head == "" {
		return nil, err // a first commit weakens nothing that ran
	}
	// rd reads HEAD's tree: the workflow a job calls, the Makefile whose
	// goal it runs (cijob/refs.go).
	rd := func(rel string) ([]byte, bool) {
		b, ok, err := repo.ReadCommitted(ctx, head, rel)
		return b, ok && err == nil
	}
	var msgs []string
	var goals map[string][]string // Makefile -> goals CI runs sessiongate through; read once
	for _, p := range slices.Sorted(maps.Keys(staged)) {
		before, ok, err := repo.ReadCommitted(ctx, head, p)
		if err != nil {
			return nil, fmt.Errorf("CI file %s at HEAD: %w", p, err)
		} else if !ok {
			continue // a new file: no job of its ran before
		}
		var after []byte // nil: a staged deletion
		if !staged[p] {
			if after, err = repo.ReadAt(ctx, "", p); err != nil { // the index's copy
				return nil, fmt.Errorf("staged CI file %s: %w", p, err)
			}
		}
		if cijob.Match(p) {
			if what := cijob.Weakened(before, after, rd); what != "" {
				msgs = append(msgs, p+" "+what)
			}
			continue
		}
		if goals == nil {
			if goals, err = ciMakeGoals(ctx, repo, head, rd); err != nil {
				return nil, err
			}
		}
		if what := cijob.MakeWeakened(before, after, goals[p]); what != "" && len(goals[p]) > 0 {
			msgs = append(msgs, p+" "+what)
		}
	}
	if len(msgs) == 0 {
		return nil, nil
	}
	why := "the commit changes the CI job that runs sessiongate, CI's check of every commit against the session records: " + strings.Join(msgs, "; ")
	if a := req.actor(); a.Person() {
		// A person's commit, with no agent shell call running: theirs
		// to make (the change is not a session's file, as the protocol
		// is, so there is nothing to accept first).
		if running, err := e.shellCallPending(ctx, s.ID); err != nil {
			return nil, err
		} else if !running {
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s; allowed: the commit is a person's (%s), not recorded against session %s", why, a.Via, s.ID))
			return nil, nil
		}
	}
	d.block("CI", CIJobStep, why)
	msg := truncate(why, 1000)
	vs, err := e.Store.ListViolations(ctx, ViolationFilter{SessionID: s.ID, Code: CodeProtectedChange, Limit: 50})
	if err != nil {
		return nil, fmt.Errorf("load violations: %w", err)
	}
	if slices.ContainsFunc(vs, func(v Violation) bool { return v.Message == msg }) {
		return nil, nil
	}
	return &Violation{SessionID: s.ID, RepoID: s.RepoID, Phase: s.Phase, Requirement: "CI job", Severity: SeverityHigh,
		Code: CodeProtectedChange, Window: WindowSession, Message: msg, CreatedAt: e.now()}, nil
}

// ciJobFiles are the staged files checkCIJob reads: the CI files and the
// root Makefile (a job's `make verify`). verify reads a Makefile in any
// folder; here a folder's would cost pre-commit a git process.
var ciJobFiles = slices.Concat(cijob.Patterns, cijob.Makefiles)

// ciMakeGoals lists, by Makefile, the make goals through which HEAD's CI
// files run sessiongate.
func ciMakeGoals(ctx context.Context, repo Repo, head string, rd cijob.Reader) (map[string][]string, error) {
	files, err := repo.FilesAt(ctx, head, cijob.Patterns)
	if err != nil {
		return nil, fmt.Errorf("CI files at HEAD: %w", err)
	}
	goals := map[string][]string{}
	for _, f := range files {
		b, ok := rd(f)
		if !ok {
			continue
		}
		for mf, gs := range cijob.CalleesOf(b, rd).Make {
			goals[mf] = append(goals[mf], gs...)
		}
	}
	return goals, nil
}
