package gitrepo

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/ctime"
)

// TreeGaps lists the tracked paths whose work tree lets a test run read
// something the commit does not hold, in ways HiddenFiles and git status
// do not report (lazy-agent pass 16), each with how:
//
//   - A file flagged assume-unchanged and absent from the work tree:
//     status does not look at it, and no sparse checkout sets that flag.
//   - A file flagged skip-worktree and absent from the work tree, unless a
//     sparse checkout that predates since leaves it out. `git update-index
//     --skip-worktree greet_test.go && rm greet_test.go`, or `git
//     sparse-checkout set` during the session, made `go test ./...` pass
//     without the test the commit holds, and status read the tree clean.
//     A sparse checkout a person set before the session is how a large
//     repository is worked on: its absent files are left alone, and so
//     are those of one changed in the session outside the folders the
//     work tree has (cone mode, widened).
//   - A path in changed (the session's changes) that is a symbolic link
//     resolving outside the work tree, or to a path git does not track:
//     the commit holds only the link's text, and the tests ran the file it
//     points at (`ln -s /tmp/mine/greet.sh scripts/greet.sh`), which no
//     clone has.
func (r *Repo) TreeGaps(ctx context.Context, since time.Time, changed []string) (map[string]string, error) {
	out := map[string]string{}
	entries, ok := r.indexFlagged()
	if !ok {
		var err error
		if entries, err = r.lsFlagged(ctx); err != nil {
			return nil, err
		}
	}
	var absent []string
	for p, e := range entries {
		if _, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(p))); err == nil {
			continue // present: HiddenFiles compares its content
		}
		if e.how == "assume-unchanged" {
			// No sparse checkout sets this flag, and git status does not
			// look at the file: `git update-index --assume-unchanged
			// greet_test.go && rm greet_test.go` read clean.
			out[p] = "absent from the work tree and flagged assume-unchanged (git update-index), so git status reads it unchanged and the tests ran without the file the commit holds"
			continue
		}
		if e.how != "skip-worktree" {
			continue
		}
		absent = append(absent, p)
	}
	if len(absent) > 0 {
		sparse, err := r.sparseSince(ctx, since)
		if err != nil {
			return nil, err
		}
		for _, p := range absent {
			if sparse == "" {
				continue
			}
			if sparse != noSparse {
				// A sparse checkout changed in the session: only a file
				// carved out of a folder the work tree has is taken for
				// hiding. Cone mode never leaves one (it checks out every
				// file of a folder it keeps), so widening a cone mid-session
				// (`git sparse-checkout add src2`) names nothing.
				if _, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(path.Dir(p)))); err != nil {
					continue
				}
			}
			out[p] = "absent from the work tree and flagged skip-worktree (" + sparse + "), so the tests ran without the file the commit holds"
		}
	}
	var links []string
	for _, p := range changed {
		fi, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(p)))
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			continue
		}
		links = append(links, p)
	}
	if len(links) == 0 {
		return out, nil
	}
	root, err := filepath.EvalSymlinks(r.root)
	if err != nil {
		return nil, fmt.Errorf("resolve the work tree %s: %w", r.root, err)
	}
	for _, p := range links {
		dest, err := filepath.EvalSymlinks(filepath.Join(r.root, filepath.FromSlash(p)))
		if err != nil {
			continue // dangling: the run saw nothing, as a clone does
		}
		rel, err := filepath.Rel(root, dest)
		if err != nil || !filepath.IsLocal(rel) {
			out[p] = "a symbolic link to " + dest + ", outside the repository: the commit holds the link, not what the tests ran"
			continue
		}
		rel = filepath.ToSlash(rel)
		b, err := run(ctx, r.root, "ls-files", "-z", "--", ":(literal)"+rel)
		if err != nil {
			return nil, fmt.Errorf("is %s tracked: %w", rel, err)
		}
		if len(b) == 0 {
			out[p] = "a symbolic link to " + rel + ", which git does not track: the commit holds the link, not what the tests ran"
		}
	}
	return out, nil
}

// noSparse is sparseSince's answer when no sparse checkout is configured.
const noSparse = "no sparse checkout is configured: git update-index set the flag"

// sparseSince says why the work tree's absent skip-worktree files hide
// something: "" when a sparse checkout set up before since leaves them out
// (its pattern file's change time, which no user call sets back, is older).
func (r *Repo) sparseSince(ctx context.Context, since time.Time) (string, error) {
	b, err := run(ctx, r.root, "config", "--type=bool", "--default=false", "core.sparseCheckout")
	if err != nil {
		return "", fmt.Errorf("read core.sparseCheckout: %w", err)
	}
	if strings.TrimSpace(string(b)) != "true" {
		return noSparse, nil
	}
	pat := filepath.Join(r.gitDir, "info", "sparse-checkout")
	ct, err := ctime.Of(pat)
	if err != nil {
		return "a sparse checkout with no pattern file " + pat, nil
	}
	if !since.IsZero() && !ct.Before(since) {
		return "the sparse checkout's patterns changed at " + ct.UTC().Format(time.RFC3339) + ", after the session started", nil
	}
	return "", nil
}
