package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/docmention"
	"github.com/sessiongate/sessiongate/docsaffected"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/repopath"
)

// A check may bind only when a condition holds (when=docs_affected,
// when_changed="GLOBS"). sessiongate checks the condition itself, from the
// session's diff and the tracked docs: where it does not hold, the check
// is not applicable (SKIPPED, CONDITION_NOT_MET, clean), never failed, and
// nothing the agent says decides it. The starter protocol's docs phase
// binds this way: an honest code-only session owes no docs update, one that
// changes a flag the README names does.

// conditionMark starts the message of a check whose condition did not hold.
const conditionMark = "not applicable (condition: "

// CheckCondition says, for people, when a check binds ("" when always).
func CheckCondition(c protocolspec.Check) string {
	var parts []string
	if c.When == protocolspec.CondFeatureBranch {
		parts = append(parts, "the session is on a branch other than the default one (when=feature_branch)")
	}
	if c.When == docmention.Condition {
		docs := "a tracked doc"
		if c.Kind == protocolspec.CheckChangedSinceStart {
			docs = "a tracked doc matching " + c.Arg
		}
		parts = append(parts, "the session changed a flag, environment variable, exported identifier or file "+docs+" mentions (when=docs_affected)")
	}
	if c.WhenChanged != "" {
		parts = append(parts, fmt.Sprintf("the session changed a file matching %s (when_changed)", c.WhenChanged))
	}
	return strings.Join(parts, " and ")
}

// checkConditionHits decides a check's condition for the session: holds,
// what was found either way, and the documented names it found
// (when=docs_affected): the docs a changed_since_start check then asks for.
func checkConditionHits(ctx context.Context, env gateEnv, c protocolspec.Check) (holds bool, why string, hits []docmention.Hit, err error) {
	files, err := sessionFiles(ctx, env.repo, env.sess)
	if err != nil {
		return false, "", nil, fmt.Errorf("condition: list the session's changed files: %w", err)
	}
	if c.WhenChanged != "" {
		var hit string
		for _, g := range strings.Split(c.WhenChanged, ",") {
			if m := repopath.Filter(files, strings.TrimSpace(g)); len(m) > 0 {
				hit = m[0]
				break
			}
		}
		if hit == "" {
			return false, fmt.Sprintf("no changed file matches %s", c.WhenChanged), nil, nil
		}
		why = fmt.Sprintf("%s changed", hit)
		if c.When == "" {
			return true, why, nil, nil
		}
	}
	if c.When == protocolspec.CondFeatureBranch {
		holds, on := onFeatureBranch(ctx, env)
		if why != "" {
			on = why + "; " + on
		}
		return holds, on, nil, nil
	}
	if c.When != docmention.Condition {
		return false, "", nil, fmt.Errorf("condition: unknown when=%q", c.When)
	}
	// Only docs the check itself could be satisfied by count: a README.rst
	// cannot answer changed_since_start "*.md", so it does not make it bind.
	glob := ""
	if c.Kind == protocolspec.CheckChangedSinceStart {
		glob = c.Arg
	}
	hit, hits, holds, err := docsaffected.Affected(ctx, docsChange(env, files), glob)
	if err != nil || !holds {
		return false, hit, nil, err
	}
	if why != "" {
		hit = why + "; " + hit
	}
	return true, hit, hits, nil
}

// onFeatureBranch decides when=feature_branch ("(if on feature branch)"):
// HEAD, or the branch the session started on, is a branch other than the
// default one (the config's default_branch, or the repository's). The
// start's branch counts too (helper 365): a session on feat/x that
// detached HEAD or switched to main before the gate made the branch
// handoff not applicable.
func onFeatureBranch(ctx context.Context, env gateEnv) (bool, string) {
	branch := sessionBranch(ctx, env)
	if branch == "" {
		return false, "HEAD is on no branch"
	}
	if isDefaultBranch(ctx, env, branch) {
		return false, fmt.Sprintf("the session is on %s, the default branch", branch)
	}
	return true, fmt.Sprintf("the session is on %s, not the default branch", branch)
}

// sessionBranch is the branch a when=feature_branch check reads: HEAD's
// when it is a branch other than the default one, else the branch the
// session started on when that is one, else HEAD's ("" detached).
func sessionBranch(ctx context.Context, env gateEnv) string {
	_, head, err := env.repo.Head(ctx)
	if err != nil || head == "HEAD" {
		head = ""
	}
	if head != "" && !isDefaultBranch(ctx, env, head) {
		return head
	}
	if env.sess != nil {
		if b := env.sess.Branch; b != "" && b != "HEAD" && !isDefaultBranch(ctx, env, b) {
			return b
		}
	}
	return head
}

func isDefaultBranch(ctx context.Context, env gateEnv, branch string) bool {
	def, err := env.repo.DefaultBranch(ctx)
	if err != nil {
		def = ""
	}
	for _, d := range []string{env.cfg.DefaultBranch, def, "main", "master"} {
		if d != "" && branch == d {
			return true
		}
	}
	return false
}

// branchFolder narrows a listed-file check's folder to the branch's
// own: ".agents/handoffs/**" (from ".agents/handoffs/{branch}/{session}.md")
// on feat/x is ".agents/handoffs/feat/x/**".
func branchFolder(ctx context.Context, env gateEnv, arg string) string {
	dir, ok := strings.CutSuffix(arg, "/**")
	if !ok {
		return arg
	}
	branch := sessionBranch(ctx, env)
	if branch == "" || repopath.HasMeta(branch) {
		return arg
	}
	return dir + "/" + branch + "/**"
}

// docsChange is the session's change as docsaffected reads it.
func docsChange(env gateEnv, files []string) docsaffected.Change {
	return docsaffected.Change{Repo: env.repo, Start: env.sess.StartCommit, Files: files, IsRecord: env.cfg.isRecord}
}

// docsAddressed judges a docs gate whose condition held
// (docsaffected.Addressed) on the session's changed files.
func docsAddressed(ctx context.Context, env gateEnv, glob string, hits []docmention.Hit) (GateStatus, string, string) {
	files, err := sessionFiles(ctx, env.repo, env.sess)
	if err != nil {
		return StatusFail, fmt.Sprintf("docs gate: list the session's changed files: %v", err), ""
	}
	pass, msg, evidence := docsaffected.Addressed(ctx, docsChange(env, files), glob, hits)
	if !pass {
		return StatusFail, msg, ""
	}
	return StatusPass, msg, evidence
}

// allDeletedWithDocs: every documented name the session touched went
// with its files and docs (docsaffected.AllDeletedWithDocs).
func allDeletedWithDocs(ctx context.Context, env gateEnv, hits []docmention.Hit) (string, bool) {
	files, err := sessionFiles(ctx, env.repo, env.sess)
	if err != nil {
		return "", false
	}
	return docsaffected.AllDeletedWithDocs(docsChange(env, files), hits)
}

// conditionalCheck runs check c under its condition: a condition that
// does not hold makes it not applicable; one that holds is named in a
// failure's message, so the agent sees why the check binds.
func conditionalCheck(ctx context.Context, env gateEnv, c protocolspec.Check, run func() (CheckResult, string)) (CheckResult, string) {
	holds, why, hits, err := checkConditionHits(ctx, env, c)
	if err != nil {
		return CheckResult{Kind: c.Kind, Arg: c.Arg, Status: StatusFail, Message: err.Error()}, ""
	}
	if !holds {
		na := CheckResult{Kind: c.Kind, Arg: c.Arg, Status: StatusSkipped, Message: conditionMark + conditionName(c) + "): " + truncate(why, 300)}
		if c.Kind == protocolspec.CheckCommand {
			return na, "" // a command is not run where it does not bind
		}
		// A cheap check is run anyway: work the session did though it was
		// not owed (the README updated beside a new file) is a pass, shown
		// so; only a failure becomes not applicable.
		if cr, out := run(); cr.Status == StatusPass {
			return cr, out
		}
		return na, ""
	}
	cr, out := run()
	if cr.Status == StatusFail && c.Kind == protocolspec.CheckChangedSinceStart && len(hits) > 0 {
		// A program removed with the docs that named it: the deleted docs
		// are the update (a deleted doc answers nothing else).
		if msg, ok := allDeletedWithDocs(ctx, env, hits); ok {
			cr.Status, cr.Message = StatusPass, msg
			return cr, out
		}
	}
	if cr.Status == StatusPass && c.Kind == protocolspec.CheckChangedSinceStart && len(hits) > 0 {
		// Any changed doc is not enough: the one that names what changed.
		cr.Status, cr.Message, cr.Evidence = docsAddressed(ctx, env, c.Arg, hits)
		return cr, out
	}
	if cr.Status == StatusFail {
		cr.Message += " (it binds: " + truncate(why, 300) + ")"
	}
	return cr, out
}

func conditionName(c protocolspec.Check) string {
	var n []string
	if c.When != "" {
		n = append(n, "when="+c.When)
	}
	if c.WhenChanged != "" {
		n = append(n, "when_changed="+c.WhenChanged)
	}
	return strings.Join(n, " ")
}

// conditionsUnmet reports whether every check of a skipped gate was
// skipped on a condition that did not hold.
func conditionsUnmet(cs []CheckResult) bool {
	for _, c := range cs {
		if c.Status != StatusSkipped || !strings.HasPrefix(c.Message, conditionMark) {
			return false
		}
	}
	return len(cs) > 0
}

// conditionSuffix names a check's condition after its description.
func conditionSuffix(c protocolspec.Check) string {
	if n := conditionName(c); n != "" {
		return ", only when " + n
	}
	return ""
}
