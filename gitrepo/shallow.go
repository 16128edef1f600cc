package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/shorten"
)

// What verify needs to pick and complete a CI range: whether the clone is
// shallow and where its history is cut, whether a commit is present, and
// fetching more. Fetches go through the git CLI (credentials, protocol v2).

// IsShallow reports whether the clone is shallow.
func (r *Repo) IsShallow(ctx context.Context) (bool, error) {
	b, err := run(ctx, r.root, "rev-parse", "--is-shallow-repository")
	if err != nil {
		return false, fmt.Errorf("check for a shallow clone: %w", err)
	}
	return strings.TrimSpace(string(b)) == "true", nil
}

// ShallowCommits are the commits whose parents this clone does not hold
// (the shallow file): a range that lists one of them may be missing commits.
func (r *Repo) ShallowCommits() (map[string]bool, error) {
	b, err := boundedread.File(filepath.Join(r.commonDir, "shallow"), boundedread.LargeLimit)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the shallow file: %w", err)
	}
	out := map[string]bool{}
	for _, l := range strings.Fields(string(b)) {
		out[l] = true
	}
	return out, nil
}

// HasCommit reports whether sha names a commit present in the clone.
func (r *Repo) HasCommit(ctx context.Context, sha string) bool {
	if sha == "" || strings.HasPrefix(sha, "-") {
		return false
	}
	cmd := gitenv.Command(ctx, r.root, nil, "cat-file", "-e", sha+"^{commit}")
	return cmd.Run() == nil
}

// RevList lists the commits the revision arguments select (e.g. "A..B",
// or "B", "--not", "A"), newest first.
func (r *Repo) RevList(ctx context.Context, revs []string) ([]string, error) {
	args := append([]string{"rev-list"}, revs...)
	b, err := run(ctx, r.root, append(args, "--")...)
	if err != nil {
		return nil, fmt.Errorf("list commits %s: %w", strings.Join(revs, " "), err)
	}
	return strings.Fields(string(b)), nil
}

// FetchRevs fetches revisions (commit ids or refspecs) from the remote
// with extra options (e.g. --depth=1, --deepen=50).
func (r *Repo) FetchRevs(ctx context.Context, remote string, opts []string, revs ...string) error {
	a := append([]string{"fetch", "--quiet", "--no-tags"}, opts...)
	a = append(a, remote)
	a = append(a, revs...)
	if _, err := run(ctx, r.root, a...); err != nil {
		return fmt.Errorf("git fetch %s %s: %w", strings.Join(opts, " "), remote+" "+strings.Join(revs, " "), err)
	}
	return nil
}

// FilesOf fills in the changed files of the given commits (a merge: none)
// with one `git diff-tree --stdin`: diffing every commit of a long range
// costs more than the log itself, and only a few commits need their files.
func (r *Repo) FilesOf(ctx context.Context, commits []*Commit) error {
	if len(commits) == 0 {
		return nil
	}
	var in strings.Builder
	by := map[string]*Commit{}
	for _, c := range commits {
		in.WriteString(c.SHA + "\n")
		by[c.SHA] = c
	}
	cmd := gitenv.Command(ctx, r.root, nil, "diff-tree", "--stdin", "-r", "--root", "--no-renames", "--name-only", "-z")
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("list the files of %d commit(s): git diff-tree: %w", len(commits), err)
	}
	// -z: "<sha>\0" then "<path>\0" for each file, commit after commit.
	var cur *Commit
	for _, f := range strings.Split(string(out), "\x00") {
		if f = strings.TrimPrefix(f, "\n"); f == "" {
			continue
		}
		if c, ok := by[f]; ok && len(f) >= 40 {
			cur = c
			continue
		}
		if cur != nil {
			cur.Files = append(cur.Files, f)
		}
	}
	return nil
}

// LogRevs is Log over revision arguments ("B", "--not", "A" ...).
func (r *Repo) LogRevs(ctx context.Context, revs []string) ([]Commit, error) {
	for _, v := range revs {
		if strings.HasPrefix(v, "-") && v != "--not" && !strings.HasPrefix(v, "--exclude=") && v != "--remotes" {
			return nil, fmt.Errorf("bad revision %q", v)
		}
	}
	args := append([]string{"log", "--reverse", "--format=%x1e%H%x1f%s%x1f%(trailers:only,unfold)%x1f"}, revs...)
	b, err := run(ctx, r.root, append(args, "--")...)
	if err != nil {
		return nil, fmt.Errorf("list commits %s: %w", strings.Join(revs, " "), err)
	}
	out, err := parseLog(string(b))
	if err != nil {
		return nil, fmt.Errorf("list commits %s: %w", strings.Join(revs, " "), err)
	}
	return out, nil
}

// MergeBase is `git merge-base a b` ("" with no common ancestor).
func (r *Repo) MergeBase(ctx context.Context, a, b string) (string, error) {
	// Exit 1 with no output is "no common ancestor". Not told by the
	// message: with GIT_GRAFT_FILE set (verify.ObjectHistory) a shallow
	// clone's stderr carries graft hints, and "no merge base" became an
	// error that dropped a force push's re-check window.
	cmd := gitenv.Command(ctx, r.root, nil, append(slices.Clip(statHonest), "merge-base", a, b)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 && len(bytes.TrimSpace(out)) == 0 {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("merge base of %s and %s: git merge-base: %s", a, b, strings.TrimSpace(stderr.String()+" "+err.Error()))
	}
	return strings.TrimSpace(string(out)), nil
}

// MergeBases lists every best common ancestor of a and b (git merge-base
// --all): more than one is a criss-cross history, where what a merge lands
// is not read from any one of them. None when they share no history.
func (r *Repo) MergeBases(ctx context.Context, a, b string) ([]string, error) {
	if strings.HasPrefix(a, "-") || strings.HasPrefix(b, "-") {
		return nil, fmt.Errorf("bad revision %q or %q", a, b)
	}
	cmd := gitenv.Command(ctx, r.root, nil, append(slices.Clip(statHonest), "merge-base", "--all", a, b)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 && len(bytes.TrimSpace(out)) == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("merge bases of %s and %s: git merge-base --all: %s", a, b, strings.TrimSpace(stderr.String()+" "+err.Error()))
	}
	return strings.Fields(string(out)), nil
}

// PathCommits lists the commits of the range that touch path.
func (r *Repo) PathCommits(ctx context.Context, revs []string, path string) ([]string, error) {
	args := append([]string{"log", "--format=%H"}, revs...)
	b, err := run(ctx, r.root, append(args, "--", path)...)
	if err != nil {
		return nil, fmt.Errorf("list commits touching %s: %w", path, err)
	}
	return strings.Fields(string(b)), nil
}

// AddWorktree checks rev out, detached, in a new worktree at dir.
func (r *Repo) AddWorktree(ctx context.Context, dir, rev string) error {
	_, err := run(ctx, r.root, "worktree", "add", "--quiet", "--detach", dir, rev)
	return err
}

// RemoveWorktree removes a worktree AddWorktree made.
func (r *Repo) RemoveWorktree(ctx context.Context, dir string) error {
	_, err := run(ctx, r.root, "worktree", "remove", "--force", dir)
	return err
}

// CommitSigner returns git's verdict on a commit's signature (%G?: G is
// good) and its signer (%GS: for ssh, the allowed-signers principal), in
// one git process. allowedSigners, when set, is the ssh allowed-signers
// file to verify with instead of git's gpg.ssh.allowedSignersFile.
func (r *Repo) CommitSigner(ctx context.Context, sha, allowedSigners string) (status, signer string, err error) {
	if strings.HasPrefix(sha, "-") {
		return "", "", fmt.Errorf("bad commit %q", sha)
	}
	args := []string{}
	if allowedSigners != "" {
		args = append(args, "-c", "gpg.ssh.allowedSignersFile="+allowedSigners)
	}
	b, err := run(ctx, r.root, append(args, "log", "-1", "--format=%G?%x00%GS", sha, "--")...)
	if err != nil {
		return "", "", fmt.Errorf("read the signature of %s: %w", shorten.SHA(sha), err)
	}
	status, signer, _ = strings.Cut(strings.TrimSpace(string(b)), "\x00")
	return status, strings.TrimSpace(signer), nil
}

// CommitTime is a commit's committer time.
func (r *Repo) CommitTime(ctx context.Context, rev string) (time.Time, error) {
	if strings.HasPrefix(rev, "-") {
		return time.Time{}, fmt.Errorf("bad revision %q", rev)
	}
	b, err := run(ctx, r.root, "log", "-1", "--format=%ct", rev, "--")
	if err != nil {
		return time.Time{}, fmt.Errorf("read the time of %s: %w", rev, err)
	}
	s, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("read the time of %s: %q", rev, b)
	}
	return time.Unix(s, 0), nil
}

// FirstLanded returns the oldest commit on tip's first-parent line after
// since whose change from its first parent touches path, with the time the
// change was on that line by: the earliest committer time of that commit
// and of every first-parent commit after it up to tip. It names when a
// change to path reached the branch tip names (a merge that brought it in,
// or the commit itself on a linear history). A committer time is its
// writer's word: on a fast-forward the commit that brings the change is
// its author's, dated as they chose (GIT_COMMITTER_DATE a month ahead made
// every later session look begun before the change landed), while each
// first-parent commit after it was made once the change was there, so the
// earliest of them bounds the landing; a date ahead only ever moves it
// later, which the caller judges against its own clock. "" when none did.
func (r *Repo) FirstLanded(ctx context.Context, tip, since, path string) (string, time.Time, error) {
	if strings.HasPrefix(tip, "-") || strings.HasPrefix(since, "-") {
		return "", time.Time{}, fmt.Errorf("bad revision %q..%q", since, tip)
	}
	b, err := run(ctx, r.root, "log", "--first-parent", "--reverse", "--format=%H %ct", tip, "^"+since, "--", path)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("list the changes of %s on the first-parent line of %s: %w", path, shorten.SHA(tip), err)
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	sha, ct, ok := strings.Cut(line, " ")
	if !ok {
		return "", time.Time{}, nil
	}
	s, err := strconv.ParseInt(ct, 10, 64)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("read the time of %s: %q", sha, ct)
	}
	after, err := run(ctx, r.root, "log", "--first-parent", "--format=%ct", tip, "^"+sha)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("list the first-parent commits of %s after %s: %w", shorten.SHA(tip), shorten.SHA(sha), err)
	}
	for _, f := range strings.Fields(string(after)) {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return "", time.Time{}, fmt.Errorf("read a committer time after %s: %q", shorten.SHA(sha), f)
		}
		s = min(s, n)
	}
	return sha, time.Unix(s, 0), nil
}
