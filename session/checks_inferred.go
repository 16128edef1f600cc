package session

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/committype"
	"github.com/sessiongate/sessiongate/inferredcheck"
	"github.com/sessiongate/sessiongate/mdtext"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/repopath"
)

// The check kinds a protocol's sentences imply (protocolspec/infer.go);
// authors can also write them as annotations. What each decides is
// inferredcheck's; this file hands it the session's files, commits and
// the records of its hooks.

// CommitSubject is a commit's subject line and the Session-Id trailer it
// carries ("" when none): inferredcheck.CommitSubject, named here for
// Repo.CommitSubjects.
type CommitSubject = inferredcheck.CommitSubject

// sessionCommit is inferredcheck.SessionCommit.
func sessionCommit(c CommitSubject, id string) bool { return inferredcheck.SessionCommit(c, id) }

// runMoreCheck runs the check kinds this file holds; ok is false for a
// kind it does not know.
func runMoreCheck(ctx context.Context, env gateEnv, c protocolspec.Check) (st GateStatus, msg, evidence string, ok bool) {
	files := func() ([]string, error) { return sessionFiles(ctx, env.repo, env.sess) }
	var r inferredcheck.Result
	switch c.Kind {
	case protocolspec.CheckUnchanged:
		// Counted from the start of the work this session continued: a
		// file not to update, changed and committed in a session then
		// superseded, read unchanged to the next one (continuedFrom).
		sess := env.sess
		if env.continued != nil {
			sess = env.continued
		}
		r = inferredcheck.Unchanged(c, func() ([]string, error) { return sessionFiles(ctx, env.repo, sess) }, sess.StartCommit, upstreamVersion(ctx, env, sess.StartCommit))
		if r.Status == inferredcheck.Fail {
			r.Message += env.continuedFrom()
		}
	case protocolspec.CheckNotDefaultBranch:
		r = notDefaultBranch(ctx, env)
	case protocolspec.CheckNoPlaceholders:
		own := notMerged(ctx, env, c, files)
		r = inferredcheck.NoPlaceholders(env.repo.Root(), c, own)
		if r.Status == inferredcheck.Skipped {
			// Only main's files (merged in) match: the session wrote none
			// of its own, and a teammate's handoff is no evidence of it
			// (round 60 review of helper 347's change).
			r = onlyMerged(c, files, own, r)
		}
		if r.Status == inferredcheck.Pass {
			r = namesTheWork(ctx, env, c, files, own, r)
		}
	case protocolspec.CheckCommitMessage:
		cenv := env
		if env.continued != nil {
			cenv.sess = env.continued // the continued sessions' commits are worded by this one's rules too
		}
		r = withCommits(ctx, cenv, func(commits []CommitSubject) inferredcheck.Result {
			merges, err := mergesWithOwnChanges(ctx, cenv)
			if err != nil {
				return inferredcheck.Result{Status: inferredcheck.Fail, Message: err.Error()}
			}
			return inferredcheck.CommitMessages(asThisSession(append(commits, merges...), env.sess.ID, env.continuedIDs), env.sess.ID, env.phase, c.Arg, layoutOnly(ctx, env))
		})
		if r.Status == inferredcheck.Fail {
			r.Message += env.continuedFrom()
		}
	case protocolspec.CheckHasSection:
		r = inferredcheck.HasSection(env.repo.Root(), c, files)
	case protocolspec.CheckNoHookBypass:
		r = withCommits(ctx, env, func(commits []CommitSubject) inferredcheck.Result {
			return inferredcheck.NoHookBypass(ctx, commits, env.sess.ID, inferredcheck.HookRecords{Of: env.commitRecords, Checked: EvidenceCommitSHA, Trailer: TrailerKey})
		})
	default:
		return "", "", "", false
	}
	st, msg, evidence = GateStatus(r.Status), r.Message, r.Evidence
	if c.Inferred != nil && st == StatusFail {
		msg += fmt.Sprintf(" (the protocol, line %d: %q)", c.Inferred.Line, truncate(c.Inferred.Sentence, 160))
	}
	return st, msg, evidence, true
}

// withCommits judges the session's commits since it started, what the
// remotes held counted as the start recorded it (commitSubjectsAtStart).
func withCommits(ctx context.Context, env gateEnv, judge func([]CommitSubject) inferredcheck.Result) inferredcheck.Result {
	var remotes map[string]string
	if env.remotesAtStart != nil {
		remotes = env.remotesAtStart(ctx)
	}
	commits, err := commitSubjectsAtStart(ctx, env.repo, env.sess.StartCommit, remotes)
	if err != nil {
		return inferredcheck.Result{Status: inferredcheck.Fail, Message: err.Error()}
	}
	return judge(commits)
}

// remoteVersionHolder is a Repo that tells a file holding a version the
// remote's default branch wrote (gitrepo.Repo.HoldsRemoteVersion).
type remoteVersionHolder interface {
	HoldsRemoteVersion(ctx context.Context, path, since string, remotesAtStart map[string]string) (bool, error)
}

// upstreamVersion is the unchanged check's test for a person's edit merged
// in from the default branch (nil when the repo cannot tell).
func upstreamVersion(ctx context.Context, env gateEnv, since string) func(string) (bool, error) {
	h, ok := env.repo.(remoteVersionHolder)
	if !ok {
		return nil
	}
	return func(path string) (bool, error) {
		var remotes map[string]string
		if env.remotesAtStart != nil {
			remotes = env.remotesAtStart(ctx)
		}
		return h.HoldsRemoteVersion(ctx, path, since, remotes)
	}
}

// notMerged lists the session's changed files without those matching the
// check's glob whose version the remote's default branch wrote since the
// start (upstreamVersion): a teammate's handoff that a merge of main
// brought in is not this session's to fill, and judging it blocked the
// honest session's end ("names nothing this session did"; helper 347).
// The session's own file is judged as before; one it changed after the
// merge is its own again.
func notMerged(ctx context.Context, env gateEnv, c protocolspec.Check, files inferredcheck.Lister) inferredcheck.Lister {
	upstream := upstreamVersion(ctx, env, env.sess.StartCommit)
	if upstream == nil {
		return files
	}
	return func() ([]string, error) {
		all, err := files()
		if err != nil {
			return nil, err
		}
		out := make([]string, 0, len(all))
		for _, f := range all {
			if repopath.Match(c.Arg, f) {
				held, err := upstream(f)
				if err != nil {
					return nil, err
				}
				if held {
					continue
				}
			}
			out = append(out, f)
		}
		return out, nil
	}
}

// onlyMerged fails a check whose only matching changed files are main's
// (notMerged left none): without it the gate passed on a teammate's
// merged handoff named as this session's, with none of its own written.
func onlyMerged(c protocolspec.Check, all, own inferredcheck.Lister, skipped inferredcheck.Result) inferredcheck.Result {
	a, err := all()
	if err != nil {
		return inferredcheck.Result{Status: inferredcheck.Fail, Message: err.Error()}
	}
	o, err := own()
	if err != nil {
		return inferredcheck.Result{Status: inferredcheck.Fail, Message: err.Error()}
	}
	merged := repopath.Filter(a, c.Arg)
	if len(merged) == 0 || len(repopath.Filter(o, c.Arg)) > 0 {
		return skipped
	}
	return inferredcheck.Result{Status: inferredcheck.Fail, Message: fmt.Sprintf("the only files matching %s this session changed came from the default branch (%s, merged in): write this session's own", c.Arg, strings.Join(merged, ", "))}
}

// layoutJudge is a Repo that tells a commit changing only whitespace and
// layout (gitrepo.Repo.LayoutOnly).
type layoutJudge interface {
	LayoutOnly(ctx context.Context, sha string) (bool, error)
}

// layoutOnly is the commit-message rule's test for a whitespace-only
// `style:` commit (nil when the repo cannot tell). An error reading the
// commit counts as more than layout: the subject is then judged as any.
func layoutOnly(ctx context.Context, env gateEnv) func(string) bool {
	l, ok := env.repo.(layoutJudge)
	if !ok {
		return nil
	}
	return func(sha string) bool {
		only, err := l.LayoutOnly(ctx, sha)
		if err != nil {
			slog.Warn("read a commit's change", "step", "layout-only style commit", "commit", sha, "err", err)
		}
		return only && err == nil
	}
}

// evilMergeLister is a Repo that lists the merges carrying changes of
// their own (gitrepo.Repo.MergesWithOwnChanges).
type evilMergeLister interface {
	MergesWithOwnChanges(ctx context.Context, since string, remotesAtStart map[string]string) ([]CommitSubject, error)
}

// mergesWithOwnChanges lists the session's merges that the commit-message
// rule reads as commits: a merge whose tree holds work git's merge of its
// parents did not make is the session's commit under a merge's name.
func mergesWithOwnChanges(ctx context.Context, env gateEnv) ([]CommitSubject, error) {
	l, ok := env.repo.(evilMergeLister)
	if !ok {
		return nil, nil
	}
	var remotes map[string]string
	if env.remotesAtStart != nil {
		remotes = env.remotesAtStart(ctx)
	}
	return l.MergesWithOwnChanges(ctx, env.sess.StartCommit, remotes)
}

// asThisSession returns commits with those of the sessions in ids taken
// for session id's (a copy when any is).
func asThisSession(commits []CommitSubject, id string, ids []string) []CommitSubject {
	if len(ids) == 0 {
		return commits
	}
	out := slices.Clone(commits)
	for i := range out {
		if slices.Contains(ids, out[i].SessionID) {
			out[i].SessionID = id
		}
	}
	return out
}

// checkNotDefaultBranch is the not_default_branch check as a gate's
// status, message and evidence (the branch).
func checkNotDefaultBranch(ctx context.Context, env gateEnv) (GateStatus, string, string) {
	r := notDefaultBranch(ctx, env)
	return GateStatus(r.Status), r.Message, r.Evidence
}

// notDefaultBranch reads HEAD's branch and the default ones.
func notDefaultBranch(ctx context.Context, env gateEnv) inferredcheck.Result {
	_, branch, err := env.repo.Head(ctx)
	if err != nil {
		return inferredcheck.Result{Status: inferredcheck.Fail, Message: err.Error()}
	}
	def, err := env.repo.DefaultBranch(ctx)
	if err != nil {
		return inferredcheck.Result{Status: inferredcheck.Fail, Message: err.Error()}
	}
	r := inferredcheck.NotDefaultBranch(branch, env.cfg.DefaultBranch, def)
	dh, ok := env.repo.(defaultHolder)
	if r.Status != inferredcheck.Pass || !ok || env.sess == nil || env.sess.StartCommit == "" {
		return r
	}
	// What a ref held when the session started is not its work: a
	// person's unpushed commit on local main that the branch was rebased
	// onto (TestRebaseOntoLocalMainAtStart26,
	// TestCodexHonestV3RebaseConflict26). A commit made later is no
	// ancestor of a tip recorded earlier.
	var tips []string
	if env.tipsAtStart != nil {
		tips = env.tipsAtStart(ctx)
	}
	var remotes map[string]string
	if env.remotesAtStart != nil {
		remotes = env.remotesAtStart(ctx)
	}
	for _, name := range []string{env.cfg.DefaultBranch, def} {
		held, err := dh.DefaultHolds(ctx, name, env.sess.StartCommit, tips, remotes)
		if err != nil {
			return inferredcheck.Result{Status: inferredcheck.Fail, Message: err.Error()}
		}
		// Another session's commits are that session's to answer for.
		own := slices.DeleteFunc(held, func(c CommitSubject) bool { return c.SessionID != "" && c.SessionID != env.sess.ID })
		if l := inferredcheck.LandedOnDefault(name, own); l.Status == inferredcheck.Fail {
			return l
		}
	}
	return r
}

// defaultHolder is a Repo that lists the session's commits a local default
// branch holds (gitrepo.Repo).
type defaultHolder interface {
	DefaultHolds(ctx context.Context, name, since string, notIn []string, remotesAtStart map[string]string) ([]CommitSubject, error)
}

// startCommitLister is a Repo that lists the commits after since with the
// remotes' default branches read as the start recorded them
// (gitrepo.Repo.CommitSubjectsAtStart).
type startCommitLister interface {
	CommitSubjectsAtStart(ctx context.Context, since string, remotesAtStart map[string]string) ([]CommitSubject, error)
}

// commitSubjectsAtStart lists the commits after since that the session's
// commit checks judge. A remote-tracking ref is local: `git update-ref
// refs/remotes/x/main HEAD` after a hooks-off commit took the commit out
// of no_hook_bypass's and commit_message's view (round 30, c9). With the
// start's record (remotes not nil) a remote holds what its ref held then
// and what a real fetch brought; without one (sessions started before it
// was recorded) the refs are read as they are now.
func commitSubjectsAtStart(ctx context.Context, repo Repo, since string, remotes map[string]string) ([]CommitSubject, error) {
	if l, ok := repo.(startCommitLister); ok && remotes != nil {
		return l.CommitSubjectsAtStart(ctx, since, remotes)
	}
	return repo.CommitSubjects(ctx, since)
}

// namesTheWork runs inferredcheck.NamesTheWork on a template-filled file
// that passed NoPlaceholders (filled is that result): the handoff must
// name a file, objective word or commit word of the session.
func namesTheWork(ctx context.Context, env gateEnv, c protocolspec.Check, files, own inferredcheck.Lister, filled inferredcheck.Result) inferredcheck.Result {
	changed, err := files()
	if err != nil {
		return inferredcheck.Result{Status: inferredcheck.Fail, Message: err.Error()}
	}
	cenv := env
	if env.continued != nil {
		// The work of the abandoned sessions this one continues is its
		// work too: a handoff written the next day names the first day's
		// files (compliance v3-resumed-next-day).
		cenv.sess = env.continued
		if more, err := sessionFiles(ctx, env.repo, env.continued); err == nil {
			changed = more
		}
	}
	w := inferredcheck.Work{Files: changed, Objective: env.sess.Objective}
	r := withCommits(ctx, cenv, func(commits []CommitSubject) inferredcheck.Result {
		for _, cm := range asThisSession(commits, env.sess.ID, env.continuedIDs) {
			if sessionCommit(cm, env.sess.ID) {
				w.Subjects = append(w.Subjects, cm.Subject)
			}
		}
		// Code changed only in comments is no work on what the code does
		// only where a commit of the session says it changed behaviour
		// (feat, fix, perf): helper 346's comment saying greet.sh "takes an
		// optional name", committed as "feat: greet takes a name". Read so
		// for every session, it failed honest ones whose work was a
		// comment committed as docs: and whose handoff said what the file
		// does (CI, round 60).
		if behaviourClaimed(w.Subjects) {
			w.Cosmetic = cosmeticFiles(ctx, env.repo, cenv.sess.StartCommit, changed)
		}
		return inferredcheck.NamesTheWork(env.repo.Root(), c, own, w)
	})
	if r.Status != inferredcheck.Fail {
		return filled
	}
	return r
}

// behaviourClaimed reports a subject of subjects that claims behaviour
// (claimsBehaviour) and that no other one reverts (`Revert "S"`, as git
// revert writes it, or `revert: S`): a feature the session reverted
// claims nothing (helper 349: the honest field session "revert the
// session's own commit", a feat reverted and a comment committed as
// docs:, failed HANDOFF in round 61).
func behaviourClaimed(subjects []string) bool {
	reverted := map[string]bool{}
	for _, s := range subjects {
		if r, ok := strings.CutPrefix(s, `Revert "`); ok && strings.HasSuffix(r, `"`) {
			reverted[strings.TrimSuffix(r, `"`)] = true
		} else if committype.Type(s) == "revert" {
			if _, r, ok := strings.Cut(s, ": "); ok {
				reverted[strings.TrimSpace(r)] = true
			}
		}
	}
	for _, s := range subjects {
		if claimsBehaviour(s) && !reverted[s] {
			return true
		}
	}
	return false
}

// claimsBehaviour reports a conventional subject whose type says the
// commit changed what the code does.
func claimsBehaviour(subject string) bool {
	switch committype.Type(subject) {
	case "feat", "fix", "perf":
		return true
	}
	return false
}

// maxCosmeticFiles bounds cosmeticFiles: one git diff per file.
const maxCosmeticFiles = 16

// cosmeticFiles are the changed code files (not docs, not tests) whose
// change since start is only comments and blank lines, read by each
// file's language (committype.CommentLines). More changed files than
// maxCosmeticFiles: none read (such a session changed more than comments).
func cosmeticFiles(ctx context.Context, repo Repo, start string, changed []string) []string {
	if start == "" || len(changed) > maxCosmeticFiles {
		return nil
	}
	var out []string
	for _, f := range changed {
		if committype.IsDocs(f) || committype.IsTest(f) || mdtext.IsMarkdown(f) {
			continue
		}
		added, removed, _, err := repo.DiffLines(ctx, start, f)
		if err != nil || len(added)+len(removed) == 0 {
			continue
		}
		if committype.CommentLines(f, added, removed) {
			out = append(out, f)
		}
	}
	return out
}
