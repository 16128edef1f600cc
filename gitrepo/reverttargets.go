package gitrepo

import (
	"context"
	"fmt"
)

// RevertTargets lists the commits c's message says it reverts ("This
// reverts commit X.", what git revert writes): hints to fetch, never a
// verdict (RevertedFrom settles what c reverses by the patches).
func (r *Repo) RevertTargets(ctx context.Context, c string) ([]string, error) {
	if !hexRev(c) {
		return nil, fmt.Errorf("bad revision %q", c)
	}
	msg, err := run(ctx, r.root, "log", "--no-walk", "--format=%B", c, "--")
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", c, err)
	}
	var out []string
	for _, m := range revertsRE.FindAllSubmatch(msg, 4) {
		out = append(out, string(m[1]))
	}
	return out, nil
}
