package session

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/sessiongate/sessiongate/internal/gitmemo"
	"github.com/sessiongate/sessiongate/repopath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/editorial"
	"github.com/sessiongate/sessiongate/nextstep"
	"github.com/sessiongate/sessiongate/plaintext"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// Positions in a session's walk that are not phases.
const (
	PosWorking = "WORKING"
	PosDone    = "DONE" // every end phase passed; session_end completes
)

// DecisionConditionNotMet marks a conditional gate the caller recorded as not applying.
const DecisionConditionNotMet = "CONDITION_NOT_MET"

// DecisionNotDone marks a phase that cannot block (optional, recommended,
// or unmarked without requirements) for which the agent recorded nothing
// and that has no machine check: it was not done, which such a phase
// allows; that is not a failed gate.
const DecisionNotDone = "NOT_DONE"

// StepCondition is the evidence step that records a gate's condition as not holding.
const StepCondition = "condition"

type position struct {
	phase *protocolspec.Phase // nil for WORKING and DONE
	name  string
}

func walk(spec *protocolspec.Spec) []position {
	var out []position
	for i := range spec.Phases {
		if spec.Phases[i].Section == protocolspec.SectionStart {
			out = append(out, position{phase: &spec.Phases[i], name: spec.Phases[i].ID})
		}
	}
	out = append(out, position{name: PosWorking})
	for i := range spec.Phases {
		if spec.Phases[i].Section == protocolspec.SectionEnd {
			out = append(out, position{phase: &spec.Phases[i], name: spec.Phases[i].ID})
		}
	}
	return append(out, position{name: PosDone})
}

func indexOf(ps []position, name string) int {
	for i, p := range ps {
		if p.name == name {
			return i
		}
	}
	return -1
}

func currentIndex(s *Session, ps []position) int {
	switch s.State {
	case StateWorking:
		return indexOf(ps, PosWorking)
	case StateEnding:
		if s.Phase == "" {
			return len(ps) - 1
		}
	}
	return indexOf(ps, s.Phase)
}

// setPosition moves a session to position i of the walk.
func setPosition(s *Session, ps []position, i int) {
	p := ps[i]
	switch {
	case p.name == PosWorking:
		s.State, s.Phase = StateWorking, ""
	case p.name == PosDone:
		s.State, s.Phase = StateEnding, ""
	case p.phase.Section == protocolspec.SectionStart:
		s.State, s.Phase = StateInit, p.phase.ID
	default:
		s.State, s.Phase = StateEnding, p.phase.ID
	}
}

// evaluate runs a phase's gate for a session, honouring a recorded
// "condition does not hold" decision on conditional gates.
func (e *Engine) evaluate(ctx context.Context, s *Session, p *protocolspec.Phase, staged bool) (GateResult, error) {
	// Its checks ask git the same questions: asked once (internal/gitmemo).
	ctx = gitmemo.With(ctx)
	ev, files, err := e.gateEvidenceStamped(ctx, s, p.ID)
	if err != nil {
		return GateResult{}, fmt.Errorf("load evidence: %w", err)
	}
	if g, ok := conditionNotMet(p, ev); ok {
		return g, nil
	}
	cfg := e.Config
	if readsTranscript(p, cfg) {
		// The agent's transcript may hold the reads and runs the
		// requirements ask for: read what it gained, then the evidence.
		if cfg.transcript, err = e.sessionTranscripts(ctx, s); err != nil {
			return GateResult{}, err
		}
		if cfg.transcript.agent != "" {
			if ev, files, err = e.gateAndFileEvidence(ctx, s.ID, p.ID); err != nil {
				return GateResult{}, fmt.Errorf("load evidence: %w", err)
			}
		}
	}
	if err := e.withSessionEvidence(ctx, &cfg, s, p); err != nil {
		return GateResult{}, err
	}
	if notDone(p, ev, cfg) {
		return GateResult{Phase: p.ID, Title: p.Title, Level: p.Level(), Status: StatusSkipped, Decision: DecisionNotDone,
			Message: fmt.Sprintf("%s phase %s not done: nothing recorded for it, and it cannot block (%s)", p.Level(), p.ID, p.BindingReason)}, nil
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return GateResult{}, fmt.Errorf("open worktree %s: %w", s.Worktree, err)
	}
	var environ, dropped []string
	// Only a command reads the clean environment; cleaning PATH resolves
	// every entry's links, which a gate of evidence checks does not need.
	if slices.ContainsFunc(GateChecks(p, cfg.Commands), func(c protocolspec.Check) bool { return c.Kind == protocolspec.CheckCommand }) {
		if environ, dropped, err = e.gateEnviron(ctx, s, repo.Root(), staged); err != nil {
			return GateResult{}, err
		}
	}
	ws, moved, err := e.workStart(ctx, repo, s)
	if err != nil {
		return GateResult{}, err
	}
	var continued *Session
	var continuedIDs []string
	if !staged && judgesWork(p, cfg.Commands) {
		if continued, continuedIDs, err = e.continuedFrom(ctx, repo, ws); err != nil {
			return GateResult{}, err
		}
	}
	g := runGate(ctx, gateEnv{claimRefused: e.claimRefusedFn(ctx, s), goCache: e.toolchainCache(), repo: repo, sess: ws, phase: p, evidence: ev, cfg: cfg, staged: staged, progress: e.Progress, environ: environ, dropped: dropped, programsWhy: e.programsWhyOf(s), startOutcome: e.startOutcomeOf(s), commitRecords: e.commitRecordsOf(s.ID), continued: continued, continuedIDs: continuedIDs, protocol: e.protocolText(ctx, s), atStart: e.startHiddenOf(s.ID), tipsAtStart: e.tipsAtStartOf(s.ID), parkedAtStart: e.parkedAtStartOf(s.ID), remotesAtStart: e.remotesAtStartOf(s.ID)})
	if c, ok := callsCheck(p, ev, cfg); ok {
		g.Checks = append(g.Checks, c)
		g.Status = combine(g.Checks)
		g.Message = gateMessage(g)
	}
	qc, qw, err := e.qaCommandInputs(ctx, repo, ws, p, environ)
	if err != nil {
		return GateResult{}, err
	}
	g.Warnings = append(g.Warnings, qw...)
	if qc != nil {
		g.Checks = append(g.Checks, *qc)
		g.Status = combine(g.Checks)
		g.Message = gateMessage(g)
	}
	if moved != "" {
		g.Warnings = append(g.Warnings, fmt.Sprintf("the session's work counts from %s, not its starting commit %s: commits between them were made before the session started (HEAD moved back to start it, or a pull brought them in), and are not its work",
			shortSHA(moved), shortSHA(s.StartCommit)))
	}
	// The files recorded as evidence, as they are now (a swap after the
	// record is judged at the next gate).
	cr, ok, err := e.recheckRecordedFiles(ctx, s, files)
	if err != nil {
		return GateResult{}, fmt.Errorf("check recorded files: %w", err)
	}
	if ok && cr.Status == StatusFail {
		// Only a failure is added: a PASS would turn a gate whose checks
		// all skipped into a pass.
		g.Checks = append(g.Checks, cr)
		g.Status = combine(g.Checks)
		g.Message = gateMessage(g)
	}
	if g.Status == StatusPass {
		nr, err := e.narrowedQA(ctx, s, p, "")
		if err != nil {
			return GateResult{}, err
		}
		if nr != nil {
			g.Checks = append(g.Checks, *nr)
			g.Status = combine(g.Checks)
			g.Message = gateMessage(g)
		}
	}
	return g, nil
}

// notDone reports whether a phase that cannot block was simply not done:
// no evidence recorded for it and nothing but evidence checks. Its gate
// would fail on the missing evidence, which an honest session skipping an
// optional phase ("Optional Retrospective") then carried as a failed gate.
func notDone(p *protocolspec.Phase, ev []Evidence, cfg Config) bool {
	if p.Mandatory() {
		return false
	}
	if _, ok := cfg.Commands[p.ID]; ok {
		return false
	}
	for _, c := range p.Checks {
		if c.Kind != protocolspec.CheckEvidence && c.Kind != protocolspec.CheckMustEvidence {
			return false
		}
	}
	for _, x := range ev {
		// A commit the hooks recorded while the phase was current is no
		// sign the phase was started: an honest reword of the last commit
		// after GIT_OPERATIONS made the optional retrospective FAIL (lazy
		// pass 16), a false FAIL on an honest session.
		if x.Phase != p.ID || x.Kind == EvidenceCommitSHA || x.Kind == EvidenceBypassCommit {
			continue
		}
		// A shell call an agent hook saw while the phase was current, bound
		// to none of its requirements and naming none of its commands, is
		// no sign either: the agent's own `sessiongate session advance`
		// (observed after it entered the phase) or a look around made an
		// honest run's optional phase a false FAIL (round 24, real Codex).
		if x.Origin == OriginObserved && x.Requirement == "" && relevantKey(x.Command, p, cfg) == "" {
			continue
		}
		return false
	}
	return true
}

// ValidateGate checks one phase's gate (default: the current phase) and
// records the result. It never moves the session.
func (e *Engine) ValidateGate(ctx context.Context, id, phaseID string) (*GateResult, error) {
	writes, counted := e.ownWrites() // before the stamp loadGate reads
	s, spec, stamp, err := e.loadGate(ctx, id)
	if err != nil {
		return nil, err
	}
	if phaseID == "" {
		phaseID = s.Phase
	}
	if phaseID == "" {
		return nil, invalidf("session %s is %s with no current phase: name a phase (one of %s)", id, s.State, phaseIDs(spec))
	}
	p, ok := spec.Phase(phaseID)
	if !ok {
		return nil, invalidf("unknown phase %q: the protocol has %s", truncate(phaseID, 64), phaseIDs(spec))
	}
	if err := e.guardProtected(ctx, s, "validate_gate"); err != nil {
		return nil, err
	}
	pol, err := e.CheckPolicy(ctx, s, "tool:validate_gate")
	if err != nil {
		return nil, err
	}
	g, err := e.evaluate(withStampedEvidence(ctx), s, p, false)
	if err != nil {
		return nil, err
	}
	g.Warnings = append(g.Warnings, pol.Warnings...)
	key := ""
	if !pol.watched && len(pol.Tokens()) == 0 {
		key = gateKey(g)
	}
	if done, err := e.recordRepeat(ctx, id, key, gateStamp{stamp: stamp, writes: writes, ok: counted && stamp != ""}); err != nil || done {
		if err != nil {
			return nil, err
		}
		return &g, nil
	}
	var gateSeq int64
	update := e.Store.Update
	if gu, ok := e.Store.(GroupUpdater); ok {
		// fn below writes only through w (it may run twice: GroupUpdater).
		update = gu.UpdateGrouped
	}
	err = update(ctx, func(w Writer) error {
		// Touched only while still active: the session may have ended
		// since it was loaded (a hook, another client).
		now := e.now()
		touched, err := w.TouchSession(ctx, id, now, now.Add(e.Config.IdleTimeout))
		if err != nil {
			return err
		}
		if !touched {
			cur, err := w.GetSession(ctx, id)
			if err != nil {
				return err
			}
			return fmt.Errorf("session %s: %w (%s)", id, ErrEnded, cur.State)
		}
		toks := append([]string{"tool:validate_gate"}, pol.Tokens()...)
		evs, err := e.appendEventsSeq(ctx, w, id, e.now(), append(toks, gateToken(p.ID, g.Status))...)
		if err != nil {
			return err
		}
		gateSeq = evs[len(evs)-1].Seq
		// Record the result only for phases not already settled, so a
		// later re-check never rewrites a passed or forced phase's history.
		st := PhaseFailed
		if g.Status != StatusFail {
			st = PhasePending // checked and passable; it passes when the session advances
		}
		return w.PutPhaseResultUnlessSettled(ctx, resultFrom(id, g, st, e.now()))
	})
	if err != nil {
		return nil, fmt.Errorf("record gate result: %w", err)
	}
	e.flushRepeats(ctx, e.gateRepeats.Recorded(id, key, gateSeq))
	return &g, nil
}

func resultFrom(id string, g GateResult, status PhaseStatus, now time.Time) PhaseResult {
	return PhaseResult{SessionID: id, PhaseID: g.Phase, Status: status, Level: g.Level, Message: g.Message,
		Decision: g.Decision, Checks: g.Checks, StartedAt: now.Add(-g.Duration), EndedAt: now, Duration: g.Duration}
}

func gateToken(phase string, status GateStatus) string {
	return "gate:" + phase + ":" + strings.ToLower(string(status))
}

// appendEvents appends tokens as events; gate events are sealed.
func (e *Engine) appendEvents(ctx context.Context, w Writer, id string, now time.Time, tokens ...string) error {
	_, err := e.appendEventsSeq(ctx, w, id, now, tokens...)
	return err
}

// appendEventsSeq is appendEvents returning the events with the seqs the
// store gave them.
func (e *Engine) appendEventsSeq(ctx context.Context, w Writer, id string, now time.Time, tokens ...string) ([]*Event, error) {
	evs := make([]*Event, len(tokens))
	for i, t := range tokens {
		evs[i] = &Event{SessionID: id, Token: t, CreatedAt: now}
		if err := e.seal.Sign(evs[i].SessionID, evs[i].Token, evs[i].CreatedAt, &evs[i].Detail); err != nil {
			return nil, err
		}
	}
	return evs, w.AppendEvents(ctx, evs...)
}

func phaseIDs(spec *protocolspec.Spec) string {
	ids := make([]string, len(spec.Phases))
	for i, p := range spec.Phases {
		ids[i] = p.ID
	}
	return strings.Join(ids, ", ")
}

// AdvanceRequest moves a session forward.
type AdvanceRequest struct {
	ID     string
	Target string // a phase id or WORKING; "" means one step
	Force  bool   // skip failing mandatory gates, recording violations
	Reason string // required with Force
}

// AdvanceResult reports what an advance did.
type AdvanceResult struct {
	SessionID  string        `json:"session_id"`
	Advanced   bool          `json:"advanced"`
	From       string        `json:"from"`
	To         string        `json:"to"`
	State      State         `json:"state"`
	Gates      []GateResult  `json:"gates"`
	Warnings   []string      `json:"warnings"`
	Violations []Violation   `json:"violations"`
	Blocked    *BlockedPhase `json:"blocked,omitempty"`
	// Next is the next step in MCP's terms; NextSteps the same as data,
	// for the other callers to render (the CLI names its commands).
	Next       string        `json:"next_step"`
	NextSteps  []NextStep    `json:"next_steps,omitempty"`
	SnapshotID string        `json:"snapshot_id,omitempty"`
	phases     []PhaseResult // results to store
	tokens     []string      // events to append
	violations []*Violation  // violations to store
}

// BlockedPhase says why a phase blocks and what would unblock it.
type BlockedPhase struct {
	Phase          string    `json:"phase"`
	Title          string    `json:"title"`
	Level          GateLevel `json:"requirement_level"`
	Reason         string    `json:"reason"`
	EvidenceNeeded []string  `json:"evidence_needed"`
	// OpenRequirements are the requirements (by id) still waiting for
	// evidence or a not-applicable record.
	OpenRequirements []RequirementStatus `json:"open_requirements,omitempty"`
}

// Advance moves the session to the next position (or to Target), checking
// each gate on the way. Mandatory gates that fail stop the walk unless
// Force, which records a violation; optional gates that fail are skipped
// with a warning.
func (e *Engine) Advance(ctx context.Context, req AdvanceRequest) (*AdvanceResult, error) {
	s, spec, err := e.load(ctx, req.ID)
	if err != nil {
		return nil, err
	}
	if req.Force && strings.TrimSpace(req.Reason) == "" {
		return nil, invalidf("force needs a reason: say why the gate is skipped (it is recorded with the violation)")
	}
	if req.Force {
		if err := plaintext.Check("reason", strings.TrimSpace(req.Reason), 2000, true); err != nil {
			return nil, err
		}
	}
	ps := walk(spec)
	cur := currentIndex(s, ps)
	if cur < 0 {
		return nil, fmt.Errorf("session %s is at %q, which its protocol does not have", s.ID, s.Phase)
	}
	target := cur + 1
	if req.Target != "" {
		target = indexOf(ps, req.Target)
		if target < 0 || ps[target].name == PosDone {
			return nil, invalidf("unknown target phase %q: use WORKING or one of %s", truncate(req.Target, 64), phaseIDs(spec))
		}
		if target <= cur {
			return nil, invalidf("target %s is not ahead of the current position %s: phases only move forward", req.Target, ps[cur].name)
		}
	}
	if cur == len(ps)-1 || target >= len(ps) {
		return nil, refusedf("session %s has passed every end phase: end it: sessiongate session end --summary \"...\" (MCP: session_end)", s.ID)
	}
	// Before force is considered: a protected change is never forced past.
	if err := e.guardProtected(ctx, s, "advance_phase"); err != nil {
		return nil, err
	}
	res := &AdvanceResult{SessionID: s.ID, From: ps[cur].name, Warnings: []string{}, Violations: []Violation{}}
	res.tokens = []string{"tool:advance_phase"}
	if req.Force {
		res.tokens = []string{"tool:advance_phase:force"}
		carried, err := e.Carried(ctx, e.Store, s)
		if err != nil {
			return nil, err
		}
		if len(carried) > 0 {
			v := carried[0]
			return nil, fmt.Errorf("%w: a %s %s violation %s is still active in this session (window %s, %d run(s)); satisfy the gate instead", ErrForceRefused, v.Severity, v.Code, violationOrigin(v), v.Window, v.DecayRuns)
		}
	}
	pol, err := e.CheckPolicy(ctx, s, res.tokens[0])
	if err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, pol.Warnings...)
	res.tokens = append(res.tokens, pol.Tokens()...)
	now := e.now()
	moved := cur
	for i := cur; i < target; i++ {
		p := ps[i].phase
		if p == nil { // WORKING: nothing to check on the way out
			moved = i + 1
			continue
		}
		g, err := e.evaluate(ctx, s, p, false)
		if err != nil {
			return nil, err
		}
		res.Gates = append(res.Gates, g)
		st := settle(s, p, g, req.Force, req.Reason, now)
		res.phases = append(res.phases, st.result)
		res.tokens = append(res.tokens, st.tokens...)
		res.Warnings = append(res.Warnings, st.warnings...)
		if st.violation != nil {
			res.violations = append(res.violations, st.violation)
		}
		if st.blocked != nil {
			res.Blocked = st.blocked
			break
		}
		moved = i + 1
	}
	setPosition(s, ps, moved)
	e.touch(s)
	res.Advanced = moved > cur
	res.To = ps[moved].name
	res.State = s.State
	res.Next = nextStep(s, ps, moved, res.Blocked)
	res.NextSteps = nextSteps(ps, moved, res.Blocked, res.Gates)
	if !res.Advanced {
		res.tokens = append(res.tokens, "tool:advance_phase:blocked")
	}
	err = e.Store.Update(ctx, func(w Writer) error {
		fresh, err := w.GetSession(ctx, s.ID)
		if err != nil {
			return err
		}
		if currentIndex(fresh, ps) != cur || !fresh.Active() {
			return fmt.Errorf("session %s moved while its gates ran (now %s %s): retry", s.ID, fresh.State, fresh.Phase)
		}
		if err := w.UpdateSession(ctx, s); err != nil {
			return err
		}
		for _, r := range res.phases {
			if err := w.PutPhaseResult(ctx, r); err != nil {
				return err
			}
		}
		for _, v := range res.violations {
			if err := w.AddViolation(ctx, v); err != nil {
				return err
			}
			res.Violations = append(res.Violations, *v)
		}
		if err := e.appendEvents(ctx, w, s.ID, now, res.tokens...); err != nil {
			return err
		}
		if res.Advanced {
			res.SnapshotID, err = e.takeSnapshot(ctx, w, s, spec)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("advance session: %w", err)
	}
	e.publishViolations(ctx, s.ID, res.violations...)
	// Judged calls that never reported (gateunreported.go): not a block.
	if v, err := e.UnreportedAtGate(ctx, s.ID, "session advance"); err != nil {
		return nil, err
	} else if v != nil {
		res.Violations = append(res.Violations, *v)
	}
	return res, nil
}

// settled is what one phase's gate result does to a walk through phases.
type settled struct {
	result    PhaseResult
	tokens    []string
	warnings  []string
	violation *Violation
	blocked   *BlockedPhase // the walk stops here
}

// settle decides a phase on its gate result, the one rule Advance and End
// share: a passing (or nothing-to-check) gate passes; a failing optional
// gate is skipped with a warning; a failing mandatory gate blocks, unless
// forced, which records a violation. Forcing a BLOCKING gate stays visible
// to the next session (and bars it from forcing); a REQUIRED one only to
// this session.
func settle(s *Session, p *protocolspec.Phase, g GateResult, force bool, reason string, now time.Time) settled {
	out := settled{tokens: []string{gateToken(p.ID, g.Status)}}
	switch {
	case g.Status != StatusFail:
		st := PhasePassed
		if g.Status == StatusSkipped {
			st = PhaseSkipped
		}
		out.result = resultFrom(s.ID, g, st, now)
		if p.Mandatory() && g.Decision == "" && checkedNothing(g.Checks) {
			// Not a block (a repository without tests has none to run),
			// but never a pass: the session ends not clean (verdict.go).
			// Also when another check of the gate passed: evidence the
			// agent records itself must not hide a command that checked
			// nothing.
			out.result.Decision = DecisionNothingChecked
			out.warnings = []string{fmt.Sprintf("%s gate %s checked nothing, which is not a pass: the session will not be clean", p.Level(), p.ID)}
		}
	case !p.Mandatory():
		out.warnings = []string{fmt.Sprintf("%s gate %s skipped: %s", p.Level(), p.ID, g.Message)}
		out.result = resultFrom(s.ID, g, PhaseSkipped, now)
		out.result.Decision = "SKIPPED: " + strings.ToLower(string(p.Level())) + " gate failed"
		out.tokens = append(out.tokens, "gate:"+p.ID+":skip")
	case force:
		sev, window, decay := SeverityHigh, WindowSession, 0
		if p.Level() == protocolspec.GateBlocking {
			sev, window, decay = SeverityCritical, WindowCrossSessionDecay, DecayForcedBlocked
		}
		out.violation = &Violation{SessionID: s.ID, RepoID: s.RepoID, Phase: p.ID, Requirement: string(p.Level()) + " gate " + p.Title,
			Severity: sev, Code: CodeForcedAdvance, Window: window, DecayRuns: decay, CreatedAt: now,
			Message: fmt.Sprintf("forced past failing %s gate %s (%s): %s", p.Level(), p.ID, truncate(reason, 300), g.Message)}
		out.result = resultFrom(s.ID, g, PhaseForced, now)
		out.result.Decision = "FORCED: " + truncate(reason, 200)
		out.tokens = append(out.tokens, "gate:"+p.ID+":forced:"+strings.ToLower(string(p.Level())))
	default:
		out.result = resultFrom(s.ID, g, PhaseFailed, now)
		out.blocked = blockedFrom(p, g)
	}
	return out
}

// nextSteps is nextStep as data: what fixes the blocked gate, then what
// moves the session on.
func nextSteps(ps []position, i int, b *BlockedPhase, gates []GateResult) []NextStep {
	switch {
	case b != nil:
		steps := gateFixes(gates, b.Phase)
		return append(steps,
			NextStep{Action: StepAdvance, Why: "then move on"},
			NextStep{Action: StepBlockedReason, Why: "details"})
	case ps[i].name == PosWorking:
		return []NextStep{
			{Action: StepAdvance, Why: "start protocol complete: do the work, then enter the end protocol"},
			{Action: StepEnd, Why: "or end the session"}}
	case ps[i].name == PosDone:
		return []NextStep{{Action: StepEnd, Why: "every end phase done"}}
	}
	return []NextStep{
		{Action: StepCheckGate, Phase: ps[i].name, Why: "now in " + ps[i].name + ": satisfy its gate"},
		{Action: StepAdvance, Why: "then move on"}}
}

// gateFixes collects the fixes of the failing checks of phase's gate.
func gateFixes(gates []GateResult, phase string) []NextStep {
	var out []NextStep
	for _, g := range gates {
		if g.Phase != phase || g.Status != StatusFail {
			continue
		}
		for _, c := range g.Checks {
			fixes := c.Fixes // every open requirement's, not the first one's alone
			if len(fixes) == 0 && c.Fix != nil {
				fixes = []NextStep{*c.Fix}
			}
			for _, f := range fixes {
				if f.Why == "" {
					f.Why = "satisfy " + phase
				}
				if !slices.Contains(out, f) {
					out = append(out, f)
				}
			}
		}
	}
	out = CapFixes(out, phase)
	if len(out) == 0 {
		out = append(out, NextStep{Action: StepCheckGate, Phase: phase, Why: "fix what " + phase + "'s gate reports, then check it"})
	}
	return out
}

func nextStep(s *Session, ps []position, i int, b *BlockedPhase) string {
	switch {
	case b != nil:
		return fmt.Sprintf("satisfy %s (%s), then advance_phase again; or get_blocked_reason for details", b.Phase, strings.Join(b.EvidenceNeeded, "; "))
	case ps[i].name == PosWorking:
		return "start protocol complete: do the work, then advance_phase into the end protocol or call session_end"
	case ps[i].name == PosDone:
		return "every end phase done: call session_end with a summary"
	}
	return fmt.Sprintf("now in %s: satisfy its gate, then advance_phase", ps[i].name)
}

func blockedFrom(p *protocolspec.Phase, g GateResult) *BlockedPhase {
	b := &BlockedPhase{Phase: p.ID, Title: p.Title, Level: p.Level(), Reason: g.Message, EvidenceNeeded: evidenceNeeded(p, g)}
	for _, c := range g.Checks {
		b.OpenRequirements = append(b.OpenRequirements, c.Open...)
	}
	return b
}

// evidenceNeeded says, per failing check, what would make it pass.
func evidenceNeeded(p *protocolspec.Phase, g GateResult) []string {
	var out []string
	for _, c := range g.Checks {
		if c.Status != StatusFail {
			continue
		}
		if len(c.Open) > 0 {
			for _, o := range c.Open {
				out = append(out, openNeed(o))
			}
			continue
		}
		out = append(out, describeCheck(p, c.Kind, c.Arg))
	}
	if len(out) == 0 {
		for _, c := range p.Checks {
			out = append(out, describeCheck(p, c.Kind, c.Arg))
		}
	}
	return out
}

// describeCheck says in words what one check needs (nextstep.Need).
func describeCheck(p *protocolspec.Phase, kind CheckKind, arg string) string {
	return nextstep.Need(p, kind, arg)
}

// BlockedReport is what get_blocked_reason returns.
type BlockedReport struct {
	SessionID        string         `json:"session_id"`
	State            State          `json:"state"`
	Phase            string         `json:"phase"`
	IsBlocked        bool           `json:"is_blocked"`
	BlockedPhases    []BlockedPhase `json:"blocked_phases"`
	SuggestedActions []string       `json:"suggested_actions"`
	Warnings         []string       `json:"warnings,omitempty"`
}

// BlockedReason checks the current phase's gate and lists the mandatory
// phases still ahead in the current protocol section.
func (e *Engine) BlockedReason(ctx context.Context, id string) (*BlockedReport, error) {
	s, spec, err := e.load(ctx, id)
	if err != nil {
		return nil, err
	}
	pol, err := e.CheckPolicy(ctx, s, "tool:get_blocked_reason")
	if err != nil {
		return nil, err
	}
	if err := e.Store.Update(ctx, func(w Writer) error {
		return e.appendEvents(ctx, w, s.ID, e.now(), append([]string{"tool:get_blocked_reason"}, pol.Tokens()...)...)
	}); err != nil {
		return nil, fmt.Errorf("record call: %w", err)
	}
	rep := &BlockedReport{SessionID: s.ID, State: s.State, Phase: s.Phase, BlockedPhases: []BlockedPhase{}, SuggestedActions: []string{}}
	rep.Warnings = pol.Warnings
	if s.Phase != "" {
		p, _ := spec.Phase(s.Phase)
		g, err := e.evaluate(ctx, s, p, false)
		if err != nil {
			return nil, err
		}
		if g.Status == StatusFail && p.Mandatory() {
			rep.IsBlocked = true
			rep.BlockedPhases = append(rep.BlockedPhases, *blockedFrom(p, g))
			for _, need := range evidenceNeeded(p, g) {
				rep.SuggestedActions = append(rep.SuggestedActions, "provide "+need)
			}
			rep.SuggestedActions = append(rep.SuggestedActions, "then advance_phase; or advance_phase force=true with a reason (recorded as a violation)")
		} else {
			rep.SuggestedActions = append(rep.SuggestedActions, "advance_phase: the gate of "+p.ID+" passes")
		}
		// Later mandatory phases of the same section are pending.
		after := false
		for i := range spec.Phases {
			q := &spec.Phases[i]
			if q.ID == p.ID {
				after = true
				continue
			}
			if after && q.Section == p.Section && q.Mandatory() {
				rep.BlockedPhases = append(rep.BlockedPhases, BlockedPhase{Phase: q.ID, Title: q.Title, Level: q.Level(),
					Reason: "pending: comes after " + p.ID, EvidenceNeeded: evidenceNeeded(q, GateResult{})})
			}
		}
		if s.State == StateInit {
			rep.IsBlocked = true // work is blocked until the start protocol is done
		}
	} else if s.State == StateWorking {
		rep.SuggestedActions = append(rep.SuggestedActions, "work, then session_end (or advance_phase into the end protocol)")
	} else {
		rep.SuggestedActions = append(rep.SuggestedActions, "session_end with a summary")
	}
	return rep, nil
}

// EndRequest ends a session.
type EndRequest struct {
	ID        string
	Summary   string
	NextNotes string
	SkipQA    bool // skip the QA phase: allowed only when every changed file is documentation
}

// EndResult reports the end of a session.
type EndResult struct {
	SessionID string        `json:"session_id"`
	Ended     bool          `json:"ended"`
	State     State         `json:"state"`
	EndCommit string        `json:"ending_commit"`
	Gates     []GateResult  `json:"gates"`
	Warnings  []string      `json:"warnings"`
	Blocked   *BlockedPhase `json:"blocked,omitempty"`
	// Next is the next step in MCP's terms; NextSteps the same as data.
	Next      string     `json:"next_step"`
	NextSteps []NextStep `json:"next_steps,omitempty"`
	// SnapshotID is the final snapshot; RecordFile the session record written.
	SnapshotID string `json:"snapshot_id,omitempty"`
	RecordFile string `json:"record_file,omitempty"`
	// Verdict is Verdict's line once the session ended ("COMPLETE, not
	// clean: ..."), filled by the caller that shows it (CLI, MCP).
	Verdict string `json:"verdict,omitempty"`
}

// End walks the remaining end phases (never forcing) and completes the session.
func (e *Engine) End(ctx context.Context, req EndRequest) (*EndResult, error) {
	summary := strings.TrimSpace(req.Summary)
	if summary == "" {
		return nil, invalidf("summary is required: say what the session did")
	}
	if err := plaintext.Check("summary", summary, 8000, true); err != nil {
		return nil, err
	}
	if err := plaintext.Check("next_session_notes", req.NextNotes, 8000, true); err != nil {
		return nil, err
	}
	// Repeats held back in memory are written while the session is still
	// active (the flush writes only for active sessions): its history
	// keeps every gate call it made.
	e.FlushGateRepeats(ctx)
	s, spec, err := e.load(ctx, req.ID)
	if err != nil {
		return nil, err
	}
	if s.State == StateInit {
		return nil, refusedf("session %s is still in its start protocol (%s): finish it, or terminate the session with a reason", s.ID, s.Phase)
	}
	if err := e.guardProtected(ctx, s, "session_end"); err != nil {
		return nil, err
	}
	pol, err := e.CheckPolicy(ctx, s, "tool:session_end")
	if err != nil {
		return nil, err
	}
	// Judged calls that never reported (gateunreported.go), recorded
	// before the end's snapshot so the record holds it; not a block.
	if v, err := e.UnreportedAtGate(ctx, s.ID, "session end"); err != nil {
		return nil, err
	} else if v != nil {
		pol.Warnings = append(pol.Warnings, fmt.Sprintf("%s %s violation recorded: %s", v.Severity, v.Code, v.Message))
	}
	ps := walk(spec)
	cur := currentIndex(s, ps)
	res := &EndResult{SessionID: s.ID, Warnings: append([]string{}, pol.Warnings...)}
	var qaDecision string
	if req.SkipQA {
		if qaDecision, err = e.docsOnly(ctx, s, spec); err != nil {
			return nil, err
		}
	}
	if c, err := e.summaryClaim(ctx, s, summary); err != nil {
		return nil, err
	} else if c != "" {
		return nil, refusedf("the summary reports work as done (%q), but this session changed no file: do the work and commit it, or say that it was not done (no change was needed, it was only read, what was found)", c)
	}
	// From here until the end commits, evidence is refused ("session is
	// ending"): the gates below judge what was recorded before this mark,
	// and nothing lands after ended_at.
	mark, err := e.markEnding(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	committed := false
	defer func() {
		if !committed {
			e.clearEnding(s.ID, mark)
		}
	}()
	now := e.now()
	var results []PhaseResult
	tokens := append([]string{"tool:session_end"}, pol.Tokens()...)
	var branchMoved *Event // the work ended on another branch than it started on
	moved := cur
	if !req.SkipQA {
		// A QA phase that passed before the last change to the work
		// passes again on the work as committed, or the end is blocked.
		g, p, err := e.staleQA(ctx, s, ps, cur)
		if err != nil {
			return nil, err
		}
		if g != nil {
			res.Gates = append(res.Gates, *g)
			res.Blocked = blockedFrom(p, *g)
			tokens = append(tokens, "gate:"+p.ID+":stale")
		}
	}
	if res.Blocked == nil {
		g, p, err := e.branchAtEnd(ctx, s, ps)
		if err != nil {
			return nil, err
		}
		if g != nil {
			res.Gates = append(res.Gates, *g)
			res.Blocked = blockedFrom(p, *g)
			tokens = append(tokens, "gate:"+p.ID+":stale")
		}
	}
	for _, atEnd := range []func(context.Context, *Session, []position, int) (*GateResult, *protocolspec.Phase, error){e.commitChecksAtEnd, e.evidenceFilesAtEnd, e.changedFilesAtEnd} {
		if res.Blocked != nil {
			break
		}
		g, p, err := atEnd(ctx, s, ps, cur)
		if err != nil {
			return nil, err
		}
		if g != nil {
			res.Gates = append(res.Gates, *g)
			res.Blocked = blockedFrom(p, *g)
			tokens = append(tokens, "gate:"+p.ID+":stale")
		}
	}
	var violations []*Violation
	if res.Blocked == nil {
		// Every phase behind the position passed by a gate of its own, not
		// by a row the agent wrote (phaseaudit.go).
		au, err := e.auditPhases(ctx, s, ps, cur, now)
		if err != nil {
			return nil, err
		}
		res.Gates = append(res.Gates, au.gates...)
		results = append(results, au.results...)
		tokens = append(tokens, au.tokens...)
		violations = au.violations
		res.Blocked = au.blocked
	}
	for i := cur; i < len(ps)-1 && res.Blocked == nil; i++ {
		p := ps[i].phase
		if p == nil {
			moved = i + 1
			continue
		}
		if req.SkipQA && isQA(p) {
			g := GateResult{Phase: p.ID, Title: p.Title, Level: p.Level(), Status: StatusSkipped, Decision: qaDecision, Message: "QA skipped: " + qaDecision}
			res.Gates = append(res.Gates, g)
			results = append(results, resultFrom(s.ID, g, PhaseSkipped, now))
			tokens = append(tokens, "gate:"+p.ID+":skip")
			moved = i + 1
			continue
		}
		g, err := e.evaluate(ctx, s, p, false)
		if err != nil {
			return nil, err
		}
		res.Gates = append(res.Gates, g)
		st := settle(s, p, g, false, "", now) // session_end never forces
		results = append(results, st.result)
		tokens = append(tokens, st.tokens...)
		res.Warnings = append(res.Warnings, st.warnings...)
		if st.blocked != nil {
			res.Blocked = st.blocked
			break
		}
		moved = i + 1
	}
	setPosition(s, ps, moved)
	e.touch(s)
	if res.Blocked == nil {
		repo, err := e.OpenRepo(ctx, s.Worktree)
		if err != nil {
			return nil, err
		}
		head, branch, err := repo.Head(ctx)
		if err != nil {
			return nil, err
		}
		// The record names the branch the work was committed on, not the
		// one the session started on (a feature branch made after start).
		if branch != "" && branch != s.Branch {
			detail, _ := json.Marshal(map[string]string{"from": s.Branch, "to": branch})
			branchMoved = &Event{SessionID: s.ID, Token: TokBranchMoved, CreatedAt: now, Detail: string(detail)}
			s.Branch = branch
		}
		s.State, s.Phase, s.EndCommit, s.EndedAt = StateComplete, "", head, now
		s.Summary, s.NextNotes = summary, strings.TrimSpace(req.NextNotes)
		res.Ended, res.EndCommit = true, head
		res.Next = "session complete; the next session's start shows this summary"
		// What a reviewer should read, found once the work is final.
		violations = append(violations, e.reviewFlags(ctx, s, spec)...)
	} else {
		tokens = append(tokens, "tool:session_end:blocked")
		res.Next = fmt.Sprintf("%s blocks the end: provide %s, then call session_end again", res.Blocked.Phase, strings.Join(res.Blocked.EvidenceNeeded, "; "))
		res.NextSteps = append(gateFixes(res.Gates, res.Blocked.Phase), NextStep{Action: StepEnd, Why: "then end the session again"})
	}
	res.State = s.State
	s.EndingAt = time.Time{} // the end's mark goes with its write
	var flagged map[string]string
	var flaggedOK bool
	if res.Ended {
		flagged, flaggedOK = e.flaggedAtEnd(ctx, s) // hiddenstart.go
	}
	err = e.Store.Update(ctx, func(w Writer) error {
		fresh, err := w.GetSession(ctx, s.ID)
		if err != nil {
			return err
		}
		if currentIndex(fresh, ps) != cur || !fresh.Active() || !fresh.EndingAt.Equal(mark) {
			return fmt.Errorf("session %s moved while its gates ran (now %s %s): retry", s.ID, fresh.State, fresh.Phase)
		}
		// Stamped as it commits: every evidence row was committed before
		// the mark, so none is dated after ended_at, and the end's events
		// follow every event before them in time as in order.
		at := e.now()
		if res.Ended {
			s.EndedAt = at
		}
		if branchMoved != nil {
			branchMoved.CreatedAt = at
		}
		if err := w.UpdateSession(ctx, s); err != nil {
			return err
		}
		for _, r := range results {
			if err := w.PutPhaseResult(ctx, r); err != nil {
				return err
			}
		}
		for _, v := range violations {
			if err := w.AddViolation(ctx, v); err != nil {
				return err
			}
		}
		if err := e.appendEvents(ctx, w, s.ID, at, tokens...); err != nil {
			return err
		}
		if branchMoved != nil {
			if err := w.AppendEvents(ctx, branchMoved); err != nil {
				return err
			}
		}
		if res.Ended {
			if err := e.recordHiddenAtEnd(ctx, w, s, flagged, flaggedOK); err != nil {
				return err
			}
			res.SnapshotID, err = e.takeSnapshot(ctx, w, s, spec)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("end session: %w", err)
	}
	committed = true
	e.publishViolations(ctx, s.ID, violations...)
	if res.Ended {
		// The record is written after the commit so it holds the final
		// snapshot; a failure here leaves the session ended and says so.
		if res.RecordFile, err = e.writeRecord(ctx, s); err != nil {
			res.Warnings = append(res.Warnings, err.Error())
		} else if IsRecordRef(e.Config.SessionRecord) {
			res.Next += "; the session record is on " + e.Config.SessionRecord + " (no commit needed: git push sends it)"
		} else if res.RecordFile != "" {
			res.Next += "; commit the session record " + res.RecordFile
		}
	}
	return res, nil
}

func isQA(p *protocolspec.Phase) bool {
	for _, part := range strings.Split(p.ID, "_") {
		if part == "QA" {
			return true
		}
	}
	return false
}

// docsOnly allows skip_qa only when every changed file is documentation,
// the rule real protocols write ("MAY skip QA only when all modified files
// are documentation files"), and, when the protocol also says the change
// must be "strictly editorial", only when it is (editorial.go, editorial/).
func (e *Engine) docsOnly(ctx context.Context, s *Session, spec *protocolspec.Spec) (string, error) {
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return "", err
	}
	// A session that continues ABANDONED ones answers for their work too
	// (verify passes their commits on its end gates): their files count
	// (round 55: broken code committed in a superseded session, then a
	// README line and skip_qa in the next, passed CI with no QA run).
	if cs, _, err := e.continuedFrom(ctx, repo, s); err != nil {
		return "", err
	} else if cs != nil {
		s = cs
	}
	files, err := sessionFiles(ctx, repo, s)
	if err != nil {
		return "", err
	}
	var code []string
	for _, f := range files {
		doc := false
		for _, g := range e.Config.DocGlobs {
			if repopath.Match(g, f) {
				doc = true
				break
			}
		}
		if !doc {
			code = append(code, f)
		}
	}
	if len(code) > 0 {
		if len(code) > 5 {
			code = append(code[:5], "...")
		}
		return "", refusedf("skip_qa refused: non-documentation files changed (%s); run QA validation instead", strings.Join(code, ", "))
	}
	if _, ok := editorial.Allowed(spec); !ok {
		for i := range spec.Phases {
			p := &spec.Phases[i]
			if !isQA(p) || !e.hasCommand(p) {
				continue // the phases End skips; one with no command has no suite to run
			}
			return "", refusedf("skip_qa refused: the protocol gives %s no exception (no sentence lets the agent skip QA) and it runs the project's tests: run them (sessiongate gate, or sessiongate run --phase %s -- the command)", p.ID, p.ID)
		}
	}
	if r, ok := editorial.Required(spec); ok {
		why, err := e.checkEditorial(ctx, repo, s, spec, files)
		if err != nil {
			return "", err
		}
		if why != "" {
			return "", refusedf("skip_qa refused: the protocol allows it only for strictly editorial changes (line %d: %q), and %s; run QA validation instead", r.Line, truncate(r.Text, 120), why)
		}
		return "SKIPPED: docs-only, editorial", nil
	}
	return "SKIPPED: docs-only", nil
}

// violationOrigin says where a violation came from: a session, or (a
// commit made with no session running, say) none, at a time.
func violationOrigin(v Violation) string {
	if v.SessionID == "" {
		return "recorded outside any session at " + v.CreatedAt.UTC().Format(time.RFC3339)
	}
	return "from session " + v.SessionID
}

// markEnding records that an end of session id begins now, refusing
// evidence until the end commits (or clearEnding): what the end's gates
// read is then all the session will have. A second end while one runs is
// told to wait; a mark older than EndLease is an end that died.
func (e *Engine) markEnding(ctx context.Context, id string) (time.Time, error) {
	var mark time.Time
	err := e.Store.Update(ctx, func(w Writer) error {
		cur, err := w.GetSession(ctx, id)
		if err != nil {
			return err
		}
		if !cur.Active() {
			return fmt.Errorf("session %s: %w (%s)", id, ErrEnded, cur.State)
		}
		// Taken in the write lock: every evidence row committed before
		// is dated before it.
		mark = e.now()
		if cur.Ending(mark) {
			return refusedf("session %s is ending: a session end began at %s and is still running; wait for it", id, cur.EndingAt.Format(time.RFC3339))
		}
		cur.EndingAt = mark
		return w.UpdateSession(ctx, cur)
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("mark the session ending: %w", err)
	}
	return mark, nil
}

// clearEnding removes an end's mark when the end returns without its
// write (an error): evidence is taken again. On a context of its own, as
// the caller's may be what was cancelled.
func (e *Engine) clearEnding(id string, mark time.Time) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = e.Store.Update(ctx, func(w Writer) error {
		cur, err := w.GetSession(ctx, id)
		if err != nil || !cur.EndingAt.Equal(mark) {
			return err // gone, or another end's mark
		}
		cur.EndingAt = time.Time{}
		return w.UpdateSession(ctx, cur)
	})
}

// refuseWhileEnding is the evidence writers' check, in their write
// transaction: nothing is recorded while an end runs (it would not be
// judged) or after it.
func refuseWhileEnding(cur *Session, now time.Time) error {
	if !cur.Active() {
		return fmt.Errorf("session %s: %w (%s)", cur.ID, ErrEnded, cur.State)
	}
	if cur.Ending(now) {
		return refusedf("session %s is ending (session end began at %s): evidence recorded now would not be judged by it; if the end is blocked, record it then", cur.ID, cur.EndingAt.Format(time.RFC3339))
	}
	return nil
}
