package session

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/inferredcheck"
	"github.com/sessiongate/sessiongate/protocolspec"
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
		r = inferredcheck.Unchanged(c, files, env.sess.StartCommit)
	case protocolspec.CheckNotDefaultBranch:
		r = notDefaultBranch(ctx, env)
	case protocolspec.CheckNoPlaceholders:
		r = inferredcheck.NoPlaceholders(env.repo.Root(), c, files)
	case protocolspec.CheckCommitMessage:
		r = withCommits(ctx, env, func(commits []CommitSubject) inferredcheck.Result {
			return inferredcheck.CommitMessages(commits, env.sess.ID, env.phase, c.Arg)
		})
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

// withCommits judges the session's commits since it started.
func withCommits(ctx context.Context, env gateEnv, judge func([]CommitSubject) inferredcheck.Result) inferredcheck.Result {
	commits, err := env.repo.CommitSubjects(ctx, env.sess.StartCommit)
	if err != nil {
		return inferredcheck.Result{Status: inferredcheck.Fail, Message: err.Error()}
	}
	return judge(commits)
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
	return inferredcheck.NotDefaultBranch(branch, env.cfg.DefaultBranch, def)
}
