package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
)

// DefaultBranch names the repository's default branch: what origin/HEAD
// points at, else "main" or "master" when such a local branch exists, else
// "" (no way to tell; callers then check nothing).
func (r *Repo) DefaultBranch(ctx context.Context) (string, error) {
	name, _, err := r.defaultBranch(ctx)
	return name, err
}

// defaultBranch is DefaultBranch and whether a local branch of that name
// exists. The ref files answer in the common layouts (two or three git
// processes in every hook that lists commits, issue 29); git answers the
// rest.
func (r *Repo) defaultBranch(ctx context.Context) (name string, local bool, err error) {
	if name, local, ok := r.defaultBranchFromFiles(); ok {
		return name, local, nil
	}
	if b, err := run(ctx, r.root, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"); err == nil {
		if name := strings.TrimPrefix(strings.TrimSpace(string(b)), "origin/"); name != "" {
			_, err := run(ctx, r.root, "rev-parse", "--verify", "--quiet", "refs/heads/"+name)
			return name, err == nil, nil
		}
	}
	for _, name := range []string{"main", "master"} {
		if _, err := run(ctx, r.root, "rev-parse", "--verify", "--quiet", "refs/heads/"+name); err == nil {
			return name, true, nil
		}
	}
	return "", false, nil
}

// CommitSubjects returns the commits after since (every commit when since
// is ""), oldest first, merges excluded: each subject line with the
// Session-Id trailer it carries ("" when none) and whether it is on HEAD's
// first-parent line (one off it came in through a merge). What the
// remotes' branches of the default's name hold is left out as they are
// now: CommitSubjectsAtStart with the start's record.
func (r *Repo) CommitSubjects(ctx context.Context, since string) ([]session.CommitSubject, error) {
	return r.CommitSubjectsAtStart(ctx, since, nil)
}

// CommitSubjectsAtStart is CommitSubjects with what the session's start
// recorded of the remote-tracking refs (RemoteTips; nil: not recorded, the
// refs are read as they are now). A remote-tracking ref is local: after a
// hooks-off commit, `git update-ref refs/remotes/x/main HEAD` made the
// commit the remote's and no_hook_bypass and commit_message never saw it
// (round 30, c9). With the record, the remotes hold what their branches of
// the default's name held at the start and what a fetch of a branch of
// that name brought since (FETCH_HEAD), as DefaultHolds reads them.
func (r *Repo) CommitSubjectsAtStart(ctx context.Context, since string, remotesAtStart map[string]string) ([]session.CommitSubject, error) {
	rng, err := r.sessionRange(ctx, since, remotesAtStart)
	if err != nil || rng == nil {
		return nil, err
	}
	// Every commit since, not only the first-parent line: a side branch
	// merged with --no-ff holds the session's commits too (the caller
	// tells them by their trailer).
	b, err := run(ctx, r.root, append(append([]string{"log", "--reverse", "--no-merges",
		"--format=%H%x1f%s%x1f%(trailers:key=" + session.TrailerKey + ",valueonly,separator=%x2C)%x00"}, rng...), "--")...)
	if err != nil {
		return nil, fmt.Errorf("list commit messages %s: %w", rng[0], err)
	}
	first, err := r.firstParents(ctx, rng)
	if err != nil {
		return nil, err
	}
	var out []session.CommitSubject
	for _, rec := range strings.Split(string(b), "\x00") {
		rec = strings.TrimLeft(rec, "\n")
		if strings.TrimSpace(rec) == "" {
			continue
		}
		parts := strings.SplitN(rec, "\x1f", 3)
		if len(parts) < 3 {
			continue
		}
		id, _, _ := strings.Cut(strings.TrimSpace(parts[2]), ",")
		out = append(out, session.CommitSubject{SHA: strings.TrimSpace(parts[0]), Subject: strings.TrimSpace(parts[1]), SessionID: strings.TrimSpace(id),
			FirstParent: first[strings.TrimSpace(parts[0])]})
	}
	return out, nil
}

// sessionRange is the revision arguments of the commits after since that
// the session's commit checks judge (nil when HEAD is unborn).
func (r *Repo) sessionRange(ctx context.Context, since string, remotesAtStart map[string]string) ([]string, error) {
	if strings.HasPrefix(since, "-") {
		return nil, fmt.Errorf("bad revision %q", since)
	}
	head, branch, err := r.Head(ctx)
	if err != nil || head == "" {
		return nil, err
	}
	rng := []string{"HEAD"}
	if since != "" {
		rng = []string{since + "..HEAD"}
	}
	// Commits the remote's default branch holds are that branch's, judged
	// when they landed there: a rebase onto main puts a colleague's
	// commits (no trailer, any wording) on the session's first-parent line.
	// On the default branch itself its pushed commits are the session's.
	if up := r.upstreamDefault(ctx); up != "" && strings.TrimPrefix(up, "refs/remotes/origin/") != strings.TrimPrefix(branch, "refs/heads/") {
		// Any remote's branch of the default's name holds that remote's
		// commits, as DefaultHolds reads it: a fork's main pulled from
		// upstream while origin/main lags, the branch rebased onto it,
		// put upstream's commits on the first-parent line and
		// no_hook_bypass took them for the session's (review 29 c10's
		// open row, TestCommitSubjectsFork). A pushed feature branch
		// (origin/feat/x) still counts.
		rng = append(rng, r.remoteHeld(ctx, strings.TrimPrefix(up, "refs/remotes/origin/"), up, since, remotesAtStart)...)
	}
	return rng, nil
}

// firstParents is the set of commits on HEAD's first-parent line in rng.
func (r *Repo) firstParents(ctx context.Context, rng []string) (map[string]bool, error) {
	fp, err := run(ctx, r.root, append(append([]string{"rev-list", "--first-parent"}, rng...), "--")...)
	if err != nil {
		return nil, fmt.Errorf("list first-parent commits %s: %w", rng[0], err)
	}
	first := map[string]bool{}
	for _, h := range strings.Fields(string(fp)) {
		first[h] = true
	}
	return first, nil
}

// maxMergesJudged bounds the merges MergesWithOwnChanges re-merges (two
// git processes each); a session's range rarely holds more than a few.
const maxMergesJudged = 32

// MergesWithOwnChanges returns the merges after since (the range
// CommitSubjectsAtStart reads) whose tree holds changes of their own: a
// path that differs from git's automatic merge of the two parents (`git
// merge-tree --write-tree`) where that merge had no conflict, or any
// merge of more than two parents. Such a merge is a commit in all but
// name: `git merge --no-ff --no-commit side`, the work staged, `git commit
// -m wip` put the session's work under a subject the commit-message rule
// never read (lazy pass 42, C1 and C2). A conflict's resolution is the
// merge's own job and is not counted, unless it writes more lines of its
// own than its conflicts account for (resolutionOwnLines): an honest
// merge of main resolves conflicts under git's own subject. Each returned subject's EvilMerge
// names the first such path. On git without merge-tree --write-tree
// (before 2.38) none is returned.
func (r *Repo) MergesWithOwnChanges(ctx context.Context, since string, remotesAtStart map[string]string) ([]session.CommitSubject, error) {
	rng, err := r.sessionRange(ctx, since, remotesAtStart)
	if err != nil || rng == nil {
		return nil, err
	}
	b, err := run(ctx, r.root, append(append([]string{"log", "--reverse", "--merges",
		"--format=%H%x1f%P%x1f%s%x1f%(trailers:key=" + session.TrailerKey + ",valueonly,separator=%x2C)%x00"}, rng...), "--")...)
	if err != nil {
		return nil, fmt.Errorf("list merges %s: %w", rng[0], err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	first, err := r.firstParents(ctx, rng)
	if err != nil {
		return nil, err
	}
	var out []session.CommitSubject
	judged := 0
	for _, rec := range strings.Split(string(b), "\x00") {
		parts := strings.SplitN(strings.TrimLeft(rec, "\n"), "\x1f", 4)
		if len(parts) < 4 {
			continue
		}
		sha, parents := strings.TrimSpace(parts[0]), strings.Fields(parts[1])
		var own string
		if judged++; judged > maxMergesJudged {
			// Fail closed: 32 empty merges hid a 33rd evil one
			// (helper-285's M2). A merge past the bound is judged as a
			// commit, unread.
			own = fmt.Sprintf("one of more than %d merges in the session, not re-merged", maxMergesJudged)
		} else if own, err = r.mergeOwnChange(ctx, sha, strings.TrimSpace(parts[2]), parents, remotesAtStart[session.StartSessionKey]); err != nil {
			if errors.Is(err, errNoMergeTree) {
				return nil, nil
			}
			return nil, err
		}
		if own == "" {
			continue
		}
		id, _, _ := strings.Cut(strings.TrimSpace(parts[3]), ",")
		out = append(out, session.CommitSubject{SHA: sha, Subject: strings.TrimSpace(parts[2]), SessionID: strings.TrimSpace(id),
			FirstParent: first[sha], EvilMerge: own})
	}
	return out, nil
}

var errNoMergeTree = errors.New("git merge-tree --write-tree is not supported")

// mergeOwnChange says what merge sha changed beyond git's automatic merge
// of its parents ("" when nothing).
func (r *Repo) mergeOwnChange(ctx context.Context, sha, subject string, parents []string, id string) (string, error) {
	if len(parents) > 2 {
		return fmt.Sprintf("a merge of %d parents (git cannot re-merge them to compare)", len(parents)), nil
	}
	if len(parents) != 2 {
		return "", nil
	}
	// Exit 1 is a conflicted merge: the tree is still written, the
	// conflicted paths listed after it.
	cmd := gitenv.Command(ctx, r.root, nil, append(slices.Clip(statHonest), "merge-tree", "--write-tree", "--allow-unrelated-histories", "--name-only", "--no-messages", "-z", parents[0], parents[1])...)
	b, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		if errors.As(err, &ee) && ee.ExitCode() == 129 {
			return "", errNoMergeTree
		}
		return "", fmt.Errorf("re-merge the parents of %s: %w", shorten.SHA(sha), err)
	}
	fields := strings.Split(string(b), "\x00")
	auto := strings.TrimSpace(fields[0])
	conflicted := map[string]bool{}
	for _, f := range fields[1:] {
		if f != "" {
			conflicted[f] = true
		}
	}
	d, err := run(ctx, r.root, "diff-tree", "-r", "--no-renames", "--name-only", "-z", auto, sha+"^{tree}")
	if err != nil {
		return "", fmt.Errorf("compare %s with the merge of its parents: %w", shorten.SHA(sha), err)
	}
	var resolved []string
	for _, p := range strings.Split(string(d), "\x00") {
		if p != "" && !conflicted[p] {
			return p + " differs from git's merge of the parents", nil
		}
		if p != "" {
			resolved = append(resolved, p)
		}
	}
	return r.resolutionOwnLines(ctx, sha, subject, auto, parents, resolved, id)
}

// resolutionOwnLines says which conflicted path's resolution in merge sha
// writes more lines of its own than its conflicts account for: lines
// (whitespace trimmed, blank ones and repeats left out) found nowhere in
// git's conflicted merge of the parents (auto, the tree merge-tree wrote:
// both sides of each conflict, the rest merged). A resolution picks a
// side, keeps both, or joins them into about as many lines: against
// another's work (main merged in) the allowance is one line per line of
// each conflict's longer side and, under git's own merge subject,
// resolutionSlack more (pass 45's HM1: a helper variable and a comment
// joined a person's change to the session's). When the merged-in side is the session's own (a commit
// carrying session id's trailer), both sides of every conflict are the
// session's and so is any line of its own: the whole feature written as
// the resolution of a conflict manufactured between two of its branches,
// committed `wip` (re-check 42 and pass 45, M1), is read as a commit.
// Without an id, the allowance without slack. "" when none.
func (r *Repo) resolutionOwnLines(ctx context.Context, sha, subject, auto string, parents, paths []string, id string) (string, error) {
	if len(paths) == 0 {
		return "", nil
	}
	merged, err := r.BlobsAt(ctx, sha, paths)
	if err != nil {
		return "", fmt.Errorf("read the resolution of %s: %w", shorten.SHA(sha), err)
	}
	conflicted, err := r.BlobsAt(ctx, auto, paths)
	if err != nil {
		return "", fmt.Errorf("read git's merge of the parents of %s: %w", shorten.SHA(sha), err)
	}
	slack, ownSide := 0, false
	if id != "" {
		b, err := run(ctx, r.root, "log", "-n", strconv.Itoa(maxFetchedRead), "--format=%(trailers:key="+session.TrailerKey+",valueonly,separator=%x2C)", parents[1], "^"+parents[0], "--")
		if err != nil {
			return "", fmt.Errorf("read what %s merged in: %w", shorten.SHA(sha), err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			ownSide = ownSide || slices.Contains(strings.Split(strings.TrimSpace(l), ","), id)
		}
		// The slack is for a merge under git's own subject ("Merge branch
		// 'main' of ..."): one the session named itself (`wip`) and
		// wrote lines into is its commit (pass 46's M1: a real one-line
		// conflict with a person's change carried a two-line feature).
		if !ownSide && strings.HasPrefix(subject, "Merge ") {
			slack = resolutionSlack
		}
	}
	for _, p := range paths {
		had, allowed := conflictLines(string(conflicted[p]))
		if ownSide {
			allowed = 0
		}
		own := 0
		seen := map[string]bool{}
		for _, l := range strings.Split(string(merged[p]), "\n") {
			if l = strings.TrimSpace(l); l != "" && !had[l] && !seen[l] {
				seen[l] = true
				own++
			}
		}
		if own > allowed+slack {
			if ownSide {
				return fmt.Sprintf("%s's conflict resolution writes %d lines of its own, and both sides are this session's", p, own), nil
			}
			return fmt.Sprintf("%s's conflict resolution writes %d lines of its own, its conflicts %d", p, own, allowed+slack), nil
		}
	}
	return "", nil
}

// resolutionSlack is the lines a resolution against another's work may
// write beyond its conflicts' size.
const resolutionSlack = 3

// conflictLines reads a file as git's merge left it, with conflict
// markers: the set of its lines (trimmed, markers left out), and the sum
// over its conflicts of the longer side's line count.
func conflictLines(text string) (map[string]bool, int) {
	had := map[string]bool{}
	allowed := 0
	in, side := false, 0
	longest := 0
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "<<<<<<<"):
			in, side, longest = true, 0, 0
			continue
		case in && (strings.HasPrefix(l, "|||||||") || strings.HasPrefix(l, "=======")):
			longest, side = max(longest, side), 0
			continue
		case in && strings.HasPrefix(l, ">>>>>>>"):
			allowed += max(longest, side)
			in = false
			continue
		case in:
			side++
		}
		had[strings.TrimSpace(l)] = true
	}
	return had, allowed
}

// LayoutOnly reports whether commit sha (one parent) changes only
// whitespace and blank lines: its diff with whitespace ignored is empty
// (`git diff --quiet -w --ignore-blank-lines`). A mode change, a rename or
// a binary change is more than layout.
func (r *Repo) LayoutOnly(ctx context.Context, sha string) (bool, error) {
	if !isHexID(sha) {
		return false, nil
	}
	p, err := run(ctx, r.root, "rev-parse", sha+"^@")
	if err != nil || len(strings.Fields(string(p))) != 1 {
		return false, nil // a root commit or a merge
	}
	parent := strings.TrimSpace(string(p))
	// -w's exit code overlooks a mode change: every path must be modified
	// in place, mode kept.
	raw, err := run(ctx, r.root, "diff-tree", "-r", "--raw", "--no-renames", parent, sha, "--")
	if err != nil {
		return false, fmt.Errorf("list the paths %s changed: %w", shorten.SHA(sha), err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		// ":100644 100644 <old> <new> M\tpath"
		f := strings.Fields(l)
		if len(f) < 5 || f[0] != ":"+f[1] || f[4] != "M" {
			return false, nil
		}
	}
	cmd := gitenv.Command(ctx, r.root, nil, append(slices.Clip(statHonest), "diff", "--quiet", "--no-ext-diff", "--no-textconv", "-w", "--ignore-blank-lines", parent, sha, "--")...)
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		return false, nil
	default:
		return false, fmt.Errorf("compare %s with its parent, whitespace ignored: %w", shorten.SHA(sha), err)
	}
}

// upstreamDefault is the remote-tracking ref of the default branch
// (origin/HEAD's target, else origin/main or origin/master), "" when the
// clone has none.
func (r *Repo) upstreamDefault(ctx context.Context) string {
	// The ref files answer in the common layouts, without the one to
	// three git processes below (the pre-commit lists commits, issue 29).
	if st, target := readRefFiles(r.gitDir, r.commonDir, "refs/remotes/origin/HEAD"); st == refSymbolic && strings.HasPrefix(target, "refs/remotes/origin/") {
		return target
	} else if st == refAbsent {
		known := true
		for _, name := range []string{"main", "master"} {
			switch s, _ := readRefFiles(r.gitDir, r.commonDir, "refs/remotes/origin/"+name); s {
			case refDirect:
				return "refs/remotes/origin/" + name
			case refAbsent:
			default:
				known = false
			}
			if !known {
				break
			}
		}
		if known {
			return ""
		}
	}
	if b, err := run(ctx, r.root, "symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"); err == nil {
		if ref := strings.TrimSpace(string(b)); ref != "" {
			return ref
		}
	}
	for _, name := range []string{"main", "master"} {
		if _, err := run(ctx, r.root, "rev-parse", "--verify", "--quiet", "refs/remotes/origin/"+name); err == nil {
			return "refs/remotes/origin/" + name
		}
	}
	return ""
}

// DefaultHolds returns the commits after since that both the local branch
// name and HEAD hold, beyond what the remote's default branch holds: work
// of the session that landed on the local default branch (`git branch -f
// main HEAD`, `git update-ref refs/heads/main HEAD`, `git push . HEAD:main`,
// or commits made on main with a feature branch then reset onto them: lazy
// pass 29). Nil when there is no local branch of that name or no history
// in common. A person's fast-forward of main to the remote's adds nothing,
// nor does a commit on main that HEAD holds only through a merge, nor one
// the commits in notIn reach (the ref tips the session's start recorded).
//
// remotesAtStart is what the start recorded of the remote-tracking refs
// (RemoteTips; nil: not recorded, the refs are read as they are now). A
// remote-tracking ref is local: `git update-ref refs/remotes/origin/main
// HEAD` beside `git branch -f main HEAD` made the work the remote's and
// passed (lazy pass 29, round 30). With the record, the remote holds what
// its ref held at the start and what a fetch of a branch of that name
// brought since (FETCH_HEAD: a real `git fetch` or `git pull`, a
// person's commits or the session's pull request merged on the host).
func (r *Repo) DefaultHolds(ctx context.Context, name, since string, notIn []string, remotesAtStart map[string]string) ([]session.CommitSubject, error) {
	if name == "" || since == "" || strings.HasPrefix(since, "-") || strings.HasPrefix(name, "-") {
		return nil, nil
	}
	if _, err := run(ctx, r.root, "rev-parse", "--verify", "--quiet", "refs/heads/"+name); err != nil {
		return nil, nil
	}
	mb, err := run(ctx, r.root, "merge-base", "refs/heads/"+name, "HEAD")
	if err != nil {
		return nil, nil // no history in common
	}
	rng := []string{strings.TrimSpace(string(mb)), "^" + since}
	for _, t := range notIn {
		if t != "" && !strings.HasPrefix(t, "-") {
			rng = append(rng, "^"+t)
		}
	}
	// Any remote's branch of that name holds the remote's commits too: a
	// fork's main pulled from upstream while origin/main lags, or origin's
	// develop without an origin/HEAD (review 29 c10: a rebase onto either
	// was a false block). Only that name: a pushed feature branch still
	// counts.
	rng = append(rng, r.remoteHeld(ctx, name, r.upstreamDefault(ctx), since, remotesAtStart)...)
	b, err := run(ctx, r.root, append(append([]string{"log", "--no-merges",
		"--format=%H%x1f%s%x1f%(trailers:key=" + session.TrailerKey + ",valueonly,separator=%x2C)%x00"}, rng...), "--")...)
	if err != nil {
		return nil, fmt.Errorf("list the commits %s holds: %w", name, err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	// Only HEAD's first-parent line: a teammate's commit on main that the
	// branch merged in (`git merge main`) is main's, not the session's
	// landing there (TestAdvHonestMergeOfMain).
	fp, err := run(ctx, r.root, "rev-list", "--first-parent", "HEAD", "^"+since, "--")
	if err != nil {
		return nil, fmt.Errorf("list HEAD's first-parent commits: %w", err)
	}
	first := map[string]bool{}
	for _, h := range strings.Fields(string(fp)) {
		first[h] = true
	}
	var out []session.CommitSubject
	for _, rec := range strings.Split(string(b), "\x00") {
		parts := strings.SplitN(strings.TrimLeft(rec, "\n"), "\x1f", 3)
		if len(parts) < 3 || !first[strings.TrimSpace(parts[0])] {
			continue
		}
		id, _, _ := strings.Cut(strings.TrimSpace(parts[2]), ",")
		out = append(out, session.CommitSubject{SHA: strings.TrimSpace(parts[0]), Subject: strings.TrimSpace(parts[1]), SessionID: strings.TrimSpace(id), FirstParent: true})
	}
	return out, nil
}

// remoteHeld is the revision arguments that leave out what the remotes'
// branches named name hold, and up (the remote-tracking ref of the default
// branch, "" for none). With no record (remotesAtStart nil) the refs are
// read as they are now. With one, a remote holds what its ref held at the
// start and what a fetch of a branch of that name brought since
// (FETCH_HEAD: a real `git fetch` or `git pull`) that is none of the
// session's own (fetchedForeign): a remote-tracking ref moved by `git
// update-ref` vouches for nothing.
func (r *Repo) remoteHeld(ctx context.Context, name, up, since string, remotesAtStart map[string]string) []string {
	var out []string
	tips := r.remoteHeldTips(name, up, remotesAtStart)
	if remotesAtStart != nil {
		tips = append(tips, r.fetchedForeign(ctx, name, since, remotesAtStart[session.StartSessionKey], tips)...)
	}
	for _, t := range tips {
		if strings.HasPrefix(t, "--glob=") {
			out = append(out, "--not", t, "--not")
		} else {
			out = append(out, "^"+t)
		}
	}
	return out
}

// remoteHeldTips is remoteHeld's revisions as tips (a ref glob as
// "--glob=..."): what the remotes' branches named name, and up, held at
// the start (as they are now, without a record).
func (r *Repo) remoteHeldTips(name, up string, remotesAtStart map[string]string) []string {
	if remotesAtStart == nil {
		var out []string
		if up != "" {
			out = append(out, up)
		}
		return append(out, "--glob=refs/remotes/*/"+name)
	}
	var out []string
	for ref, sha := range remotesAtStart {
		rest, ok := strings.CutPrefix(ref, "refs/remotes/")
		if !ok || (ref != up && !strings.HasSuffix(rest, "/"+name)) || !isHexID(sha) {
			continue
		}
		out = append(out, sha)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// fetchedForeign is FETCH_HEAD's tips of branch name that reach no commit
// after since carrying session id's trailer: a commit of the session's own
// is never the remote's, and a FETCH_HEAD written by hand naming HEAD took
// the session's `wip` commits out of every commit listing (round 43, R5:
// COMPLETE, clean). A real fetch of main names the remote's commits; one
// of the session's own pushed branch names its own, and is left out. With
// no id, all of them; when the listing fails, none.
//
// A tip that is since or one of held (the tips the start recorded) is
// left out already and not judged: a clone that fetched before the
// session began always has one, and judging it cost two git processes on
// every commit listing of the hook path.
func (r *Repo) fetchedForeign(ctx context.Context, name, since, id string, held []string) []string {
	var tips []string
	for _, t := range r.FetchedBranchTips(name) {
		if isHexID(t) && t != since && !slices.Contains(held, t) {
			tips = append(tips, t)
		}
	}
	if len(tips) == 0 || id == "" {
		return tips
	}
	if len(tips) > maxFetchedTips {
		return nil // too many to judge: trust none
	}
	// A tip reaches a commit of the session's only through what it shares
	// with HEAD: its merge bases with HEAD, read back to since, bound the
	// commits to look at by the session's own range. Reading the tip's
	// history instead (-n 5000) let 5000 dangling commits stacked on the
	// work hide its trailers (pass 46's FH1).
	var keep []string
	for _, t := range tips {
		mb, err := run(ctx, r.root, "merge-base", "--all", t, "HEAD")
		if err != nil {
			keep = append(keep, t) // nothing in common with HEAD: none of its commits
			continue
		}
		bases := strings.Fields(string(mb))
		args := append([]string{"log", "--format=%(trailers:key=" + session.TrailerKey + ",valueonly,separator=%x2C)"}, bases...)
		if since != "" && !strings.HasPrefix(since, "-") {
			args = append(args, "^"+since)
		}
		b, err := run(ctx, r.root, append(args, "--")...)
		if err != nil {
			continue // unread: not trusted
		}
		own := false
		for _, l := range strings.Split(string(b), "\n") {
			own = own || slices.Contains(strings.Split(strings.TrimSpace(l), ","), id)
		}
		if !own {
			keep = append(keep, t)
		}
	}
	return keep
}

// maxFetchedTips bounds the FETCH_HEAD tips fetchedForeign judges (two git
// processes each): a fetch of one branch names one.
const maxFetchedTips = 16

// maxFetchedRead bounds the commits fetchedForeign reads.
const maxFetchedRead = 5000

// askedRemoteTips is the tips of the HEAD branches of every remote the
// start recorded (askedRemoteTip), asked at once: a fork's upstream holds
// the team's main as origin holds the fork's (honest pass 47's R13: a
// person's change pulled from upstream was refused, and restoring the file
// as told would have reverted it). A record without remote URLs (older
// sessions) asks origin at the URL the config has now.
func (r *Repo) askedRemoteTips(ctx context.Context, remotesAtStart map[string]string) []string {
	var urls []string
	for k, v := range remotesAtStart {
		if strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".url") && v != "-" && v != "" && !slices.Contains(urls, v) {
			urls = append(urls, v)
		}
	}
	if len(urls) == 0 {
		if _, ok := remotesAtStart["remote.origin.url"]; ok {
			return nil // origin recorded as "-": never asked
		}
		urls = []string{""}
	}
	slices.Sort(urls)
	if len(urls) > maxAskedRemotes {
		urls = urls[:maxAskedRemotes]
	}
	tips := make([]string, len(urls))
	var wg sync.WaitGroup
	for i, u := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tips[i] = r.askedRemoteTip(ctx, u)
		}()
	}
	wg.Wait()
	return slices.DeleteFunc(slices.Compact(slices.Sorted(slices.Values(tips))), func(t string) bool { return t == "" })
}

// RemoteHolds reports which of commits cs the HEAD branch of a remote the
// start recorded (remotesAtStart), as the remote answers now, reaches
// (session.RemoteHolder). The remotes are asked once for all of cs. A
// record without remote URLs holds nothing here: only the start's record
// names the remotes that may vouch.
func (r *Repo) RemoteHolds(ctx context.Context, cs []string, remotesAtStart map[string]string) map[string]bool {
	out := map[string]bool{}
	recorded := false
	for k := range remotesAtStart {
		recorded = recorded || strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".url")
	}
	if len(cs) == 0 || !recorded {
		return out // not the config's origin now: the agent may have repointed it
	}
	tips := r.askedRemoteTips(ctx, remotesAtStart)
	for _, c := range cs {
		if !isHexID(c) {
			continue
		}
		for _, tip := range tips {
			if in, err := r.IsAncestor(ctx, c, tip); tip == c || err == nil && in {
				out[c] = true
				break
			}
		}
	}
	return out
}

// maxAskedRemotes bounds the remotes askedRemoteTips asks.
const maxAskedRemotes = 8

// askedRemoteTip is the commit the remote's HEAD branch points at, as the
// remote answers (recordref.RemoteHeadPinned), when this clone holds it:
// "" when the remote cannot be asked (offline, or credentials only the
// user's global config holds), its tip was never fetched, or the start
// recorded its URL as "-" (push and fetch URLs name other repositories).
// url is the one the start recorded, the config's now for older records.
func (r *Repo) askedRemoteTip(ctx context.Context, url string) string {
	if url == "-" {
		return ""
	}
	if url == "" {
		b, err := run(ctx, r.root, "remote", "get-url", "origin")
		if err != nil {
			return ""
		}
		url = strings.TrimSpace(string(b))
	}
	if url == "" {
		return ""
	}
	// A local path is read from the repository's root, as git would.
	if !strings.Contains(url, "://") && !scpLike(url) && !filepath.IsAbs(url) {
		url = filepath.Join(r.root, url)
	}
	_, tip, err := recordref.RemoteHeadPinned(ctx, url)
	if err != nil {
		slog.Debug("ask the remote for its default branch", "url", url, "err", err)
		return ""
	}
	if !isHexID(tip) {
		return ""
	}
	if _, err := run(ctx, r.root, "cat-file", "-e", tip+"^{commit}"); err != nil {
		return ""
	}
	return tip
}

// scpLike reports whether url is git's scp-like form (host:path), which
// has a colon before any slash.
func scpLike(url string) bool {
	i := strings.Index(url, ":")
	return i > 1 && !strings.Contains(url[:i], "/")
}

// maxRemoteVersions bounds the remote's versions of a file
// HoldsRemoteVersion compares.
const maxRemoteVersions = 16

// HoldsRemoteVersion reports whether path's version in HEAD, the index
// and the work tree is one the remote's default branch wrote after since
// (as the start recorded the remotes and a real fetch brought since:
// remoteHeld's trust): a person's edit of a file the session must not
// change, merged or rebased in from main, is main's change, not the
// session's (lazy pass 42, HN27: `git pull --no-rebase` of a person's
// HANDOFF.md edit blocked the honest session, and the remedy offered would
// have reverted the person's work). A version the remote never held, or
// one changed again after the merge, is the session's.
func (r *Repo) HoldsRemoteVersion(ctx context.Context, path, since string, remotesAtStart map[string]string) (bool, error) {
	if since == "" || strings.HasPrefix(since, "-") || strings.HasPrefix(path, "-") || path == "" {
		return false, nil
	}
	var tips []string
	if remotesAtStart == nil {
		// A session from before the start recorded the remotes: the refs
		// as they are.
		up := r.upstreamDefault(ctx)
		if up == "" {
			return false, nil
		}
		tips = r.remoteHeldTips(strings.TrimPrefix(up, "refs/remotes/origin/"), up, nil)
	} else if tips = r.askedRemoteTips(ctx, remotesAtStart); len(tips) == 0 {
		// Only the remotes' own answers: FETCH_HEAD (re-check 42, R2),
		// refs/remotes/origin/HEAD repointed at a branch the agent pushed
		// (pass 45's RA1) and a tracking ref forged before the start,
		// which the start then recorded (RA3), are all files the agent
		// writes. A tip the start recorded that its commit holds adds no
		// version after it anyway.
		return false, nil
	}
	// The version judged is the index's (what the next commit holds: the
	// merge's own pre-commit reads it staged), and the work tree must hold
	// it too.
	st, err := run(ctx, r.root, "status", "--porcelain", "--untracked-files=all", "--", ":(literal)"+path)
	if err != nil {
		return false, fmt.Errorf("read the status of %s: %w", path, err)
	}
	for _, l := range strings.Split(string(st), "\n") {
		if len(l) >= 2 && (l[1] != ' ' || l[0] == 'U' || l[0] == '?') {
			return false, nil // changed in the work tree, unmerged or untracked
		}
	}
	blob := func(rev string) string {
		b, err := run(ctx, r.root, "rev-parse", "--verify", "--quiet", rev+":"+path)
		if err != nil {
			return "" // absent at rev
		}
		return strings.TrimSpace(string(b))
	}
	head := blob("") // ":path", the index's version
	b, err := run(ctx, r.root, append(append([]string{"log", "--format=%H", "-n", strconv.Itoa(maxRemoteVersions)}, tips...), "^"+since, "--", ":(literal)"+path)...)
	if err != nil {
		return false, fmt.Errorf("list the remote's changes of %s: %w", path, err)
	}
	for _, c := range strings.Fields(string(b)) {
		if blob(c) == head { // "" == "": deleted by both
			return true, nil
		}
	}
	return false, nil
}
