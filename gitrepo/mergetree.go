package gitrepo

import (
	"context"
	"fmt"
	"strings"
)

// MergeTree is the tree git makes merging b into a (`git merge-tree
// --write-tree`, git 2.38+), and whether the merge was clean: a commit
// whose tree is this made no change of its own beyond the merge.
func (r *Repo) MergeTree(ctx context.Context, a, b string) (tree string, clean bool, err error) {
	out, err := run(ctx, r.root, "merge-tree", "--write-tree", "--no-messages", a, b)
	if err != nil {
		// Exit 1 is a conflicted merge; anything else (an old git, a
		// missing merge base) is no clean merge either.
		return "", false, fmt.Errorf("git merge-tree %s %s: %w", a, b, err)
	}
	tree, _, _ = strings.Cut(strings.TrimSpace(string(out)), "\n")
	return tree, tree != "", nil
}

// Parents lists a commit's parents, first parent first.
func (r *Repo) Parents(ctx context.Context, sha string) ([]string, error) {
	out, err := run(ctx, r.root, "rev-list", "--parents", "-n", "1", sha, "--")
	if err != nil {
		return nil, fmt.Errorf("parents of %s: %w", sha, err)
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		return nil, fmt.Errorf("parents of %s: no such commit", sha)
	}
	return f[1:], nil
}

// TreeOf is the id of a commit's tree.
func (r *Repo) TreeOf(ctx context.Context, sha string) (string, error) {
	if strings.HasPrefix(sha, "-") {
		return "", fmt.Errorf("bad revision %q", sha)
	}
	b, err := run(ctx, r.root, "rev-parse", "--verify", "--quiet", sha+"^{tree}")
	if err != nil {
		return "", fmt.Errorf("tree of %s: %w", sha, err)
	}
	return strings.TrimSpace(string(b)), nil
}

// Message is a commit's whole message (%B).
func (r *Repo) Message(ctx context.Context, sha string) (string, error) {
	if !hexRev(sha) {
		return "", fmt.Errorf("bad revision %q", sha)
	}
	b, err := run(ctx, r.root, "log", "--no-walk", "--format=%B", sha, "--")
	if err != nil {
		return "", fmt.Errorf("read the message of %s: %w", sha, err)
	}
	return string(b), nil
}
