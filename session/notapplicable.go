package session

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/sessiongate/sessiongate/claimtext"
	"github.com/sessiongate/sessiongate/repopath"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/notapplicable"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/toolneed"
)

// "Not applicable" without a condition a machine can check (issue 25.4).
// A mark is one of two kinds:
//   - checked: the requirement's (or phase's) condition is one sessiongate
//     can evaluate ("if docs/legacy.md exists", "when the work changed
//     db/"), or the requirement asks to read a file the repository does
//     not have. The mark is refused when the condition holds or the file
//     is there; otherwise nothing more is owed.
//   - pending: nothing a machine can check ("the serena MCP is available",
//     an unconditional requirement that honestly does not fit the work).
//     The gate takes it, so honest work goes on, but the session is never
//     shown as clean and CI's verify fails its commits until a person
//     accepts the mark (`sessiongate session accept-na`), an acceptance on
//     the records ref like `protocol accept`'s.
//
// What a lazy agent would wave through this way is refused up front: a
// reason that is padding or a copy of another mark's, a mark on the core
// work (running the tests, committing), and marks on more than half of a
// phase's requirements (the phase itself is then marked, and reads as not
// done, never as passed).

// Not-applicable standings.
const (
	NAChecked  = "checked"  // a machine saw that it does not apply
	NAPending  = "pending"  // taken on the agent's reason until a person accepts it
	NAAccepted = "accepted" // pending, and a person accepted it (records ref)
	// NAOptional: a mark on a phase the protocol makes optional ("Optional
	// Retrospective", "when the work produced durable learning"), or on a
	// requirement of one. Skipping that phase ends clean, so marking it,
	// as the refusal of a requirement's mark advises, owes no person's
	// acceptance either (lazy pass 39: an honest agent following that
	// advice ended "not clean: N/A pending acceptance").
	NAOptional = "optional"
)

// DecisionNotApplicableOptional is the decision of an optional phase
// marked not applicable as a whole.
const DecisionNotApplicableOptional = "NOT_APPLICABLE_OPTIONAL"

// optionalAsWritten reports whether p binds as OPTIONAL and has no command
// gate of its own: its text or marker lets the work skip it.
func optionalAsWritten(p *protocolspec.Phase) bool {
	if p.Level() != protocolspec.GateOptional {
		return false
	}
	for _, c := range p.Checks {
		if c.Kind == protocolspec.CheckCommand && !c.Builtin {
			return false
		}
	}
	return true
}

// DecisionNotApplicablePending is the decision of a phase marked not
// applicable as a whole, on a reason a person has yet to accept.
const DecisionNotApplicablePending = "NOT_APPLICABLE_PENDING_ACCEPTANCE"

// readTargets are the files a requirement asks to read, when every one is
// a plain path a machine can look for (a folder/file, no glob); nil else.
func readTargets(r protocolspec.Requirement) []string {
	if toolneed.Of(r) != toolneed.Read {
		return nil
	}
	var out []string
	for _, g := range r.NamedPaths() {
		g = strings.TrimSuffix(g, "/**")
		if !strings.Contains(g, "/") || repopath.HasMeta(g) {
			return nil
		}
		out = append(out, g)
	}
	return out
}

// naStanding says how a not-applicable mark on requirement r of phase p
// (r nil: the phase itself) is judged: NAChecked or NAPending.
func naStanding(spec *protocolspec.Spec, p *protocolspec.Phase, r *protocolspec.Requirement) string {
	if _, ok := notapplicable.CallFailureOf(p, r); ok {
		return NAChecked // whether the calls failed: the transcript (callfailure.go)
	}
	if _, _, ok := mcpNA(p, r); ok {
		return NAChecked // whether the MCP server is configured (conditions.go)
	}
	if r == nil {
		if _, ok := notapplicable.Checkable(spec, p.Condition); ok {
			return NAChecked
		}
		if optionalAsWritten(p) {
			return NAOptional
		}
		return NAPending
	}
	text := r.Text
	if _, ok := notapplicable.Clause(text); !ok {
		text = p.Condition
	}
	if _, ok := notapplicable.Checkable(spec, text); ok { // "" states no condition
		return NAChecked
	}
	if !r.Conditional && p.Condition == "" && readTargets(*r) != nil {
		return NAChecked // unconditional: the file's absence is checked
	}
	if optionalAsWritten(p) {
		return NAOptional
	}
	return NAPending // a condition no machine can check, or none
}

// NAStanding is naStanding by ids, for readers of records (verify): the
// requirement id "" asks about the phase. ok is false when the protocol has
// no such phase or requirement.
func NAStanding(spec *protocolspec.Spec, phaseID, reqID string) (standing string, ok bool) {
	p, found := spec.Phase(phaseID)
	if !found {
		return "", false
	}
	if reqID == "" {
		return naStanding(spec, p, nil), true
	}
	r, found := p.Requirement(reqID)
	if !found {
		return "", false
	}
	return naStanding(spec, p, &r), true
}

// isNAMark reports whether evidence is a not-applicable mark: on a
// requirement, or on a phase (its condition, or the phase as a whole).
func isNAMark(e Evidence) bool {
	return !e.Observed() && e.Origin != OriginTranscript && (e.Step == StepNotApplicable || e.Step == StepCondition)
}

// checkNotApplicable decides a not-applicable mark before it is stored:
// on requirement r of p, or on p itself when r is nil. It returns the
// mark's standing.
func (e *Engine) checkNotApplicable(ctx context.Context, spec *protocolspec.Spec, sid string, p *protocolspec.Phase, r *protocolspec.Requirement, body string) (string, error) {
	what := "phase " + p.ID
	if r != nil {
		what = r.ID
	}
	if pd := claimtext.Padding(body); pd != "" && len(strings.Fields(body)) < 3 {
		return "", invalidf("not_applicable for %s needs the reason it does not apply, not %q: say what makes the condition false", what, truncate(pd, 40))
	}
	s, err := e.Store.GetSession(ctx, sid)
	if err != nil {
		return "", fmt.Errorf("load session: %w", err)
	}
	if _, ok := notapplicable.CallFailureOf(p, r); ok {
		// The calls' results come from the transcript: read what it gained.
		if _, err := e.ingestTranscripts(ctx, s, spec); err != nil {
			return "", err
		}
	}
	standing, err := e.naRefusal(ctx, spec, s, p, r)
	if err != nil || standing == NAChecked {
		return standing, err
	}
	// A condition the protocol wrote is answered in few words ("no issue is
	// linked"); a requirement with none needs the why a person can judge.
	conditional := p.Condition != "" || r != nil && r.Conditional
	if !conditional && (len(strings.Fields(body)) < notapplicable.MinReasonWords || claimtext.PaddingPrefix().MatchString(strings.TrimSpace(body))) {
		return "", invalidf("not_applicable for %s is taken only with a reason a person can judge later: %q says nothing (at least %d words on why it does not fit this work)", what, truncate(strings.TrimSpace(body), 60), notapplicable.MinReasonWords)
	}
	evs, err := e.Store.ListEvidence(ctx, sid)
	if err != nil {
		return "", fmt.Errorf("load evidence: %w", err)
	}
	reqID := ""
	if r != nil {
		reqID = r.ID
	}
	mine := notapplicable.NormalReason(truncate(firstLine(body), 120))
	sum := sha256Hex([]byte(body))
	for _, x := range evs {
		if !isNAMark(x) || x.Phase == p.ID && x.Requirement == reqID {
			continue // a mark of its own, recorded again
		}
		if x.SHA256 == sum || notapplicable.NormalReason(x.Ref) == mine {
			on := "phase " + x.Phase
			if x.Requirement != "" {
				on = x.Requirement
			}
			return "", refusedf("not_applicable for %s gives the reason already given for %s: one reason copied across marks explains none of them; say why this one does not fit the work", what, on)
		}
	}
	if r != nil && slices.ContainsFunc(p.OwedRequirements(), func(o protocolspec.Requirement) bool { return o.ID == r.ID }) {
		owed := p.OwedRequirements()
		marked := map[string]bool{r.ID: true}
		for _, x := range evs {
			if x.Phase != p.ID || x.Step != StepNotApplicable || x.Requirement == "" {
				continue
			}
			if q, ok := p.Requirement(x.Requirement); ok && naStanding(spec, p, &q) == NAPending {
				marked[x.Requirement] = true
			}
		}
		if 2*len(marked) > len(owed) {
			return "", refusedf("%d of the %d requirements of %s would be marked not applicable on the agent's word: a phase that does not fit the work is marked as a whole (sessiongate session evidence --phase %s --not-applicable \"REASON\"), and reads as not done until a person accepts it, never as passed", len(marked), len(owed), p.ID, p.ID)
		}
	}
	return standing, nil
}

// naRefusal is the part of checkNotApplicable that does not depend on the
// reason: the mark's standing, and why the engine refuses it whatever the
// reason says (its condition holds, the file it reads is there, it is the
// work itself). Hints ask it before they offer a mark (naOffer), so a hint
// never suggests a mark the engine then refuses.
func (e *Engine) naRefusal(ctx context.Context, spec *protocolspec.Spec, s *Session, p *protocolspec.Phase, r *protocolspec.Requirement) (string, error) {
	what := "phase " + p.ID
	if r != nil {
		what = r.ID
	}
	standing := naStanding(spec, p, r)
	if standing == NAChecked {
		if cond, ok := notapplicable.CallFailureOf(p, r); ok {
			return standing, e.callFailureNA(ctx, s, what, cond)
		}
		if server, want, ok := mcpNA(p, r); ok {
			return standing, e.mcpNAHolds(ctx, s, what, server, want)
		}
		if r != nil && !r.Conditional && p.Condition == "" && readTargets(*r) != nil {
			return standing, e.readTargetAbsent(ctx, s, *r)
		}
		text := p.Condition
		if r != nil {
			if _, ok := notapplicable.Clause(r.Text); ok {
				text = r.Text
			}
		}
		return standing, e.notApplicableHolds(ctx, s.ID, spec, what, text)
	}
	// Pending: only a person can say it does not apply.
	if r != nil && notapplicable.FixesReports(r.Text) {
		// "Fix what the checks report" after a passing run: the old
		// refusal said "do it", which sent an honest agent looking for
		// something to fix (issue 25 item c).
		return "", refusedf("%s cannot be marked not applicable: whether there is anything to fix is the checks' own answer. When their last run passed, record what it reported as this requirement's evidence (sessiongate session evidence --requirement %s --type tool_output --value \"WHAT THE RUN REPORTED\"); when it failed, fix what it reported and run the checks again", what, what)
	}
	if why := notapplicable.CoreWork(p, r, r == nil && phaseNamesCommand(p, e.Config)); why != "" {
		return "", refusedf("%s cannot be marked not applicable on a reason: %s, so it is the work itself, and no reason stands in for it; do it and record the evidence (if it truly cannot run, a person forces the gate with a reason, recorded as a violation)", what, why)
	}
	return standing, nil
}

// naOffer says whether a hint may offer a not-applicable mark on
// requirement r of p: true only when the engine would take it now.
// r nil asks about the phase as a whole, offered only when a machine
// checked it (a phase of MCP calls whose server is configured nowhere):
// a pending mark waits for a person, and no hint steers toward one.
type naOffer func(p *protocolspec.Phase, r *protocolspec.Requirement) bool

// naOffer is the engine's naOffer for session s (nil when there is none).
func (e *Engine) naOffer(ctx context.Context, s *Session, spec *protocolspec.Spec) naOffer {
	if s == nil || spec == nil {
		return nil
	}
	return func(p *protocolspec.Phase, r *protocolspec.Requirement) bool {
		standing, err := e.naRefusal(ctx, spec, s, p, r)
		return err == nil && (r != nil || standing == NAChecked || standing == NAOptional)
	}
}

// readTargetAbsent refuses a mark on a requirement to read files when one
// of them is in the repository: at the session's start, at HEAD or in the
// work tree. A file the repository lacks cannot be read, and saying so
// needs no person.
func (e *Engine) readTargetAbsent(ctx context.Context, s *Session, r protocolspec.Requirement) error {
	targets := readTargets(r)
	for _, g := range targets {
		if namedExists(s.Worktree, g) {
			return refusedf("%s is not \"not applicable\": it asks to read %s, which is in the work tree: read it and record the read", r.ID, g)
		}
	}
	if e.OpenRepo == nil {
		return nil
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return fmt.Errorf("open repository: %w", err)
	}
	for _, rev := range []string{s.StartCommit, "HEAD"} {
		if rev == "" {
			continue
		}
		for _, g := range targets {
			in, err := repo.ExistsAt(ctx, rev, g)
			if err != nil {
				return fmt.Errorf("look for %s at %s: %w", g, shortSHA(rev), err)
			}
			if in {
				return refusedf("%s is not \"not applicable\": it asks to read %s, which the repository has at %s (removed from the work tree since): restore it and read it", r.ID, g, shortSHA(rev))
			}
		}
	}
	return nil
}

// NAMark is one not-applicable mark of a session and where it stands.
type NAMark struct {
	Phase       string `json:"phase"`
	Requirement string `json:"requirement,omitempty"` // "" for the phase as a whole
	Reason      string `json:"reason"`                // the reason's first line, as stored
	SHA256      string `json:"reason_sha256"`
	Standing    string `json:"standing"` // checked, pending, accepted, optional
	// AcceptedBy says who accepted a pending mark, how and when.
	AcceptedBy string `json:"accepted_by,omitempty"`
}

// What names the mark: the requirement, or "phase X".
func (m NAMark) What() string {
	if m.Requirement != "" {
		return m.Requirement
	}
	return "phase " + m.Phase
}

// PendingNA lists the marks still waiting for a person.
func PendingNA(ms []NAMark) []NAMark {
	var out []NAMark
	for _, m := range ms {
		if m.Standing == NAPending {
			out = append(out, m)
		}
	}
	return out
}

// naMarks lists a session's not-applicable marks with their standing;
// pending ones a person accepted on the records ref read accepted. A
// repository that cannot be read leaves them pending.
func (e *Engine) naMarks(ctx context.Context, s *Session, spec *protocolspec.Spec, evs []Evidence) []NAMark {
	var out []NAMark
	for _, x := range evs {
		if !isNAMark(x) {
			continue
		}
		p, ok := spec.Phase(x.Phase)
		if !ok {
			continue
		}
		m := NAMark{Phase: x.Phase, Requirement: x.Requirement, Reason: x.Ref, SHA256: x.SHA256}
		if x.Requirement != "" {
			r, ok := p.Requirement(x.Requirement)
			if !ok {
				continue
			}
			m.Standing = naStanding(spec, p, &r)
		} else {
			m.Standing = naStanding(spec, p, nil)
		}
		out = append(out, m)
	}
	if len(PendingNA(out)) == 0 || e.OpenRepo == nil {
		return out
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return out
	}
	accepted := e.naAcceptances(ctx, repo)
	for i := range out {
		if out[i].Standing != NAPending {
			continue
		}
		if by, ok := accepted[NAKey(s.ID, out[i].Phase, out[i].Requirement, out[i].SHA256)]; ok {
			out[i].Standing, out[i].AcceptedBy = NAAccepted, by
		}
	}
	return out
}

// NotApplicableMarks returns a session's not-applicable marks.
func (e *Engine) NotApplicableMarks(ctx context.Context, id string) ([]NAMark, error) {
	s, err := e.Store.GetSession(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	spec, err := e.SpecFor(ctx, s.ProtocolSHA)
	if err != nil {
		return nil, err
	}
	evs, err := e.Store.ListEvidence(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("load evidence: %w", err)
	}
	return e.naMarks(ctx, s, spec, evs), nil
}

// NAAcceptanceSchema names a person's acceptance of not-applicable marks.
const NAAcceptanceSchema = "sessiongate.na-acceptance/1"

// NAAcceptance is a person's acceptance of a session's pending
// not-applicable marks, written to the records ref next to protocol
// acceptances (acceptances/<sha256>.json) and read by verify.
type NAAcceptance struct {
	Schema     string      `json:"schema"`
	SessionID  string      `json:"session_id"`
	Marks      []NAMarkRef `json:"marks"`
	Who        string      `json:"who"`
	Reason     string      `json:"reason"`
	Via        string      `json:"via"`
	AcceptedAt string      `json:"accepted_at"`
	Head       string      `json:"head,omitempty"`
}

// NAMarkRef names one accepted mark: its phase, requirement ("" for the
// phase) and the sha256 of its reason, so a mark recorded again with
// another reason is not covered.
type NAMarkRef struct {
	Phase        string `json:"phase"`
	Requirement  string `json:"requirement,omitempty"`
	ReasonSHA256 string `json:"reason_sha256"`
}

// NAKey is how an accepted mark is looked up.
func NAKey(sessionID, phase, requirement, reasonSHA string) string {
	return sessionID + "\x00" + phase + "\x00" + requirement + "\x00" + reasonSHA
}

// ParseNAAcceptance reads an acceptance of not-applicable marks.
func ParseNAAcceptance(b []byte) (*NAAcceptance, error) {
	var a NAAcceptance
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("not an acceptance of not-applicable marks: %w", err)
	}
	if a.Schema != NAAcceptanceSchema || ValidateID(a.SessionID) != nil {
		return nil, fmt.Errorf("not an acceptance of not-applicable marks: schema %q", a.Schema)
	}
	return &a, nil
}

// naAcceptances reads the accepted marks on the records ref, by NAKey,
// with who accepted each. Locally any acceptance counts (the dashboard and
// `session show` say who and how); verify in CI takes only a listed
// signer's signature when the base lists signers.
func (e *Engine) naAcceptances(ctx context.Context, repo Repo) map[string]string {
	bodies, err := repo.Acceptances(ctx, e.Config.AcceptanceRef())
	if err != nil {
		e.Logger.Warn("read not-applicable acceptances", "ref", e.Config.AcceptanceRef(), "err", err)
		return nil
	}
	out := map[string]string{}
	for _, b := range bodies {
		a, err := ParseNAAcceptance(b)
		if err != nil {
			continue
		}
		for _, m := range a.Marks {
			out[NAKey(a.SessionID, m.Phase, m.Requirement, m.ReasonSHA256)] = fmt.Sprintf("%s via %s at %s", truncate(a.Who, 120), truncate(a.Via, 120), a.AcceptedAt)
		}
	}
	return out
}

// AcceptNARequest is a person's acceptance of pending not-applicable marks.
type AcceptNARequest struct {
	Repo      Repo
	SessionID string
	// Which names the marks: a requirement id, a phase id (the phase's
	// own mark), or "" for every pending mark of the session.
	Which string
	Who   string
	// Reason is why the person accepts (required).
	Reason string
	Via    string
	Sign   bool
}

// AcceptNotApplicable writes a person's acceptance of a session's pending
// not-applicable marks onto the records ref and records it on the
// session. It refuses when nothing named is pending. The caller (the CLI)
// makes sure a person runs it.
func (e *Engine) AcceptNotApplicable(ctx context.Context, req AcceptNARequest) ([]NAMark, error) {
	if err := ValidateID(req.SessionID); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Reason) == "" {
		return nil, invalidf("a reason is required: why the marks do not apply, in the person's words")
	}
	marks, err := e.NotApplicableMarks(ctx, req.SessionID)
	if err != nil {
		return nil, err
	}
	which := strings.TrimSpace(req.Which)
	var pick []NAMark
	for _, m := range PendingNA(marks) {
		if which == "" || m.Requirement == which || m.Requirement == "" && m.Phase == which {
			pick = append(pick, m)
		}
	}
	if len(pick) == 0 {
		var pending []string
		for _, m := range PendingNA(marks) {
			pending = append(pending, m.What())
		}
		if len(pending) == 0 {
			return nil, invalidf("session %s has no not-applicable mark pending a person's acceptance", req.SessionID)
		}
		return nil, invalidf("session %s has no pending not-applicable mark for %q: pending are %s", req.SessionID, truncate(which, 120), strings.Join(pending, ", "))
	}
	head, _, err := req.Repo.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	a := NAAcceptance{Schema: NAAcceptanceSchema, SessionID: req.SessionID, Who: truncate(req.Who, 200), Reason: truncate(req.Reason, 500),
		Via: req.Via, AcceptedAt: stamp(e.now()), Head: head}
	for _, m := range pick {
		a.Marks = append(a.Marks, NAMarkRef{Phase: m.Phase, Requirement: m.Requirement, ReasonSHA256: m.SHA256})
	}
	b, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return nil, err
	}
	ref := e.Config.AcceptanceRef()
	if _, err := req.Repo.PutAcceptance(ctx, ref, append(b, '\n'), req.Sign); err != nil {
		return nil, fmt.Errorf("write the acceptance to %s: %w", ref, err)
	}
	now := e.now()
	err = e.Store.Update(ctx, func(w Writer) error {
		var tokens []string
		for _, m := range pick {
			id := m.Requirement
			if id == "" {
				id = m.Phase
			}
			tokens = append(tokens, "decision:"+id+":na_accepted")
		}
		return e.appendEvents(ctx, w, req.SessionID, now, tokens...)
	})
	if err != nil {
		return nil, fmt.Errorf("record the acceptance on the session: %w", err)
	}
	for i := range pick {
		pick[i].Standing, pick[i].AcceptedBy = NAAccepted, fmt.Sprintf("%s via %s at %s", a.Who, a.Via, a.AcceptedAt)
	}
	return pick, nil
}

// phaseMarkedNA is the gate of a phase without a condition that the
// session marked not applicable as a whole: skipped, never passed, and
// pending a person's acceptance, unless the mark was checked (a phase of
// MCP calls whose server is not configured).
func phaseMarkedNA(p *protocolspec.Phase, ev []Evidence) (GateResult, bool) {
	for _, x := range ev {
		if x.Phase == p.ID && x.Step == StepCondition {
			if server, _, ok := mcpNA(p, nil); ok {
				// Checked when it was marked: the server was configured
				// nowhere Claude Code reads (conditions.go).
				return GateResult{Phase: p.ID, Title: p.Title, Level: p.Level(), Status: StatusSkipped, Decision: DecisionConditionNotMet,
					Message: fmt.Sprintf("gate %s not applied: its tool calls need the %s MCP server, which was not configured when the phase was marked not applicable (%s)", p.ID, server, x.Ref)}, true
			}
			if optionalAsWritten(p) {
				return GateResult{Phase: p.ID, Title: p.Title, Level: p.Level(), Status: StatusSkipped, Decision: DecisionNotApplicableOptional,
					Message: fmt.Sprintf("gate %s not applied: the phase is optional (%s) and was marked not applicable (%s)", p.ID, p.BindingReason, x.Ref)}, true
			}
			return GateResult{Phase: p.ID, Title: p.Title, Level: p.Level(), Status: StatusSkipped, Decision: DecisionNotApplicablePending,
				Message: fmt.Sprintf("gate %s not applied: the phase was marked not applicable (%s), pending a person's acceptance (sessiongate session accept-na)", p.ID, x.Ref)}, true
		}
	}
	return GateResult{}, false
}
