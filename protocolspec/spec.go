// Package protocolspec turns a SESSION-PROTOCOL.md document into a Spec:
// phases, RFC 2119 requirements, checklists and machine gate checks.
// It is pure: no I/O but the bytes handed to Parse.
package protocolspec

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Section names where a phase belongs.
const (
	SectionStart = "start"
	SectionEnd   = "end"
)

// GateLevel is how strictly a phase's gate is enforced, from its heading's
// qualifier: BLOCKING and REQUIRED block, the others warn.
type GateLevel string

// Gate levels.
const (
	GateBlocking    GateLevel = "BLOCKING"
	GateRequired    GateLevel = "REQUIRED"
	GateRecommended GateLevel = "RECOMMENDED"
	GateOptional    GateLevel = "OPTIONAL"
	GateUnspecified GateLevel = "UNSPECIFIED"
)

// Mandatory reports whether a failing gate of this level blocks.
func (g GateLevel) Mandatory() bool { return g == GateBlocking || g == GateRequired }

// RFC 2119 levels after synonyms are mapped (SHALL -> MUST, ...).
const (
	LevelMust      = "MUST"
	LevelMustNot   = "MUST NOT"
	LevelShould    = "SHOULD"
	LevelShouldNot = "SHOULD NOT"
	LevelMay       = "MAY"
)

// CheckKind names a machine check a gate annotation (or the built-in title
// table) can ask for.
type CheckKind string

// Check kinds.
const (
	CheckFileExists        CheckKind = "file_exists"         // Arg: repository-relative path or glob
	CheckChangedSinceStart CheckKind = "changed_since_start" // Arg: path or glob
	CheckContentHash       CheckKind = "content_hash"        // Arg: path whose content hash must be recorded as evidence
	CheckCommand           CheckKind = "command"             // Arg: command line, may hold {changed:GLOB} / {staged:GLOB}
	CheckCommitSinceStart  CheckKind = "commit_since_start"  // no Arg
	CheckCleanWorktree     CheckKind = "clean_worktree"      // no Arg
	CheckEvidence          CheckKind = "evidence"            // Arg: evidence kind (tool_output, file_path, ...)
	// CheckMustEvidence is the fallback for phases with no annotation and no
	// built-in check: one piece of evidence recorded per MUST requirement.
	CheckMustEvidence CheckKind = "must_evidence"
	// The checks below are also inferred from explicit protocol sentences
	// (infer.go); an author can write each of them as an annotation.
	CheckUnchanged        CheckKind = "unchanged"          // Arg: path or glob that must not change during the session
	CheckNotDefaultBranch CheckKind = "not_default_branch" // no Arg: HEAD is not the default branch
	CheckNoPlaceholders   CheckKind = "no_placeholders"    // Arg: glob of files that must hold no unfilled template placeholder
	CheckCommitMessage    CheckKind = "commit_message"     // Arg: convention every commit of the session follows ("conventional")
	CheckHasSection       CheckKind = "has_section"        // Arg: glob of files (of this session) that must have the heading Section
	CheckNoHookBypass     CheckKind = "no_hook_bypass"     // no Arg: every commit of the session went through the hooks (its Session-Id trailer)
)

// SpecVersion changes whenever Parse starts producing something new, so a
// spec cached in a database by an older sessiongate is parsed again.
const SpecVersion = 8

// Spec is a parsed protocol document.
type Spec struct {
	// Version is the SpecVersion of the parser that produced it.
	Version    int         `json:"version"`
	File       string      `json:"file,omitempty"`
	Phases     []Phase     `json:"phases"`
	Checklists []Checklist `json:"checklists"`
	Warnings   []Warning   `json:"warnings"`
	SHA256     string      `json:"sha256"`
}

// Phase is one "Phase N: Title (QUALIFIER condition)" heading under a
// Session Start or Session End section.
type Phase struct {
	ID           string          `json:"id"`
	Section      string          `json:"section"`
	Number       string          `json:"number"`
	Title        string          `json:"title"`
	Gate         GateLevel       `json:"gate"`
	Condition    string          `json:"condition"`
	Line         int             `json:"line"`
	Requirements []Requirement   `json:"requirements"`
	Checklist    []ChecklistItem `json:"checklist"`
	Checks       []Check         `json:"checks"`
	// NoInfer is set by <!-- gate: infer=off -->: no check is inferred
	// from this phase's sentences.
	NoInfer bool `json:"no_infer,omitempty"`
	// Binding is the level the gate is enforced at: Gate when the heading
	// has a qualifier, else decided from the phase's requirements, checks
	// and text (binding.go). BindingReason says why, for people.
	Binding       GateLevel `json:"binding"`
	BindingReason string    `json:"binding_reason"`
	// OptionalBy is what makes an unmarked phase optional or conditional
	// (its title, a sentence), "" when nothing does.
	OptionalBy string `json:"optional_by,omitempty"`
	// Dropped lists the built-in checks left out because the protocol's
	// text contradicts them ("session logs are optional").
	Dropped []DroppedCheck `json:"dropped_builtins,omitempty"`
}

// DroppedCheck is a built-in check a phase did not get, and why.
type DroppedCheck struct {
	Check  Check  `json:"check"`
	Reason string `json:"reason"`
}

// Requirement is a list item or sentence carrying an RFC 2119 key word.
type Requirement struct {
	Level string `json:"level"`
	Text  string `json:"text"`
	Line  int    `json:"line"`
	// ID is stable across unrelated edits: PHASE_ID "." a slug of the
	// requirement's leading words (requirements.go).
	ID string `json:"id"`
	// ListItem is true for a list item, false for a sentence of a paragraph.
	ListItem bool `json:"list_item,omitempty"`
	// Conditional: the text says when it applies ("if", "when", "unless")
	// or the phase has a condition; it may be marked not applicable.
	Conditional bool `json:"conditional,omitempty"`
	// Summary: a paragraph sentence ahead of the phase's listed MUSTs that
	// restates them ("The agent MUST complete X before Y."); it is met when
	// they are and owes no evidence of its own.
	Summary bool `json:"summary,omitempty"`
	// Imperative: the text has no RFC 2119 key word but is an instruction
	// ("Run the tests", "Do not bypass hooks"): level MUST or MUST NOT.
	Imperative bool `json:"imperative,omitempty"`
	// ProvenBy names the machine check that proves the requirement in a
	// phase that also owes evidence for its other MUSTs (owed.go); it owes
	// no evidence of its own.
	ProvenBy string `json:"proven_by,omitempty"`
	// Lead is the sentence ending in a colon the item completes ("Session
	// context MUST go to:") when the requirement is an item of the list
	// after it with no key word of its own: Text is Lead, a space and the
	// item, the level is Lead's, and the id's slug is the item's.
	Lead string `json:"lead,omitempty"`
}

// ChecklistItem is a row of a Req|Step|Status|Evidence table or a task-list item.
type ChecklistItem struct {
	Level    string `json:"level"`
	Step     string `json:"step"`
	Checked  bool   `json:"checked"`
	Evidence string `json:"evidence"`
	Line     int    `json:"line"`
	// ID of a phase checklist row, in the requirements' namespace (a task
	// item that is also a requirement has the requirement's id); "" in
	// template checklists.
	ID string `json:"id,omitempty"`
}

// Checklist is a template checklist kept outside phases ("Session Start Checklist").
type Checklist struct {
	Section string          `json:"section"` // start or end
	Title   string          `json:"title"`
	Line    int             `json:"line"`
	Items   []ChecklistItem `json:"items"`
}

// Check is one machine check of a phase gate.
type Check struct {
	Kind    CheckKind `json:"kind"`
	Arg     string    `json:"arg,omitempty"`
	Timeout Duration  `json:"timeout,omitempty"`
	// Hooks names the git hooks that also run this check (pre-commit, pre-push).
	Hooks []string `json:"hooks,omitempty"`
	// Builtin is true when the check came from the built-in title table, not an annotation.
	Builtin bool `json:"builtin,omitempty"`
	Line    int  `json:"line"`
	// Inferred names the protocol sentence the check was inferred from
	// (nil for annotated and built-in checks).
	Inferred *Inference `json:"inferred,omitempty"`
	// Placeholders are the literal placeholder texts of a template that a
	// no_placeholders check looks for (empty: {name} placeholders).
	Placeholders []string `json:"placeholders,omitempty"`
	// Proves is a regular expression the output of a command check must
	// match to show that the command checked something (proves=).
	Proves string `json:"proves,omitempty"`
	// Section is the heading a has_section check wants (section=).
	Section string `json:"section,omitempty"`
	// Fresh: file_exists passes only on a file created or changed in the
	// session (built-in artifact gates, a phase that asks to create the
	// file, or fresh=true).
	Fresh bool `json:"fresh,omitempty"`
	// Observed: evidence and must_evidence accept only evidence
	// sessiongate saw run (origin=observed).
	Observed bool `json:"observed,omitempty"`
	// When is a condition the machine checks before the check binds
	// (when=docs_affected: the session changed a name a tracked .md
	// mentions); WhenChanged is one too (when_changed="GLOB,GLOB": the
	// session changed a file one of them matches). Where it does not
	// hold, the check is not applicable, never failed (docs/protocol.md).
	When        string `json:"when,omitempty"`
	WhenChanged string `json:"when_changed,omitempty"`
	freshSet    bool   // fresh= was written: no inference
}

// Inference is where an inferred check came from.
type Inference struct {
	Line     int    `json:"line"`
	Sentence string `json:"sentence"`
	// Rule names the inference rule, so a reader sees why the sentence counts.
	Rule string `json:"rule"`
	// Requirement is the id of the requirement the sentence is.
	Requirement string `json:"requirement,omitempty"`
}

// Warning is something odd in the document that does not stop parsing.
type Warning struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

func (w Warning) String() string { return fmt.Sprintf("%d: %s", w.Line, w.Message) }

// Error is one problem that makes a document unusable.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// ErrorList is returned by Parse when the document is refused; one line per problem.
type ErrorList []Error

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Duration marshals as a Go duration string ("120s") so cached specs round-trip.
type Duration time.Duration

func (d Duration) MarshalJSON() ([]byte, error) {
	if d == 0 {
		return []byte(`""`), nil
	}
	return json.Marshal(time.Duration(d).String())
}

func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == "" {
		*d = 0
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// Phase looks a phase up by id.
func (s *Spec) Phase(id string) (*Phase, bool) {
	for i := range s.Phases {
		if s.Phases[i].ID == id {
			return &s.Phases[i], true
		}
	}
	return nil, false
}

// SectionPhases returns the phases of one section in document order.
func (s *Spec) SectionPhases(section string) []Phase {
	var out []Phase
	for _, p := range s.Phases {
		if p.Section == section {
			out = append(out, p)
		}
	}
	return out
}

// Mandatory reports whether a phase's gate must pass: its binding
// (binding.go) is BLOCKING or REQUIRED.
func (p *Phase) Mandatory() bool { return p.Level().Mandatory() }

// MachineChecked reports whether the phase has a check other than evidence.
func (p *Phase) MachineChecked() bool {
	for _, c := range p.Checks {
		if c.Kind != CheckEvidence && c.Kind != CheckMustEvidence {
			return true
		}
	}
	return false
}
