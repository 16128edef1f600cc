package protocolspec

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// Checks inferred from explicit sentences.
//
// A protocol says things a machine can check ("The agent MUST NOT update
// `.agents/HANDOFF.md`", "MUST commit with conventional commit message
// format"). infer turns such sentences into checks, conservatively: a
// check blocks honest work when the inference is wrong, so each rule
// matches one unambiguous phrasing, skips conditional requirements (if,
// when, unless, except), and never reads rationale, verification notes or
// any text that is not an RFC 2119 requirement (except a template's own
// "Create at: PATH" line). Every inferred check keeps the sentence and line
// it came from; `protocol show` and `protocol lint` print them, and
// <!-- gate: infer=off --> in a phase turns inference off there.
// Changing what is inferred changes Parse's output: bump SpecVersion.

// Inference rule names, shown with each inferred check.
const (
	RuleMustNotModify   = "must-not-modify"   // "MUST NOT modify|update|edit|change ... PATH"
	RuleReadOnly        = "read-only"         // a requirement naming one PATH and calling it read-only
	RuleNoDefaultBranch = "no-default-branch" // "MUST NOT work|commit on|to main|master|the default branch"
	RuleFeatureBranch   = "feature-branch"    // "MUST create|use|work on a (new) feature|topic branch"
	RuleConventional    = "conventional-commits"
	RuleCleanTree       = "clean-tree"       // "MUST ... clean working tree|git status", "MUST commit all changes", "MUST stage all changed files"
	RuleTemplateFilled  = "template-filled"  // a "<Name> Template" with "Create at: PATH" and the session "MUST complete the <name>"
	RuleSection         = "required-section" // "The <name> MUST include the <Section> section", <name> a template with that heading
	RuleMustUpdate      = "must-update"      // "MUST update|modify|edit PATH" (with: ..., directly, or nothing after it)
	RuleNoHookBypass    = "no-hook-bypass"   // "MUST NOT bypass|skip|disable (the git) hooks", "MUST NOT use --no-verify"
	RuleListedFile      = "listed-file"      // an item naming one PATH under "... MUST go to:" (Requirement.Lead): a file of the session there
)

// CondFeatureBranch is the when= condition of a check that binds only on
// a branch other than the default ("(if on feature branch)").
const CondFeatureBranch = "feature_branch"

// featureBranchCondRE is a condition that holds on a feature branch:
// "(if on feature branch)", "when working on a topic branch".
var featureBranchCondRE = lazyregexp.New(`(?i)\b(?:if|when|whenever)\s+(?:(?:you\s+are|working|work|the\s+session\s+is)\s+)?(?:on|in)\s+(?:an?\s+|the\s+)?(?:feature|topic|non-default)\s+branch\b`)

// inferRE holds the inference patterns, compiled on first use: hooks
// parse cached specs and should not pay for them at start-up.
var inferRE = sync.OnceValue(func() map[string]*regexp.Regexp {
	const path = "(" + pathPattern + ")"
	return map[string]*regexp.Regexp{
		// what may follow a read-only path for the prohibition to be whole:
		// nothing, "directly", "during the session", or a parenthesis.
		"wholeTail":       regexp.MustCompile(`(?i)^(?:|directly|during\s+(?:the\s+|a\s+|any\s+)?sessions?|in\s+(?:this|the|a|any)\s+sessions?)\s*(?:[.;:(]|$)`),
		RuleMustNotModify: regexp.MustCompile(`\b(?:MUST NOT|SHALL NOT)\s+(?:(?i:directly)\s+)?(?i:modify|update|edit|change|alter|overwrite|rewrite|delete|remove|touch|write to)\s+(?:(?i:the)\s+)?(?:(?i:file)\s+)?` + path),
		RuleReadOnly:      regexp.MustCompile(`(?i)\bread[- ]only\b`),
		RuleSection:       regexp.MustCompile(`^(?i:the\s+)?(.+?)\s+(?:MUST|SHALL)\s+(?i:include|contain|have)\s+(?i:an?\s+|the\s+)?(.+?)\s+(?i:section)\b`),
		RuleMustUpdate:    regexp.MustCompile(`\b(?:MUST|SHALL)\s+(?i:update|modify|edit|change)\s+(?:(?i:the)\s+)?(?:(?i:file)\s+)?([A-Za-z0-9_.*\-]+(?:/[A-Za-z0-9_.*\-]+)*/?)`),
		// what may follow a path that MUST be updated: how, not when.
		"updateTail":        regexp.MustCompile(`(?i)^(?:|directly|with\b.*|\(.*)$|^[.;:]`),
		RuleNoDefaultBranch: regexp.MustCompile(`\b(?:MUST NOT|SHALL NOT)\s+(?i:work|commit)\s+(?:(?i:directly)\s+)?(?i:on|to|in|into)\s+(?:(?i:the)\s+)?(?i:(main|master)\b(?:\s+branch)?|default\s+branch)`),
		RuleFeatureBranch:   regexp.MustCompile(`\b(?:MUST|SHALL)\s+(?i:create|use|work on|work in|start)\s+(?i:an?)\s+(?i:new\s+)?(?i:feature|topic|separate|dedicated)\s+(?i:branch)`),
		RuleConventional:    regexp.MustCompile(`(?i)\bconventional[ -]commits?\b`),
		RuleCleanTree:       regexp.MustCompile(`(?i)\bclean\s+(?:working\s+tree|work\s*tree|worktree|working\s+directory|working\s+copy|git\s+status)\b|\b(?:commit|stage)\s+all\s+(?:(?:of\s+)?(?:the|its|your|their)\s+)?(?:changes|changed\s+files|modified\s+files)\b`),
		"leaveUncommitted":  regexp.MustCompile(`\b(?:MUST NOT|SHALL NOT)\s+(?i:leave)\s+(?i:any\s+)?(?i:uncommitted)`),
		"create":            regexp.MustCompile(`(?i)\bcreate\b`),
		RuleNoHookBypass:    regexp.MustCompile(`\b(?:MUST NOT|SHALL NOT)\s+(?:(?i:bypass|skip|disable|circumvent)\s+(?:(?i:the|any|git|pre-commit|commit|sessiongate(?:'s)?)\s+)*(?i:hooks?)\b|(?i:use|pass|commit\s+with)\s+--no-verify\b)`),
	}
})

// looksLikePath accepts a token with a directory part or a file extension
// (".agents/HANDOFF.md", "docs/", "CHANGELOG.md"), not prose ("e.g.").
func looksLikePath(p string) bool {
	p = strings.TrimRight(p, ".")
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "..") || !hasASCIILetter(p) {
		return false
	}
	if strings.Contains(p, "/") {
		return true
	}
	dot := strings.LastIndexByte(p, '.')
	if dot <= 0 || dot == len(p)-1 || len(p)-dot > 9 {
		return false
	}
	return !strings.ContainsAny(p[:dot], ".")
}

// hasASCIILetter reports whether s holds a letter a-z or A-Z (what
// strings.ContainsAny with the 52 letters finds, without building their
// set on each call: it runs on every placeholder of a template).
func hasASCIILetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if byteClass[s[i]] == classUpper || byteClass[s[i]] == classLower {
			return true
		}
	}
	return false
}

// pathGlob turns a path named in prose into a glob: a trailing "/" means
// the whole directory.
func pathGlob(p string) string {
	p = strings.TrimRight(p, ".")
	if strings.HasSuffix(p, "/") {
		return p + "**"
	}
	return p
}

// mustNotModifyWhole reports whether the path at text[i:j] is a path and
// what follows it leaves the prohibition whole: "MUST NOT edit X by hand",
// "... until QA passes", "... without approval" forbid less than every
// change, so nothing is inferred from them.
func mustNotModifyWhole(text string, i, j int) bool {
	p := strings.TrimRight(text[i:j], ".")
	return looksLikePath(p) && inferRE()["wholeTail"].MatchString(strings.TrimSpace(text[i+len(p):]))
}

// mustUpdateWhole reports whether the path at text[i:j] is a file path and
// what follows says how it is updated, not when ("with: ...", "directly"):
// "MUST update CHANGELOG.md for user-facing changes" gives nothing.
func mustUpdateWhole(text string, i, j int) bool {
	p := strings.TrimRight(text[i:j], ".")
	if !looksLikePath(p) || strings.HasSuffix(p, "/") || strings.ContainsAny(p, "*") {
		return false
	}
	re := inferRE()
	tail := strings.TrimSpace(text[i+len(p):])
	return re["updateTail"].MatchString(tail) && !limited(tail)
}

var conditionalWords = newWordSet("if", "when", "whenever", "unless", "except", "otherwise")

// inferred is one inference before it is placed on a phase.
type inferred struct {
	phase int // index into spec.Phases
	check Check
}

// infer adds the inferred checks to the spec's phases.
func (w *walker) infer(s *source, doc ast.Node) {
	sp := w.spec
	var out []inferred
	add := func(pi int, r Requirement, rule string, kind CheckKind, arg string) {
		out = append(out, inferred{pi, Check{Kind: kind, Arg: arg, Line: r.Line,
			Inferred: &Inference{Line: r.Line, Sentence: r.Text, Rule: rule, Requirement: r.ID}}})
	}
	re := inferRE()
	for pi := range sp.Phases {
		p := &sp.Phases[pi]
		for ri, r := range p.Requirements {
			if r.Lead != "" {
				if glob, when, ok := w.listedFile(pi, r); ok {
					add(pi, r, RuleListedFile, CheckChangedSinceStart, glob)
					out[len(out)-1].check.When = when
				}
				continue
			}
			if r.Conditional || w.words[pi][ri].flags&wordConditional != 0 {
				continue // under a conditional phase, or saying when it applies
			}
			text := w.words[pi][ri].text // inferText: an imperative as the MUST sentence it means
			// Each rule runs only on text holding words it needs: most
			// requirements match none, and the regexps are most of a parse.
			has := func(c cue) bool { return w.words[pi][ri].cues&c != 0 }
			// The words checked are the ones each regexp must match (its
			// (?i) letters fold only to themselves, and a requirement's
			// whitespace is single spaces), so a check never hides a match.
			prohibits := strings.Contains(text, "MUST NOT") || strings.Contains(text, "SHALL NOT")
			modifies := prohibits && has(cueNotModify)
			if m := matchIf(modifies, re[RuleMustNotModify], text); m != nil && mustNotModifyWhole(text, m[2], m[3]) {
				add(pi, r, RuleMustNotModify, CheckUnchanged, pathGlob(text[m[2]:m[3]]))
			} else if at := readOnlyAt(has(cueReadOnly), text); at >= 0 && !hasWord(text[:at], &notWord, "", "") && !limited(text) {
				var paths []string
				for _, c := range pathTokens(text) {
					if looksLikePath(c) && !slices.Contains(paths, c) {
						paths = append(paths, c)
					}
				}
				if len(paths) == 1 {
					add(pi, r, RuleReadOnly, CheckUnchanged, pathGlob(paths[0]))
				}
			}
			if r.Level == LevelMust && has(cueMustUpdate) {
				if m := re[RuleMustUpdate].FindStringSubmatchIndex(text); m != nil && mustUpdateWhole(text, m[2], m[3]) {
					add(pi, r, RuleMustUpdate, CheckChangedSinceStart, pathGlob(strings.TrimRight(text[m[2]:m[3]], ".")))
				}
			}
			switch {
			case prohibits && has(cueDefaultBranch) && re[RuleNoDefaultBranch].MatchString(text):
				add(pi, r, RuleNoDefaultBranch, CheckNotDefaultBranch, "")
			case !prohibits && has(cueFeatureBranch) && re[RuleFeatureBranch].MatchString(text):
				add(pi, r, RuleFeatureBranch, CheckNotDefaultBranch, "")
			}
			if prohibits && (lowerIndex(text, "hook") >= 0 || strings.Contains(text, "--no-verify")) && re[RuleNoHookBypass].MatchString(text) {
				add(pi, r, RuleNoHookBypass, CheckNoHookBypass, "")
			}
			if r.Level == LevelMust && has(cueConventional) && re[RuleConventional].MatchString(text) {
				add(pi, r, RuleConventional, CheckCommitMessage, "conventional")
			}
			if (r.Level == LevelMust && has(cueCleanTree) && re[RuleCleanTree].MatchString(text)) ||
				prohibits && has(cueUncommitted) && re["leaveUncommitted"].MatchString(text) {
				add(pi, r, RuleCleanTree, CheckCleanWorktree, "")
			}
		}
	}
	out = append(out, w.inferTemplates(s, doc)...)
	w.place(out)
}

// listedFile is the check of an item under a lead ("Session
// context MUST go to:") that names one file: a file of the session there
// (changed_since_start), bound only on a feature branch when the item says
// so ("(if on feature branch)"); an item under another condition, naming
// no file or several, gets none (it owes evidence or a not-applicable
// mark). An item whose file a check of the phase already covers (the
// session log) gets none: that check proves it (oweUncovered).
func (w *walker) listedFile(pi int, r Requirement) (glob, when string, ok bool) {
	if r.Level != LevelMust {
		return "", "", false
	}
	item := Requirement{Text: r.Text[len(r.Lead):]}
	paths := item.NamedPaths()
	if len(paths) != 1 {
		return "", "", false
	}
	p := &w.spec.Phases[pi]
	if r.Conditional {
		if p.Condition != "" || !featureBranchCondRE.MatchString(item.Text) {
			return "", "", false
		}
		when = CondFeatureBranch
	}
	for _, c := range p.Checks {
		switch c.Kind {
		case CheckChangedSinceStart, CheckFileExists, CheckNoPlaceholders:
			if c.When == "" && globsMeet(paths[0], c.Arg) {
				return "", "", false
			}
		}
	}
	return paths[0], when, true
}

// What lower-cased requirement text holds when the must-not-modify and
// must-update regexps match it: the key word and the verb one space apart.
var (
	mustNotModifyWords = []string{"not directly ", "not modify", "not update", "not edit", "not change", "not alter", "not overwrite",
		"not rewrite", "not delete", "not remove", "not touch", "not write to"}
	mustUpdateWords = []string{"must update", "must modify", "must edit", "must change", "shall update", "shall modify", "shall edit", "shall change"}
)

// featureBranchWords: what lower-cased text holds when RuleFeatureBranch
// matches it ("eparate": (?i) also takes a long s, ſ, for the s).
var featureBranchWords = []string{"feature branch", "topic branch", "eparate branch", "dedicated branch"}

// limited is what `(?i)\b(until|till|without|by hand|manually)\b`
// matches: a word until, till, without or manually, or "by hand", in any
// case. Found without a regexp: it runs on every read-only and
// must-update candidate (infer_test.go checks it against the regexp).
func limited(text string) bool { return hasWord(text, &limitedWords, "by", "hand") }

var (
	limitedWords = newWordSet("until", "till", "without", "manually")
	notWord      = newWordSet("not") // `(?i)\bnot\b`
)

// readOnlyAt is where RuleReadOnly's `(?i)\bread[- ]only\b` first
// matches text when ok, else -1, found without the regexp (the letters
// of "read only" fold only to ASCII ones, and \b is ASCII's).
func readOnlyAt(ok bool, text string) int {
	for i := 0; ok && i+len("read only") <= len(text); i++ {
		if c := text[i]; c != 'r' && c != 'R' || i > 0 && isWordByte(text[i-1]) {
			continue
		}
		j := i + len("read only")
		if strings.EqualFold(text[i:i+4], "read") && (text[i+4] == '-' || text[i+4] == ' ') &&
			strings.EqualFold(text[i+5:j], "only") && (j == len(text) || !isWordByte(text[j])) {
			return i
		}
	}
	return -1
}

// matchIf is re's first match in s (submatch indexes) when ok, else nil.
func matchIf(ok bool, re *regexp.Regexp, s string) []int {
	if !ok {
		return nil
	}
	return re.FindStringSubmatchIndex(s)
}

// place puts inferred checks on their phases: a read-only file is checked
// once, at the last end-section phase that declares it (or the last end
// phase when only a start phase does: the file must be unchanged when the
// session ends, and a start gate would check it before any work); other
// kinds once per phase. A check the phase already has, or a phase with
// infer=off, gets nothing.
func (w *walker) place(in []inferred) {
	sp := w.spec
	// The last end phase that can block: a file that must stay unchanged
	// checked at an optional phase would only warn.
	lastEnd, lastAny := -1, -1
	for i := range sp.Phases {
		if sp.Phases[i].Section == SectionEnd {
			lastAny = i
			if sp.Phases[i].Mandatory() {
				lastEnd = i
			}
		}
	}
	if lastEnd < 0 {
		lastEnd = lastAny
	}
	type key struct {
		kind CheckKind
		arg  string
	}
	// where each once-per-document check goes, and the inference kept for it
	once := map[key]inferred{}
	var order []key
	var rest []inferred
	for _, x := range in {
		if x.check.Kind != CheckUnchanged && x.check.Kind != CheckNoPlaceholders {
			rest = append(rest, x)
			continue
		}
		k := key{x.check.Kind, x.check.Arg}
		prev, seen := once[k]
		if !seen {
			order = append(order, k)
		}
		end := sp.Phases[x.phase].Section == SectionEnd
		switch {
		case !seen:
			once[k] = x
		case end && (sp.Phases[prev.phase].Section != SectionEnd || x.phase > prev.phase):
			once[k] = x // a later end phase wins
		case end && x.phase == prev.phase && prev.check.Inferred.Rule != RuleMustNotModify && x.check.Inferred.Rule == RuleMustNotModify:
			once[k] = x // within one phase the MUST NOT sentence is the clearer source
		}
	}
	for _, k := range order {
		x := once[k]
		if sp.Phases[x.phase].Section != SectionEnd && k.kind == CheckUnchanged {
			if lastEnd < 0 {
				continue
			}
			x.phase = lastEnd
		}
		rest = append(rest, x)
	}
	for _, x := range rest {
		p := &sp.Phases[x.phase]
		if p.NoInfer || slices.ContainsFunc(p.Checks, func(c Check) bool {
			return c.Kind == x.check.Kind && c.Arg == x.check.Arg && c.Section == x.check.Section
		}) {
			continue
		}
		p.Checks = append(p.Checks, x.check)
	}
}

// template is a "<Name> Template" heading with a "Create at: PATH" line and
// a fenced body.
type template struct {
	subject  string // "session log"
	path     string
	line     int // of the path sentence
	text     string
	body     string
	headings []string // of body, read on first need
}

// inferTemplates finds "<Name> Template" sections (outside the protocol
// sections) that name the path of the file to create and hold the template
// in a fence. When an end-section MUST requirement asks to complete "the
// <name>", the file created from the template must hold none of the
// template's own placeholders ("[branch name]", "{session}") at that
// phase.
func (w *walker) inferTemplates(s *source, doc ast.Node) []inferred {
	re := inferRE()
	var tpls []template
	var cur *template
	level := 0
	heading := 0 // index into w.headings, the walk's texts of these headings
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch b := n.(type) {
		case *ast.Heading:
			if cur != nil && b.Level <= level {
				cur = nil
			}
			t := w.headings[heading]
			heading++
			if cur != nil {
				continue
			}
			if lowerIndex(t, "template") >= 0 && sectionKind(t) == "" {
				subj := strings.TrimSpace(strings.ReplaceAll(strings.ToLower(t), "template", ""))
				if subj != "" {
					tpls = append(tpls, template{subject: subj})
					cur, level = &tpls[len(tpls)-1], b.Level
				}
			}
		case *ast.Paragraph:
			if cur == nil || cur.path != "" {
				continue
			}
			t := w.textOf(s, b)
			if !re["create"].MatchString(t) {
				continue
			}
			for c := b.FirstChild(); c != nil; c = c.NextSibling() {
				if cs, ok := c.(*ast.CodeSpan); ok {
					if p := w.textOf(s, cs); looksLikePath(p) && strings.Contains(p, "/") {
						cur.path, cur.line, cur.text = p, s.lineOf(b.Lines().At(0).Start), t
						break
					}
				}
			}
		case *ast.FencedCodeBlock:
			if cur == nil || cur.path == "" || cur.body != "" || (b.Info != nil && !isMarkdownFence(s, b)) {
				continue
			}
			var sb strings.Builder
			lines := b.Lines()
			sb.Grow(segmentsLen(lines))
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				sb.Write(seg.Value(s.src))
			}
			cur.body = sb.String()
		}
	}
	var out []inferred
	for _, t := range tpls {
		if t.path == "" || t.body == "" {
			continue
		}
		glob := templateGlob(t.path)
		if glob == t.path || strings.Contains(glob, "**") {
			continue // a fixed path is not "a file per session"; a template path must vary
		}
		src := " (template: " + t.text + ", line " + itoa(t.line) + ")"
		out = append(out, w.requiredSections(&t, glob, src)...)
		ph := templatePlaceholders(t.body)
		if len(ph) == 0 {
			continue
		}
		pi, r, ok := w.completes(t.subject)
		if !ok {
			continue
		}
		out = append(out, inferred{pi, Check{Kind: CheckNoPlaceholders, Arg: glob, Line: r.Line, Placeholders: ph,
			Inferred: &Inference{Line: r.Line, Sentence: r.Text + src, Rule: RuleTemplateFilled, Requirement: r.ID}}})
	}
	return out
}

// requiredSections finds MUST requirements "The <subject> MUST include the
// <Name> section" for a template's subject, where the template itself has
// a heading naming that section: the file created from the template must
// have that heading.
func (w *walker) requiredSections(t *template, glob, src string) []inferred {
	re := inferRE()
	var out []inferred
	for pi := range w.spec.Phases {
		p := &w.spec.Phases[pi]
		if p.NoInfer {
			continue
		}
		for ri, r := range p.Requirements {
			words := w.words[pi][ri]
			if r.Level != LevelMust || r.Conditional || words.cues&cueSection == 0 || words.flags&wordConditional != 0 {
				continue
			}
			m := re[RuleSection].FindStringSubmatch(r.Text)
			if m == nil || !strings.EqualFold(strings.TrimSpace(m[1]), t.subject) {
				continue
			}
			name := strings.Trim(strings.TrimSpace(m[2]), `"'`)
			if t.headings == nil {
				if h, ok := w.fenceHeadings[t.body]; ok {
					t.headings = h // the fence was parsed for its checklists
				} else {
					t.headings = Headings([]byte(t.body)) // parsed once per template, when a requirement asks
				}
			}
			if name == "" || !slices.ContainsFunc(t.headings, func(h string) bool { return strings.EqualFold(h, name) }) {
				continue // the template has no such heading: the words name something else
			}
			out = append(out, inferred{pi, Check{Kind: CheckHasSection, Arg: glob, Section: name, Line: r.Line,
				Inferred: &Inference{Line: r.Line, Sentence: r.Text + src, Rule: RuleSection, Requirement: r.ID}}})
		}
	}
	return out
}

// Headings lists the text of a markdown document's headings (not those in
// code fences), in order.
func Headings(data []byte) []string {
	s := newSource(normalize(data))
	if blocks, ok := scanTemplate(s); ok {
		var out []string
		for _, b := range blocks {
			if b.kind == tplHeading {
				out = append(out, b.text)
			}
		}
		return out
	}
	return parsedHeadings(s)
}

// parsedHeadings is Headings with goldmark.
func parsedHeadings(s *source) []string {
	doc := md().Parse(text.NewReader(s.src))
	var out []string
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			out = append(out, textOf(s, h))
		}
	}
	return out
}

// completes finds the first end-section MUST requirement that asks to
// complete "the <subject>".
func (w *walker) completes(subject string) (int, Requirement, bool) {
	phrase := "complete the " + subject
	for pi := range w.spec.Phases {
		p := &w.spec.Phases[pi]
		if p.Section != SectionEnd {
			continue
		}
		for ri, r := range p.Requirements {
			words := w.words[pi][ri]
			if r.Level == LevelMust && !r.Conditional && words.flags&wordConditional == 0 && strings.Contains(strings.ToLower(r.Text), phrase) {
				return pi, r, true
			}
		}
	}
	return 0, Requirement{}, false
}

// templatePlaceholders lists a template's placeholders in first-seen
// order: "[words]" that is not a task box or a link text, and "{words}".
func templatePlaceholders(body string) []string {
	var out []string
	for _, loc := range bracketSpans(body) {
		t := body[loc[0]:loc[1]]
		inner := strings.TrimSpace(t[1 : len(t)-1])
		if inner == "" || strings.EqualFold(inner, "x") || !hasASCIILetter(inner) {
			continue
		}
		if t[0] == '[' && loc[1] < len(body) && (body[loc[1]] == '(' || body[loc[1]] == '[') {
			continue // [text](url), [text][ref]: a link
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// bracketSpans finds what `\[[^\[\]\n]{1,80}\]|\{[^{}\n]{1,60}\}` finds
// (FindAllStringIndex), by hand: bounded repetitions compile to a program
// with one copy per count, slow to run on every template.
func bracketSpans(s string) [][2]int {
	var out [][2]int // pairs by value: a slice per span was an allocation each
	for i := 0; i < len(s); {
		// Jump to the next opener: no rune but '[' and '{' holds those
		// bytes, so stepping rune by rune would stop at the same places.
		for i < len(s) && s[i] != '[' && s[i] != '{' {
			i++
		}
		if i == len(s) {
			break
		}
		if end := bracketEnd(s, i); end > 0 {
			out = append(out, [2]int{i, end})
			i = end
			continue
		}
		i++
	}
	return out
}

// runeLen is the length of the rune at s[i]; ASCII needs no decoding.
func runeLen(s string, i int) int {
	if s[i] < utf8.RuneSelf {
		return 1
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	return n
}

// bracketEnd is the end of a bracket span starting at i, or 0.
func bracketEnd(s string, i int) int {
	var closer byte
	limit := 0
	switch s[i] {
	case '[':
		closer, limit = ']', 80
	case '{':
		closer, limit = '}', 60
	default:
		return 0
	}
	opener, runes := s[i], 0
	for j := i + 1; j < len(s); {
		switch c := s[j]; {
		case c == closer:
			if runes == 0 {
				return 0
			}
			return j + 1
		case c == opener || c == '\n':
			return 0
		}
		if runes == limit {
			return 0
		}
		j += runeLen(s, j)
		runes++
	}
	return 0
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// InferredCheck is an inferred check with the phase it was placed on.
type InferredCheck struct {
	Phase string `json:"phase"`
	Check Check  `json:"check"`
}

// InferredChecks lists the inferred checks in phase order.
func (s *Spec) InferredChecks() []InferredCheck {
	out := []InferredCheck{}
	for _, p := range s.Phases {
		for _, c := range p.Checks {
			if c.Inferred != nil {
				out = append(out, InferredCheck{Phase: p.ID, Check: c})
			}
		}
	}
	return out
}

// EvidenceOnlyRequirement is a requirement no machine check cites: only
// evidence an agent records can show it was met.
type EvidenceOnlyRequirement struct {
	Phase string `json:"phase"`
	Requirement
}

// EvidenceOnly lists the MUST, MUST NOT, SHOULD and SHOULD NOT
// requirements that no check was inferred from and no annotation sits on
// the line of (MAY needs no evidence, and a summary sentence is met when
// the requirements it restates are). protocol lint prints them so an
// author can annotate them: a gate comment at the end of the requirement's
// own line binds that check to it.
func (s *Spec) EvidenceOnly() []EvidenceOnlyRequirement {
	out := []EvidenceOnlyRequirement{}
	for _, p := range s.Phases {
		for _, r := range p.Requirements {
			if r.Level == LevelMay || r.Summary {
				continue
			}
			covered := slices.ContainsFunc(p.Checks, func(c Check) bool {
				if c.Inferred != nil {
					// by id: two sentences of one line are two requirements
					return c.Inferred.Requirement == r.ID || c.Inferred.Requirement == "" && c.Inferred.Line == r.Line
				}
				return !c.Builtin && c.Line == r.Line && c.Kind != CheckEvidence && c.Kind != CheckMustEvidence
			})
			if !covered {
				out = append(out, EvidenceOnlyRequirement{Phase: p.ID, Requirement: r})
			}
		}
	}
	return out
}
