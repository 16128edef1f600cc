// Package inferredcheck judges the check kinds a protocol's sentences
// imply (protocolspec/infer.go; authors can also write them as
// annotations): a file that must stay unchanged, work off the default
// branch, a template's placeholders filled, a required section, commit
// messages that follow the convention, and commits the session's hooks
// saw. It needs no session: the engine (session/checks_inferred.go) hands
// it the work tree, listers of the session's changed files and commits,
// and its record of which commits its hooks checked.
package inferredcheck

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/claimtext"
	"github.com/sessiongate/sessiongate/committype"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/placeholder"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/repopath"
)

// Status is a check's outcome, spelled as the engine's gate statuses.
type Status string

// Outcomes.
const (
	Pass    Status = "PASS"
	Fail    Status = "FAIL"
	Skipped Status = "SKIPPED"
)

// Result is a check's outcome, what it says, and the evidence it names
// ("" none).
type Result struct {
	Status   Status
	Message  string
	Evidence string
}

func fail(msg string) Result { return Result{Status: Fail, Message: msg} }

// Lister lists the files the session created or changed (slash paths
// under the work tree).
type Lister func() ([]string, error)

// CommitSubject is a commit's subject line and the Session-Id trailer it
// carries ("" when none).
type CommitSubject struct {
	SHA       string
	Subject   string
	SessionID string
	// FirstParent: on HEAD's first-parent line. A commit off it came in
	// through a merge: another's work pulled in, or the session's own
	// side branch (then it carries the session's trailer).
	FirstParent bool
	// EvilMerge, on a merge, says what it changed beyond git's merge of
	// its parents (gitrepo.Repo.MergesWithOwnChanges): such a merge is
	// worded like a commit. "" on every other commit.
	EvilMerge string
}

// SessionCommit says whether a commit is this session's to word and to
// carry its trailer: one on the first-parent line without another
// session's trailer, or one anywhere carrying this session's. A side
// branch the session made and merged with --no-ff is its work too: leaving
// it out let "wip" commits through behind a merge.
func SessionCommit(c CommitSubject, id string) bool {
	if c.SessionID == id {
		return true
	}
	return c.FirstParent && c.SessionID == ""
}

func shortSHA(s string) string {
	if s == "" {
		return "unborn"
	}
	return shorten.SHA(s)
}

func truncate(s string, n int) string { return shorten.Bytes(s, n, "...") }

// existing keeps the files that resolve inside root and exist.
func existing(root string, files []string) []string {
	var out []string
	for _, f := range files {
		if _, ok, err := repopath.Resolve(root, f); err == nil && ok {
			out = append(out, f)
		}
	}
	return out
}

// Unchanged passes when no file the session changed matches the check's
// glob; start is the session's start commit (for the restore hint).
// upstream (nil: none) says whether a changed file holds a version the
// remote's default branch wrote (gitrepo.Repo.HoldsRemoteVersion): a
// person's edit merged in from main is not the session's change.
func Unchanged(c protocolspec.Check, files Lister, start string, upstream func(path string) (bool, error)) Result {
	if _, err := repopath.Clean(c.Arg); err != nil {
		return fail(err.Error())
	}
	changed, err := files()
	if err != nil {
		return fail(err.Error())
	}
	var theirs []string
	for _, f := range repopath.Filter(changed, c.Arg) {
		if upstream != nil {
			held, err := upstream(f)
			if err != nil {
				return fail(err.Error())
			}
			if held {
				theirs = append(theirs, f)
				continue
			}
		}
		return fail(fmt.Sprintf("%s changed since the session started (%s) but must not be modified: restore it (git checkout %s -- %s)", f, shortSHA(start), shortSHA(start), f))
	}
	if len(theirs) > 0 {
		return Result{Status: Pass, Message: fmt.Sprintf("%s unchanged by the session (%s holds the default branch's version, merged in)", c.Arg, strings.Join(theirs, ", "))}
	}
	return Result{Status: Pass, Message: fmt.Sprintf("%s unchanged", c.Arg)}
}

// NotDefaultBranch passes when HEAD is on a branch that is neither the
// configured default branch nor the repository's (def: origin/HEAD, main
// or master; "" none found). branch is "" when HEAD is detached.
func NotDefaultBranch(branch, configured, def string) Result {
	defaults := make([]string, 0, 2)
	if configured != "" {
		defaults = append(defaults, configured)
	}
	if def != "" && def != configured {
		defaults = append(defaults, def)
	}
	if len(defaults) == 0 {
		return Result{Status: Skipped, Message: "no default branch found (no default_branch in sessiongate.yaml, no origin/HEAD, main or master)"}
	}
	if branch == "" {
		return fail(fmt.Sprintf("HEAD is detached: work done here is on no branch, and pushing it lands on %s; create a feature branch (git switch -c feat/NAME) and work there", defaults[0]))
	}
	if slices.Contains(defaults, branch) {
		return fail(fmt.Sprintf("working on the default branch %s: create a feature branch (git switch -c feat/NAME) and work there", branch))
	}
	return Result{Status: Pass, Message: fmt.Sprintf("on branch %s, not the default branch %s", branch, strings.Join(defaults, " or ")), Evidence: branch}
}

// LandedOnDefault fails when the local default branch holds commits of
// the session (own, newest first as git log lists them): the work is on
// branch although HEAD is not (lazy pass 29: `git branch -f main HEAD`
// after the commits, or work committed on main and a feature branch reset
// onto it). Nothing held passes.
func LandedOnDefault(branch string, own []CommitSubject) Result {
	if len(own) == 0 {
		return Result{Status: Pass}
	}
	c, oldest := own[0], own[len(own)-1]
	return fail(fmt.Sprintf("the local default branch %s holds %d commit(s) of this session (%s %q): the work landed on %s; keep it on the feature branch and put %s back before it (git branch -f %s %s^)", branch, len(own), shortSHA(c.SHA), c.Subject, branch, branch, branch, shortSHA(oldest.SHA)))
}

// matching lists the files the session changed that match the check's
// glob and exist under root; done is set when the check ends there.
func matching(root string, c protocolspec.Check, files Lister) (matched []string, done *Result) {
	if _, err := repopath.Clean(c.Arg); err != nil {
		r := fail(err.Error())
		return nil, &r
	}
	changed, err := files()
	if err != nil {
		r := fail(err.Error())
		return nil, &r
	}
	matched = existing(root, repopath.Filter(changed, c.Arg))
	if len(matched) == 0 {
		return nil, &Result{Status: Skipped, Message: fmt.Sprintf("no file matching %s changed in this session", c.Arg)}
	}
	return matched, nil
}

// NoPlaceholders passes when no file this session created or changed
// that matches the glob still holds a placeholder of its template (the
// check's Placeholders; {name} placeholders when it lists none) or a
// section holding only a filler. No such file: nothing to check (the
// phase's other gates ask for the file).
func NoPlaceholders(root string, c protocolspec.Check, files Lister) Result {
	matched, done := matching(root, c, files)
	if done != nil {
		return *done
	}
	for _, f := range matched {
		abs, ok, err := repopath.Resolve(root, f)
		if err != nil || !ok {
			continue
		}
		sc, err := placeholder.ReadScanned(abs)
		if errors.Is(err, boundedread.ErrTooLarge) {
			// Not scanned whole: its placeholders may sit past what was
			// read, so it is no evidence of a filled template (round 30).
			return fail(fmt.Sprintf("%s is not scanned for placeholders (%v): a file that cannot be read whole is not evidence; write the handoff itself, without padding", f, err))
		}
		if err != nil {
			return fail(fmt.Sprintf("read %s: %v", f, err))
		}
		if found, line := placeholder.Find(sc.Text, c.Placeholders); len(found) > 0 {
			more := ""
			if len(found) > 1 {
				more = fmt.Sprintf(" and %d more", len(found)-1)
			}
			return fail(fmt.Sprintf("%s:%d still holds the template placeholder %s%s: fill it in", f, sc.Line(line), found[0], more))
		}
		if h, line := claimtext.FillerSection(sc.Text); h != "" {
			return fail(fmt.Sprintf("%s:%d: section %q holds only a filler (TODO, TBD, N/A, See above, ...), not what it asks for: fill it in (\"None\" or \"N/A: why\" answer a section that does not apply)", f, sc.Line(line), h))
		}
	}
	return Result{Status: Pass, Message: fmt.Sprintf("no template placeholder left in %s", strings.Join(matched, ", ")), Evidence: matched[0]}
}

// HasSection passes when every file this session created or changed
// that matches the glob has a markdown heading whose text is the section
// (any case; code fences do not count). No such file: nothing to check
// (the phase's other gates ask for the file).
func HasSection(root string, c protocolspec.Check, files Lister) Result {
	matched, done := matching(root, c, files)
	if done != nil {
		return *done
	}
	for _, f := range matched {
		abs, ok, err := repopath.Resolve(root, f)
		if err != nil || !ok {
			continue
		}
		sc, err := placeholder.ReadScanned(abs)
		if err != nil {
			return fail(fmt.Sprintf("read %s: %v", f, err))
		}
		found := false
		for _, h := range protocolspec.Headings([]byte(sc.Text)) {
			if strings.EqualFold(strings.TrimSpace(h), c.Section) {
				found = true
				break
			}
		}
		if !found {
			return fail(fmt.Sprintf("%s has no %q section: add the heading (## %s) with its content", f, c.Section, c.Section))
		}
	}
	return Result{Status: Pass, Message: fmt.Sprintf("%s has the %q section", strings.Join(matched, ", "), c.Section), Evidence: matched[0]}
}

// CommitMessages passes when every commit of the session (id; see
// SessionCommit: merges and commits carrying another session's Session-Id
// trailer left out) follows the convention. git's own "Revert \"...\"",
// "fixup!" and "squash!" subjects are accepted around a conventional
// subject (committype.Unconventional). No commit: nothing to check
// (commit_since_start asks for one).
//
// layoutOnly (nil: none) says whether a commit changes only whitespace
// and layout: its `style:` subject may then be made of fillers
// (committype.FillerStyle).
func CommitMessages(commits []CommitSubject, id string, phase *protocolspec.Phase, convention string, layoutOnly func(sha string) bool) Result {
	// A commit another session made (pulled or rebased in) is not this
	// session's to word.
	var own []CommitSubject
	for _, c := range commits {
		if SessionCommit(c, id) {
			own = append(own, c)
		}
	}
	if len(own) == 0 {
		return Result{Status: Skipped, Message: "no commit of this session since it started: no message to check"}
	}
	types, whose := committype.AllowedTypes(phase)
	var bad []CommitSubject
	why := ""
	for _, c := range own {
		if w := committype.Unconventional(c.Subject, types); w != "" {
			if c.EvilMerge == "" && layoutOnly != nil && committype.FillerStyle(c.Subject, types) && layoutOnly(c.SHA) {
				continue
			}
			if bad = append(bad, c); len(bad) == 1 {
				why = w
			}
		}
	}
	if len(bad) > 0 {
		fix := "reword it (git commit --amend, or git rebase -i)"
		if bad[0].EvilMerge != "" {
			why += fmt.Sprintf(" (merge %s is read as a commit: %s; give the merge a conventional subject saying what it changed, `git commit --amend` while it is the last commit)", shortSHA(bad[0].SHA), bad[0].EvilMerge)
			fix = "commit the work on its own before the merge, or word the merge as a commit (git commit --amend)"
		}
		return fail(fmt.Sprintf("%d of %d commit message(s) do not follow %s commits (type(scope): description, type one of %s: %s), first %q: %s; %s",
			len(bad), len(own), convention, whose, strings.Join(types, ", "), truncate(bad[0].Subject, 80), why, fix))
	}
	return Result{Status: Pass, Message: fmt.Sprintf("%d commit message(s) follow %s commits", len(own), convention)}
}

// HookRecords says how the session's hooks recorded its commits.
type HookRecords struct {
	// Of maps each commit the session recorded to its evidence kind;
	// nil: no store to ask (a gate run outside the engine), the trailer
	// is all there is.
	Of func(ctx context.Context, shas []string) (map[string]string, error)
	// Checked is the kind of a commit whose pre-commit pass was recorded
	// (any other recorded kind is a bypass).
	Checked string
	// Trailer is the Session-Id trailer's key, for messages.
	Trailer string
}

// NoHookBypass passes when the session's own hooks recorded every commit
// of the session as checked work: pre-commit's pass of its tree
// (post-commit or reconciliation recorded it), or a replay whose change
// the session checked, reverts the branch's own history or copies
// published work. The Session-Id trailer alone is no witness: a commit
// made with the hooks off can carry copied trailers, and an honest `git
// revert --no-edit` or `git cherry-pick` carries none (git runs neither
// pre-commit nor commit-msg for them). Commits of another session
// (pulled, rebased) are not this one's. No commit: nothing to check.
func NoHookBypass(ctx context.Context, commits []CommitSubject, id string, h HookRecords) Result {
	var recorded map[string]string
	if h.Of != nil {
		var shas []string
		for _, c := range commits {
			if SessionCommit(c, id) {
				shas = append(shas, c.SHA)
			}
		}
		var err error
		if recorded, err = h.Of(ctx, shas); err != nil {
			return fail("read the session's commit records: " + err.Error())
		}
	}
	n := 0
	var bare, copied, bypassed []string
	for _, c := range commits {
		if !SessionCommit(c, id) {
			continue
		}
		n++
		kind, known := recorded[c.SHA]
		switch {
		case recorded == nil:
			// No store to ask (a gate run outside the engine): the
			// trailer is all there is.
			if c.SessionID == "" {
				bare = append(bare, c.Subject)
			}
		case known && kind == h.Checked:
		case known:
			bypassed = append(bypassed, c.Subject)
		case c.SessionID == "":
			bare = append(bare, c.Subject)
		default:
			copied = append(copied, c.Subject)
		}
	}
	if n == 0 {
		return Result{Status: Skipped, Message: "no commit of this session since it started: no hook to bypass"}
	}
	switch {
	case len(bypassed) > 0:
		return fail(fmt.Sprintf("%d of %d commit(s) of this session landed without a passing pre-commit hook (recorded as BYPASS), first %q: "+
			"made with --no-verify or with the hooks switched off; redo it through the hooks", len(bypassed), n, truncate(bypassed[0], 80)))
	case len(copied) > 0:
		return fail(fmt.Sprintf("%d of %d commit(s) of this session carry its %s trailer but no hook of the session recorded them, first %q: "+
			"made with the hooks switched off (core.hooksPath) and trailers copied; redo it through the hooks", len(copied), n, h.Trailer, truncate(copied[0], 80)))
	case len(bare) > 0:
		return fail(fmt.Sprintf("%d of %d commit(s) of this session carry no %s trailer and no hook of the session recorded them, first %q: made with --no-verify or without sessiongate's hooks (sessiongate install); redo it with the hooks", len(bare), n, h.Trailer, truncate(bare[0], 80)))
	}
	if recorded == nil {
		return Result{Status: Pass, Message: fmt.Sprintf("%d commit(s) carry the session's %s trailer", n, h.Trailer)}
	}
	return Result{Status: Pass, Message: fmt.Sprintf("%d commit(s) recorded by the session's hooks as checked", n)}
}
