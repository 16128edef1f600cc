package protocolspec

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// md is CommonMark plus GFM tables and task lists (gfm.go), with table
// cells and paragraphs nothing reads left unparsed (newParser,
// lazyinline.go); goldmark parsers are safe for concurrent use. Built on
// first use: hooks read cached specs and never parse.
var md = sync.OnceValue(func() parser.Parser { return newParser(true, true) })

// maxFenceDepth bounds how deep ```markdown fences inside template fences
// are followed (a real template nests one level).
const maxFenceDepth = 4

// Parse reads a SESSION-PROTOCOL.md document. file names it in errors.
// Structure comes from the markdown AST only: headings inside fences,
// indented code, HTML blocks, blockquotes and list items are never phases.
//
// When the document is refused the error is an ErrorList (one FILE:LINE
// line per problem) and the partial Spec is still returned so a linter can
// show its warnings; it must not be used to run gates.
func Parse(file string, data []byte) (*Spec, error) {
	sum := sha256.Sum256(data)
	var s *source
	err := checkSize(file, data)
	if err == nil {
		err = checkNUL(file, data)
	}
	if err == nil {
		src := normalize(data)
		s = newSource(src)
		if len(src) == len(data) && (len(data) == 0 || &src[0] == &data[0]) {
			err = s.checkNesting(file) // the document's own lines: not split a second time
		} else {
			err = checkBounds(file, data)
		}
	}
	if err != nil {
		return &Spec{File: file, SHA256: hex.EncodeToString(sum[:]), Phases: []Phase{}, Checklists: []Checklist{}, Warnings: []Warning{}}, err
	}
	w := &walker{file: file, spec: &Spec{Version: SpecVersion, File: file, SHA256: hex.EncodeToString(sum[:])}, firstSection: map[string]int{}}
	doc := md().Parse(text.NewReader(s.src))
	w.spec.Phases = make([]Phase, 0, phaseCap(s, doc))
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			w.heading(s, h)
			continue
		}
		w.block(s, n)
	}
	w.closePhase()
	w.dropContradicted()
	w.infer(s, doc)
	w.oweUncovered()
	w.rebind()
	w.finish()
	if len(w.errs) > 0 {
		return w.spec, w.errs
	}
	return w.spec, nil
}

// phaseCap is a capacity for the phases: the top-level headings whose
// lines hold "phase" in any case. Only a hint (a heading's text may be
// made of markup), but a Phase is large and the slice grew through every
// power of two on the way to a protocol's ten or twenty.
func phaseCap(s *source, doc ast.Node) int {
	n := 0
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		h, ok := c.(*ast.Heading)
		if !ok {
			continue
		}
		lines := h.Lines()
		for i := 0; i < lines.Len(); i++ {
			if seg := lines.At(i); lowerIndexBytes(seg.Value(s.src), "phase") >= 0 {
				n++
				break
			}
		}
	}
	return min(n, MaxPhases)
}

// lowerIndexBytes is lowerIndex for ASCII sub in bytes, ASCII letters
// folded (a hint's test: other letters are left as they are).
func lowerIndexBytes(b []byte, sub string) int {
	for i := 0; i+len(sub) <= len(b); i++ {
		j := 0
		for j < len(sub) && lowerASCII(b[i+j]) == sub[j] {
			j++
		}
		if j == len(sub) {
			return i
		}
	}
	return -1
}

// ParseChecklists reads every checklist (Req|Step|Status|Evidence table or
// task list) of a document such as a session log, titled by the nearest
// heading and put in the start or end section by the nearest heading that
// names one ("" when none does).
func ParseChecklists(data []byte) []Checklist {
	if checkBounds("", data) != nil {
		return nil
	}
	s := newSource(normalize(data))
	w := &walker{spec: &Spec{}}
	doc := md().Parse(text.NewReader(s.src))
	var stack []*section
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			t := w.textOf(s, h)
			for len(stack) > 0 && stack[len(stack)-1].level >= h.Level {
				stack = stack[:len(stack)-1]
			}
			if k := sectionKind(t); k != "" {
				stack = append(stack, &section{kind: k, level: h.Level})
			}
			w.title = t
			continue
		}
		kind := ""
		if len(stack) > 0 {
			kind = stack[len(stack)-1].kind
		}
		w.templates(s, n, tplCtx{kind: kind, title: w.title, depth: 1})
	}
	if w.spec.Checklists == nil {
		return []Checklist{}
	}
	return w.spec.Checklists
}

// section is an open "Session Start ..." / "Session End ..." heading.
type section struct {
	kind   string // SectionStart or SectionEnd
	level  int
	holder bool // a checklist-template heading, not a phase container
	title  string
	line   int
	phases int
}

type openPhase struct {
	Phase
	level     int
	annotated []Check
	idLine    int // line of the id= annotation, 0 when the id is derived
	sec       *section
	// optionalText: a sentence of the body that makes the phase optional
	// or conditional ("Session logs are optional."); testOutput: one that
	// accepts test output as evidence (binding.go).
	optionalText string
	testOutput   bool
}

type walker struct {
	file          string
	spec          *Spec
	errs          ErrorList
	stack         []*section
	phase         *openPhase
	title         string         // text of the nearest heading, titles template checklists
	firstSection  map[string]int // line of the first protocol section of each kind
	sections      []*section
	idLines       []int        // per spec.Phases entry: line to blame for a duplicate id
	words         [][]reqWords // per spec.Phases entry: its requirements' words
	headings      []string     // text of each top-level heading, in order
	tooManyPhases bool         // the MaxPhases error was reported
	// scratch is the text buffer of the paragraph or item being read,
	// reused so the walk does not grow a new one for each.
	scratch flat
	// fenceHeadings: the top-level headings of each ```markdown fence
	// parsed, by body, so a template's are not parsed a second time.
	fenceHeadings map[string][]string
	// introsContent: the last paragraph read ends "... with:", "...
	// include:": the list after it names contents, not instructions.
	introsContent bool
	// sessionLogOptional is a sentence calling session logs optional.
	sessionLogOptional string
	// lowBuf is readCues' scratch for a sentence's lower case.
	lowBuf []byte
	// reqScratch and rowScratch hold the open phase's requirements and
	// checklist rows (openPhase, closePhase).
	reqScratch []Requirement
	rowScratch []ChecklistItem
	// inContent: the list being read names contents ("Link to session
	// log" under "MUST update X with:"): its items are not imperatives.
	inContent bool
	// listLead is the RFC 2119 sentence ending in a colon that the last
	// paragraph or item read ended with ("Session context MUST go to:")
	// when it does not introduce contents: each item of the list after it
	// completes the sentence and is a requirement of its own (listLead).
	listLead lead
}

// lead is a requirement sentence a list completes.
type lead struct {
	level string // its key word's level, "" when there is none
	text  string
}

// colonLead returns the lead f's text ends with: its last sentence when
// it ends in a colon, carries an RFC 2119 key word and does not name
// contents ("MUST complete the session log with:" lists sections).
func colonLead(f *flat) lead {
	b := bytes.TrimRight(bytes.TrimSpace(f.b), "*_")
	if !bytes.HasSuffix(b, []byte(":")) || introducesContent(f.b) {
		return lead{}
	}
	m := f.masked()
	sp := f.sentences()
	if len(sp) == 0 {
		return lead{}
	}
	last := sp[len(sp)-1]
	lv := firstKeyword(m[last[0]:last[1]])
	if lv == "" || alternatives(f.b[last[0]:last[1]]) || examples(f.b[last[0]:last[1]]) {
		return lead{}
	}
	return lead{level: lv, text: string(f.b[last[0]:last[1]])}
}

// examples reports whether a lead offers its items as examples ("MUST
// record what it verified, e.g.:", "a linter such as:"): the sentence is
// owed, no item is (round 63's open row: each example was owed).
func examples(b []byte) bool {
	b = bytes.TrimRight(bytes.TrimSpace(b), "*_:) ")
	b = bytes.TrimRight(b, ",")
	for _, tail := range exampleTails {
		if len(b) >= len(tail) && strings.EqualFold(string(b[len(b)-len(tail):]), tail) &&
			(len(b) == len(tail) || !isWordByte(b[len(b)-len(tail)-1])) {
			return true
		}
	}
	return false
}

var exampleTails = []string{"e.g.", "e.g", "eg.", "for example", "for instance", "such as", "like"}

// text returns the walker's scratch text buffer, emptied. What it holds
// is gone at the next call: keep strings, not slices of it.
func (w *walker) text() *flat {
	w.scratch.reset()
	return &w.scratch
}

// textOf is textOf in the walker's scratch buffer.
func (w *walker) textOf(s *source, n ast.Node) string {
	f := w.text()
	f.inline(s, n, false)
	return f.String()
}

func (w *walker) warn(line int, format string, args ...any) {
	w.spec.Warnings = append(w.spec.Warnings, Warning{Line: line, Message: fmt.Sprintf(format, args...)})
}

func (w *walker) fail(line int, format string, args ...any) {
	w.errs = append(w.errs, Error{File: w.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (w *walker) top() *section {
	if len(w.stack) == 0 {
		return nil
	}
	return w.stack[len(w.stack)-1]
}

// heading handles a top-level heading: it may close the open phase and
// sections, open a phase, or open a section. A gate comment on the heading
// line belongs to the phase the heading opens (or is in).
func (w *walker) heading(s *source, h *ast.Heading) {
	w.headingState(s, h)
	if inlineWalk(s, h) == ast.WalkSkipChildren {
		return // no '<': no gate comment
	}
	_ = ast.Walk(h, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if r, ok := c.(*ast.RawHTML); ok && entering {
			w.gates(s, rawHTMLText(s, r))
		}
		return ast.WalkContinue, nil
	})
}

func (w *walker) headingState(s *source, h *ast.Heading) {
	t := w.textOf(s, h)
	w.headings = append(w.headings, t)
	line := s.lineOf(h.Pos())
	if w.phase != nil && h.Level <= w.phase.level {
		w.closePhase()
	}
	for len(w.stack) > 0 && w.top().level >= h.Level {
		w.stack = w.stack[:len(w.stack)-1]
	}
	ph, isPhase := parsePhaseHeading(t)
	if !isPhase && phaseLike(t) {
		w.warn(line, "heading %q looks like a phase but is not \"Phase <number>: <title>\"; not a phase", t)
	}
	top := w.top()
	if isPhase && top != nil && !top.holder {
		w.closePhase()
		w.openPhase(ph, top, h.Level, line)
		return
	}
	if w.phase != nil {
		return // a sub-heading of the phase body
	}
	if isPhase {
		if top == nil {
			w.warn(line, "phase heading %q is not under a Session Start or Session End section; ignored", t)
		} else {
			w.warn(line, "phase heading %q is under %q, which holds checklist templates, not phases; ignored", t, top.title)
		}
	}
	w.title = t
	if kind := sectionKind(t); kind != "" {
		sec := &section{kind: kind, level: h.Level, holder: isTemplateHolder(t), title: t, line: line}
		w.stack = append(w.stack, sec)
		if !sec.holder {
			if first, ok := w.firstSection[kind]; ok {
				w.warn(line, "second %s section %q (first at line %d); its phases are added in document order", sectionName(kind), t, first)
			} else {
				w.firstSection[kind] = line
			}
			w.sections = append(w.sections, sec)
		}
	}
}

func sectionName(kind string) string {
	if kind == SectionStart {
		return "Session Start"
	}
	return "Session End"
}

func (w *walker) openPhase(ph phaseHeading, sec *section, level, line int) {
	if ph.title == "" {
		w.warn(line, "phase %s has no title", ph.number)
	}
	sec.phases++
	w.phase = &openPhase{
		Phase: Phase{
			Section: sec.kind, Number: ph.number, Title: ph.title, Gate: ph.gate, Condition: ph.condition, Line: line,
			// The walk's scratch slices, reused from phase to phase:
			// closePhase gives the phase a copy of exactly its rows.
			Requirements: w.reqScratch[:0], Checklist: w.rowScratch[:0],
		},
		level: level,
		sec:   sec,
	}
}

// closePhase settles the open phase's id and checks and appends it.
func (w *walker) closePhase() {
	p := w.phase
	if p == nil {
		return
	}
	w.phase = nil
	if p.ID == "" {
		p.ID = upperSnake(p.Title)
		if p.ID == "" {
			p.ID = "PHASE_" + upperSnake(p.Number)
		}
	}
	// Appended one at a time, each phase's rows grew their slices from
	// nothing (a requirement is large): read into scratch, copied once.
	w.reqScratch, w.rowScratch = p.Requirements[:0], p.Checklist[:0]
	p.Requirements = append(make([]Requirement, 0, len(p.Requirements)), p.Requirements...)
	p.Checklist = append(make([]ChecklistItem, 0, len(p.Checklist)), p.Checklist...)
	p.Checks = p.annotated
	if len(p.Checks) == 0 {
		p.Checks = builtinFor(p.Title, p.Line)
	}
	slices.SortStableFunc(p.Checklist, func(a, b ChecklistItem) int { return cmp.Compare(a.Line, b.Line) })
	words := settleRequirements(&p.Phase)
	w.settleBinding(p)
	blame := p.Line
	if p.idLine > 0 {
		blame = p.idLine
	}
	if len(w.spec.Phases) >= MaxPhases {
		if !w.tooManyPhases {
			w.tooManyPhases = true
			w.fail(p.Line, "more than %d phases; the limit is %d", MaxPhases, MaxPhases)
		}
		return
	}
	w.spec.Phases = append(w.spec.Phases, p.Phase)
	w.idLines = append(w.idLines, blame)
	w.words = append(w.words, words)
}

// block handles a top-level non-heading block.
func (w *walker) block(s *source, n ast.Node) {
	if w.phase != nil {
		w.phaseBlock(s, n)
		return
	}
	ctx := tplCtx{title: w.title}
	if top := w.top(); top != nil {
		ctx.kind = top.kind
		ctx.fences = top.holder
	}
	w.templates(s, n, ctx)
}

// phaseBlock reads a block of a phase body: checklist tables and gate
// comments anywhere inside it, requirements from its text.
func (w *walker) phaseBlock(s *source, n ast.Node) {
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch v := c.(type) {
		case *ast.Heading:
			w.nestedHeading(s, v)
			return inlineWalk(s, v), nil
		case *ast.Paragraph, *ast.TextBlock:
			return inlineWalk(s, v), nil
		case *ast.HTMLBlock:
			w.gates(s, htmlBlockText(s, v))
		case *ast.RawHTML:
			w.gates(s, rawHTMLText(s, v))
		case *east.Table:
			if items, _, ok := tableItems(s, v, w.warn); ok {
				w.phase.Checklist = append(w.phase.Checklist, items...)
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	w.requirements(s, n)
}

// inlineWalk says whether a walk looking for gate comments goes into a
// paragraph's or heading's inline nodes: raw HTML needs a '<' in its
// lines, and most text has none, so its nodes need not be visited.
func inlineWalk(s *source, n ast.Node) ast.WalkStatus {
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		if bytes.IndexByte(s.src[seg.Start:seg.Stop], '<') >= 0 {
			return ast.WalkContinue
		}
	}
	return ast.WalkSkipChildren
}

// nestedHeading warns about a phase-looking heading inside a blockquote or
// list item: a reader may take it for a phase, the parser does not.
func (w *walker) nestedHeading(s *source, h *ast.Heading) {
	t := w.textOf(s, h)
	if _, ok := parsePhaseHeading(t); ok || phaseLike(t) {
		w.warn(s.lineOf(h.Pos()), "heading %q inside a blockquote or list item is not a phase", t)
	}
}

// requirements collects RFC 2119 requirements: one per list item, one per
// sentence of a paragraph. Tables and code never give requirements.
func (w *walker) requirements(s *source, n ast.Node) {
	switch v := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		f := w.text()
		f.inline(s, v, false)
		m := f.masked()
		w.introsContent = introducesContent(f.b)
		pc := w.paragraphCues(f.b)
		w.listLead = lead{}
		if _, ok := v.NextSibling().(*ast.List); ok {
			w.listLead = colonLead(f)
		}
		for _, sp := range f.sentences() {
			w.readCues(f.b, sp, pc)
			lv, imp := firstKeyword(m[sp[0]:sp[1]]), false
			if lv == "" && !w.inContent {
				lv = imperativeLevel(m[sp[0]:sp[1]])
				imp = lv != ""
			}
			if lv != "" {
				w.phase.Requirements = append(w.phase.Requirements, Requirement{
					Level: lv, Text: string(f.b[sp[0]:sp[1]]), Line: s.lineOf(f.srcAt(sp[0])), Imperative: imp,
				})
			}
		}
	case *ast.List:
		was := w.inContent
		w.inContent = was || w.introsContent
		w.introsContent = false
		ld := w.listLead
		w.listLead = lead{}
		if w.inContent || ld.level != "" && w.listSpeaks(s, v) {
			ld = lead{}
		}
		for li := v.FirstChild(); li != nil; li = li.NextSibling() {
			w.listItem(s, li, ld)
		}
		w.inContent = was
	case *ast.Blockquote:
		for c := v.FirstChild(); c != nil; c = c.NextSibling() {
			w.requirements(s, c)
		}
	}
}

// alternatives reports whether a lead offers its items as alternatives
// ("MUST use one of:", "either:"): the items are not each owed.
func alternatives(b []byte) bool {
	return hasWord(string(b), &alternativeWords, "one", "of") || hasWord(string(b), &alternativeWords, "any", "of")
}

var alternativeWords = newWordSet("either")

// hasList reports whether list item li holds a list.
func hasList(li ast.Node) bool {
	for c := li.FirstChild(); c != nil; c = c.NextSibling() {
		if _, ok := c.(*ast.List); ok {
			return true
		}
	}
	return false
}

// listSpeaks reports whether an item of list carries a key word of its
// own, is an imperative or a task: the list is then its items'
// requirements, not the lead's ("Parent MUST:" over "Child SHOULD" and
// "Child plain" owes nothing for "Child plain").
func (w *walker) listSpeaks(s *source, list ast.Node) bool {
	for li := list.FirstChild(); li != nil; li = li.NextSibling() {
		f := w.text()
		itemTextInto(f, s, li)
		if m := f.masked(); taskBox(li) != nil || firstKeyword(m) != "" || imperativeLevel(m) != "" {
			return true
		}
	}
	return false
}

// listItem gives one requirement for the item's own text (its nested list
// items give their own), and a checklist item when it is a task. An item
// with no key word of its own under a lead ("Session context MUST go to:")
// is the lead's requirement for that item: it takes the lead's level, and
// its text is the lead and the item (Requirement.Lead).
func (w *walker) listItem(s *source, li ast.Node, ld lead) {
	f := w.text()
	itemTextInto(f, s, li)
	line := itemLine(s, li, f)
	lv := firstKeyword(f.masked())
	box := taskBox(li)
	text := ""
	if box != nil || lv != "" {
		text = f.String()
	}
	if box != nil {
		w.phase.Checklist = append(w.phase.Checklist, ChecklistItem{Level: lv, Step: text, Checked: box.IsChecked, Line: line})
	}
	rl, imp := lv, false
	if rl == "" && !w.inContent {
		if rl = imperativeLevel(f.masked()); rl != "" {
			imp, text = true, f.String()
		}
	}
	intro := introducesContent(f.b)
	switch {
	case rl != "":
		w.phase.Requirements = append(w.phase.Requirements, Requirement{Level: rl, Text: text, Line: line, ListItem: true, Imperative: imp})
	case ld.level != "" && box == nil:
		if t := bytes.TrimSpace(f.b); len(t) > 0 {
			w.phase.Requirements = append(w.phase.Requirements, Requirement{Level: ld.level, Text: ld.text + " " + string(t), Line: line, ListItem: true, Lead: ld.text})
		}
	}
	next := lead{}
	if rl != "" && hasList(li) {
		next = colonLead(f)
	}
	// f is not used past here: nested items reuse it.
	for c := li.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.(type) {
		case *ast.List, *ast.Blockquote:
			w.introsContent = intro
			w.listLead = next
			w.requirements(s, c)
		}
	}
	w.introsContent = false
	w.listLead = lead{}
}

// gates reads gate annotations from raw HTML; they belong to the open
// phase, and are ignored with a warning elsewhere.
func (w *walker) gates(s *source, t *segText) {
	dirs, errs := gateComments(t.text, func(i int) int { return s.lineOf(t.offset(i)) })
	for _, e := range errs {
		w.fail(e.line, "%s", e.msg)
	}
	for _, d := range dirs {
		p := w.phase
		if p == nil {
			w.warn(d.line, "gate annotation outside a phase is ignored")
			continue
		}
		if d.id != "" {
			if p.idLine > 0 && p.ID != d.id {
				w.fail(d.line, "phase %q has a second id %s (first id %s at line %d)", p.Title, d.id, p.ID, p.idLine)
			} else {
				p.ID, p.idLine = d.id, d.line
			}
		}
		if d.noInfer {
			p.NoInfer = true
		}
		if d.check != nil {
			p.annotated = append(p.annotated, *d.check)
			if d.check.Kind == CheckCommand {
				for _, ph := range Placeholders(d.check.Arg) {
					if ph.Quoting != Unquoted {
						w.warn(d.line, "placeholder {%s} is inside quotes in %q: each file is passed as its own argument whatever the quotes, so drop them", ph.Source, d.check.Arg)
					}
				}
			}
		}
	}
}

func htmlBlockText(s *source, b *ast.HTMLBlock) *segText {
	var t segText
	lines := b.Lines()
	for i := 0; i < lines.Len(); i++ {
		t.add(s.src, lines.At(i))
	}
	if b.HasClosure() {
		t.add(s.src, b.ClosureLine)
	}
	return &t
}

func rawHTMLText(s *source, r *ast.RawHTML) *segText {
	var t segText
	for i := 0; i < r.Segments.Len(); i++ {
		t.add(s.src, r.Segments.At(i))
	}
	return &t
}

// tplCtx says where checklists found outside a phase go.
type tplCtx struct {
	kind   string // section of the templates
	title  string // nearest heading
	depth  int    // 0: the document itself; >0: inside a ```markdown fence (or a log)
	fences bool   // follow ```markdown fences (under a checklist-template heading)
}

// templates collects checklists outside phases as Spec.Checklists (when in
// a section), following ```markdown fences under template headings.
func (w *walker) templates(s *source, n ast.Node, ctx tplCtx) {
	inList := 0
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if l, ok := c.(*ast.List); ok {
			if !entering {
				inList--
				return ast.WalkContinue, nil
			}
			inList++
			if inList == 1 && (ctx.kind != "" || ctx.depth > 0) {
				if items := taskItems(s, l, nil); len(items) > 0 {
					w.addTemplate(ctx, items[0].Line, items)
				}
			}
			return ast.WalkContinue, nil
		}
		if !entering {
			return ast.WalkContinue, nil
		}
		switch v := c.(type) {
		case *ast.Heading:
			if ctx.depth == 0 {
				w.nestedHeading(s, v)
			}
			return inlineWalk(s, v), nil
		case *ast.Paragraph, *ast.TextBlock:
			return inlineWalk(s, v), nil
		case *ast.HTMLBlock:
			if ctx.depth == 0 {
				w.gates(s, htmlBlockText(s, v))
			}
		case *ast.RawHTML:
			if ctx.depth == 0 {
				w.gates(s, rawHTMLText(s, v))
			}
		case *east.Table:
			if ctx.kind != "" || ctx.depth > 0 {
				if items, line, ok := tableItems(s, v, w.warn); ok {
					w.addTemplate(ctx, line, items)
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock:
			if ctx.fences && ctx.depth < maxFenceDepth && isMarkdownFence(s, v) {
				w.fence(s, v, ctx)
			}
		}
		return ast.WalkContinue, nil
	})
}

func (w *walker) addTemplate(ctx tplCtx, line int, items []ChecklistItem) {
	w.spec.Checklists = append(w.spec.Checklists, Checklist{Section: ctx.kind, Title: ctx.title, Line: line, Items: items})
}

func isMarkdownFence(s *source, fb *ast.FencedCodeBlock) bool {
	if fb.Info == nil {
		return false
	}
	return isMarkdownInfo(fb.Info.Segment.Value(s.src))
}

// isMarkdownInfo reports whether a fence's info string names markdown.
func isMarkdownInfo(b []byte) bool {
	info := strings.Fields(string(b))
	if len(info) == 0 {
		return false
	}
	switch strings.ToLower(info[0]) {
	case "markdown", "md", "gfm", "commonmark":
		return true
	}
	return false
}

// fence reads a ```markdown fence's body as its own document (line
// numbers mapped back) and keeps its checklists as templates. A heading
// inside it retitles the checklists below it, and moves them to the start
// or end section when it names one.
func (w *walker) fence(s *source, fb *ast.FencedCodeBlock, ctx tplCtx) {
	w.fenceBody(s.subSource(fb.Lines()), ctx)
}

// fenceBody reads a fence's body found where ctx says: with the template
// scanner when it can, else with goldmark.
func (w *walker) fenceBody(sub *source, ctx tplCtx) {
	inner := tplCtx{kind: ctx.kind, title: ctx.title, depth: ctx.depth + 1, fences: true}
	var heads []string
	if blocks, ok := scanTemplate(sub); ok {
		heads = w.scannedTemplate(sub, blocks, inner)
	} else {
		heads = w.parsedTemplate(sub, inner)
	}
	if w.fenceHeadings == nil {
		w.fenceHeadings = map[string][]string{}
	}
	w.fenceHeadings[string(sub.src)] = heads
}

// parsedTemplate reads a template body with goldmark and returns its
// top-level headings.
func (w *walker) parsedTemplate(sub *source, inner tplCtx) []string {
	doc := md().Parse(text.NewReader(sub.src))
	heads := []string{}
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			inner.title = w.textOf(sub, h)
			heads = append(heads, inner.title)
			if k := sectionKind(inner.title); k != "" {
				inner.kind = k
			}
			continue
		}
		w.templates(sub, n, inner)
	}
	return heads
}

// scannedTemplate does what parsedTemplate does with the blocks the
// template scanner found.
func (w *walker) scannedTemplate(sub *source, blocks []tplBlock, inner tplCtx) []string {
	heads := []string{}
	for _, b := range blocks {
		switch b.kind {
		case tplHeading:
			inner.title = b.text
			heads = append(heads, inner.title)
			if k := sectionKind(inner.title); k != "" {
				inner.kind = k
			}
		case tplTable:
			if items, line, ok := tableRows(sub, b.lines[0], b.lines[1:], w.warn); ok {
				w.addTemplate(inner, line, items)
			}
		case tplList:
			w.addTemplate(inner, b.items[0].Line, b.items)
		case tplFence:
			if b.markdown && inner.depth < maxFenceDepth {
				w.fenceBody(sub.subLines(b.from, b.to), inner)
			}
		}
	}
	return heads
}

// finish checks what needs the whole document: both sections present,
// phase numbers in order, ids unique.
func (w *walker) finish() {
	sp := w.spec
	for _, kind := range []string{SectionStart, SectionEnd} {
		if _, ok := w.firstSection[kind]; !ok {
			w.fail(1, "no %s section: want a heading containing %q (such as \"## %s Protocol\") with \"Phase N: Title\" headings under it",
				sectionName(kind), sectionName(kind), sectionName(kind))
		}
	}
	if len(sp.Phases) == 0 && len(w.firstSection) == 2 {
		// Every session would pass straight to COMPLETE: nothing binds.
		w.fail(w.firstSection[SectionStart], "the protocol has no phases: put \"### Phase 1: Title\" headings under the Session Start and Session End headings")
	}
	for _, sec := range w.sections {
		if sec.phases == 0 {
			w.warn(sec.line, "section %q has no \"Phase N: Title\" headings", sec.title)
		}
	}
	prev := map[string]*Phase{}
	type sectionNumber struct{ section, key string }
	seen := map[sectionNumber]int{} // -> first line
	for i := range sp.Phases {
		p := &sp.Phases[i]
		key := sectionNumber{p.Section, numberKey(p.Number)}
		if line, dup := seen[key]; dup {
			w.warn(p.Line, "duplicate phase number %s in the %s section (also at line %d)", p.Number, sectionName(p.Section), line)
		} else {
			seen[key] = p.Line
			if q := prev[p.Section]; q != nil && compareNumbers(p.Number, q.Number) < 0 {
				w.warn(p.Line, "phase %s comes after phase %s (line %d); document order is kept", p.Number, q.Number, q.Line)
			}
		}
		prev[p.Section] = p
	}
	ids := map[string]int{}
	for i, p := range sp.Phases {
		if first, ok := ids[p.ID]; ok {
			w.fail(w.idLines[i], "duplicate phase id %s (first at line %d); give one phase <!-- gate: id=OTHER_NAME -->", p.ID, first)
			continue
		}
		ids[p.ID] = p.Line
	}
	if sp.Phases == nil {
		sp.Phases = []Phase{}
	}
	if sp.Checklists == nil {
		sp.Checklists = []Checklist{}
	}
	if sp.Warnings == nil {
		sp.Warnings = []Warning{}
	}
	slices.SortStableFunc(sp.Warnings, func(a, b Warning) int { return cmp.Compare(a.Line, b.Line) })
	slices.SortStableFunc(w.errs, func(a, b Error) int { return cmp.Compare(a.Line, b.Line) })
}
