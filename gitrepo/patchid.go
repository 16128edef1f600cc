package gitrepo

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/sessiongate/sessiongate/session"
)

// What verify needs to recognise a platform's rewrite of verified commits
// (GitHub's "Rebase and merge"): the remote's refs, and patch ids that do
// not forgive whitespace.

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
	args := append([]string{"-c", "diff.noprefix=false", "log", "--no-walk=unsorted", "-p", "--no-color", "--no-ext-diff", "--no-renames", "--format=commit %H"}, revs...)
	diff, err := run(ctx, r.root, append(args, "--")...)
	if err != nil {
		return nil, fmt.Errorf("read the commits' patches: %w", err)
	}
	cmd := exec.CommandContext(ctx, "git", "patch-id", "--verbatim")
	cmd.Dir = r.root
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

// PatchChange is one change to take an exact patch id of: Commit against
// its first parent, or against Base when Base is set (a span of commits,
// what a squash of them holds).
type PatchChange = session.PatchChange

// exactDiffArgs pin every diff option that changes the patch text, so the
// id a post-commit hook records on a developer's machine is the one verify
// computes in CI from the same change: diff-tree is plumbing and reads
// none of diff.context, diff.algorithm or diff.noprefix, but the command
// line says so rather than leaning on that. core.quotePath shapes the
// file names in the headers.
var exactDiffArgs = []string{"-c", "core.quotePath=true", "diff-tree", "--stdin", "--always", "--root", "-p",
	"--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--unified=3", "--inter-hunk-context=0",
	"--diff-algorithm=myers", "--indent-heuristic", "--src-prefix=a/", "--dst-prefix=b/"}

// ExactPatchIDs returns, for each change in order, `git patch-id
// --verbatim` of its patch ("" for an empty change or a merge). Two git
// processes for all of them: one diff-tree, one patch-id. --verbatim, not
// --stable: a rewrite that changed only indentation (Python, YAML,
// Makefiles) is a different change, and a rebase never touches whitespace.
// Line numbers do not count (a rebase onto a moved base shifts them);
// context lines do, so a base that changed the lines around a hunk makes a
// different id, a false "changed" that fails closed.
func (r *Repo) ExactPatchIDs(ctx context.Context, changes []PatchChange) ([]string, error) {
	ids := make([]string, len(changes))
	if len(changes) == 0 {
		return ids, nil
	}
	var in bytes.Buffer
	for _, c := range changes {
		if !fullOID(c.Commit) || c.Base != "" && !fullOID(c.Base) {
			return nil, fmt.Errorf("patch id: bad commit %q..%q", c.Base, c.Commit)
		}
		in.WriteString(c.Commit)
		if c.Base != "" {
			in.WriteString(" " + c.Base)
		}
		in.WriteByte('\n')
	}
	diff := exec.CommandContext(ctx, "git", exactDiffArgs...)
	diff.Dir = r.root
	diff.Stdin = &in
	var stderr bytes.Buffer
	diff.Stderr = &stderr
	out, err := diff.Output()
	if err != nil {
		return nil, fmt.Errorf("patch id: git diff-tree: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	// --always prints one id line per input line, then its patch: each
	// header becomes "From <n>" so git patch-id names the input it came
	// from (a commit and a span ending at it share the commit's line).
	var renamed bytes.Buffer
	n := 0
	for line := range strings.SplitAfterSeq(string(out), "\n") {
		if fullOID(strings.TrimRight(line, "\n")) {
			fmt.Fprintf(&renamed, "From %040x\n", n)
			n++
			continue
		}
		renamed.WriteString(line)
	}
	if n != len(changes) {
		return nil, fmt.Errorf("patch id: git diff-tree printed %d changes for %d", n, len(changes))
	}
	pid := exec.CommandContext(ctx, "git", "patch-id", "--verbatim")
	pid.Dir = r.root
	pid.Stdin = &renamed
	res, err := pid.Output()
	if err != nil {
		return nil, fmt.Errorf("patch id: git patch-id --verbatim (git 2.39+): %w", err)
	}
	for line := range strings.SplitSeq(string(res), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		var i int
		if _, err := fmt.Sscanf(f[1], "%x", &i); err != nil || i < 0 || i >= len(ids) {
			return nil, fmt.Errorf("patch id: git patch-id printed %q", line)
		}
		ids[i] = f[0]
	}
	return ids, nil
}

// fullOID reports whether s is a whole object id (sha1 or sha256).
func fullOID(s string) bool {
	return (len(s) == 40 || len(s) == 64) && hexRev(s)
}

// SpanCommits lists the commits of base..tip, and whether any of them is
// a merge: the commits a span's patch holds. It walks first parents from
// tip through loose objects (the commits a session just made are loose)
// without starting git, at most max commits; ok is false when the walk
// does not reach base that way (a packed commit, a merge, a longer span,
// a base off the chain): no span then.
func (r *Repo) SpanCommits(base, tip string, max int) (commits []string, ok bool) {
	for c := tip; len(commits) < max; {
		if c == base {
			return commits, true
		}
		_, parents, loose := ReadLooseCommit(r.CommonDir(), c)
		if !loose || len(parents) != 1 {
			return nil, false
		}
		commits = append(commits, c)
		c = parents[0]
	}
	return nil, false
}
