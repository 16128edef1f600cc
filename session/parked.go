package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/mdtext"
)

// A clean work tree ("Commit all changes", clean_worktree) said only that
// git status showed nothing. Lazy pass 39 kept a change out of the
// session's commits and still ended clean: `git stash push` before the
// end, or a commit on a side branch (`git switch -c parking; git commit;
// git switch -`). Work parked there is neither committed on the session's
// branch nor gone. The check now also names a stash entry made since the
// start (the start records the stash's entries: a stash entry's date is
// the agent's to set) and a local branch whose tip the start did not
// record and HEAD does not reach, holding commits of its own: none a
// remote-tracking ref or a start tip reaches, none with a patch-equivalent
// on HEAD (a backup branch before a rebase is no parked work).

// stasher, worktreeLister and branchTipper are the optional parts of a
// Repo that list the stash's entries, the linked worktrees and the local
// ref tips (gitrepo.Repo).
type stasher interface {
	Stashes(ctx context.Context) ([]string, error)
	StashKey(ctx context.Context, c string) (string, error)
}

type worktreeLister interface {
	Worktrees() []string
	LinkedWorktree(ctx context.Context, name string, keep []string) (dir, head string, dirty bool, err error)
}

// ErrWorktreeGone: a linked worktree whose folder is not where git's
// admin folder says (deleted without `git worktree remove`, or moved).
var ErrWorktreeGone = errors.New("worktree folder gone")

type branchTipper interface {
	BranchTips(ctx context.Context) (map[string]string, error)
	NewOnBranch(ctx context.Context, tip string, not []string, self string, pushed []string) (int, error)
}

// parkedStart is what a start recorded of the places work can be parked
// beside the refs: the stash's entries and the linked worktrees (nil
// when not recorded).
type parkedStart struct {
	stash, worktrees []string
	// pushed lists the commits the session's pre-push hooks let through.
	pushed []string
}

// startStash lists the stash's entries to record at a start; nil when the
// repo cannot say.
func startStash(ctx context.Context, repo Repo) []string {
	st, ok := repo.(stasher)
	if !ok {
		return nil
	}
	s, err := st.Stashes(ctx)
	if err != nil {
		return nil
	}
	if s == nil {
		s = []string{} // recorded: an empty stash
	}
	return s
}

// startWorktrees lists the linked worktrees to record at a start: a
// person's own, whose work in progress is theirs. nil when the repo
// cannot say.
func startWorktrees(repo Repo) []string {
	if wl, ok := repo.(worktreeLister); ok {
		return wl.Worktrees()
	}
	return nil
}

// parkedAtStartOf reads what the start of session id recorded of the
// stash and the worktrees, for a gate (gateEnv.parkedAtStart).
func (e *Engine) parkedAtStartOf(id string) func(ctx context.Context) (parkedStart, bool) {
	return func(ctx context.Context) (parkedStart, bool) {
		r, err := e.readStartTips(ctx, id)
		if err != nil || !r.ok {
			return parkedStart{}, false
		}
		p := parkedStart{stash: r.stash, worktrees: r.worktrees}
		if evs, err := e.Store.EventsWith(ctx, id, TokPrePushPass, TokPrePushEscape); err == nil {
			for _, ev := range evs {
				var d struct {
					Pushed []string `json:"pushed"`
				}
				if json.Unmarshal([]byte(ev.Detail), &d) == nil {
					p.pushed = append(p.pushed, d.Pushed...)
				}
			}
		}
		return p, r.stash != nil || r.worktrees != nil
	}
}

// parkedWork lists what the session put aside since its start: stash
// entries the start did not record (nor the same change stashed again), linked
// worktrees made since the start that hold changes or commits HEAD lacks,
// and local refs whose tips neither the start recorded nor HEAD reaches.
// Nothing when the start recorded none of it (older sessions) or the repo
// cannot say.
func parkedWork(ctx context.Context, env gateEnv) []string {
	var out []string
	var at parkedStart
	if env.parkedAtStart != nil {
		at, _ = env.parkedAtStart(ctx)
	}
	if st, ok := env.repo.(stasher); ok && at.stash != nil {
		if now, err := st.Stashes(ctx); err == nil {
			var before map[string]bool // the start's entries' keys, read once
			for i, c := range now {
				if slices.Contains(at.stash, c) {
					continue
				}
				if before == nil {
					before = map[string]bool{}
					for _, b := range at.stash {
						if k, err := st.StashKey(ctx, b); err == nil {
							before[k] = true
						}
					}
				}
				// A person's entry popped and stashed again (round 39's
				// re-check, HP4): the same change, a new commit.
				if k, err := st.StashKey(ctx, c); err == nil && before[k] {
					continue
				}
				out = append(out, fmt.Sprintf("stash@{%d} (stashed since the session started)", i))
			}
		}
	}
	head, _, err := env.repo.Head(ctx)
	if err != nil || head == "" || env.sess == nil {
		return out
	}
	var before []string
	if env.tipsAtStart != nil {
		before = env.tipsAtStart(ctx)
	}
	bt, canTips := env.repo.(branchTipper)
	// newWork: tip holds commits of its own that HEAD lacks (not a backup
	// of HEAD's before a rebase, not a person's commits fetched).
	newWork := func(c string) int {
		if c == "" || c == head || c == env.sess.StartCommit || slices.Contains(before, c) {
			return 0
		}
		if in, err := env.repo.IsAncestor(ctx, c, head); err != nil || in {
			return 0
		}
		n, err := bt.NewOnBranch(ctx, c, append(slices.Clone(before), env.sess.StartCommit), env.sess.ID, at.pushed)
		if err != nil {
			return 0
		}
		return n
	}
	// A worktree made since the start (lazy pass 40, P6 and P6b: the
	// change copied into `git worktree add --detach ../park`, or committed
	// on its detached HEAD, which no ref names).
	if wl, ok := env.repo.(worktreeLister); ok && at.worktrees != nil {
		var keep []string // the exclude lines at the start: a person's
		if env.atStart != nil {
			_, keep = env.atStart(ctx)
		}
		for _, name := range wl.Worktrees() {
			if slices.Contains(at.worktrees, name) {
				continue
			}
			dir, wh, dirty, err := wl.LinkedWorktree(ctx, name, keep)
			where := fmt.Sprintf("worktree %s (%s, added since the session started)", name, filepath.Base(dir))
			if errors.Is(err, ErrWorktreeGone) {
				// Moved with its change (PA4), or deleted with a commit
				// its HEAD alone holds (PA5): what it held is unread.
				out = append(out, where+": its folder is not where git says (moved or deleted): remove it with git worktree remove, or git worktree prune once it is deleted")
				continue
			}
			if err != nil {
				continue
			}
			if dirty {
				out = append(out, where+": it holds changes (git status -uall, or files only a .git/info/exclude or core.excludesFile line added since the start hides); commit them here, or remove it (git worktree remove)")
			} else if canTips && before != nil {
				if n := newWork(wh); n > 0 {
					out = append(out, fmt.Sprintf("%s: its HEAD %s holds %d commit(s) HEAD does not", where, shortSHA(wh), n))
				}
			}
		}
	}
	if !canTips || before == nil {
		return out // no tips recorded at the start
	}
	tips, err := bt.BranchTips(ctx)
	if err != nil {
		return out
	}
	var told func(name string) bool
	for _, ref := range slices.Sorted(maps.Keys(tips)) {
		if ref == shownNotesRef && notesShownOnHead(ctx, env.repo, head) {
			continue // `git notes add` on the session's commits: shown, not parked
		}
		n := newWork(tips[ref])
		if n == 0 {
			continue
		}
		name, isBranch := strings.CutPrefix(ref, "refs/heads/")
		if isBranch {
			if told == nil {
				told = toldBranches(ctx, env.repo, env.sess.StartCommit)
			}
			if told(name) {
				continue // a follow-up branch the session's handoff names (HP3)
			}
		}
		kind := "ref"
		if isBranch {
			kind = "branch"
		}
		out = append(out, fmt.Sprintf("%s %s at %s (%d commit(s) HEAD does not hold)", kind, name, shortSHA(tips[ref]), n))
	}
	return out
}

// toldBranches reports whether the session named a branch where a person
// reads it: in the shown text of a Markdown file its commits changed (a
// handoff's "the README change waits on docs/readme, not yet pushed"),
// or in one of its commits' subjects. A branch so named is disclosed, not
// parked out of sight (round 39's re-check, HP3: an honest follow-up
// branch read as parked work). Read only when a branch holds new work.
func toldBranches(ctx context.Context, repo Repo, start string) func(string) bool {
	var texts []string
	if subs, err := repo.CommitSubjects(ctx, start); err == nil {
		for _, c := range subs {
			texts = append(texts, c.Subject)
		}
	}
	if files, err := repo.CommitsSince(ctx, start); err == nil && len(files) > 0 {
		changed, err := repo.ChangedFiles(ctx, start)
		if err == nil {
			read := 0
			for _, f := range changed {
				if !mdtext.IsMarkdown(f) || read >= 20 {
					continue
				}
				if b, ok, err := repo.ReadCommitted(ctx, "HEAD", f); err == nil && ok && len(b) <= 256<<10 {
					texts = append(texts, mdtext.ShownIn(f, string(b)))
					read++
				}
			}
		}
	}
	return toldIn(texts)
}

// toldIn reports whether texts tell a branch of this name.
func toldIn(texts []string) func(name string) bool {
	// The name beside the word branch, as a reader takes it: "branch
	// docs/readme", "the `docs/readme` branch", "a branch (`docs/readme`)",
	// "branch\ndocs/readme" soft-wrapped, a list under a lead-in that says
	// branches ("Follow-up branches, not yet pushed:\n- docs/readme"), or
	// `git switch docs/readme`; up to three words may stand between. A name
	// elsewhere is in passing: "`README.md`" names no branch README.md, nor
	// a commit subject "greet branches on an optional name" a branch `name`
	// (round 40's re-check, PA8-PA10). A name of letters alone ("work",
	// "feature", "this") must also be marked as a name (a code span,
	// quotes, bold): "all work stayed on the feature branch" tells no
	// branch `feature` (round 40's last re-check).
	return func(name string) bool {
		q := "[`'\"*(]*(" + regexp.QuoteMeta(name) + ")[`'\")*]*"
		gap := `[ \t]*\n?[ \t]*(?:[^\s]+[ \t]+\n?[ \t]*){0,3}?`
		re, err := regexp.Compile(`(?i)\bbranch(?:es)?\b[ \t]*:?` + gap + q +
			`|` + q + gap + `[(\[]?\bbranch\b` +
			`|\bgit[ \t]+(?:switch|checkout)[ \t]+(?:-[ \t]*)?` + q +
			`|\bbranch(?:es)?\b[^\n]*\n(?:[ \t]*\n)?(?:[ \t]*(?:[-*+]|\d+[.)])[ \t]+[^\n]*\n)*?[ \t]*(?:[-*+]|\d+[.)])[ \t]+` + q)
		if err != nil {
			return false
		}
		plain := strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
		for _, t := range texts {
			if inBranchColumn(t, name) {
				return true
			}
			for _, m := range re.FindAllStringSubmatchIndex(t, -1) {
				for g := 2; g+1 < len(m); g += 2 {
					a, b := m[g], m[g+1]
					if a < 0 || branchNameByte(t, a-1) || branchNameByte(t, b) {
						continue
					}
					if plain && !(a > 0 && strings.IndexByte("`'\"*", t[a-1]) >= 0) {
						continue
					}
					return true
				}
			}
		}
		return false
	}
}

// branchWordRE: a header cell that says branch.
var branchWordRE = lazyregexp.New(`(?i)\bbranch(?:es)?\b`)

// inBranchColumn reports whether a Markdown table in t has name in the
// column whose header says branch ("| Follow-up | Branch |", then "| README
// | docs/readme |": round 40's re-check, HPA1).
func inBranchColumn(t, name string) bool {
	col := -1
	cells := func(l string) []string {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "|") {
			return nil
		}
		c := strings.Split(strings.Trim(l, "|"), "|")
		for i := range c {
			c[i] = strings.Trim(strings.TrimSpace(c[i]), "`'\"*")
		}
		return c
	}
	for _, l := range strings.Split(t, "\n") {
		c := cells(l)
		switch {
		case c == nil:
			col = -1 // the table ended
		case col < 0:
			col = slices.IndexFunc(c, func(h string) bool {
				return branchWordRE.MatchString(h) // "Branch", "Branch name", "Branch (unpushed)"
			})
		case col < len(c) && slices.ContainsFunc(strings.Split(c[col], ","), func(v string) bool {
			return strings.Trim(strings.TrimSpace(v), "`'\"*") == name
		}):
			return true
		}
	}
	return false
}

// branchNameByte reports whether t[i] could continue a branch's name
// (out of range: no).
func branchNameByte(t string, i int) bool {
	if i < 0 || i >= len(t) {
		return false
	}
	c := t[i]
	return c == '/' || c == '-' || c == '_' || c == '.' && i+1 < len(t) && t[i+1] != ' ' && t[i+1] != '\n' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// A note added to one of the session's commits (`git notes add -m
// "reviewed"`) moved refs/notes/commits to a commit HEAD does not hold,
// and an honest session was blocked at "Commit all changes" as if it had
// parked work there (helper 369). git log shows the notes of
// refs/notes/commits beside the commits they annotate, so a note on a
// commit HEAD reaches is in plain sight; a note on anything else (a
// stash commit, a blob), or under another notes ref, stays parked work.

// shownNotesRef is the notes ref git log shows by default.
const shownNotesRef = "refs/notes/commits"

// maxShownNotes bounds the notes whose commits are checked one by one;
// a ref with more is judged as before (parked when new).
const maxShownNotes = 200

// notesLister lists the objects a notes ref annotates (gitrepo.Repo).
type notesLister interface {
	NotesAnnotated(ctx context.Context, ref string) ([]string, error)
}

// notesShownOnHead reports whether every note of shownNotesRef annotates
// a commit head reaches.
func notesShownOnHead(ctx context.Context, repo Repo, head string) bool {
	nl, ok := repo.(notesLister)
	if !ok {
		return false
	}
	objs, err := nl.NotesAnnotated(ctx, shownNotesRef)
	if err != nil || len(objs) == 0 || len(objs) > maxShownNotes {
		return false
	}
	for _, o := range objs {
		if in, err := repo.IsAncestor(ctx, o, head); err != nil || !in {
			return false
		}
	}
	return true
}
