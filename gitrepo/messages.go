package gitrepo

import (
	"context"
	"fmt"
	"strings"
)

// FirstParentMessages lists the first n first-parent commits from rev
// (rev itself first) with their whole messages (%B), in one git process.
// Fewer come back when the history (or a shallow clone) ends first.
func (r *Repo) FirstParentMessages(ctx context.Context, rev string, n int) (shas, msgs []string, err error) {
	if !hexRev(rev) {
		return nil, nil, fmt.Errorf("bad revision %q", rev)
	}
	b, err := run(ctx, r.root, "log", "--first-parent", "-n", fmt.Sprint(n), "--format=%x1e%H%x1f%B", rev, "--")
	if err != nil {
		return nil, nil, fmt.Errorf("read the messages below %s: %w", rev, err)
	}
	for _, rec := range strings.Split(string(b), "\x1e") {
		sha, msg, ok := strings.Cut(rec, "\x1f")
		if !ok {
			continue
		}
		shas, msgs = append(shas, strings.TrimSpace(sha)), append(msgs, msg)
	}
	return shas, msgs, nil
}
