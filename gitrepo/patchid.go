package gitrepo

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
)

// What verify needs to recognise a platform's rewrite of verified commits
// (GitHub's "Rebase and merge"): the remote's refs, and patch ids that do
// not forgive whitespace.

// patchAsStored makes the patches patch ids are taken of show the blobs'
// lines with git's own context, whatever the config says: a textconv
// driver (an attribute plus diff.<driver>.textconv, both settable from
// the agent's shell through GIT_CONFIG_COUNT) showed other text than the
// file's, and diff.context=0 left no line around a change, so an `exit 0`
// right after a test script's shebang was the same patch as one at its
// end (TestPatchIDsIgnoreDiffConfig). --no-ext-diff: GIT_EXTERNAL_DIFF or
// diff.external would print the patch instead of git.
var patchAsStored = []string{"--no-ext-diff", "--no-textconv", "-U3"}

// VerbatimPatchIDs maps each commit to `git patch-id --verbatim` of its
// change against its first parent ("" for an empty change or a merge).
// Unlike --stable it keeps whitespace: a rewritten commit that differs
// from the verified one by indentation (Python, YAML, Makefiles) is a
// different change.
func (r *Repo) VerbatimPatchIDs(ctx context.Context, revs []string) (map[string]string, error) {
	for _, s := range revs {
		if !hexRev(s) {
			return nil, fmt.Errorf("bad revision %q", s)
		}
	}
	args := append(append([]string{"-c", "diff.noprefix=false", "log", "--no-walk=unsorted", "-p", "--no-color", "--no-renames", "--format=commit %H"}, patchAsStored...), revs...)
	diff, err := run(ctx, r.root, append(args, "--")...)
	if err != nil {
		return nil, fmt.Errorf("read the commits' patches: %w", err)
	}
	cmd := gitenv.Command(ctx, r.root, nil, "patch-id", "--verbatim")
	cmd.Stdin = bytes.NewReader(diff)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git patch-id --verbatim (git 2.39+): %w", err)
	}
	ids := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			ids[f[1]] = f[0]
		}
	}
	return ids, nil
}

// RemoteRef is one ref a remote advertises.
type RemoteRef struct{ Name, SHA string }

// RemoteRefs lists the remote's refs matching the patterns (`git
// ls-remote`): what the remote holds, not what this clone fetched.
func (r *Repo) RemoteRefs(ctx context.Context, remote string, patterns ...string) ([]RemoteRef, error) {
	if strings.HasPrefix(remote, "-") {
		return nil, fmt.Errorf("bad remote %q", remote)
	}
	out, err := run(ctx, r.root, append([]string{"ls-remote", "--refs", remote}, patterns...)...)
	if err != nil {
		return nil, fmt.Errorf("list the refs of %s: %w", remote, err)
	}
	var refs []RemoteRef
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 && hexRev(f[0]) {
			refs = append(refs, RemoteRef{Name: f[1], SHA: f[0]})
		}
	}
	return refs, nil
}
