package session

import (
	"context"
	"fmt"
	"github.com/sessiongate/sessiongate/claimtext"
	"github.com/sessiongate/sessiongate/committype"
	"github.com/sessiongate/sessiongate/placeholder"
	"github.com/sessiongate/sessiongate/repopath"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// The check kinds a protocol's sentences imply (protocolspec/infer.go);
// authors can also write them as annotations.

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
}

// sessionCommit says whether a commit is this session's to word and to
// carry its trailer: one on the first-parent line without another
// session's trailer, or one anywhere carrying this session's. A side
// branch the session made and merged with --no-ff is its work too: leaving
// it out let "wip" commits through behind a merge.
func sessionCommit(c CommitSubject, id string) bool {
	if c.SessionID == id {
		return true
	}
	return c.FirstParent && c.SessionID == ""
}

// runMoreCheck runs the check kinds this file holds; ok is false for a
// kind it does not know.
func runMoreCheck(ctx context.Context, env gateEnv, c protocolspec.Check) (st GateStatus, msg, evidence string, ok bool) {
	switch c.Kind {
	case protocolspec.CheckUnchanged:
		st, msg, evidence = checkUnchanged(ctx, env, c)
	case protocolspec.CheckNotDefaultBranch:
		st, msg, evidence = checkNotDefaultBranch(ctx, env)
	case protocolspec.CheckNoPlaceholders:
		st, msg, evidence = checkNoPlaceholders(ctx, env, c)
	case protocolspec.CheckCommitMessage:
		st, msg, evidence = checkCommitMessages(ctx, env, c.Arg)
	case protocolspec.CheckHasSection:
		st, msg, evidence = checkHasSection(ctx, env, c)
	case protocolspec.CheckNoHookBypass:
		st, msg, evidence = checkNoHookBypass(ctx, env)
	default:
		return "", "", "", false
	}
	if c.Inferred != nil && st == StatusFail {
		msg += fmt.Sprintf(" (the protocol, line %d: %q)", c.Inferred.Line, truncate(c.Inferred.Sentence, 160))
	}
	return st, msg, evidence, true
}

// checkUnchanged passes when no file matching the glob changed since the
// session started (committed, staged, unstaged or untracked).
func checkUnchanged(ctx context.Context, env gateEnv, c protocolspec.Check) (GateStatus, string, string) {
	if _, err := repopath.Clean(c.Arg); err != nil {
		return StatusFail, err.Error(), ""
	}
	files, err := sessionFiles(ctx, env.repo, env.sess)
	if err != nil {
		return StatusFail, err.Error(), ""
	}
	if m := repopath.Filter(files, c.Arg); len(m) > 0 {
		return StatusFail, fmt.Sprintf("%s changed since the session started (%s) but must not be modified: restore it (git checkout %s -- %s)", m[0], shortSHA(env.sess.StartCommit), shortSHA(env.sess.StartCommit), m[0]), ""
	}
	return StatusPass, fmt.Sprintf("%s unchanged", c.Arg), ""
}

// checkNotDefaultBranch passes when HEAD is on a branch other than the
// default one: the config's default_branch and origin/HEAD's both count
// (origin/HEAD is a local ref: repointed at a decoy, it alone let a session
// work on main), else main or master. A detached HEAD fails: commits made
// there are on no branch, and `git push origin HEAD:main` lands them on
// the default branch with every gate passed. A repository with no
// recognisable default has nothing to check.
func checkNotDefaultBranch(ctx context.Context, env gateEnv) (GateStatus, string, string) {
	_, branch, err := env.repo.Head(ctx)
	if err != nil {
		return StatusFail, err.Error(), ""
	}
	def, err := env.repo.DefaultBranch(ctx)
	if err != nil {
		return StatusFail, err.Error(), ""
	}
	defaults := make([]string, 0, 2)
	if b := env.cfg.DefaultBranch; b != "" {
		defaults = append(defaults, b)
	}
	if def != "" && def != env.cfg.DefaultBranch {
		defaults = append(defaults, def)
	}
	if len(defaults) == 0 {
		return StatusSkipped, "no default branch found (no default_branch in sessiongate.yaml, no origin/HEAD, main or master)", ""
	}
	if branch == "" {
		return StatusFail, fmt.Sprintf("HEAD is detached: work done here is on no branch, and pushing it lands on %s; create a feature branch (git switch -c feat/NAME) and work there", defaults[0]), ""
	}
	if slices.Contains(defaults, branch) {
		return StatusFail, fmt.Sprintf("working on the default branch %s: create a feature branch (git switch -c feat/NAME) and work there", branch), ""
	}
	return StatusPass, fmt.Sprintf("on branch %s, not the default branch %s", branch, strings.Join(defaults, " or ")), branch
}

// checkNoPlaceholders passes when no file this session created or changed
// that matches the glob still holds a placeholder of its template (the
// check's Placeholders; {name} placeholders when it lists none). No such
// file: nothing to check (the phase's other gates ask for the file).
func checkNoPlaceholders(ctx context.Context, env gateEnv, c protocolspec.Check) (GateStatus, string, string) {
	if _, err := repopath.Clean(c.Arg); err != nil {
		return StatusFail, err.Error(), ""
	}
	files, err := sessionFiles(ctx, env.repo, env.sess)
	if err != nil {
		return StatusFail, err.Error(), ""
	}
	files = existing(env.repo.Root(), repopath.Filter(files, c.Arg))
	if len(files) == 0 {
		return StatusSkipped, fmt.Sprintf("no file matching %s changed in this session", c.Arg), ""
	}
	for _, f := range files {
		abs, ok, err := repopath.Resolve(env.repo.Root(), f)
		if err != nil || !ok {
			continue
		}
		b, err := placeholder.ReadHead(abs, placeholder.MaxScan)
		if err != nil {
			return StatusFail, fmt.Sprintf("read %s: %v", f, err), ""
		}
		if found, line := placeholder.Find(string(b), c.Placeholders); len(found) > 0 {
			more := ""
			if len(found) > 1 {
				more = fmt.Sprintf(" and %d more", len(found)-1)
			}
			return StatusFail, fmt.Sprintf("%s:%d still holds the template placeholder %s%s: fill it in", f, line, found[0], more), ""
		}
		if h, line := claimtext.FillerSection(string(b)); h != "" {
			return StatusFail, fmt.Sprintf("%s:%d: section %q holds only a filler (TODO, TBD, N/A, See above, ...), not what it asks for: fill it in (\"None\" or \"N/A: why\" answer a section that does not apply)", f, line, h), ""
		}
	}
	return StatusPass, fmt.Sprintf("no template placeholder left in %s", strings.Join(files, ", ")), files[0]
}

// checkCommitMessages passes when every commit of the session follows the
// convention (sessionCommit: merges and commits carrying another session's
// Session-Id trailer left out). git's own "Revert \"...\"", "fixup!" and
// "squash!" subjects are accepted around a conventional subject
// (committype.Unconventional). No commit: nothing to check (commit_since_start
// asks for one).
func checkCommitMessages(ctx context.Context, env gateEnv, convention string) (GateStatus, string, string) {
	commits, err := env.repo.CommitSubjects(ctx, env.sess.StartCommit)
	if err != nil {
		return StatusFail, err.Error(), ""
	}
	// A commit another session made (pulled or rebased in) is not this
	// session's to word.
	var subjects []string
	for _, c := range commits {
		if sessionCommit(c, env.sess.ID) {
			subjects = append(subjects, c.Subject)
		}
	}
	if len(subjects) == 0 {
		return StatusSkipped, "no commit of this session since it started: no message to check", ""
	}
	types, whose := committype.AllowedTypes(env.phase)
	var bad []string
	why := ""
	for _, s := range subjects {
		if w := committype.Unconventional(s, types); w != "" {
			if bad = append(bad, s); len(bad) == 1 {
				why = w
			}
		}
	}
	if len(bad) > 0 {
		return StatusFail, fmt.Sprintf("%d of %d commit message(s) do not follow %s commits (type(scope): description, type one of %s: %s), first %q: %s; reword it (git commit --amend, or git rebase -i)",
			len(bad), len(subjects), convention, whose, strings.Join(types, ", "), truncate(bad[0], 80), why), ""
	}
	return StatusPass, fmt.Sprintf("%d commit message(s) follow %s commits", len(subjects), convention), ""
}

// checkHasSection passes when every file this session created or changed
// that matches the glob has a markdown heading whose text is the section
// (any case; code fences do not count). No such file: nothing to check
// (the phase's other gates ask for the file).
func checkHasSection(ctx context.Context, env gateEnv, c protocolspec.Check) (GateStatus, string, string) {
	if _, err := repopath.Clean(c.Arg); err != nil {
		return StatusFail, err.Error(), ""
	}
	files, err := sessionFiles(ctx, env.repo, env.sess)
	if err != nil {
		return StatusFail, err.Error(), ""
	}
	files = existing(env.repo.Root(), repopath.Filter(files, c.Arg))
	if len(files) == 0 {
		return StatusSkipped, fmt.Sprintf("no file matching %s changed in this session", c.Arg), ""
	}
	for _, f := range files {
		abs, ok, err := repopath.Resolve(env.repo.Root(), f)
		if err != nil || !ok {
			continue
		}
		b, err := placeholder.ReadHead(abs, placeholder.MaxScan)
		if err != nil {
			return StatusFail, fmt.Sprintf("read %s: %v", f, err), ""
		}
		found := false
		for _, h := range protocolspec.Headings(b) {
			if strings.EqualFold(strings.TrimSpace(h), c.Section) {
				found = true
				break
			}
		}
		if !found {
			return StatusFail, fmt.Sprintf("%s has no %q section: add the heading (## %s) with its content", f, c.Section, c.Section), ""
		}
	}
	return StatusPass, fmt.Sprintf("%s has the %q section", strings.Join(files, ", "), c.Section), files[0]
}

// checkNoHookBypass passes when the session's own hooks recorded every
// commit of the session as checked work: pre-commit's pass of its tree
// (post-commit or reconciliation recorded it), or a replay whose change
// the session checked, reverts the branch's own history or copies
// published work (replay.go). The Session-Id trailer alone is no witness:
// a commit made with the hooks off can carry copied trailers, and an
// honest `git revert --no-edit` or `git cherry-pick` carries none (git
// runs neither pre-commit nor commit-msg for them). Commits of another
// session (pulled, rebased) are not this one's. No commit: nothing to
// check.
func checkNoHookBypass(ctx context.Context, env gateEnv) (GateStatus, string, string) {
	commits, err := env.repo.CommitSubjects(ctx, env.sess.StartCommit)
	if err != nil {
		return StatusFail, err.Error(), ""
	}
	var recorded map[string]string
	if env.commitRecords != nil {
		var shas []string
		for _, c := range commits {
			if sessionCommit(c, env.sess.ID) {
				shas = append(shas, c.SHA)
			}
		}
		if recorded, err = env.commitRecords(ctx, shas); err != nil {
			return StatusFail, "read the session's commit records: " + err.Error(), ""
		}
	}
	n := 0
	var bare, copied, bypassed []string
	for _, c := range commits {
		if !sessionCommit(c, env.sess.ID) {
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
		case known && kind == EvidenceCommitSHA:
		case known:
			bypassed = append(bypassed, c.Subject)
		case c.SessionID == "":
			bare = append(bare, c.Subject)
		default:
			copied = append(copied, c.Subject)
		}
	}
	if n == 0 {
		return StatusSkipped, "no commit of this session since it started: no hook to bypass", ""
	}
	switch {
	case len(bypassed) > 0:
		return StatusFail, fmt.Sprintf("%d of %d commit(s) of this session landed without a passing pre-commit hook (recorded as BYPASS), first %q: "+
			"made with --no-verify or with the hooks switched off; redo it through the hooks", len(bypassed), n, truncate(bypassed[0], 80)), ""
	case len(copied) > 0:
		return StatusFail, fmt.Sprintf("%d of %d commit(s) of this session carry its %s trailer but no hook of the session recorded them, first %q: "+
			"made with the hooks switched off (core.hooksPath) and trailers copied; redo it through the hooks", len(copied), n, TrailerKey, truncate(copied[0], 80)), ""
	case len(bare) > 0:
		return StatusFail, fmt.Sprintf("%d of %d commit(s) of this session carry no %s trailer and no hook of the session recorded them, first %q: made with --no-verify or without sessiongate's hooks (sessiongate install); redo it with the hooks", len(bare), n, TrailerKey, truncate(bare[0], 80)), ""
	}
	if recorded == nil {
		return StatusPass, fmt.Sprintf("%d commit(s) carry the session's %s trailer", n, TrailerKey), ""
	}
	return StatusPass, fmt.Sprintf("%d commit(s) recorded by the session's hooks as checked", n), ""
}
