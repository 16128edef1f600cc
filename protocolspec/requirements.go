package protocolspec

import (
	"strconv"
	"strings"
)

// Requirement and checklist-row ids.
//
// An id is the phase id, a dot, and a slug of the text's first significant
// words: "The agent MUST read `.agents/HANDOFF.md` before starting work"
// in CONTEXT_RETRIEVAL is CONTEXT_RETRIEVAL.read-agents-handoff-md. A slug
// does not move when another requirement is added, removed or reordered,
// or when lines shift, as an ordinal (R3) or a line number would; it
// changes only when the requirement's own leading words change. Two texts
// with the same slug in one phase get -2, -3 in document order. A task
// item that is also a requirement keeps one id for both.

// slugWords is how many significant words a slug keeps.
const slugWords = 4

// slugStop are words that say nothing about what a requirement asks.
var slugStop = newWordSet(
	"the", "a", "an", "agent", "must", "shall", "should", "may", "required", "recommended", "optional", "be", "is",
	"are", "to", "of", "for", "with", "and", "or", "in", "on", "at", "by", "its", "it", "this", "that", "then",
	"if", "when", "unless", "you", "your", "all", "any",
)

// Slug is the id part a requirement or checklist text gives ("" for a text
// with no significant word).
func Slug(text string) string { return string(appendSlug(nil, text)) }

// appendSlug appends text's slug to dst.
func appendSlug(dst []byte, text string) []byte {
	if out, ok := appendLowerSlug(dst, text, false); ok {
		return out
	}
	// Some non-ASCII letters lower-case to ASCII ones (K, the Kelvin sign).
	out, _ := appendLowerSlug(dst, strings.ToLower(text), true)
	return out
}

// appendLowerSlug appends the slug of text's runs of [a-z0-9], ASCII
// letters lowered, scanned by hand and written straight into the slug
// (Slug runs on every requirement). Unless text is lowered already, ok is
// false when a non-ASCII byte comes before the slug is whole: the text
// must be lower-cased first. Only the bytes the slug needs are read.
func appendLowerSlug(dst []byte, text string, lowered bool) (_ []byte, ok bool) {
	out := dst
	words := 0
	for i := 0; i < len(text) && words < slugWords; {
		if text[i] >= 0x80 && !lowered {
			return dst, false
		}
		if !isSlugByte(lowerASCII(text[i])) {
			i++
			continue
		}
		start := len(out)
		if words > 0 {
			out = append(out, '-')
		}
		ws := len(out)
		for ; i < len(text) && isSlugByte(lowerASCII(text[i])); i++ {
			out = append(out, lowerASCII(text[i]))
		}
		if i < len(text) && text[i] >= 0x80 && !lowered {
			return dst, false // the word may go on in the lower-cased text
		}
		if slugStop.has(out[ws:]) {
			out = out[:start]
			continue
		}
		words++
	}
	return out, true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isASCIIText(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func isSlugByte(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

// IsConditional reports whether a requirement's text says when it applies.
func IsConditional(text string) bool { return hasWord(text, &requirementConditionals, "in", "case") }

var requirementConditionals = newWordSet("if", "when", "whenever", "unless")

// AsksToWrite reports whether a sentence asks for files to be made,
// changed or committed (create, write, update, save, commit, ...), as
// opposed to read.
func AsksToWrite(text string) bool {
	return hasWord(text, &creationWords, "", "") || hasWord(text, &committingWords, "", "")
}

var committingWords = newWordSet("commit", "commits", "committed", "append", "record")

// creationWords are the words of a sentence that asks for a file to be made
// or changed.
var creationWords = newWordSet("create", "creates", "created", "write", "writes", "produce", "generate", "add", "update", "updates", "save")

// settleRequirements gives a closed phase's requirements and checklist rows
// their ids and flags, and decides which file_exists checks need a file of
// this session. It runs once per phase at parse time, and returns the
// words of each requirement for inference to read.
func settleRequirements(p *Phase) []reqWords {
	words := make([]reqWords, len(p.Requirements))
	for i, r := range p.Requirements {
		words[i] = wordsOf(inferText(r))
	}
	seen := map[string]int{}
	var buf []byte
	// An id is built in one buffer and made a string once; its slug part
	// is the key of seen.
	id := func(text string, line int) string {
		buf = append(append(buf[:0], p.ID...), '.')
		from := len(buf)
		if buf = appendSlug(buf, text); len(buf) == from {
			buf = strconv.AppendInt(append(buf, "line-"...), int64(line), 10)
		}
		to := len(buf)
		n := seen[string(buf[from:to])] + 1
		if n > 1 {
			buf = strconv.AppendInt(append(buf, '-'), int64(n), 10)
		}
		id := string(buf)
		seen[id[from:to]] = n
		return id
	}
	var byLine map[int]string // requirement ids by line, for the checklist rows
	if len(p.Checklist) > 0 {
		byLine = make(map[int]string, len(p.Requirements))
	}
	firstItemMust := 0
	for i := range p.Requirements {
		r := &p.Requirements[i]
		r.ID = id(r.Text[len(r.Lead):], r.Line) // an item under a lead: the item's words
		if byLine != nil {
			byLine[r.Line] = r.ID
		}
		r.Conditional = p.Condition != "" || words[i].flags&wordWhen != 0
		if r.ListItem && r.Level == LevelMust && (firstItemMust == 0 || r.Line < firstItemMust) {
			firstItemMust = r.Line
		}
	}
	for i := range p.Requirements {
		r := &p.Requirements[i]
		// An imperative paragraph ahead of a list ("Run checks that cover
		// the changed behavior.") is an instruction of its own, not a
		// restatement of the list.
		r.Summary = !r.ListItem && !r.Imperative && r.Level == LevelMust && firstItemMust > 0 && r.Line < firstItemMust
	}
	for i := range p.Checklist {
		c := &p.Checklist[i]
		if rid, ok := byLine[c.Line]; ok {
			c.ID = rid
			continue
		}
		c.ID = id(c.Step, c.Line)
	}
	asks := hasWord(p.Title, &creationWords, "", "")
	for i, r := range p.Requirements {
		if r.Level == LevelMust && words[i].flags&wordCreation != 0 {
			asks = true
		}
	}
	for i := range p.Checks {
		c := &p.Checks[i]
		if c.Kind == CheckFileExists && !c.freshSet {
			// The built-in file_exists gates are the session log and the
			// QA report: both are artifacts of this session.
			c.Fresh = c.Builtin || asks
		}
	}
	return words
}

// OwedRequirements are the requirements of a phase that need their own
// evidence (or, when conditional, a not-applicable record): every MUST that
// is not a summary of the others. MUST NOT is a prohibition: nothing done
// can be shown for it, so it owes none (machine checks enforce the ones a
// machine can see). With no such requirement, the phase's MUST checklist
// rows are owed instead.
func (p *Phase) OwedRequirements() []Requirement {
	var out []Requirement
	musts := false
	for _, r := range p.Requirements {
		if r.Level == LevelMust && !r.Summary {
			musts = true
			if r.ProvenBy == "" {
				out = append(out, r)
			}
		}
	}
	if musts {
		return out
	}
	for _, c := range p.Checklist {
		if c.Level == LevelMust {
			out = append(out, Requirement{ID: c.ID, Level: c.Level, Text: c.Step, Line: c.Line, Conditional: p.Condition != "" || IsConditional(c.Step)})
		}
	}
	return out
}

// FindRequirement looks a requirement or checklist row up by id across the
// spec; the phase it belongs to is returned with it.
func (s *Spec) FindRequirement(id string) (*Phase, Requirement, bool) {
	for i := range s.Phases {
		p := &s.Phases[i]
		if r, ok := p.Requirement(id); ok {
			return p, r, true
		}
	}
	return nil, Requirement{}, false
}

// Requirement looks up a requirement or checklist row of this phase by its
// full id (PHASE.slug) or by the slug alone.
func (p *Phase) Requirement(id string) (Requirement, bool) {
	if !strings.Contains(id, ".") {
		id = p.ID + "." + id
	}
	for _, r := range p.Requirements {
		if r.ID == id {
			return r, true
		}
	}
	for _, c := range p.Checklist {
		if c.ID == id {
			return Requirement{ID: c.ID, Level: c.Level, Text: c.Step, Line: c.Line, Conditional: p.Condition != "" || IsConditional(c.Step)}, true
		}
	}
	return Requirement{}, false
}

// RequirementIDs lists a phase's requirement and checklist-row ids, for messages.
func (p *Phase) RequirementIDs() []string {
	var out []string
	for _, r := range p.Requirements {
		out = append(out, r.ID)
	}
	for _, c := range p.Checklist {
		if !containsStr(out, c.ID) {
			out = append(out, c.ID)
		}
	}
	return out
}

func containsStr(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
