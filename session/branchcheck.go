package session

import (
	"context"
	"fmt"
	"slices"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/toolneed"
)

// A requirement such as v3.0's "Re-verify the branch before commit" names
// no command, so a shell run of `git branch --show-current` seen by the
// agent hooks met nothing: it was filed under the start phase whose text
// quotes that command, and the honest agent was blocked at the end with
// a manual claim as the only way on (field pass, real Claude Code).
// Which run meets such a requirement is toolneed.BranchCheck.

// currentBranchCheck reports whether the session's current phase has a
// branch-check requirement the command meets: such a run is that phase's,
// not the start phase's whose text quotes the command.
func currentBranchCheck(spec *protocolspec.Spec, s *Session, cmd string) bool {
	p, ok := spec.Phase(s.Phase)
	if !ok {
		return false
	}
	for _, r := range p.Requirements {
		if toolneed.BranchCheck(r, cmd) {
			return true
		}
	}
	return false
}

// branchCheckRun reports whether cmd meets a branch-check requirement of
// phase (toolneed.BranchCheck): its evidence then records the branch.
// A run bound to such a requirement (`run --requirement R -- sh -c "git
// branch --show-current && git switch -c other"`) counts for it whatever
// its line, so it records the branch too (round 24 second review: the
// chained switch was recorded on no branch and the commit on other
// passed).
func branchCheckRun(spec *protocolspec.Spec, phase, cmd, reqID string) bool {
	p, ok := spec.Phase(phase)
	if !ok {
		return false
	}
	for _, r := range p.Requirements {
		if toolneed.BranchCheck(r, cmd) || reqID != "" && r.ID == reqID && toolneed.AsksBranchCheck(r) {
			return true
		}
	}
	return false
}

// workingBranchCheck is the end phase whose branch-check requirement a run
// made while working meets ("" when none): the honest agent re-verifies
// the branch right before it commits, still working, and the run was
// filed under the start phase whose text quotes the command, so the end
// phase's "Re-verify the branch before commit" stayed open. Under Codex
// its transcript found the run; under Copilot nothing did, and the honest
// session was blocked at session end (round 24, TestCopilotHonestV3Task).
// The order against commits is still commitOrderGap's.
func workingBranchCheck(spec *protocolspec.Spec, s *Session, cmd string) string {
	if s.State != StateWorking {
		return ""
	}
	for i := range spec.Phases {
		p := &spec.Phases[i]
		if p.Section != protocolspec.SectionEnd {
			continue
		}
		for _, r := range p.Requirements {
			if toolneed.BranchCheck(r, cmd) {
				return p.ID
			}
		}
	}
	return ""
}

// logCheckRun reports whether cmd, run for phase (bound to reqID, or
// quoted by one of its requirements), is a requirement's review of the
// recent commits: it runs git log, and the requirement quotes git log.
func logCheckRun(spec *protocolspec.Spec, phase, cmd, reqID string) bool {
	_, ok := logAsked(spec, phase, cmd, reqID)
	return ok
}

// logAsked returns whether the protocol asks for one commit alone: the
// git log it quotes shows one ("run `git log --oneline -1` to note the
// starting commit", the team's 2025-12-22 protocol), so HEAD alone meets
// it; a quoted `git log --oneline -5` asks for the history. ok is false
// when cmd is no git log run for such a requirement.
func logAsked(spec *protocolspec.Spec, phase, cmd, reqID string) (one, ok bool) {
	if !toolneed.RunsLog(cmd) {
		return false, false
	}
	p, found := spec.Phase(phase)
	if !found {
		return false, false
	}
	one = true
	for _, r := range p.Requirements {
		if toolneed.AsksLog(r) && (reqID == "" || r.ID == reqID) {
			ok = true
			one = one && toolneed.QuotesOneCommit(r.Text)
		}
	}
	return one && ok, ok
}

// headLogger and revResolver are the optional parts of a Repo a review
// of the recent commits is held against (gitrepo.Repo).
type headLogger interface {
	HeadAndParents(ctx context.Context) (shas, subjects []string, err error)
	NonMergeHead(ctx context.Context) (shas, subjects []string, err error)
}

type revResolver interface {
	ResolveRev(ctx context.Context, rev string) (string, error)
}

// headRelativeRE: a revision spelled from HEAD or as a raw id.
var headRelativeRE = lazyregexp.New(`^(?:HEAD|@|[0-9a-fA-F]{4,64})(?:$|[~^@{])`)

// recentLogShort says why a git log run, for a requirement to review the
// recent commits, did not show them: it logged refs it does not name
// (--all, --glob, --stdin), or a ref whose history does not hold HEAD, or
// its output lacks HEAD or one of HEAD's parents the line does not
// exclude (by id or subject, an entry each). "" when it showed them, or
// when the repo cannot say.
func recentLogShort(ctx context.Context, repo Repo, cmd string, out []byte, oneAsked bool) string {
	head, _, err := repo.Head(ctx)
	if err != nil || head == "" {
		return ""
	}
	tips, excluded, other := toolneed.LogRevs(cmd)
	if other != "" {
		return fmt.Sprintf("it logged refs the line does not name (%s): the review is of HEAD's history", other)
	}
	rr, canResolve := repo.(revResolver)
	var negs []string // the excluded revisions' commits
	if canResolve {
		for _, t := range tips {
			if t == "" || t == "HEAD" || t == "@" {
				continue
			}
			c, err := rr.ResolveRev(ctx, t)
			if err != nil || c == "" {
				continue // a path, or no revision: git log would say
			}
			if in, err := repo.IsAncestor(ctx, head, c); err == nil && !in {
				return fmt.Sprintf("it logged %s, whose history does not hold HEAD's %.7s", shorten.Runes(t, 40), head)
			}
		}
		for _, x := range excluded {
			// A parent is waived only by a named ref (`main..` on a
			// one-commit branch), not by HEAD's own ancestry spelled out
			// (`HEAD^..`, `@~..@`, a raw id: round 40's last re-check).
			if headRelativeRE.MatchString(x) {
				continue
			}
			if c, err := rr.ResolveRev(ctx, x); err == nil && c != "" {
				negs = append(negs, c)
			}
		}
	}
	want := []toolneed.LogCommit{{SHA: head}}
	if hl, ok := repo.(headLogger); ok && !oneAsked {
		if shas, subjects, err := hl.HeadAndParents(ctx); err == nil && len(shas) > 0 && shas[0] == head {
			want = want[:0]
			for i := range shas {
				// A parent the line excludes (`main..` on a one-commit
				// branch) is not owed; one it does not (`HEAD ^HEAD~3
				// -1`, a bare `--not`) is.
				if i > 0 && slices.ContainsFunc(negs, func(n string) bool {
					in, err := repo.IsAncestor(ctx, shas[i], n)
					return err == nil && in
				}) {
					continue
				}
				want = append(want, toolneed.LogCommit{SHA: shas[i], Subject: subjects[i]})
			}
			// A merge HEAD and `git log --no-merges`: the newest two
			// commits that are no merges are owed (HLA11).
			if len(shas) > 2 && toolneed.NoMerges(cmd) {
				if nm, ns, err := hl.NonMergeHead(ctx); err == nil && len(nm) > 0 {
					want = want[:0]
					for i := range nm {
						want = append(want, toolneed.LogCommit{SHA: nm[i], Subject: ns[i]})
					}
				}
			}
		}
	}
	if len(want) > 1 {
		if why := toolneed.OneCommit(cmd); why != "" {
			return why + ", not the commit before HEAD: one commit is no history"
		}
	}
	if !toolneed.ShowsLog(out, want) {
		if len(want) > 1 && toolneed.ShowsLog(out, want[:1]) {
			return fmt.Sprintf("it showed HEAD's %.7s alone, not the commit before it (%.7s): one commit is no history", head, want[1].SHA)
		}
		return fmt.Sprintf("it showed no commit of the branch's history (HEAD's %.7s is not an entry of its output, by id or subject)", head)
	}
	return ""
}
