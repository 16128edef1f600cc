package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/policy"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/toolneed"
)

// Git hooks the engine decides for.
const (
	HookPreCommit  = "pre-commit"
	HookCommitMsg  = "commit-msg"
	HookPostCommit = "post-commit"
	HookPrePush    = "pre-push"
	// HookPostMerge and HookPostRewrite run after a merge (git merge, git
	// pull) and after a rewrite (git commit --amend, git rebase): they
	// block nothing, and record what landed (PostMerge).
	HookPostMerge   = "post-merge"
	HookPostRewrite = "post-rewrite"
)

// Violation codes recorded by hooks.
const (
	// CodeBypass: a commit landed with no matching pre-commit pass
	// (`git commit --no-verify`, or hooks removed).
	CodeBypass = "BYPASS"
	// CodeEscapeHatch: the configured bypass variable let a blocked commit or push through.
	CodeEscapeHatch = "ESCAPE_HATCH"
)

// Event tokens of hooks. The pre-commit pass and escape events carry the
// tree being committed, which post-commit matches against HEAD's tree.
const (
	TokPreCommitPass    = "hook:pre-commit:pass"
	TokPreCommitBlocked = "hook:pre-commit:blocked"
	TokPreCommitEscape  = "hook:pre-commit:escape"
	TokCommitMsg        = "hook:commit-msg:trailer"
	TokCommitMsgBlocked = "hook:commit-msg:blocked"
	TokPostCommitPass   = "hook:post-commit:pass"
	// TokBranchMoved: the session ended on another branch than it started
	// on; its record names the branch the work was committed on.
	TokBranchMoved      = "session:branch-moved"
	TokPostCommitBypass = "hook:post-commit:bypass"
	TokPostCommitReplay = "hook:post-commit:replay"
	TokPrePushPass      = "hook:pre-push:pass"
	TokPrePushBlocked   = "hook:pre-push:blocked"
	TokPrePushEscape    = "hook:pre-push:escape"
)

// TrailerKey is the commit trailer commit-msg adds.
const TrailerKey = "Session-Id"

// TrailerSnapshotKey names the session's newest snapshot id in a commit.
const TrailerSnapshotKey = "Session-Snapshot"

// matchWindow is how many recent events post-commit searches for the
// pre-commit pass of the commit it sees.
const matchWindow = 200

// HookPolicy is the repository's hook policy (sessiongate.yaml).
type HookPolicy struct {
	RequireSession bool
	// PreCommit and PrePush are phase ids whose gates run (pre-commit) or
	// must have passed (pre-push) at that hook.
	PreCommit []string
	PrePush   []string
	// BypassEnv names the escape-hatch variable, for messages.
	BypassEnv string
}

// HookRequest is what a git hook hands the engine.
type HookRequest struct {
	Repo Repo
	// SessionID is SESSIONGATE_SESSION; "" means the worktree's active session.
	SessionID string
	Policy    HookPolicy
	// Staged is the staged file list when the caller already has it; nil
	// means ask the repository (only when a gate needs it).
	Staged []string
	// Tree returns the tree being committed (`git write-tree`, which honours
	// GIT_INDEX_FILE). Called only when the engine records a pass or escape.
	Tree func(ctx context.Context) (string, error)
	// Commit and CommitTree are HEAD and its tree, for post-commit;
	// CommitParent is HEAD's first parent ("" for a root commit).
	Commit, CommitTree, CommitParent string
	// CommitFiles lists the files the commit changed, for post-commit; asked
	// only when no session runs (a session-record commit needs none).
	CommitFiles func(ctx context.Context) ([]string, error)
	// Replay names the git operation replaying existing commits (rebase,
	// cherry-pick, revert), which runs post-commit but never pre-commit.
	Replay string
	// Bypass is the escape-hatch variable's value; "" when unset.
	Bypass string
	// DeletesOnly is set by pre-push when every pushed ref is a deletion.
	DeletesOnly bool
	// Pushed lists the commits pre-push is sending (the local side of
	// each ref git pushes, deletions left out): the session's record of
	// what it pushed, which a remote-tracking ref written by hand is not
	// (parked.go).
	Pushed []string
	// CISkip is the push option among push.pushOption's values (git
	// config, -c included) that makes GitLab run no pipeline for the push,
	// "" for none; set by pre-push.
	CISkip string
	// Who tells who runs git (actor.go), asked only when no session is
	// usable; nil (or a nil answer) is unknown, held to the protocol like
	// an agent.
	Who func() *Actor
	// Adoption marks the commit `sessiongate init --commit` makes.
	Adoption bool
	// Amend reports (pre-commit) whether the commit being made replaces
	// HEAD (git commit --amend), as far as the hook can tell; nil: not
	// known.
	Amend func() bool
	// Landed is set when pre-commit and post-commit judge commits that
	// already landed because git ran no hook for them (Gemini CLI switches
	// hooks off in its shell, agenthook/hooksoff.go): the commit judged now
	// and those of the same call still to be judged after it.
	// Reconciliation leaves them to the hook runs that follow, one per
	// commit, as it does a live post-commit's commit: else judging the
	// first of two commits a shell line made records the second as a
	// BYPASS before its own pre-commit runs.
	Landed []string
	// GateDir returns where pre-commit's command gates run for a landed
	// commit the work tree no longer shows (an earlier commit of a
	// hooks-off call): a temporary checkout of that commit, made by the
	// caller in a folder of its own when a command first runs (none when
	// no gate runs one); nil runs them in the work tree.
	GateDir func(context.Context) (string, error)
}

// HookDecision is a hook's verdict and what to tell the user.
type HookDecision struct {
	Hook       string       `json:"hook"`
	Allowed    bool         `json:"allowed"`
	Escaped    bool         `json:"escaped,omitempty"` // blocked, let through by the escape hatch
	SessionID  string       `json:"session_id,omitempty"`
	State      State        `json:"state,omitempty"`
	Gate       string       `json:"gate,omitempty"` // the gate that blocks
	Reasons    []string     `json:"reasons,omitempty"`
	NextStep   string       `json:"next_step,omitempty"`
	Warnings   []string     `json:"warnings,omitempty"`
	Gates      []GateResult `json:"gates,omitempty"`
	Violations []Violation  `json:"violations,omitempty"`
	Trailers   []string     `json:"trailers,omitempty"` // commit-msg: "Key: value"
	// Handoff (pre-commit, when allowed): the commit-msg hook of the same
	// commit has nothing to decide but adding Trailers, so a hook runtime
	// may add them without asking the engine again, and post-commit may
	// leave recording the commit to reconciliation (which matches its tree
	// against this pre-commit pass).
	Handoff bool `json:"handoff,omitempty"`
}

func (d *HookDecision) block(gate, next string, reasons ...string) {
	d.Allowed = false
	if d.Gate == "" {
		d.Gate = gate
	}
	d.Reasons = append(d.Reasons, reasons...)
	if d.NextStep == "" {
		d.NextStep = next
	}
}

// StartStep is the next step when no session runs.
const StartStep = "start a session: `sessiongate session start --objective \"...\"` (MCP: session_start), then pass its start gates"

// hookTarget is the session a hook acts for.
type hookTarget struct {
	sess   *Session // nil: no usable session
	why    string   // why there is none
	stale  bool     // a session was found but can no longer act (expired, ended)
	repoID int64    // 0 when the repository is not in the database yet
}

// hookSession finds the session for the hook: req.SessionID, else the
// worktree's active session; with ended, the worktree's newest session when
// it completed (pre-push runs after session_end). Store failures are errors;
// no usable session is not.
func (e *Engine) hookSession(ctx context.Context, req HookRequest, ended bool) (hookTarget, error) {
	var t hookTarget
	root := req.Repo.Root()
	if req.SessionID != "" {
		if err := ValidateID(req.SessionID); err != nil {
			t.why = "SESSIONGATE_SESSION: " + err.Error()
			return t, nil
		}
		s, err := e.Store.GetSession(ctx, req.SessionID)
		if errors.Is(err, ErrNotFound) {
			t.why = fmt.Sprintf("SESSIONGATE_SESSION=%s names no session in this database", req.SessionID)
			return t, nil
		}
		if err != nil {
			return t, fmt.Errorf("load session %s: %w", req.SessionID, err)
		}
		t.repoID = s.RepoID
		if s.Worktree != root {
			t.why = fmt.Sprintf("SESSIONGATE_SESSION=%s is the session of worktree %s, not of %s: unset it here", s.ID, s.Worktree, root)
			return t, nil
		}
		return e.usable(ctx, t, s, ended)
	}
	repo, err := e.Store.RepositoryByRoot(ctx, req.Repo.MainRoot())
	if errors.Is(err, ErrNotFound) {
		t.why = "no session has been started in this repository"
		return t, nil
	}
	if err != nil {
		return t, fmt.Errorf("look up repository: %w", err)
	}
	t.repoID = repo.ID
	s, err := e.Store.ActiveSession(ctx, repo.ID, root)
	if errors.Is(err, ErrNotFound) && ended {
		ss, lerr := e.Store.ListSessions(ctx, SessionFilter{RepoID: repo.ID, Worktree: root, Limit: 1})
		if lerr != nil {
			return t, fmt.Errorf("look up latest session: %w", lerr)
		}
		if len(ss) == 1 && ss[0].State == StateComplete {
			t.sess = ss[0]
			return t, nil
		}
	}
	if errors.Is(err, ErrNotFound) {
		t.why = "no active session in worktree " + root
		return t, nil
	}
	if err != nil {
		return t, fmt.Errorf("look up active session: %w", err)
	}
	return e.usable(ctx, t, s, ended)
}

// usable keeps s when it can still act: running and not expired (an
// expired one is marked ABANDONED on the way), or complete when ended.
func (e *Engine) usable(ctx context.Context, t hookTarget, s *Session, ended bool) (hookTarget, error) {
	if ended && s.State == StateComplete {
		t.sess = s
		return t, nil
	}
	if err := e.checkUsable(ctx, s); err != nil {
		t.why, t.stale = err.Error(), true
		return t, nil
	}
	t.sess = s
	return t, nil
}

// noSession decides for a hook that found no usable session.
func noSession(d *HookDecision, t hookTarget, req HookRequest) {
	if !req.Policy.RequireSession {
		if t.why != "" && (req.SessionID != "" || t.stale) {
			d.Warnings = append(d.Warnings, t.why)
		}
		return
	}
	d.block("", StartStep, "this repository requires an active session (require_session: true): "+t.why)
}

// PreCommit decides whether the staged change may be committed: the
// session must exist when required, must have left its start protocol, and
// the gates configured or annotated for pre-commit must pass on the staged
// files. An allowed commit records a pass event with its tree, which
// PostCommit matches.
func (e *Engine) PreCommit(ctx context.Context, req HookRequest) (*HookDecision, error) {
	d := &HookDecision{Hook: HookPreCommit, Allowed: true}
	t, err := e.hookSession(ctx, req, false)
	if err != nil {
		return nil, err
	}
	s := t.sess
	if s == nil {
		noSession(d, t, req)
		if personAllowed(d, req) {
			// No handoff: post-commit records the commit as the person's.
			return d, nil
		}
		if !d.Allowed {
			// Committing an ended session's record needs no session.
			if ok, err := e.recordOnly(ctx, req); err != nil {
				return nil, err
			} else if ok {
				d.Allowed, d.Gate, d.Reasons, d.NextStep = true, "", nil, ""
				d.Warnings = append(d.Warnings, "session record commit: allowed without an active session")
				d.Handoff = true
				return d, nil
			}
		}
		if d.Allowed || req.Bypass == "" {
			d.Handoff = d.Allowed
			return d, nil
		}
		if err := e.escapeWithoutSession(ctx, req, d, t); err != nil {
			return d, err
		}
		d.Handoff = d.Allowed
		return d, nil
	}
	d.SessionID, d.State = s.ID, s.State
	spec, err := e.SpecFor(ctx, s.ProtocolSHA)
	if err != nil {
		return nil, err
	}
	e.reconcileHook(ctx, d, s, req, "", "")
	// Sequence rules see the commit before it happens.
	pol, err := e.CheckPolicy(ctx, s, "hook:pre-commit")
	if errors.Is(err, policy.ErrBlocked) {
		d.block("sequence rule", "fix what the rule names, then commit again", err.Error())
	} else if err != nil {
		return nil, err
	} else if len(pol.Tokens()) > 0 {
		d.Warnings = append(d.Warnings, pol.Warnings...)
		if err := e.Store.Update(ctx, func(w Writer) error { return e.appendEvents(ctx, w, s.ID, e.now(), pol.Tokens()...) }); err != nil {
			return nil, err
		}
	}
	if d.Allowed {
		if why, err := e.foreignAmendAhead(ctx, s, req); err != nil {
			return nil, err
		} else if why != "" {
			next := "make the change a new commit on top: git commit (or git commit --fixup HEAD, squashed when the branch is merged), never --amend of a commit this session did not make"
			if a := req.actor(); a.Person() {
				// A person amending their own commit in their terminal is
				// not the agent, but the amend would still be charged to
				// the agent's session: say whose session and how to amend
				// without it (helper 349: the step told them to commit on
				// top, as if they were the agent).
				next = fmt.Sprintf("this amend is a person's (%s), but session %s, active in this worktree, started at this commit and would be charged a FOREIGN_AMEND: "+
					"amend once that session has ended (sessiongate session end), or make the change a new commit on top", a.Via, s.ID)
			}
			// The generic escape line says "records a violation"; here the
			// amend itself is one verify fails (round 61's open LOW).
			next += "; the escape hatch would let it through, but post-commit still records the amend as a FOREIGN_AMEND, which verify fails"
			d.block("commits of the session", next, why)
		}
	}
	// The police before the gates: a changed protocol or config may have
	// weakened them.
	var pvio *Violation
	if d.Allowed {
		if pvio, err = e.checkProtectedCommit(ctx, d, s, req); err != nil {
			return nil, err
		}
		if d.Allowed {
			if pvio, err = e.checkCIJob(ctx, d, s, req); err != nil {
				return nil, err
			}
		}
		if pvio != nil {
			why, err := e.personsProtectedCommit(ctx, s, req)
			if err != nil {
				return nil, err
			}
			if why != "" {
				pvio = nil // refused, not the agent's (personcommit.go)
				d.Warnings = append(d.Warnings, why)
			}
		}
	}
	chainOK := false
	if d.Allowed {
		// The database as the session's last commit left it (eventchain.go).
		if v, err := e.checkEventChain(ctx, s, req.Repo); err != nil {
			return nil, err
		} else if v == nil {
			chainOK = true
		} else {
			d.block("records", "a person restores the session's database or ends the session; the violation is on the records ref", v.Message)
		}
	}
	if !d.Allowed {
		// refused by a rule or a protected change: no gates to run
	} else if s.State == StateInit {
		blockInit(d, s, spec, e.naOffer(ctx, s, spec), e.claimRefusedFn(ctx, s))
	} else if err := e.runHookGates(ctx, d, s, spec, req, req.Policy.PreCommit, true); err != nil {
		return nil, err
	}
	// Judged calls that never reported (gateunreported.go): not a block.
	if v, err := e.UnreportedAtGate(ctx, s.ID, "the commit gate"); err != nil {
		return nil, err
	} else if v != nil {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s %s violation recorded: %s", v.Severity, v.Code, v.Message))
	}
	tok, detail := TokPreCommitPass, map[string]any{}
	var vio *Violation
	switch {
	case !d.Allowed && req.Bypass == "":
		tok = TokPreCommitBlocked
		detail["gate"], detail["reason"] = d.Gate, truncate(strings.Join(d.Reasons, "; "), 300)
		vio = pvio
		if n := personInSession(s, req); n != "" {
			d.NextStep = joinSteps(d.NextStep, n)
		}
	case !d.Allowed:
		tok = TokPreCommitEscape
		vio = e.escapeViolation(s, req, d, "commit")
		d.Allowed, d.Escaped = true, true
		detail["gate"] = d.Gate
	}
	if d.Allowed {
		tree, err := treeOf(ctx, req)
		if err != nil {
			return nil, err
		}
		detail["tree"] = tree
	}
	if len(d.Gates) > 0 {
		detail["gates"] = gateSummary(d.Gates)
	}
	if err := e.recordHook(ctx, s, d, tok, detail, vio, nil); err != nil {
		return d, err
	}
	pinned := ""
	if d.Allowed && chainOK {
		tree, _ := detail["tree"].(string)
		pinned = e.pinEvents(ctx, s, req.Repo, "", tree, true)
	}
	return d, e.handoff(ctx, d, s, spec, req.Repo, pinned)
}

func treeOf(ctx context.Context, req HookRequest) (string, error) {
	if req.Tree == nil {
		return "", nil
	}
	tree, err := req.Tree(ctx)
	if err != nil {
		return "", fmt.Errorf("read the tree being committed: %w", err)
	}
	return tree, nil
}

// blockInit blocks a session still in its start protocol, naming the gate
// it waits on and the commands that pass it and the mandatory start gates
// after it.
func blockInit(d *HookDecision, s *Session, spec *protocolspec.Spec, offer naOffer, refused claimRefused) {
	p, ok := spec.Phase(s.Phase)
	if !ok {
		d.block(s.Phase, "`sessiongate session status` shows where the session is", fmt.Sprintf("session %s is in its start protocol at %q, which its protocol does not have", s.ID, s.Phase))
		return
	}
	var needs []string
	for _, c := range p.Checks {
		needs = append(needs, describeCheck(p, c.Kind, c.Arg))
	}
	reason := fmt.Sprintf("the session has not finished its start protocol: it waits at %s %q (%s), which needs %s",
		p.ID, p.Title, p.Level(), strings.Join(needs, "; "))
	var steps []string
	after := false
	for i := range spec.Phases {
		q := &spec.Phases[i]
		if q.ID == p.ID {
			after = true
		}
		if !after || q.Section != protocolspec.SectionStart || (q.ID != p.ID && !q.Mandatory()) {
			continue
		}
		for _, c := range q.Checks {
			steps = append(steps, checkStep(q, c, offer, refused))
		}
	}
	next := strings.Join(steps, "; ") + "; then `sessiongate session advance --to WORKING` (MCP: advance_phase target_phase=WORKING)"
	d.block(p.ID, next, reason)
}

// claimRefused says a typed claim for a requirement of p (nil: the
// phase) would be refused (Engine.claimRefusedFn).
type claimRefused = func(p *protocolspec.Phase, r *protocolspec.Requirement) bool

// checkStep is the exact action that satisfies one check.
// offer says which not-applicable marks it may suggest (nil: none);
// refused, which claims it must not name.
func checkStep(p *protocolspec.Phase, c protocolspec.Check, offer naOffer, refused claimRefused) string {
	if (c.Kind == protocolspec.CheckEvidence || c.Kind == protocolspec.CheckMustEvidence) && !c.Observed && refused != nil && refused(p, nil) {
		// The claim this step would name is refused (its MCP server is
		// configured nowhere): name the mark sessiongate checks.
		return fmt.Sprintf("its MCP calls cannot be made here (the server is configured nowhere sessiongate reads): `sessiongate session evidence --phase %s --not-applicable \"...\"`, or configure the server and make the calls", p.ID)
	}
	step := checkAction(p, c, offer)
	// Once per phase (its first check): the phase as a whole, when a
	// machine checked that it does not apply.
	if offer != nil && len(p.Checks) > 0 && p.Checks[0].Kind == c.Kind && p.Checks[0].Arg == c.Arg && offer(p, nil) {
		step += fmt.Sprintf("; or, since sessiongate checked it does not apply here, `sessiongate session evidence --phase %s --not-applicable \"...\"`", p.ID)
	}
	return step
}

func checkAction(p *protocolspec.Phase, c protocolspec.Check, offer naOffer) string {
	switch c.Kind {
	case protocolspec.CheckEvidence, protocolspec.CheckMustEvidence:
		kind := c.Arg
		if kind == "" {
			kind = EvidenceManual
		}
		if c.Observed {
			// Only a run sessiongate sees counts: say how to run it, never
			// how to claim it.
			return fmt.Sprintf("run the check where sessiongate sees it: `sessiongate run --phase %s -- COMMAND` (or in the agent's shell with sessiongate's agent hooks)", p.ID)
		}
		if owed := p.OwedRequirements(); len(owed) > 0 && (c.Kind == protocolspec.CheckMustEvidence || kind == EvidenceManual) {
			// The phase owes evidence per requirement: evidence by phase
			// alone is refused, so name a requirement (the first; status
			// lists the others and which are still open).
			r := owed[0]
			step := fmt.Sprintf("record evidence for each requirement of %s (%d; `sessiongate session status` lists the open ones), e.g. %s", p.ID, len(owed), requirementStep(p, r))
			for _, o := range owed {
				// Only a mark the engine takes now: "if the serena MCP is
				// not available" holds for a team without serena, and its
				// mark is refused.
				if o.Conditional && offer != nil && offer(p, &o) {
					step += fmt.Sprintf("; one that does not apply: `sessiongate session evidence --requirement %s --not-applicable \"...\"`", o.ID)
					break
				}
			}
			return step
		}
		if kind == EvidenceToolOutput {
			return fmt.Sprintf("run the command through `sessiongate run --phase %s -- COMMAND` (observed), or record what it printed: `sessiongate session evidence --phase %s --type tool_output --value -` (MCP: record_evidence phase=%s evidence_type=tool_output)", p.ID, p.ID, p.ID)
		}
		return fmt.Sprintf("`sessiongate session evidence --phase %s --type %s --value \"...\"` (MCP: record_evidence phase=%s evidence_type=%s)", p.ID, kind, p.ID, kind)
	case protocolspec.CheckContentHash:
		return fmt.Sprintf("read %s, then `sessiongate session evidence --phase %s --type content_hash --value %s` (MCP: record_evidence)", c.Arg, p.ID, c.Arg)
	case protocolspec.CheckCommand:
		return fmt.Sprintf("make `%s` pass", c.Arg)
	}
	return describeCheck(p, c.Kind, c.Arg)
}

// requirementStep is the evidence command a requirement takes
// (RequirementFix), for the hooks' block messages.
func requirementStep(p *protocolspec.Phase, r protocolspec.Requirement) string {
	if toolneed.BranchRunOwed(r) {
		// Only a run counts for a branch check: never name a claim.
		return fmt.Sprintf("`sessiongate run --requirement %s -- git branch --show-current` (or run it in the agent's shell with sessiongate's agent hooks)", r.ID)
	}
	f := RequirementFix(p, r)
	value := f.Value
	if value == "" {
		value = "FILE"
		if f.EvidenceType == EvidenceManual {
			value = "\"...\""
		}
	}
	cmd := fmt.Sprintf("`sessiongate session evidence --requirement %s --type %s --value %s` (MCP: record_evidence requirement=%s evidence_type=%s)", r.ID, f.EvidenceType, value, r.ID, f.EvidenceType)
	if f.EvidenceType == EvidenceManual {
		return cmd
	}
	return f.Why + ", then " + cmd
}

// hookPhases returns the gates a hook runs: whole phases named by the
// config, and, for other phases, only the checks the protocol annotates
// with hooks=<hook>. Config ids the protocol lacks are warnings.
func hookPhases(spec *protocolspec.Spec, hook string, ids []string) ([]protocolspec.Phase, []string) {
	var out []protocolspec.Phase
	var warns []string
	for _, id := range ids {
		if _, ok := spec.Phase(id); !ok {
			warns = append(warns, fmt.Sprintf("sessiongate.yaml hooks.%s names phase %s, which the session's protocol does not have (it has %s)", hook, id, phaseIDs(spec)))
		}
	}
	for _, p := range spec.Phases {
		if slices.Contains(ids, p.ID) {
			out = append(out, p)
			continue
		}
		var checks []protocolspec.Check
		for _, c := range p.Checks {
			if slices.Contains(c.Hooks, hook) {
				checks = append(checks, c)
			}
		}
		if len(checks) > 0 {
			p.Checks = checks
			out = append(out, p)
		}
	}
	return out, warns
}

// runHookGates runs the hook's gates; a failing mandatory gate blocks, a
// failing optional one warns.
func (e *Engine) runHookGates(ctx context.Context, d *HookDecision, s *Session, spec *protocolspec.Spec, req HookRequest, ids []string, staged bool) error {
	phases, warns := hookPhases(spec, d.Hook, ids)
	d.Warnings = append(d.Warnings, warns...)
	if len(phases) == 0 {
		return nil
	}
	repo := req.Repo
	if req.Staged != nil {
		repo = stagedRepo{Repo: repo, staged: req.Staged}
	}
	ws, _, err := e.workStart(ctx, req.Repo, s)
	if err != nil {
		return err
	}
	for i := range phases {
		p := &phases[i]
		// What the gate reads, not the whole session's evidence (one
		// piece per shell command with agent hooks).
		ev, err := e.Store.GateEvidence(ctx, s.ID, p.ID)
		if err != nil {
			return fmt.Errorf("load evidence: %w", err)
		}
		g, ok := conditionNotMet(p, ev)
		if !ok {
			g = runGate(ctx, gateEnv{claimRefused: e.claimRefusedFn(ctx, s), goCache: e.toolchainCache(), runDir: req.GateDir, repo: repo, sess: ws, phase: p, evidence: ev, cfg: e.hookConfig(spec, p), staged: staged, hook: true, progress: e.Progress, commitRecords: e.commitRecordsOf(s.ID), atStart: e.startHiddenOf(s.ID), tipsAtStart: e.tipsAtStartOf(s.ID), parkedAtStart: e.parkedAtStartOf(s.ID), remotesAtStart: e.remotesAtStartOf(s.ID)})
		}
		d.Gates = append(d.Gates, g)
		if g.Status != StatusFail {
			continue
		}
		if !p.Mandatory() {
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s gate %s failed (not blocking): %s", p.Level(), p.ID, g.Message))
			continue
		}
		var steps []string
		for _, c := range g.Checks {
			if c.Status == StatusFail {
				steps = append(steps, checkStep(p, protocolspec.Check{Kind: c.Kind, Arg: c.Arg}, e.naOffer(ctx, s, spec), e.claimRefusedFn(ctx, s)))
			}
		}
		next := strings.Join(steps, "; ")
		if staged {
			next += "; fix the staged change, `git add` it and commit again"
		} else {
			next += "; then push again"
		}
		d.block(p.ID, next, g.Message)
	}
	return nil
}

// hookConfig keeps a configured command override only when the gate runs
// the phase's command check: a subset of annotated non-command checks must
// not grow the phase's command.
func (e *Engine) hookConfig(spec *protocolspec.Spec, p *protocolspec.Phase) Config {
	cfg := e.Config
	if _, ok := cfg.Commands[p.ID]; !ok {
		return cfg
	}
	full, _ := spec.Phase(p.ID)
	if len(full.Checks) == len(p.Checks) {
		return cfg
	}
	for _, c := range p.Checks {
		if c.Kind == protocolspec.CheckCommand {
			return cfg
		}
	}
	cfg.Commands = nil
	return cfg
}

// conditionNotMet mirrors evaluate: a conditional gate recorded as not
// applying is skipped.
func conditionNotMet(p *protocolspec.Phase, ev []Evidence) (GateResult, bool) {
	if p.Condition == "" {
		return phaseMarkedNA(p, ev) // the phase as a whole, pending a person (notapplicable.go)
	}
	for _, x := range ev {
		if x.Phase == p.ID && x.Step == StepCondition {
			return GateResult{Phase: p.ID, Title: p.Title, Level: p.Level(), Status: StatusSkipped, Decision: DecisionConditionNotMet,
				Message: fmt.Sprintf("gate %s not applied: condition %q recorded as not holding (%s)", p.ID, p.Condition, x.Ref)}, true
		}
	}
	return GateResult{}, false
}

// stagedRepo answers StagedFiles from a list the hook already read.
type stagedRepo struct {
	Repo
	staged []string
}

func (r stagedRepo) StagedFiles(context.Context) ([]string, error) { return r.staged, nil }

// CommitSubjectsAtStart passes the start's record of the remotes on to
// the repo (commitSubjectsAtStart).
func (r stagedRepo) CommitSubjectsAtStart(ctx context.Context, since string, remotes map[string]string) ([]CommitSubject, error) {
	return commitSubjectsAtStart(ctx, r.Repo, since, remotes)
}

// MergesWithOwnChanges passes the merges the repo judges on
// (mergesWithOwnChanges).
func (r stagedRepo) MergesWithOwnChanges(ctx context.Context, since string, remotes map[string]string) ([]CommitSubject, error) {
	if l, ok := r.Repo.(evilMergeLister); ok {
		return l.MergesWithOwnChanges(ctx, since, remotes)
	}
	return nil, nil
}

// HoldsRemoteVersion passes the question on to the repo
// (upstreamVersion).
func (r stagedRepo) HoldsRemoteVersion(ctx context.Context, path, since string, remotes map[string]string) (bool, error) {
	if h, ok := r.Repo.(remoteVersionHolder); ok {
		return h.HoldsRemoteVersion(ctx, path, since, remotes)
	}
	return false, nil
}

// LayoutOnly passes the question on to the repo (layoutOnly).
func (r stagedRepo) LayoutOnly(ctx context.Context, sha string) (bool, error) {
	if l, ok := r.Repo.(layoutJudge); ok {
		return l.LayoutOnly(ctx, sha)
	}
	return false, nil
}

func gateSummary(gs []GateResult) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.Phase + ":" + strings.ToLower(string(g.Status))
	}
	return out
}

// escapeViolation is the violation the escape hatch records.
func (e *Engine) escapeViolation(s *Session, req HookRequest, d *HookDecision, what string) *Violation {
	v := &Violation{Severity: SeverityHigh, Code: CodeEscapeHatch, Window: WindowSession, CreatedAt: e.now(),
		Requirement: d.Hook + " hook",
		Message: truncate(fmt.Sprintf("%s=%s let a blocked %s through: %s", req.Policy.BypassEnv, truncate(req.Bypass, 100), what,
			strings.Join(d.Reasons, "; ")), 1000)}
	if s != nil {
		v.SessionID, v.RepoID, v.Phase = s.ID, s.RepoID, d.Gate
	}
	return v
}

// escapeWithoutSession lets a commit or push blocked for want of a session
// through, recording a violation outside any session. A commit's names its
// tree, so post-commit can tell it from --no-verify.
func (e *Engine) escapeWithoutSession(ctx context.Context, req HookRequest, d *HookDecision, t hookTarget) error {
	v := e.escapeViolation(nil, req, d, verbOf(d.Hook))
	if d.Hook == HookPreCommit {
		tree, err := treeOf(ctx, req)
		if err != nil {
			return err
		}
		v.Message = truncate(v.Message+" (tree "+tree+")", 1100)
	}
	err := e.Store.Update(ctx, func(w Writer) error {
		if v.RepoID = t.repoID; v.RepoID == 0 {
			r, err := w.EnsureRepository(ctx, req.Repo.MainRoot(), req.Repo.Name())
			if err != nil {
				return err
			}
			v.RepoID = r.ID
		}
		return w.AddViolation(ctx, v)
	})
	if err != nil {
		return fmt.Errorf("record escape hatch: %w", err)
	}
	d.Allowed, d.Escaped = true, true
	d.Violations = append(d.Violations, *v)
	return nil
}

func verbOf(hook string) string {
	if hook == HookPrePush {
		return "push"
	}
	return "commit"
}

// recordHook touches the session and appends the hook's event, with an
// optional violation and evidence, in one transaction.
func (e *Engine) recordHook(ctx context.Context, s *Session, d *HookDecision, tok string, detail map[string]any, vio *Violation, ev *Evidence) error {
	var js string
	if len(detail) > 0 {
		b, err := json.Marshal(detail)
		if err != nil {
			return fmt.Errorf("encode event detail: %w", err)
		}
		js = string(b)
	}
	now := e.now()
	late := false
	err := e.Store.Update(ctx, func(w Writer) error {
		if s.Active() {
			// Touched only while still active: it may have ended since
			// it was read.
			if _, err := w.TouchSession(ctx, s.ID, now, now.Add(e.Config.IdleTimeout)); err != nil {
				return err
			}
		}
		if ev != nil {
			var err error
			if late, err = endedSince(ctx, w, s.ID); err != nil {
				return err
			}
		}
		if ev != nil && !late {
			// Dated in the write lock: a commit recorded while an end
			// runs is dated before its ended_at, never after.
			ev.CreatedAt = e.now()
			if err := w.AddEvidence(ctx, ev); err != nil {
				return err
			}
		}
		if late {
			// The session ended between this hook's read and its
			// write: nothing more is recorded on it but a violation.
			if vio != nil {
				return w.AddViolation(ctx, vio)
			}
			return nil
		}
		if vio != nil {
			if err := w.AddViolation(ctx, vio); err != nil {
				return err
			}
		}
		return w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: tok, Detail: js, CreatedAt: now})
	})
	if err != nil {
		return fmt.Errorf("record %s: %w", d.Hook, err)
	}
	if late {
		d.Warnings = append(d.Warnings, fmt.Sprintf("session %s ended while %s ran: its commit is not recorded as the session's evidence (nothing recorded after a session's end counts for it)", s.ID, d.Hook))
	}
	if vio != nil {
		d.Violations = append(d.Violations, *vio)
		e.publishViolations(ctx, s.ID, vio)
	}
	return nil
}

// endedSince reports, in a write transaction, whether session id has ended
// since it was read: evidence written now would be dated after its
// ended_at. A session that is ending still takes commits (they were made
// during the session; the end's gates read what was there when it began).
func endedSince(ctx context.Context, w Writer, id string) (bool, error) {
	cur, err := w.GetSession(ctx, id)
	if err != nil {
		return false, err
	}
	return !cur.Active(), nil
}

// CommitMsg returns the trailers the commit message gets (Session-Id) and
// runs checks annotated hooks=commit-msg on the staged change.
func (e *Engine) CommitMsg(ctx context.Context, req HookRequest) (*HookDecision, error) {
	d := &HookDecision{Hook: HookCommitMsg, Allowed: true}
	t, err := e.hookSession(ctx, req, false)
	if err != nil {
		return nil, err
	}
	s := t.sess
	if s == nil {
		return d, nil // pre-commit already decided about a missing session
	}
	d.SessionID, d.State = s.ID, s.State
	spec, err := e.SpecFor(ctx, s.ProtocolSHA)
	if err != nil {
		return nil, err
	}
	e.reconcileHook(ctx, d, s, req, "", "")
	if s.State != StateInit {
		if err := e.runHookGates(ctx, d, s, spec, req, nil, true); err != nil {
			return nil, err
		}
	}
	tok := TokCommitMsg
	var vio *Violation
	switch {
	case !d.Allowed && req.Bypass == "":
		tok = TokCommitMsgBlocked
		if n := personInSession(s, req); n != "" {
			d.NextStep = joinSteps(d.NextStep, n)
		}
	case !d.Allowed:
		vio = e.escapeViolation(s, req, d, "commit message")
		d.Allowed, d.Escaped = true, true
	}
	if d.Allowed {
		if d.Trailers, err = e.commitTrailers(ctx, s, req.Repo, ""); err != nil {
			return nil, err
		}
	}
	return d, e.recordHook(ctx, s, d, tok, nil, vio, nil)
}

// commitTrailers are the trailers a commit of the session gets. The
// snapshot id lets `sessiongate verify` tie the commit to the session
// record, even after it leaves this machine. pinned is the records commit
// this pre-commit wrote its pin to ("" from commit-msg).
func (e *Engine) commitTrailers(ctx context.Context, s *Session, repo Repo, pinned string) ([]string, error) {
	t := []string{TrailerKey + ": " + s.ID}
	sid, err := e.LatestSnapshot(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	if sid != "" {
		t = append(t, TrailerSnapshotKey+": "+sid)
	}
	ev, err := e.eventsTrailer(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	if ev != "" {
		t = append(t, ev)
	}
	pt, err := e.pinTrailer(ctx, repo, pinned)
	if err != nil {
		return nil, err
	}
	if pt != "" {
		t = append(t, pt)
	}
	return t, nil
}

// handoff fills d.Trailers and d.Handoff for an allowed pre-commit when the
// protocol runs no gate at commit-msg, so the commit-msg hook would only add
// the trailers computed here (nothing can change the session in between
// within one git commit).
func (e *Engine) handoff(ctx context.Context, d *HookDecision, s *Session, spec *protocolspec.Spec, repo Repo, pinned string) error {
	if !d.Allowed {
		return nil
	}
	if s != nil {
		if phases, _ := hookPhases(spec, HookCommitMsg, nil); len(phases) > 0 {
			return nil
		}
		t, err := e.commitTrailers(ctx, s, repo, pinned)
		if err != nil {
			return err
		}
		d.Trailers = t
	}
	d.Handoff = true
	return nil
}

// PostCommit records the new commit as commit_sha evidence. A commit whose
// tree matches no pre-commit pass or escape of the session skipped the
// pre-commit hook (--no-verify): a CRITICAL BYPASS violation that decays
// over the next sessions. Commits git replays (rebase, cherry-pick) never
// ran pre-commit and are recorded without a violation.
func (e *Engine) PostCommit(ctx context.Context, req HookRequest) (*HookDecision, error) {
	d := &HookDecision{Hook: HookPostCommit, Allowed: true}
	if !hexSHA.MatchString(req.Commit) {
		return nil, fmt.Errorf("post-commit: %q is not a commit id", truncate(req.Commit, 64))
	}
	t, err := e.hookSession(ctx, req, false)
	if err != nil {
		return nil, err
	}
	s := t.sess
	if s == nil {
		switch {
		case req.Replay != "":
			return d, nil
		case req.actor().Person():
			// A person needs no session: recorded as their work, never a
			// BYPASS (a --no-verify adoption commit included).
			return d, e.personCommit(ctx, req, t, d)
		case !req.Policy.RequireSession:
			e.agentCommit(ctx, req, t)
			return d, nil
		}
		if err := e.bypassWithoutSession(ctx, req, d, t); err != nil {
			return d, err
		}
		e.agentCommit(ctx, req, t)
		return d, nil
	}
	d.SessionID, d.State = s.ID, s.State
	e.reconcileHook(ctx, d, s, req, req.Commit, req.CommitParent)
	matched, err := e.matchPreCommit(ctx, s.ID, req.CommitTree)
	if err != nil {
		return nil, err
	}
	detail := map[string]any{"commit": req.Commit, "tree": req.CommitTree}
	tok := TokPostCommitPass
	var vio *Violation
	carried := false
	switch {
	case req.Replay != "":
		tok = TokPostCommitReplay
		detail["replay"] = req.Replay
		why, c, err := e.replayVerdict(ctx, s, req.Repo, req.Commit, matched)
		if err != nil {
			return nil, err
		}
		carried = c
		if why != "" {
			if why, err = e.judgeReplay(ctx, s, req, why); err != nil {
				return nil, err
			}
		}
		if why != "" {
			tok = TokPostCommitBypass
			vio = e.bypassViolation(s.ID, s.RepoID, s.Phase, req.Commit)
			vio.Message = why
			d.Reasons = append(d.Reasons, vio.Message)
			d.NextStep = "commit through the hooks after the start gates pass: git cherry-pick --no-commit (or git revert --no-commit), then git commit"
		}
	case !matched:
		tok = TokPostCommitBypass
		vio = e.bypassViolation(s.ID, s.RepoID, s.Phase, req.Commit)
		d.Reasons = append(d.Reasons, vio.Message)
		d.NextStep = "do not skip the hooks: commit without --no-verify (the escape hatch " + req.Policy.BypassEnv + "=reason is recorded with less severity)"
	}
	ev := &Evidence{SessionID: s.ID, Phase: s.Phase, Step: HookPostCommit, Kind: EvidenceCommitSHA, Origin: OriginObserved,
		SHA256: sha256Hex([]byte(req.Commit)), Ref: req.Commit, Size: len(req.Commit), CreatedAt: e.now()}
	if vio != nil {
		ev.Kind = EvidenceBypassCommit // recorded, never counted as the session's commit
	} else if carried {
		ev.Step = StepCarried
	}
	ask := []string{req.Commit}
	if req.CommitParent != "" {
		ask = append(ask, req.CommitParent)
	}
	known, err := e.Store.RecordedCommits(ctx, s.ID, ask...)
	if err != nil {
		return nil, fmt.Errorf("load recorded commits: %w", err)
	}
	if known[req.Commit] {
		ev, vio = nil, nil // another process reconciled it first
	} else if vio == nil && (req.Replay == "" || !carried && s.State != StateInit) {
		// A hooked amend of a commit from before the session passes
		// pre-commit like new work: only its ancestry tells. So does a
		// replay that is no whole copy of one (carriedEarlier): `git
		// rebase -i` rewording an ended session's commit runs pre-commit
		// and commit-msg, which stamps this session's trailer on it.
		if vio, err = e.foreignAmend(ctx, s, req.Repo, req.Commit, req.CommitParent, known); err != nil {
			return nil, err
		}
		if vio != nil {
			d.Warnings = append(d.Warnings, vio.Message)
		}
	}
	if matched && req.Replay == "" && vio == nil {
		// Only a change the session's pre-commit passed may vouch for a
		// platform's rewrite of it in CI: a replay's would launder it.
		e.setChange(ctx, s, req.Repo, ev, req.Commit)
	} else if ev != nil && ev.Kind == EvidenceCommitSHA {
		// A replay keeps its place in the session's run, no change.
		ev.Change = parentLine(req.CommitParent)
		if carried && vio == nil {
			// A carried copy's change, marked so it vouches for nothing
			// and squashes nothing (verify/rewrites.go): verify only asks
			// whether a copy of it landed (a third session's rebase).
			e.setChange(ctx, s, req.Repo, ev, req.Commit)
			if first, rest, ok := strings.Cut(ev.Change, "\n"); ok && strings.HasPrefix(first, "parent ") {
				ev.Change = first + "\n" + CarriedChangeMark + "\n" + rest
			} else {
				ev.Change = parentLine(req.CommitParent)
			}
		}
	}
	if err := e.recordHook(ctx, s, d, tok, detail, vio, ev); err != nil {
		return d, err
	}
	e.pinEvents(ctx, s, req.Repo, req.Commit, "", false)
	return d, nil
}

func (e *Engine) bypassViolation(sessionID string, repoID int64, phase, commit string) *Violation {
	return &Violation{SessionID: sessionID, RepoID: repoID, Phase: phase, Requirement: "pre-commit hook",
		Severity: SeverityCritical, Code: CodeBypass, Window: WindowCrossSessionDecay, DecayRuns: DecayBypass, CreatedAt: e.now(),
		Message: fmt.Sprintf("commit %s landed without a passing pre-commit hook (git commit --no-verify?)", shortSHA(commit))}
}

// matchPreCommit looks for the pre-commit pass (or escape) of a tree among
// the session's recent events.
func (e *Engine) matchPreCommit(ctx context.Context, id, tree string) (bool, error) {
	if tree == "" {
		return false, nil
	}
	evs, err := e.Store.LastEvents(ctx, id, matchWindow, TokPreCommitPass, TokPreCommitEscape)
	if err != nil {
		return false, fmt.Errorf("load recent events: %w", err)
	}
	for i := len(evs) - 1; i >= 0; i-- {
		ev := evs[i]
		if ev.Token != TokPreCommitPass && ev.Token != TokPreCommitEscape {
			continue
		}
		var det struct {
			Tree string `json:"tree"`
		}
		if json.Unmarshal([]byte(ev.Detail), &det) == nil && det.Tree == tree {
			return true, nil
		}
	}
	return false, nil
}

// bypassWithoutSession: a session is required, none runs, and a commit
// landed; unless the escape hatch let this tree through, it skipped the hook.
func (e *Engine) bypassWithoutSession(ctx context.Context, req HookRequest, d *HookDecision, t hookTarget) error {
	// pre-commit lets a commit of ended sessions' records through with no
	// session; so does post-commit.
	if req.CommitFiles != nil && strings.Contains(e.Config.SessionRecord, "{session_id}") {
		files, err := req.CommitFiles(ctx)
		if err != nil {
			return fmt.Errorf("list the commit's files: %w", err)
		}
		if ok, err := e.recordFiles(ctx, files); err != nil || ok {
			return err
		}
	}
	if t.repoID != 0 && req.CommitTree != "" {
		vs, err := e.Store.ListViolations(ctx, ViolationFilter{RepoID: t.repoID, Code: CodeEscapeHatch, Limit: 20})
		if err != nil {
			return fmt.Errorf("load escape-hatch violations: %w", err)
		}
		for _, v := range vs {
			if v.SessionID == "" && strings.Contains(v.Message, "(tree "+req.CommitTree+")") {
				return nil
			}
		}
	}
	v := e.bypassViolation("", t.repoID, "", req.Commit)
	v.Message += " with no active session (require_session: true)"
	err := e.Store.Update(ctx, func(w Writer) error {
		if v.RepoID == 0 {
			r, err := w.EnsureRepository(ctx, req.Repo.MainRoot(), req.Repo.Name())
			if err != nil {
				return err
			}
			v.RepoID = r.ID
		}
		return w.AddViolation(ctx, v)
	})
	if err != nil {
		return fmt.Errorf("record bypass: %w", err)
	}
	d.Violations = append(d.Violations, *v)
	d.Reasons = append(d.Reasons, v.Message)
	d.NextStep = StartStep
	return nil
}

// PrePush blocks a push until the session's end gates configured for push
// time (hooks.pre-push, default QA_VALIDATION) have passed, and runs checks
// annotated hooks=pre-push. A completed session counts: pushing after
// session_end is the normal flow.
func (e *Engine) PrePush(ctx context.Context, req HookRequest) (*HookDecision, error) {
	d := &HookDecision{Hook: HookPrePush, Allowed: true}
	if req.DeletesOnly {
		return d, nil
	}
	t, err := e.hookSession(ctx, req, true)
	if err != nil {
		return nil, err
	}
	s := t.sess
	if s == nil {
		noSession(d, t, req)
		if personAllowed(d, req) || d.Allowed || req.Bypass == "" {
			return d, nil
		}
		return d, e.escapeWithoutSession(ctx, req, d, t)
	}
	d.SessionID, d.State = s.ID, s.State
	spec, err := e.SpecFor(ctx, s.ProtocolSHA)
	if err != nil {
		return nil, err
	}
	e.reconcileHook(ctx, d, s, req, "", "")
	// hooks.pre-push comes from the work tree's config: not to be trusted
	// while a protected file differs from what a person accepted.
	pvio, err := e.checkProtectedCommit(ctx, d, s, req)
	if err != nil {
		return nil, err
	}
	if !d.Allowed {
		// a protected change: no gates to run
	} else if req.CISkip != "" {
		// CI's verify is the net under every gate: a push it never sees
		// lands its commits unchecked, gates passed or not.
		d.block("CI", "unset it (`git config --unset-all push.pushOption`, or drop the -c) and push again",
			"git would send this push with the push option "+req.CISkip+" (push.pushOption): GitLab runs no pipeline for it, so `sessiongate verify` never checks the pushed commits")
	} else if s.State == StateInit {
		blockInit(d, s, spec, e.naOffer(ctx, s, spec), e.claimRefusedFn(ctx, s))
	} else {
		if err := e.requirePassed(ctx, d, s, spec, req.Policy.PrePush); err != nil {
			return nil, err
		}
		if err := e.runHookGates(ctx, d, s, spec, req, nil, false); err != nil {
			return nil, err
		}
	}
	tok := TokPrePushPass
	var vio *Violation
	switch {
	case !d.Allowed && req.Bypass == "":
		tok = TokPrePushBlocked
		vio = pvio
	case !d.Allowed:
		tok = TokPrePushEscape
		vio = e.escapeViolation(s, req, d, "push")
		d.Allowed, d.Escaped = true, true
	}
	detail := map[string]any{}
	if d.Gate != "" {
		detail["gate"] = d.Gate
	}
	if d.Allowed && len(req.Pushed) > 0 {
		detail["pushed"] = req.Pushed[:min(len(req.Pushed), maxPushedRecorded)]
	}
	return d, e.recordHook(ctx, s, d, tok, detail, vio, nil)
}

// maxPushedRecorded bounds the commits a pre-push event records (a push
// of every branch of a large repository).
const maxPushedRecorded = 64

// requirePassed blocks unless each named phase has a passing result.
func (e *Engine) requirePassed(ctx context.Context, d *HookDecision, s *Session, spec *protocolspec.Spec, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	rs, err := e.Store.PhaseResults(ctx, s.ID)
	if err != nil {
		return fmt.Errorf("load phase results: %w", err)
	}
	for _, id := range ids {
		p, ok := spec.Phase(id)
		if !ok {
			d.Warnings = append(d.Warnings, fmt.Sprintf("sessiongate.yaml hooks.pre-push names phase %s, which the session's protocol does not have (it has %s)", id, phaseIDs(spec)))
			continue
		}
		status := PhasePending
		var last *PhaseResult
		for i, r := range rs {
			if r.PhaseID == id {
				status, last = r.Status, &rs[i]
			}
		}
		switch status {
		case PhasePassed, PhaseSkipped:
			continue
		case PhaseForced:
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s was forced past (a recorded violation), not passed", id))
			continue
		}
		if status == PhasePending && last != nil && checkedPassable(*last) {
			// `session gate` checks without moving the session: its pass
			// is recorded as passable, and counts once the session
			// advances past the phase. Say exactly that.
			d.block(id, passStep(spec, id)+"; the gate passes again as the session advances",
				fmt.Sprintf("%s's gate passed when it was checked (`sessiongate session gate --phase %s`, MCP: validate_gate), but a check does not move the session: push needs session %s to advance past %s", id, id, s.ID, id))
			continue
		}
		var steps []string
		for _, c := range p.Checks {
			steps = append(steps, checkStep(p, c, e.naOffer(ctx, s, spec), e.claimRefusedFn(ctx, s)))
		}
		next := strings.Join(steps, "; ") + "; then " + passStep(spec, id)
		d.block(id, next, fmt.Sprintf("%s %q (%s) has not passed in session %s (status %s): push needs it", id, p.Title, p.Level(), s.ID, status))
	}
	return nil
}

// checkedPassable reports a result `session gate` recorded for a gate that
// passed without the session advancing.
func checkedPassable(r PhaseResult) bool {
	if len(r.Checks) == 0 {
		return false
	}
	for _, c := range r.Checks {
		if c.Status == StatusFail {
			return false
		}
	}
	return true
}

// passStep names the command that walks a session past an end phase.
func passStep(spec *protocolspec.Spec, id string) string {
	const end = "`sessiongate session end --summary \"...\"` (MCP: session_end)"
	ps := walk(spec)
	i := indexOf(ps, id)
	if i < 0 || i+1 >= len(ps) || ps[i+1].name == PosDone {
		return end
	}
	return fmt.Sprintf("`sessiongate session advance --to %s` (MCP: advance_phase target_phase=%s) or %s", ps[i+1].name, ps[i+1].name, end)
}

// recordOnly reports whether every staged file is the session record of a
// session that ended COMPLETE: the commit an agent makes after session_end.
func (e *Engine) recordOnly(ctx context.Context, req HookRequest) (bool, error) {
	if !strings.Contains(e.Config.SessionRecord, "{session_id}") {
		return false, nil
	}
	staged := req.Staged
	if staged == nil {
		var err error
		if staged, err = req.Repo.StagedFiles(ctx); err != nil {
			return false, err
		}
	}
	return e.recordFiles(ctx, staged)
}

// recordFiles reports whether files are all session records of sessions
// that ended COMPLETE.
func (e *Engine) recordFiles(ctx context.Context, staged []string) (bool, error) {
	prefix, suffix, ok := strings.Cut(e.Config.SessionRecord, "{session_id}")
	if !ok {
		return false, nil
	}
	if len(staged) == 0 {
		return false, nil
	}
	for _, f := range staged {
		if !strings.HasPrefix(f, prefix) || !strings.HasSuffix(f, suffix) {
			return false, nil
		}
		id := strings.TrimSuffix(strings.TrimPrefix(f, prefix), suffix)
		if ValidateID(id) != nil {
			return false, nil
		}
		s, err := e.Store.GetSession(ctx, id)
		if errors.Is(err, ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if s.State != StateComplete {
			return false, nil
		}
	}
	return true, nil
}

// PostMerge records, right after a merge or a rewrite (hook names which),
// the commits that landed: a merge commit, or the commits a rebase made
// when its post-commit did not run. Without this hook reconciliation found
// them only at the next sessiongate call, so a merge sat unrecorded until
// then. It never blocks: git has already done the work.
func (e *Engine) PostMerge(ctx context.Context, req HookRequest, hook string) (*HookDecision, error) {
	d := &HookDecision{Hook: hook, Allowed: true}
	t, err := e.hookSession(ctx, req, false)
	if err != nil {
		return nil, err
	}
	s := t.sess
	if s == nil {
		return d, nil
	}
	d.SessionID, d.State = s.ID, s.State
	n, err := e.Reconcile(ctx, s, req.Repo, "", "")
	if err != nil {
		return nil, fmt.Errorf("%s: record the commits that landed: %w", hook, err)
	}
	if n > 0 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s recorded %d commit(s) that landed in session %s", hook, n, s.ID))
	}
	return d, nil
}

// joinSteps adds step b to next step a.
func joinSteps(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; or, " + b
}
