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
	var callees *cijob.Callees // what HEAD's CI runs sessiongate through; read once
	for _, p := range slices.Sorted(maps.Keys(staged)) {
		before, ok, err := repo.ReadCommitted(ctx, head, p)
		if err != nil {
			return nil, fmt.Errorf("CI file %s at HEAD: %w", p, err)
		}
		if !ok && cijob.Match(p) {
			continue // a new CI file: no job of its ran before
		}
		if !cijob.Match(p) && callees == nil {
			if callees, err = ciCallees(ctx, repo, head, rd); err != nil {
				return nil, err
			}
		}
		if !ok {
			if mf := callees.Shadows(p); mf != "" && !staged[p] {
				msgs = append(msgs, fmt.Sprintf("%s is new, and make reads it before %s: the goals CI runs sessiongate through (%s) would come from it", p, mf, goalsList(callees.Make[mf])))
			}
			continue
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
		if goals := callees.Make[p]; len(goals) > 0 {
			if what := cijob.MakeWeakened(before, after, goals); what != "" {
				msgs = append(msgs, p+" "+what)
			}
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

// ciCallees reads what HEAD's CI files run sessiongate through beyond
// themselves (cijob.CalleesOf): the Makefiles and goals, by file.
func ciCallees(ctx context.Context, repo Repo, head string, rd cijob.Reader) (*cijob.Callees, error) {
	files, err := repo.FilesAt(ctx, head, cijob.Patterns)
	if err != nil {
		return nil, fmt.Errorf("CI files at HEAD: %w", err)
	}
	out := &cijob.Callees{Make: map[string][]string{}}
	for _, f := range files {
		b, ok := rd(f)
		if !ok {
			continue
		}
		c := cijob.CalleesOf(b, rd)
		for mf, gs := range c.Make {
			out.Make[mf] = append(out.Make[mf], gs...)
		}
		out.DefaultMake = append(out.DefaultMake, c.DefaultMake...)
	}
	return out, nil
}

// goalsList spells goals as make calls: "`make gates`".
func goalsList(goals []string) string {
	out := make([]string, len(goals))
	for i, g := range goals {
		out[i] = "`make " + g + "`"
		if g == "" {
			out[i] = "`make`"
		}
	}
	return strings.Join(out, ", ")
}
