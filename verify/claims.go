package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// What a record claims that git can say again. A record is written on the
// agent's machine: its session block (start and end commit, branch) is
// outside the snapshot ids, and a whole record can be forged with ids that
// recompute. What git holds is not the agent's to write after the push, so
// each claim git can decide is decided again here, and a claim git
// contradicts fails, named.
type claimCheck struct {
	repo *gitrepo.Repo
	// sinceStart are the phases whose gate is commit_since_start in the
	// protocol at the base.
	sinceStart            []string
	branch, defaultBranch string
	// shallow: ancestry is cut off, so the commit claims are not decided
	// (a false failure would block honest work); noted instead.
	shallow bool
	tip     string // the range's tip: where file evidence is read without an end commit
	// after caches, per start commit, the commits between it and the tip
	// (git rev-list --ancestry-path start..tip): one git process per
	// session start, where an ancestry walk per commit made verify
	// quadratic in the range (300 commits of one start: 42 s).
	after map[string]map[string]bool
	known map[string]bool // HasCommit's answers
	// rw names a rewrite standing in for an end commit (rewrites.go).
	rw *rewrites
	// load reads a session's record (the verify run's cache): the
	// ABANDONED sessions a record continues (continuedStarts).
	load func(ctx context.Context, id string) *recordCheck
	// carried caches, per session, the copy of its start commit that a
	// rebase inside it made (carriedStart).
	carried map[string]string
}

// carriedStartWindow bounds the tip's commits searched for the copy.
const carriedStartWindow = 512

// carriedStart returns the commit of the tip's history that copies record
// rc's start commit whole, its patch (git patch-id --verbatim) and its
// message, and that the session recorded: a new session's `git rebase
// origin/main` rewrites an earlier, ended session's commits, its start
// among them, and its hooks recorded each copy as carried (round 61 F1;
// session.carriedEarlier). Its commits then descend from the copy, not
// from the start. "" when there is none.
func (c *claimCheck) carriedStart(ctx context.Context, rc *recordCheck) string {
	if !isHex(rc.start) || !isHex(c.tip) || len(rc.commits) == 0 {
		return ""
	}
	if r, ok := c.carried[rc.id]; ok {
		return r
	}
	if c.carried == nil {
		c.carried = map[string]string{}
	}
	c.carried[rc.id] = ""
	list, err := c.repo.RevList(ctx, []string{"-n", fmt.Sprint(carriedStartWindow), c.tip, "^" + rc.start})
	if err != nil {
		return ""
	}
	var cands []string
	for _, x := range list {
		if rc.commits[sumHex(x)] && !rc.bypassed[sumHex(x)] {
			cands = append(cands, x)
		}
	}
	if len(cands) == 0 {
		return ""
	}
	ids, err := c.repo.VerbatimPatchIDs(ctx, append([]string{rc.start}, cands...))
	if err != nil || ids[rc.start] == "" {
		return ""
	}
	want, err := c.repo.Message(ctx, rc.start)
	if err != nil {
		return ""
	}
	for _, x := range cands {
		if ids[x] != ids[rc.start] {
			continue
		}
		if m, err := c.repo.Message(ctx, x); err == nil && m == want {
			c.carried[rc.id] = x
			return x
		}
	}
	return ""
}

// afterCarried reports whether commit x is the copy of rc's start commit
// (carriedStart) or, strictly, comes after it.
func (c *claimCheck) afterCarried(ctx context.Context, rc *recordCheck, x string, strictly bool) bool {
	r := c.carriedStart(ctx, rc)
	if r == "" || r == x && strictly {
		return false
	}
	if r == x {
		return true
	}
	ok, err := c.repo.IsAncestor(ctx, r, x)
	return err == nil && ok
}

// continuedStarts returns the start commits of the ABANDONED sessions
// record rc recorded, at its start, that it continues
// (session.ContinuesToken). Their work is its own: an expired session
// cannot be resumed, so the next day's session rebases its commits onto
// main (round 56 F5), and its commits and end then descend from the
// earliest continued start, not from its own.
func (c *claimCheck) continuedStarts(ctx context.Context, rc *recordCheck) []string {
	if c.load == nil {
		return nil
	}
	var out []string
	for _, ev := range rc.events {
		id, ok := strings.CutPrefix(ev.Token, session.ContinuesToken)
		if !ok || id == rc.id {
			continue
		}
		o := c.load(ctx, id)
		if o == nil || o.endState != string(session.StateAbandoned) || o.branch != rc.branch || !isHex(o.start) || !c.has(ctx, o.start) {
			continue
		}
		// The continued session started below this one (continuedFrom).
		if ok, err := c.repo.IsAncestor(ctx, o.start, rc.start); err != nil || !ok {
			continue
		}
		out = append(out, o.start)
	}
	return out
}

// afterContinued reports whether commit x comes after one of the starts
// of the sessions rc continues.
func (c *claimCheck) afterContinued(ctx context.Context, rc *recordCheck, x string) bool {
	for _, st := range c.continuedStarts(ctx, rc) {
		if st == x || strings.HasPrefix(x, st) {
			continue
		}
		if ok, err := c.repo.IsAncestor(ctx, st, x); err == nil && ok {
			return true
		}
	}
	return false
}

// has is HasCommit, once per commit: every commit of a session asks
// about the same start.
func (c *claimCheck) has(ctx context.Context, sha string) bool {
	if c.known == nil {
		c.known = map[string]bool{}
	}
	v, ok := c.known[sha]
	if !ok {
		v = c.repo.HasCommit(ctx, sha)
		c.known[sha] = v
	}
	return v
}

// descends reports whether commit b comes after commit a: in the cached
// ancestry path from a to the tip, else (a commit off that path) git's
// own answer.
func (c *claimCheck) descends(ctx context.Context, a, b string) (bool, error) {
	if c.after == nil {
		c.after = map[string]map[string]bool{}
	}
	set, ok := c.after[a]
	if !ok && isHex(c.tip) {
		if list, err := c.repo.RevList(ctx, []string{"--ancestry-path", a + ".." + c.tip}); err == nil {
			set = make(map[string]bool, len(list))
			for _, x := range list {
				set[x] = true
			}
		}
		c.after[a] = set
	}
	if set[b] {
		return true, nil
	}
	return c.repo.IsAncestor(ctx, a, b)
}

func newClaimCheck(repo *gitrepo.Repo, opts Options) *claimCheck {
	c := &claimCheck{repo: repo, branch: opts.Branch, defaultBranch: opts.DefaultBranch}
	c.shallow, _ = repo.IsShallow(context.Background())
	if bl := opts.Baseline; bl != nil && bl.Protocol != nil {
		if spec, err := protocolspec.Parse(bl.ProtocolPath, bl.Protocol); err == nil {
			for _, ph := range spec.Phases {
				for _, ck := range ph.Checks {
					if ck.Kind == protocolspec.CheckCommitSinceStart {
						c.sinceStart = append(c.sinceStart, ph.ID)
						break
					}
				}
			}
		}
	}
	return c
}

// commit checks, for one commit its session claims, the claims of the
// record (once per record) and that the commit comes after the session's
// start.
func (c *claimCheck) commit(ctx context.Context, rc *recordCheck, cr *CommitReport) {
	if rc == nil || rc.ids == nil {
		return
	}
	fail := func(msg string) {
		cr.Status = "fail"
		cr.Problems = append(cr.Problems, msg)
	}
	if !rc.rechecked {
		rc.rechecked = true
		rc.problems = append(rc.problems, c.record(ctx, rc)...)
		for _, p := range rc.problems {
			if !contains(cr.Problems, p) {
				fail(p)
			}
		}
	}
	start := rc.start
	if rc.startStandIn != "" {
		start = rc.startStandIn
	}
	if !c.shallow && isHex(start) && c.has(ctx, start) {
		after, err := c.descends(ctx, start, cr.SHA)
		if err == nil && !after && c.afterContinued(ctx, rc, cr.SHA) {
			after = true // rewritten with the work it continues (continuedStarts)
		}
		if err == nil && !after && c.afterCarried(ctx, rc, cr.SHA, true) {
			after = true // its start rewritten by a rebase inside it (carriedStart)
		}
		if err == nil && (!after || strings.HasPrefix(cr.SHA, start) || start == cr.SHA) {
			fail(fmt.Sprintf("%s: claim contradicted by git: the record says session %s started at %s, but this commit is not after that commit",
				rc.path, cr.SessionID, shorten.SHA(start)))
		}
	}
}

// record recomputes the claims of a record as a whole.
func (c *claimCheck) record(ctx context.Context, rc *recordCheck) []string {
	var out []string
	bad := func(format string, a ...any) {
		out = append(out, rc.path+": claim contradicted by git: "+fmt.Sprintf(format, a...))
	}
	if c.branch != "" && c.defaultBranch != "" && rc.branch == c.defaultBranch && c.branch != c.defaultBranch {
		bad("the record says the session ran on branch %s, but its commits reach CI from branch %s", rc.branch, c.branch)
	}
	if c.shallow {
		rc.notes = append(rc.notes, rc.path+": its start and end commits are not re-checked in a shallow clone (fetch-depth: 0, GIT_DEPTH: 0 re-check them)")
		// The files are: the end commit (or the tip) is in the clone.
		return append(out, c.files(ctx, rc, isHex(rc.end) && c.repo.HasCommit(ctx, rc.end), false)...)
	}
	startKnown := isHex(rc.start) && c.repo.HasCommit(ctx, rc.start)
	// start is the start commit, or the rewrite in the range standing in
	// for it; startKnown stays the record's own (file evidence reads it).
	start, startHere := rc.start, startKnown
	if rc.start != "" && !startKnown {
		if r, of := c.rw.startStandIn(rc.start); r != "" {
			rc.startStandIn, start, startHere = r, r, true
			rc.notes = append(rc.notes, fmt.Sprintf("%s: start_commit %s is not in this clone: session %s's end commit, rewritten as %s of the range", rc.path, shorten.SHA(rc.start), of, shorten.SHA(r)))
		} else {
			bad("start_commit %s is not a commit of this repository", shorten.SHA(rc.start))
		}
	}
	endKnown := isHex(rc.end) && c.repo.HasCommit(ctx, rc.end)
	// A platform's rewrite of the session's commits leaves no end commit in
	// the clone: its rewrite in the range stands in for it (rewrites.go).
	sinceEnd, sinceKnown := rc.end, endKnown
	if rc.end != "" && !endKnown {
		if r := c.rw.standIn(rc.id); r != "" {
			rc.notes = append(rc.notes, fmt.Sprintf("%s: end_commit %s is not in this clone: rewritten as %s of the range", rc.path, shorten.SHA(rc.end), shorten.SHA(r)))
			sinceEnd, sinceKnown = r, true
		} else {
			bad("end_commit %s is not a commit of this repository", shorten.SHA(rc.end))
		}
	}
	if startHere && endKnown {
		if ok, err := c.repo.IsAncestor(ctx, start, rc.end); err == nil && !ok && !c.afterContinued(ctx, rc, rc.end) && !c.afterCarried(ctx, rc, rc.end, false) {
			bad("the session ended at %s, which does not descend from its start commit %s", shorten.SHA(rc.end), shorten.SHA(start))
		}
	}
	out = append(out, c.files(ctx, rc, endKnown, startKnown)...)
	for _, ph := range c.sinceStart {
		if !rc.passed[ph] || !startHere {
			continue
		}
		n := 0
		if sinceKnown {
			if l, err := c.repo.RevList(ctx, []string{start + ".." + sinceEnd}); err == nil {
				n = len(l)
			}
		}
		if n == 0 {
			end := "its end commit " + shorten.SHA(rc.end)
			if !endKnown {
				end = "a known end commit"
			}
			bad("phase %s passed commit_since_start, but git holds no commit after the start commit %s up to %s", ph, shorten.SHA(start), end)
		}
	}
	return out
}
