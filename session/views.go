package session

import (
	"context"
	"errors"
	"fmt"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// ChecklistItem is one phase of a session with its status, the shape of
// the checklist resource and of session_start's checklist.
type ChecklistItem struct {
	Phase        string      `json:"phase"`
	Section      string      `json:"section"`
	Number       string      `json:"number"`
	Title        string      `json:"title"`
	Level        GateLevel   `json:"requirement_level"`
	Condition    string      `json:"condition,omitempty"`
	Status       PhaseStatus `json:"status"`
	Current      bool        `json:"current"`
	Checks       []string    `json:"checks"`
	Requirements int         `json:"requirements"`
	Decision     string      `json:"decision,omitempty"`
	// RequirementList is every requirement and checklist row of the phase
	// by id, with where it stands when the phase owes evidence per requirement.
	RequirementList []RequirementItem `json:"requirement_list"`
}

// RequirementItem is one requirement or checklist row of a phase in a checklist.
type RequirementItem struct {
	ID          string `json:"id"`
	Level       string `json:"level"`
	Text        string `json:"text"`
	Conditional bool   `json:"conditional,omitempty"`
	Summary     bool   `json:"summary,omitempty"`
	// Status is met, not_applicable or open for a requirement a
	// must_evidence gate owes evidence for; "" otherwise.
	Status string `json:"status,omitempty"`
}

func checklist(spec *protocolspec.Spec, results []PhaseResult, s *Session, evs []Evidence, cfg Config) []ChecklistItem {
	byPhase := map[string]PhaseResult{}
	for _, r := range results {
		byPhase[r.PhaseID] = r
	}
	out := make([]ChecklistItem, 0, len(spec.Phases))
	for i := range spec.Phases {
		p := &spec.Phases[i]
		it := ChecklistItem{Phase: p.ID, Section: p.Section, Number: p.Number, Title: p.Title, Level: p.Level(),
			Condition: p.Condition, Status: PhasePending, Current: p.ID == s.Phase && s.Active(), Requirements: len(p.Requirements), Checks: []string{}}
		if r, ok := byPhase[p.ID]; ok {
			it.Status, it.Decision = r.Status, r.Decision
		}
		for _, c := range GateChecks(p, cfg.Commands) {
			it.Checks = append(it.Checks, describeCheck(p, c.Kind, c.Arg)+conditionSuffix(c))
		}
		it.RequirementList = requirementItems(p, evs, cfg)
		out = append(out, it)
	}
	return out
}

// StateView is a session with everything recorded about it: the state resource.
type StateView struct {
	Session   *Session        `json:"session"`
	Expired   bool            `json:"expired"`
	Checklist []ChecklistItem `json:"checklist"`
	Phases    []PhaseResult   `json:"phase_results"`
	Evidence  []Evidence      `json:"evidence"`
	// EvidenceCounts keeps observed evidence apart from claimed: each
	// evidence row also says its origin.
	EvidenceCounts EvidenceCounts `json:"evidence_counts"`
	Violations     []Violation    `json:"violations"`
	// NotApplicable are the session's not-applicable marks and where each
	// stands: a pending one keeps the session from being clean.
	NotApplicable []NAMark `json:"not_applicable,omitempty"`
	// VanishedCLIs are the agent CLIs that worked in this active session
	// and are gone without SessionEnd (killed, crashed): nothing judges
	// their turn until one resumes it or the session is superseded or
	// expires (END_PROTOCOL_SKIPPED then, when its work was committed).
	VanishedCLIs []VanishedCLI `json:"vanished_clis,omitempty"`
}

// EvidenceCounts counts a session's evidence by origin.
type EvidenceCounts struct {
	Observed       int `json:"observed"`        // sessiongate saw the command run
	ObservedFailed int `json:"observed_failed"` // of those, exited non-zero
	// Transcript: tool calls the agent's own transcript shows.
	Transcript int `json:"transcript"`
	Claimed    int `json:"claimed"` // an agent or a person said so
}

// CountEvidence counts evidence by origin.
func CountEvidence(ev []Evidence) EvidenceCounts {
	var c EvidenceCounts
	for i := range ev {
		switch {
		case ev[i].Observed():
			c.Observed++
			if ev[i].ExitCode != nil && *ev[i].ExitCode != 0 {
				c.ObservedFailed++
			}
		case ev[i].Origin == OriginTranscript:
			c.Transcript++
		default:
			c.Claimed++
		}
	}
	return c
}

// View loads a session's state whatever its state (ended and terminated
// sessions are readable), after reconciling an active one's commits.
func (e *Engine) View(ctx context.Context, id string) (*StateView, error) {
	if err := ValidateID(id); err != nil {
		return nil, err
	}
	s, err := e.Store.GetSession(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	// An active session's view includes the commits that landed since the
	// last call: the post-commit script leaves most of them to this.
	if err := e.reconcileSession(ctx, s); err != nil {
		return nil, err
	}
	spec, err := e.SpecFor(ctx, s.ProtocolSHA)
	if err != nil {
		return nil, err
	}
	rs, err := e.Store.PhaseResults(ctx, id)
	if err != nil {
		return nil, err
	}
	ev, err := e.Store.ListEvidence(ctx, id)
	if err != nil {
		return nil, err
	}
	vs, err := e.Store.ListViolations(ctx, ViolationFilter{SessionID: id, Limit: 1000})
	if err != nil {
		return nil, err
	}
	if rs == nil {
		rs = []PhaseResult{}
	}
	if ev == nil {
		ev = []Evidence{}
	}
	if vs == nil {
		vs = []Violation{}
	}
	gone, err := e.VanishedCLIs(ctx, s)
	if err != nil {
		return nil, err
	}
	return &StateView{Session: s, Expired: s.Active() && s.Expired(e.now()), Checklist: checklist(spec, rs, s, ev, e.Config), Phases: rs, Evidence: ev, EvidenceCounts: CountEvidence(ev), Violations: vs,
		NotApplicable: e.naMarks(ctx, s, spec, ev), VanishedCLIs: gone}, nil
}

// History returns a session's events in order.
func (e *Engine) History(ctx context.Context, id string) ([]Event, error) {
	if err := ValidateID(id); err != nil {
		return nil, err
	}
	if _, err := e.Store.GetSession(ctx, id); err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	evs, err := e.Store.ListEvents(ctx, id, 0, 0)
	if evs == nil {
		evs = []Event{}
	}
	if err != nil {
		return evs, err
	}
	if rr, ok := e.Store.(gateRepeatReader); ok {
		reps, err := rr.GateRepeats(ctx, id)
		if err != nil {
			return nil, err
		}
		for i, j := 0, 0; i < len(evs) && j < len(reps); {
			switch {
			case evs[i].Seq < reps[j].Seq:
				i++
			case evs[i].Seq > reps[j].Seq:
				j++
			default:
				evs[i].Repeated = &reps[j]
				i, j = i+1, j+1
			}
		}
	}
	return evs, nil
}

// gateRepeatReader is a GateRepeater's read of its counts, oldest first.
type gateRepeatReader interface {
	GateRepeats(ctx context.Context, id string) ([]GateRepeat, error)
}

// ActiveSession returns the active session of a worktree, or ErrNotFound.
func (e *Engine) ActiveSession(ctx context.Context, repo Repo) (*Session, error) {
	r, err := e.Store.RepositoryByRoot(ctx, repo.MainRoot())
	if err != nil {
		return nil, err
	}
	return e.Store.ActiveSession(ctx, r.ID, repo.Root())
}

// requirementItems lists a phase's requirements and checklist rows by id.
func requirementItems(p *protocolspec.Phase, evs []Evidence, cfg Config) []RequirementItem {
	status := map[string]string{}
	if needsPerRequirement(p, cfg) {
		for _, st := range requirementStatuses(p, evs, cfg) {
			status[st.ID] = st.Status
		}
	}
	out := []RequirementItem{}
	seen := map[string]bool{}
	for _, r := range p.Requirements {
		seen[r.ID] = true
		out = append(out, RequirementItem{ID: r.ID, Level: r.Level, Text: r.Text, Conditional: r.Conditional, Summary: r.Summary, Status: status[r.ID]})
	}
	for _, c := range p.Checklist {
		if !seen[c.ID] {
			out = append(out, RequirementItem{ID: c.ID, Level: c.Level, Text: c.Step, Conditional: p.Condition != "" || protocolspec.IsConditional(c.Step), Status: status[c.ID]})
		}
	}
	return out
}
