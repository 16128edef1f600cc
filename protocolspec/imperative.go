package protocolspec

import "bytes"

// Imperative requirements.
//
// Newer protocols state most requirements without RFC 2119 words: "Run
// checks that cover the changed behavior", "Use conventional commits", "Do
// not bypass hooks". A protocol binds as written, so such a sentence (or
// list item) is a requirement too: level MUST, MUST NOT for "Do not X" and
// "Never X". The test is deliberately narrow, because a description read
// as a requirement owes evidence nobody can give: the sentence must start
// with a verb of the list below in its base form (after an optional "Always",
// "Then", ... or a leading "Before committing," clause), the word after it
// must not make the verb a noun ("Commit SHA", "Test output", "Review is
// required"), and questions, "Label: text" lines, headings, tables and code
// are never read. Changing what is recognised changes Parse's output: bump
// SpecVersion.

// imperativeVerbs are base-form verbs a protocol's instructions start with.
// Cross-references ("See", "Refer") and words mostly used as nouns at the
// start of a line ("Note", "Summary") are left out.
var imperativeVerbs = newWordSet(
	"add", "amend", "append", "apply", "ask", "attach", "avoid", "begin", "build", "bump", "capture", "check",
	"checkout", "cite", "clone", "close", "collect", "commit", "compare", "complete", "confirm", "copy", "create",
	"declare", "define", "delete", "describe", "document", "edit", "enable", "ensure", "execute", "explain",
	"fetch", "fill", "finish", "fix", "follow", "format", "gather", "generate", "identify", "include",
	"initialize", "initialise", "inspect", "install", "invoke", "keep", "leave", "link", "lint", "list", "load",
	"log", "make", "mark", "merge", "modify", "move", "name", "open", "post", "prefer", "prepare", "produce",
	"provide", "pull", "push", "put", "read", "rebase", "record", "remove", "rename", "report", "reproduce",
	"request", "resolve", "retrieve", "review", "revert", "run", "save", "scan", "search", "set", "sign",
	"squash", "stage", "start", "state", "stop", "store", "summarize", "summarise", "switch", "tag", "test",
	"track", "update", "use", "validate", "verify", "wait", "work", "write",
)

// imperativeLeads may come before the verb: "Always run ...", "Then commit ...".
var imperativeLeads = newWordSet("always", "also", "then", "first", "next", "finally", "please", "immediately", "now")

// imperativeClauses open a leading clause the verb follows after a comma:
// "Before committing, run the linter", "If the tests fail, fix them".
var imperativeClauses = newWordSet("before", "after", "once", "when", "whenever", "if", "unless", "at", "during", "on", "in", "while", "until", "between", "within")

// nounFollowers are words that, right after a verb of the list, show it is
// a noun or the subject of another verb: "Commit SHA", "Test output",
// "Review is required", "Log file path".
var nounFollowers = newWordSet(
	"sha", "shas", "hash", "hashes", "id", "ids", "message", "messages", "output", "outputs", "result", "results",
	"file", "files", "path", "paths", "status", "log", "logs", "number", "numbers", "count", "notes", "summary",
	"history", "type", "types", "details", "entry", "entries", "coverage", "evidence", "template", "templates",
	"level", "levels", "time", "date", "item", "items", "section", "sections", "hook", "script", "scripts", "case",
	"cases", "suite", "suites", "session", "sessions", "step", "steps", "gate", "gates", "config", "configuration",
	"comment", "comments", "body", "title", "url", "author", "range", "exit", "artifact", "artifacts", "trailer",
	"trailers", "phase", "mode", "report", "reports", "of", "is", "are", "was", "were", "has", "have", "had", "will",
	"can", "could", "would", "should", "may", "must", "shall", "does", "did", "follows", "contains", "includes",
	"shows", "lists", "means", "covers", "happens", "runs", "passes", "fails", "failed", "passed", "data",
	"name", "names", "info", "information", "frequency", "request", "requests", "requirement", "requirements",
	"check", "checker", "checklist", "rules", "record", "records", "state", "link", "links", "list", "lists",
	"format", "formats", "description", "criteria", "cycle", "window", "box", "boxes", "location",
	"exists", "exist", "created", "made", "done", "completed", "updated", "pushed", "committed", "recorded",
	"verified", "written", "merged",
)

// introducesContent reports whether text ends by introducing a list of
// contents ("MUST update X with:", "The log MUST include:"): the items
// after it are what to write, not what to do ("Link to session log").
func introducesContent(b []byte) bool {
	b = bytes.TrimRight(bytes.TrimSpace(b), "*_")
	if !bytes.HasSuffix(b, []byte(":")) {
		return false
	}
	b = bytes.TrimRight(b[:len(b)-1], " *_")
	i := len(b)
	for i > 0 && isWordByte(b[i-1]) {
		i--
	}
	// The word is ASCII word bytes: lowered on the stack (bytes.ToLower
	// made a copy for every paragraph and list item).
	var buf [24]byte
	w := b[i:]
	if len(w) == 0 || len(w) > len(buf) {
		return false // no intro word is longer
	}
	low := buf[:len(w)]
	for k, c := range w {
		low[k] = lowerASCII(c)
	}
	return contentIntros.has(low)
}

var contentIntros = newWordSet("with", "include", "includes", "including", "contain", "contains", "containing",
	"list", "lists", "listing", "cover", "covers", "covering", "have", "has", "record", "records", "recording", "document", "documenting")

// imperativeLevel returns LevelMust or LevelMustNot when the masked text
// (code spans NUL, whitespace single spaces) is an imperative sentence,
// else "".
func imperativeLevel(b []byte) string {
	level, _, _ := imperativeAt(b)
	return level
}

// imperativeAt is imperativeLevel with where the instruction starts in b
// (the negation's first byte for MUST NOT, the verb's for MUST) and the
// verb's first byte.
func imperativeAt(b []byte) (level string, from, verb int) {
	lead := len(b) - len(bytes.TrimLeft(b, " "))
	b = bytes.TrimSpace(b)
	if len(b) == 0 || bytes.HasSuffix(bytes.TrimRight(b, `)"'*_`), []byte("?")) {
		return "", 0, 0 // a question asks, it does not require
	}
	if !mayStartImperative(b) {
		return "", 0, 0
	}
	return imperativeFrom(b, lead)
}

// imperativeFrom is imperativeAt after its first checks, on the trimmed b
// (lead is the spaces trimmed): the words read one by one.
func imperativeFrom(b []byte, lead int) (level string, from, verb int) {
	words := imperativeWords(b, 16)
	if len(words) < 2 {
		return "", 0, 0
	}
	level = LevelMust
	i, neg := 0, 0
	// A leading clause ends at a comma within the first words: the verb
	// comes after it ("Before committing, run ...").
	if imperativeClauses.has(words[0].low) {
		j := 1
		for j < len(words) && !words[j-1].comma {
			j++
		}
		if j >= len(words) || j > 10 {
			return "", 0, 0
		}
		i = j
	}
	for i < len(words) && imperativeLeads.has(words[i].low) && !words[i].comma && !words[i].colon {
		i++
	}
	if i >= len(words) {
		return "", 0, 0
	}
	neg = i
	switch {
	case string(words[i].low) == "never":
		level, i = LevelMustNot, i+1
	case string(words[i].low) == "don't" || string(words[i].low) == "dont":
		level, i = LevelMustNot, i+1
	case string(words[i].low) == "do" && i+1 < len(words) && string(words[i+1].low) == "not":
		level, i = LevelMustNot, i+2
	}
	for i < len(words) && imperativeLeads.has(words[i].low) {
		i++ // "Do not ever", "Never also": rare, harmless
	}
	if i+1 >= len(words) {
		return "", 0, 0 // a verb alone ("Commit.") names no object
	}
	v := words[i]
	// After "Do not" and "Never" any word is the verb ("Do not bypass
	// hooks"); otherwise it must be one of the list.
	if v.colon || v.comma || level == LevelMust && !imperativeVerbs.has(v.verb) {
		return "", 0, 0
	}
	if nounFollowers.has(words[i+1].low) {
		return "", 0, 0
	}
	if level == LevelMust {
		neg = i
	}
	return level, lead + words[neg].at, lead + v.at
}

// mayStartImperative reports whether b's first word can start an
// instruction: a leading clause's word, a lead ("Always"), a negation or a
// verb of the list. Most sentences of a protocol fail here, before their
// words are split and lowered (which cost a parse 1.5x goldmark's time).
// It reads the first word as imperativeWords does.
func mayStartImperative(b []byte) bool {
	i := 0
	for i < len(b) && !isWordByte(b[i]) && b[i] != 0 {
		i++
	}
	if i == len(b) || b[i] == 0 {
		return false // a code span is no verb
	}
	var buf [16]byte
	n := 0
	for j := i; j < len(b) && (isWordByte(b[j]) || (b[j] == '-' || b[j] == '\'') && j+1 < len(b) && isWordByte(b[j+1])); j++ {
		if n == len(buf) {
			return false // longer than any word of the lists
		}
		buf[n] = lowerASCII(b[j])
		n++
	}
	w := buf[:n]
	switch string(w) {
	case "never", "don't", "dont", "do":
		return true
	}
	verb := w
	if len(verb) > 3 && string(verb[:3]) == "re-" {
		verb = verb[3:]
	}
	return imperativeClauses.has(w) || imperativeLeads.has(w) || imperativeVerbs.has(verb)
}

// imperativeWord is a word of a sentence: letters, digits, apostrophes and
// inner hyphens, lowered; verb is the word without a "re-" prefix
// ("Re-verify" reads as "verify"); comma and colon say what ends it.
type imperativeWord struct {
	at           int // offset in the text
	low, verb    []byte
	comma, colon bool
}

// imperativeWords splits the first n words of b. A NUL (code span) ends a
// word and is no word itself; code spans count as words only as objects.
func imperativeWords(b []byte, n int) []imperativeWord {
	var out []imperativeWord
	for i := 0; i < len(b) && len(out) < n; {
		c := b[i]
		if !isWordByte(c) && c != 0 {
			i++
			continue
		}
		if c == 0 {
			j := i
			for j < len(b) && b[j] == 0 {
				j++
			}
			out = append(out, imperativeWord{at: i, low: []byte("`code`"), verb: []byte("`code`"), comma: j < len(b) && b[j] == ',', colon: j < len(b) && b[j] == ':'})
			i = j
			continue
		}
		j := i
		for j < len(b) && (isWordByte(b[j]) || (b[j] == '-' || b[j] == '\'') && j+1 < len(b) && isWordByte(b[j+1])) {
			j++
		}
		low := make([]byte, j-i)
		for k := i; k < j; k++ {
			low[k-i] = lowerASCII(b[k])
		}
		verb := low
		if bytes.HasPrefix(verb, []byte("re-")) {
			verb = verb[3:]
		}
		w := imperativeWord{at: i, low: low, verb: verb}
		if j < len(b) {
			w.comma = b[j] == ','
			w.colon = b[j] == ':'
		}
		out = append(out, w)
		i = j
	}
	return out
}

// inferText is the text inference reads for a requirement: an imperative
// is read as the RFC 2119 sentence it means ("Do not update X" as "MUST
// NOT update X", "Use conventional commits" as "MUST Use conventional
// commits"), so the rules written for key words apply to it unchanged.
func inferText(r Requirement) string {
	if !r.Imperative {
		return r.Text
	}
	level, from, verb := imperativeAt([]byte(r.Text))
	if level == "" {
		return r.Text
	}
	return r.Text[:from] + level + " " + r.Text[verb:]
}
