package session

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// A person's commit on local main made a second before the session
// started, then the session's branch rebased onto main: reconciliation
// told the session's commits by committer time (a second of slack) and
// charged the person's commit to the session as a CRITICAL BYPASS
// (TestCodexHonestV3RebaseConflict26 failed one run in five). What the
// local branches pointed at when the session started existed before it,
// whatever its date says: the start records those tips, and their history
// is never the session's work. A commit made later cannot be an ancestor
// of a tip recorded earlier, so a hooks-off commit on main during the
// session still lands as a BYPASS (TestRebaseOntoHooksOffMainLazy26).

// BranchTipsRepo lists what the local branches point at; gitrepo.Repo has
// it.
type BranchTipsRepo interface {
	// BranchTips returns the distinct branch tips; nil when there are too
	// many to record.
	BranchTips(ctx context.Context) ([]string, error)
}

// branchTipsAtStart returns the branch tips for the start event, HEAD's
// own left out (the session's branch: a late start's own commits keep
// the rule of commit times). nil when repo cannot tell or git fails: the
// start never fails for it.
func branchTipsAtStart(ctx context.Context, repo Repo, head string) []string {
	br, ok := repo.(BranchTipsRepo)
	if !ok {
		return nil
	}
	tips, err := br.BranchTips(ctx)
	if err != nil {
		return nil
	}
	return slices.DeleteFunc(tips, func(t string) bool { return t == head })
}

// TipsAtStart returns the branch tips the start of session id recorded
// (nil for sessions from before they were recorded).
func (e *Engine) TipsAtStart(ctx context.Context, id string) ([]string, error) {
	evs, err := startEvent(ctx, e.Store, id, "tool:session_start")
	if err != nil {
		return nil, fmt.Errorf("read the session's start: %w", err)
	}
	if len(evs) == 0 {
		return nil, nil
	}
	var d struct {
		Tips []string `json:"branch_tips"`
	}
	if json.Unmarshal([]byte(evs[0].Detail), &d) != nil {
		return nil, nil
	}
	return slices.DeleteFunc(d.Tips, func(t string) bool { return !hexSHA.MatchString(t) }), nil
}
