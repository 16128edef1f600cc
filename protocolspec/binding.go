package protocolspec

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Binding: whether a phase's gate can block, and why.
//
// A protocol binds as written. A phase heading's qualifier (BLOCKING,
// REQUIRED, RECOMMENDED, OPTIONAL) decides, as before. A phase without
// one used to be UNSPECIFIED and never blocked, so a protocol whose end
// phases carry no marker (the newer style) bound nothing. Now an unmarked
// phase is
//
//   - REQUIRED when it has a command gate of its own (an annotation, or a
//     `commands:` entry in sessiongate.yaml): someone wired a check to it;
//   - OPTIONAL when its title or text makes it optional ("Optional
//     Retrospective", "Session logs are optional.") or conditional (every
//     MUST of it says when it applies: "When the work produced durable
//     learning, write ..."; "This phase applies only when ...");
//   - else the level `unmarked_phases:` in sessiongate.yaml names, when set;
//   - else REQUIRED when it holds MUST / MUST NOT requirements (RFC 2119 or
//     imperative), RECOMMENDED when it holds only SHOULD ones, and
//     UNSPECIFIED (never blocks) when it holds none.
//
// Phase.Binding is the level the engine enforces and BindingReason says
// why, for `protocol lint`, `init` and messages.

// BindOptions are the parts of the repository's config that change a
// phase's binding.
type BindOptions struct {
	// Unmarked is the level of unmarked phases that neither a command nor
	// their text decides ("" keeps the rules above).
	Unmarked GateLevel
	// Commands holds the phase ids with a `commands:` entry.
	Commands map[string]bool
}

// Level is the gate level enforced for the phase: its binding, or the
// written gate for a spec made before bindings existed.
func (p *Phase) Level() GateLevel {
	if p.Binding != "" {
		return p.Binding
	}
	return p.Gate
}

// Bound returns the spec with each phase's binding decided under o. The
// spec itself is not changed (it may be cached and shared); when o changes
// nothing, s is returned.
func (s *Spec) Bound(o BindOptions) *Spec {
	if o.Unmarked == "" && len(o.Commands) == 0 {
		return s
	}
	out := *s
	out.Phases = make([]Phase, len(s.Phases))
	copy(out.Phases, s.Phases)
	for i := range out.Phases {
		p := &out.Phases[i]
		p.Binding, p.BindingReason = bindPhase(p, o)
	}
	return &out
}

// bindPhase decides a phase's binding (see above).
func bindPhase(p *Phase, o BindOptions) (GateLevel, string) {
	if p.Gate != GateUnspecified && p.Gate != "" {
		r := "marked (" + string(p.Gate)
		if p.Condition != "" {
			r += " " + p.Condition
		}
		return p.Gate, r + ")"
	}
	for _, c := range p.Checks {
		if c.Kind == CheckCommand && !c.Builtin {
			return GateRequired, fmt.Sprintf("unmarked, runs a command gate (line %d)", c.Line)
		}
	}
	if o.Commands[p.ID] {
		return GateRequired, "unmarked, sessiongate.yaml commands: gives it a command"
	}
	if p.OptionalBy != "" {
		return GateOptional, p.OptionalBy
	}
	if o.Unmarked != "" {
		return o.Unmarked, "unmarked, sessiongate.yaml unmarked_phases: " + strings.ToLower(string(o.Unmarked))
	}
	must, mustNot, should := 0, 0, 0
	for _, r := range p.Requirements {
		switch r.Level {
		case LevelMust:
			must++
		case LevelMustNot:
			mustNot++
		case LevelShould, LevelShouldNot:
			should++
		}
	}
	for _, c := range p.Checklist {
		if (c.Level == LevelMust || c.Level == LevelMustNot) && !c.isRequirement(p) {
			must++ // a MUST table row: not also counted as a requirement
		}
	}
	switch {
	case must > 0:
		return GateRequired, "unmarked, holds " + plural(must+mustNot, "requirement")
	case mustNot > 0 && p.MachineChecked():
		return GateRequired, "unmarked, holds " + plural(mustNot, "prohibition") + " a machine checks"
	case mustNot > 0:
		// Nothing done shows a prohibition was kept, and no check here
		// sees it: blocking would only ask for a token piece of evidence.
		return GateRecommended, "unmarked, holds only prohibitions (" + itoa(mustNot) + ") no check of this phase can see"
	case should > 0:
		return GateRecommended, "unmarked, holds only SHOULD requirements (" + itoa(should) + ")"
	}
	return GateUnspecified, "unmarked, holds no requirement"
}

// isRequirement reports whether a checklist row is also a requirement of
// the phase (a task item with a key word).
func (c ChecklistItem) isRequirement(p *Phase) bool {
	for _, r := range p.Requirements {
		if r.ID == c.ID {
			return true
		}
	}
	return false
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return itoa(n) + " " + word + "s"
}

// ParseGateLevel reads a level as written in sessiongate.yaml (any case).
func ParseGateLevel(s string) (GateLevel, bool) {
	switch g := GateLevel(strings.ToUpper(strings.TrimSpace(s))); g {
	case GateBlocking, GateRequired, GateRecommended, GateOptional:
		return g, true
	}
	return "", false
}

// optionalCueLow reads a sentence of a phase body (t, trimmed, and low,
// its lower case) for what makes the whole phase optional or conditional;
// title is the phase's title. It returns the reason ("" for none). Each
// pattern needs a word the sentence rarely has, looked for first: the
// patterns were a fifth of a parse.
func optionalCueLow(title, t, low string) string {
	hasOptional := strings.Contains(low, "optional")
	if !hasOptional && !strings.HasPrefix(low, "th") {
		return ""
	}
	re := bindingRE()
	switch {
	case hasOptional && re["optionalLead"].MatchString(t):
		return fmt.Sprintf("text says %q", t)
	case strings.HasPrefix(low, "th") && re["appliesWhen"].MatchString(low):
		return fmt.Sprintf("conditional: text says %q", t)
	}
	if !hasOptional {
		return ""
	}
	if m := re["isOptional"].FindStringSubmatch(low); m != nil && subjectOfTitle(m[1], title) {
		return fmt.Sprintf("text says %q", t)
	}
	return ""
}

var bindingRE = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		// "Optional.", "Optional:", "Optional - ..." ("Optional when X" is
		// required otherwise: not read as optional)
		"optionalLead": regexp.MustCompile(`^(?:\*\*|_)?(?i:optional)(?:\*\*|_)?(?:\s*[.:;\-–—]|$)`),
		// "This phase applies only when ...", "This step is needed if ..."
		"appliesWhen": regexp.MustCompile(`^(?:this|the)\s+(?:phase|step|section)\s+(?:(?:only\s+)?applies|is\s+(?:only\s+)?(?:needed|required|run|done))\s+(?:only\s+)?(?:when|if|whenever|for)\b`),
		// "<subject> is/are optional." and nothing after: the subject is
		// checked against the title. "Validation is optional for docs-only
		// changes" is required otherwise, so not optional.
		"isOptional": regexp.MustCompile(`^(?:the\s+|a\s+|an\s+)?(.{1,60}?)\s+(?:is|are)\s+(?:entirely\s+|completely\s+|always\s+)?optional\s*[.!]?$`),
	}
})

// subjectOfTitle reports whether a sentence's subject is the phase: "this
// phase", "this step", "it", or words all found in the title ("Session
// logs" for "Session Log").
func subjectOfTitle(subject, title string) bool {
	switch subject {
	case "this phase", "this step", "it", "this", "this section":
		return true
	}
	tw := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(title)) {
		tw[strings.TrimSuffix(w, "s")] = true
	}
	n := 0
	for _, w := range strings.Fields(subject) {
		w = strings.TrimSuffix(strings.Trim(w, "`*_"), "s")
		if !tw[w] {
			return false
		}
		n++
	}
	return n > 0
}

// titleOptional is the reason a phase title makes the phase optional or
// conditional, or "": "Optional Retrospective", "Retrospective (when
// asked)", "Retrospective if time allows".
func titleOptional(title string) string {
	if hasWord(title, &optionalWords, "", "") {
		return "title says Optional"
	}
	if hasWord(title, &requirementConditionals, "", "") {
		return fmt.Sprintf("conditional: title says %q", title)
	}
	return ""
}

var optionalWords = newWordSet("optional", "optionally")

// allConditional reports whether a phase has MUST / MUST NOT requirements
// and every one of them says when it applies: the phase as a whole is
// conditional ("When the work produced durable learning, write ...").
func allConditional(p *Phase) (Requirement, bool) {
	var first Requirement
	n := 0
	for _, r := range p.Requirements {
		if r.Level != LevelMust && r.Level != LevelMustNot {
			continue
		}
		if !IsConditional(r.Text) {
			return Requirement{}, false
		}
		if n == 0 {
			first = r
		}
		n++
	}
	return first, n > 0
}

// testOutputEvidenceLow reports whether a sentence (lower case) says the phase's evidence
// may be test output ("The evidence may be test output", "test output in
// the transcript is enough"): a QA report file is then not the only proof.
func testOutputEvidenceLow(low string) bool {
	if !strings.Contains(low, "test output") && !strings.Contains(low, "test results") && !strings.Contains(low, "output of the tests") {
		return false
	}
	return strings.Contains(low, "evidence") || strings.Contains(low, "proof") || strings.Contains(low, "transcript") || strings.Contains(low, "enough") || strings.Contains(low, "suffices")
}

// paraCues is what readCues needs to know of a whole paragraph: whether
// it is ASCII (then lowered once into the walk's buffer), and whether it
// holds the words of the optional and test-output readers anywhere.
type paraCues struct {
	ascii, optional, testOutput bool
}

// paragraphCues lowers an ASCII paragraph into w.lowBuf, index for index,
// and looks for the readers' words in it once: most paragraphs have none,
// and then no sentence of them is searched again.
func (w *walker) paragraphCues(b []byte) paraCues {
	if !isASCIIBytes(b) {
		return paraCues{}
	}
	low := w.lowBuf[:0]
	for _, c := range b {
		low = append(low, lowerASCII(c))
	}
	w.lowBuf = low
	return paraCues{
		ascii:      true,
		optional:   bytes.Contains(low, []byte("optional")),
		testOutput: bytes.Contains(low, []byte("test output")) || bytes.Contains(low, []byte("test results")) || bytes.Contains(low, []byte("output of the tests")),
	}
}

// readCues reads the sentence b[sp[0]:sp[1]] of the open phase's body for
// optional, conditional and test-output wording. In an ASCII paragraph
// the sentence's lower case is the same range of the paragraph's, and a
// word the paragraph lacks is not looked for (a string and a lowered copy
// per sentence were a fifth of the walk's requirement reading); the
// patterns run only on a sentence that has the words they need.
func (w *walker) readCues(b []byte, sp [2]int, pc paraCues) {
	sentence := b[sp[0]:sp[1]]
	if !pc.ascii {
		w.readCuesString(string(sentence))
		return
	}
	t := bytes.TrimSpace(sentence)
	from := sp[0] + len(sentence) - len(bytes.TrimLeft(sentence, " \t\n\v\f\r"))
	low := w.lowBuf[from : from+len(t)]
	p := w.phase
	hasOptional := pc.optional && bytes.Contains(low, []byte("optional"))
	if p.optionalText == "" && (hasOptional || mayApplyWhen(low)) {
		p.optionalText = optionalCueLow(p.Title, string(t), string(low))
	}
	if hasOptional && bytes.Contains(low, []byte("session log")) && optionalSessionLogLow(string(low)) {
		w.sessionLogOptional = string(sentence)
	}
	if pc.testOutput && !p.testOutput && (bytes.Contains(low, []byte("test output")) || bytes.Contains(low, []byte("test results")) || bytes.Contains(low, []byte("output of the tests"))) {
		p.testOutput = testOutputEvidenceLow(string(low))
	}
}

// readCuesString is readCues for a sentence with non-ASCII bytes, whose
// lower case strings.ToLower decides.
func (w *walker) readCuesString(sentence string) {
	p := w.phase
	t := strings.TrimSpace(sentence)
	low := strings.ToLower(t) // once for the three readers
	if p.optionalText == "" {
		p.optionalText = optionalCueLow(p.Title, t, low)
	}
	if optionalSessionLogLow(low) {
		w.sessionLogOptional = sentence
	}
	p.testOutput = p.testOutput || testOutputEvidenceLow(low)
}

// mayApplyWhen reports whether lower-case text starts the way appliesWhen
// needs: "this" or "the", white space, then "phase", "step" or "section".
// Most sentences start with "the" and go on otherwise: the pattern is not
// run for them.
func mayApplyWhen(low []byte) bool {
	switch {
	case bytes.HasPrefix(low, []byte("this")):
		low = low[4:]
	case bytes.HasPrefix(low, []byte("the")):
		low = low[3:]
	default:
		return false
	}
	i := 0
	for i < len(low) && isRESpace(low[i]) {
		i++
	}
	if i == 0 {
		return false
	}
	low = low[i:]
	return bytes.HasPrefix(low, []byte("phase")) || bytes.HasPrefix(low, []byte("step")) || bytes.HasPrefix(low, []byte("section"))
}

// isASCIIBytes reports whether b has only ASCII bytes.
func isASCIIBytes(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// optionalSessionLogLow reports whether a sentence (trimmed, lower case)
// calls session logs optional, wherever it stands: the built-in
// session-log checks would contradict it.
func optionalSessionLogLow(low string) bool {
	if !strings.Contains(low, "optional") || !strings.Contains(low, "session log") {
		return false // both are in any match: the pattern is not run
	}
	m := bindingRE()["isOptional"].FindStringSubmatch(low)
	return m != nil && strings.Contains(m[1], "session log")
}

// settleBinding decides a closed phase's optional cue, drops the built-in
// checks its text contradicts, and binds it as written (no config).
func (w *walker) settleBinding(p *openPhase) {
	titleCue := titleOptional(p.Title)
	if p.Gate == GateUnspecified {
		switch r, cond := allConditional(&p.Phase); {
		case titleCue != "":
			p.OptionalBy = titleCue
		case p.optionalText != "":
			p.OptionalBy = p.optionalText
		case cond:
			p.OptionalBy = fmt.Sprintf("conditional: every requirement says when it applies (line %d: %q)", r.Line, r.Text)
		}
	}
	optional := titleCue != "" && !strings.HasPrefix(titleCue, "conditional") || p.optionalText != "" && !strings.HasPrefix(p.optionalText, "conditional")
	for i, c := range p.Checks {
		if !c.Builtin || c.Kind != CheckFileExists {
			continue
		}
		reason := ""
		switch {
		case optional:
			reason = "the phase is optional (" + firstNonEmpty(titleCue, p.optionalText) + "): a file of this session cannot be required"
		case c.Arg == ".agents/qa/*" && p.testOutput:
			reason = "the text accepts test output as evidence: a QA report file is not the only proof"
		}
		if reason != "" {
			p.Dropped = append(p.Dropped, DroppedCheck{Check: c, Reason: reason})
			p.Checks[i] = Check{Kind: CheckMustEvidence, Builtin: true, Line: p.Line}
		}
	}
	p.Binding, p.BindingReason = bindPhase(&p.Phase, BindOptions{})
}

// rebind decides the bindings again once inferred checks are placed: a
// phase of prohibitions binds when a machine check sees them.
func (w *walker) rebind() {
	for i := range w.spec.Phases {
		p := &w.spec.Phases[i]
		p.Binding, p.BindingReason = bindPhase(p, BindOptions{})
	}
}

// dropContradicted drops, once every phase is read, the built-in checks
// on session logs when a sentence anywhere in a phase calls session logs
// optional ("documentation update" wants the session log changed).
func (w *walker) dropContradicted() {
	if w.sessionLogOptional == "" {
		return
	}
	for i := range w.spec.Phases {
		p := &w.spec.Phases[i]
		for j, c := range p.Checks {
			if c.Builtin && c.Arg == ".agents/sessions/*" && (c.Kind == CheckChangedSinceStart || c.Kind == CheckFileExists) {
				p.Dropped = append(p.Dropped, DroppedCheck{Check: c, Reason: fmt.Sprintf("the protocol says %q: a session log cannot be required", w.sessionLogOptional)})
				p.Checks[j] = Check{Kind: CheckMustEvidence, Builtin: true, Line: p.Line}
			}
		}
	}
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
