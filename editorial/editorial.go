// Package editorial decides, with no session, whether a change to a
// documentation file is strictly editorial (spelling, grammar or
// formatting), as some protocols allow skipping QA only for such changes:
// the protocol sentence that says so, the files the protocol itself has
// the session write (exempt: writing them is the protocol's work), and
// the rule over a file's changed lines. session/editorial.go reads the
// diff and the file at the session's commits and calls it.
//
// Some protocols allow skipping QA for documentation only when the change
// is "strictly editorial (spelling, grammar, or formatting)". A machine can
// check that conservatively: each changed documentation file existed when
// the session started, and its diff replaces lines one for one, touching no
// heading and no code fence. New sections, new files and code blocks are
// content, so QA applies.
package editorial

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// editorialRE finds the protocol sentence that limits skipping QA to
// editorial changes.
var editorialRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bstrictly editorial\b|\beditorial\b.*\b(spelling|grammar|formatting)\b`)
})

// A leave to skip QA, clause by clause: "The agent MAY skip QA", "MAY
// skip running the tests", "MAY choose to skip QA_VALIDATION", "MAY omit
// QA", "MAY forgo QA", "QA MAY be skipped", "Tests MAY optionally be
// skipped", "Documentation-only sessions MAY skip this phase", with a
// documentation condition in the same clause and no negation there. Not
// "MAY NOT skip QA", "MAY skip tests of unchanged vendored code", "MAY
// skip tests marked slow", "The reviewer MAY skip QA", "Tests MAY be
// skipped by the user, not for documentation", or "MAY skip tests that
// need network access; documentation-only sessions still run QA" (helpers
// 331 and 332: each unlocked skip_qa in a first cut).
var (
	skipActiveRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:^|\b(?:the|an)\s+agents?|\bagents|\byou|\b(?:documentation|docs)-only\s+(?:sessions|changes))\s+MAY\s+(?:also\s+|optionally\s+|choose\s+to\s+)?(?:skip|omit|bypass|forgo)\s+(?:running\s+)?(?:the\s+)?(?:qa(?:_validation)?|quality\s+checks|validation|tests?|test\s+suite|testing|this\s+phase)(?:\s+validation)?(?:\s+(\w+)|\W*$)`)
	})
	skipPassiveRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:^|\b)(?:the\s+)?(?:qa(?:_validation)?(?:\s+phase|\s+validation)?|validation|tests|testing|the\s+test\s+suite|this\s+phase)\s+MAY\s+(?:also\s+|optionally\s+)?be\s+(?:skipped|omitted|bypassed)(?:\s+(\w+)|\W*$)`)
	})
	// narrowing: a word after the skipped thing that narrows it ("tests
	// marked slow", "tests that need a network", "validation of the front
	// matter", "skipped by the user").
	narrowing   = []string{"marked", "that", "which", "of", "needing", "requiring", "tagged", "with", "in", "on", "the", "by", "unless", "except"}
	mayNotRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bMAY\s+NOT\b`) })
	clauseNegRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\b(?:never|not|no|still|unless)\b`) })
	skipDocsRE  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bdoc(?:s|umentation)?\b|\bdocs?-only\b|\bdocumentation-only\b|\beditorial\b|\bmarkdown\b|\breadme\b`)
	})
	leaveClauses = strings.NewReplacer("; ", "\x00", ". ", "\x00", ", and ", "\x00", ", but ", "\x00", ", never ", "\x00", ", not ", "\x00")
)

// Allowed reports the requirement, if any, that lets the agent skip QA for
// documentation ("The agent MAY skip QA only when every changed file is
// documentation"). Without one, skip_qa skips a phase the text gives no
// exception to, where the project has a test command: an agent changed
// the README the suite checks, never ran the suite and ended clean
// (helper 328's F2).
func Allowed(spec *protocolspec.Spec) (protocolspec.Requirement, bool) {
	for _, p := range spec.Phases {
		for _, r := range p.Requirements {
			if r.Level == "MAY" && isLeave(r.Text) {
				return r, true
			}
		}
	}
	return protocolspec.Requirement{}, false
}

// isLeave reports whether one clause of text lets the agent skip QA for
// documentation.
func isLeave(text string) bool {
	if mayNotRE().MatchString(text) {
		return false
	}
	for _, c := range strings.Split(leaveClauses.Replace(text), "\x00") {
		if !skipDocsRE().MatchString(c) || clauseNegRE().MatchString(c) {
			continue
		}
		for _, re := range []*regexp.Regexp{skipActiveRE(), skipPassiveRE()} {
			if m := re.FindStringSubmatch(c); m != nil && !slices.Contains(narrowing, strings.ToLower(m[1])) {
				return true
			}
		}
	}
	return false
}

// Required reports the requirement, if any, that limits skip_qa to
// editorial documentation changes.
func Required(spec *protocolspec.Spec) (protocolspec.Requirement, bool) {
	for _, p := range spec.Phases {
		for _, r := range p.Requirements {
			if editorialRE().MatchString(r.Text) && strings.Contains(strings.ToLower(r.Text), "skip") {
				return r, true
			}
		}
	}
	return protocolspec.Requirement{}, false
}

// ProtocolArtifacts are the files the protocol itself has the session
// write: the globs of its create/change gates (session log, QA reports) and
// the hidden working paths named by a sentence that asks to write them
// ("save to .serena/memories/", "create .agents/sessions/..."). Writing them
// is the protocol's work, not a documentation change under review. Only
// dot-folders count, so a protocol that mentions docs/ does not exempt the
// project's documentation; a path the protocol only has the agent read (the
// project plan, the handoff) is not exempt, and neither is a whole
// top-level folder (".agents/" holds the plan too): exempting them let a
// new section in the plan pass as an editorial change.
func ProtocolArtifacts(spec *protocolspec.Spec) []string {
	var out []string
	named := func(text string) {
		// Clause by clause: "read .x/a.md, then create .x/b.md" writes
		// only the second.
		for _, clause := range clauses(text) {
			if !protocolspec.AsksToWrite(clause) {
				continue
			}
			for _, m := range dotPathRE().FindAllStringSubmatch(clause, -1) {
				p := strings.TrimRight(m[1], ".,;:)")
				if strings.HasSuffix(p, "/") || !strings.Contains(path.Base(p), ".") {
					p = strings.TrimSuffix(p, "/")
					if !strings.Contains(p, "/") {
						continue // a whole top-level folder
					}
					p += "/**"
				}
				out = append(out, p)
			}
		}
	}
	for _, p := range spec.Phases {
		for _, c := range p.Checks {
			if (c.Kind == protocolspec.CheckFileExists || c.Kind == protocolspec.CheckChangedSinceStart) && c.Arg != "" {
				out = append(out, c.Arg)
			}
		}
		for _, r := range p.Requirements {
			named(r.Text)
		}
		for _, it := range p.Checklist {
			named(it.Step)
		}
	}
	for _, cl := range spec.Checklists {
		for _, it := range cl.Items {
			named(it.Step)
		}
	}
	return out
}

// clauseBreaks end a clause of a requirement: a sentence, a semicolon, or
// "then" that starts a next step.
var clauseBreaks = strings.NewReplacer(". ", "\x00", "; ", "\x00", ", then ", "\x00", " then ", "\x00", ", and ", "\x00")

// clauses splits a requirement's text into its clauses.
func clauses(text string) []string {
	return strings.Split(clauseBreaks.Replace(text), "\x00")
}

// dotPathRE finds a path under a hidden folder in protocol text.
var dotPathRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("(?:^|[\\s`(\"'])(\\.[A-Za-z0-9_-]+/[A-Za-z0-9_./*-]*)")
})

// headingOrFence matches a line that opens a section or a code block.
var headingOrFence = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^\\s{0,3}(#{1,6}\\s|#{1,6}$|```|~~~)") })

// Lines says why a documentation file's change is not editorial ("" when
// it is): added and removed are its changed lines, addedAt the 1-based
// line numbers of the added ones in the new file, and fenced the line
// numbers inside a fenced code block of the new file (FencedLines), read
// only when the lines themselves leave the question open.
func Lines(file string, added, removed []string, addedAt []int, fenced func() (map[int]bool, error)) (string, error) {
	if len(removed) == 0 && len(added) > 0 {
		return fmt.Sprintf("%s is new or only gained lines", file), nil
	}
	if len(added) != len(removed) {
		return fmt.Sprintf("%s gained or lost lines (%d added, %d removed)", file, len(added), len(removed)), nil
	}
	for _, l := range append(append([]string{}, added...), removed...) {
		if headingOrFence().MatchString(l) {
			return fmt.Sprintf("%s changes a heading or a code fence (%q)", file, shorten.Bytes(strings.TrimSpace(l), 60, "...")), nil
		}
	}
	inCode, err := fenced()
	if err != nil {
		return "", err
	}
	for _, n := range addedAt {
		if inCode[n] {
			return fmt.Sprintf("%s changes line %d, inside a code block", file, n), nil
		}
	}
	// Each line is replaced by its counterpart, in order.
	for i := range added {
		if why := wording(removed[i], added[i]); why != "" {
			return wordingReason(file, removed[i], added[i], why), nil
		}
	}
	return "", nil
}

// FencedLines returns the 1-based line numbers of a file's content that
// sit inside a code block (fences included): fenced, and, as CommonMark
// reads them, indented code blocks and <pre>/<script>/<style> HTML blocks: the
// protocol's "no changes to ... code blocks of any kind" (round 55: an
// install command changed in an indented block skipped QA as editorial).
func FencedLines(b []byte) map[int]bool {
	out := fencedOnly(b)
	codeBlockLines(b, out)
	return out
}

// codeBlockLines adds the lines of b's indented code blocks and HTML blocks
// to out.
func codeBlockLines(b []byte, out map[int]bool) {
	doc := goldmark.New().Parser().Parse(text.NewReader(b))
	lineAt := func(off int) int { return bytes.Count(b[:min(off, len(b))], []byte("\n")) + 1 }
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if hb, ok := n.(*ast.HTMLBlock); ok && hb.HTMLBlockType != ast.HTMLBlockType1 {
			// Only <pre>, <script>, <style>, <textarea> hold code; a
			// <p align=center> banner or a comment is prose a spelling
			// fix may touch.
			return ast.WalkSkipChildren, nil
		}
		switch n.Kind() {
		case ast.KindCodeBlock, ast.KindHTMLBlock:
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				for l := lineAt(seg.Start); l <= lineAt(max(seg.Start, seg.Stop-1)); l++ {
					out[l] = true
				}
			}
			if hb, ok := n.(*ast.HTMLBlock); ok && hb.HasClosure() {
				out[lineAt(hb.ClosureLine.Start)] = true
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
}

// fencedOnly returns the lines inside fenced code blocks, fences included.
func fencedOnly(b []byte) map[int]bool {
	out := map[int]bool{}
	fence := ""
	for i, l := range strings.Split(string(b), "\n") {
		t := strings.TrimLeft(l, " ")
		switch {
		case fence == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")):
			fence = t[:3]
			out[i+1] = true
		case fence != "":
			out[i+1] = true
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
		}
	}
	return out
}
