package gitrepo

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// CommitPatch is the -U0 patch a commit made to paths against its first
// parent, with --text and no textconv (what the lines are, whatever the
// attributes say): the engine reads whether a `docs:` commit changed only
// comments (session/reviewflags.go).
func (r *Repo) CommitPatch(ctx context.Context, c string, paths []string) (string, error) {
	if c == "" || strings.HasPrefix(c, "-") {
		return "", fmt.Errorf("bad commit %q", c)
	}
	args := []string{"diff", "--no-renames", "--no-ext-diff", "--no-color", "--no-textconv", "--text", "-U0", c + "^", c, "--"}
	b, err := run(ctx, r.root, slices.Concat(args, paths)...)
	if err != nil {
		return "", fmt.Errorf("diff %s: %w", c, err)
	}
	return string(b), nil
}
