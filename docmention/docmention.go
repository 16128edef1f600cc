// Package docmention decides whether a change affects documentation: it
// touched a name a tracked markdown file mentions. The names are the ones a
// reader of the docs types or looks up: a command-line flag (`--verbose`),
// an environment variable (`SESSIONGATE_DB`), an exported identifier
// the change removed or renamed, or the path of a file it deleted or
// renamed.
//
// A starter protocol's "update the documentation your change affects" binds
// on this condition (gate option when=docs_affected): a code-only change that
// touches no documented name owes no docs update, one that changes a
// documented flag does. The package is pure: the caller reads the diff and
// the docs.
package docmention

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Condition is the name of the built-in condition, as a gate option writes it.
const Condition = "docs_affected"

// Change is one file of a change: its path, whether the change deleted it,
// and the lines it added and removed. Body is the file after the change
// ("" when deleted or not read): a Go file's constants are read from it, so
// a flag named through one (flag.Bool(verboseFlag, ...)) is seen.
type Change struct {
	Path           string
	Deleted        bool
	Added, Removed []string
	Body           string
	// Before is the file at the start; Whole says Before and Body are the
	// whole file on both sides ("" where it did not exist), so a Go
	// package is judged on its source (Touched), not on the diff's lines.
	Before string
	Whole  bool
}

// Doc is a tracked markdown file and its content.
type Doc struct {
	Path string
	Body []byte
}

// Kinds of names.
const (
	KindFlag       = "flag"
	KindVariable   = "environment variable"
	KindIdentifier = "identifier"
	KindFile       = "file"
)

// Name is a name a change touched.
type Name struct {
	Kind string
	Text string // as a doc writes it: --verbose, SESSIONGATE_DB, Advance, config/app.yaml
	File string // the changed file that touched it
	// Kept: a flag still defined after the change (its default, usage or
	// type changed), which a doc's index of flags does not describe.
	Kept bool
}

// Hit is a touched name a doc mentions.
type Hit struct {
	Name
	Doc string
}

// String says it for a gate message.
func (h Hit) String() string {
	return h.Kind + " " + h.Text + " (changed in " + h.File + ") is mentioned in " + h.Doc
}

var (
	reOnce                                   sync.Once
	reDashFlag, reQuoted, reGoDecl, reEnvVar *regexp.Regexp
	reGoConst, reArgIdent                    *regexp.Regexp
)

// regexps are compiled on first use, never at init: the hook path links
// this package (TestNoRegexpCompiledAtInit).
func regexps() {
	reOnce.Do(func() {
		reDashFlag = regexp.MustCompile(`(?:^|[^\w-])(--[a-z][a-z0-9]*(?:-[a-z0-9]+)*)`)
		reQuoted = regexp.MustCompile(`"([a-z][a-z0-9]+(?:-[a-z0-9]+)*)"`)
		reGoDecl = regexp.MustCompile(`^\s*(?:func\s+(?:\([^)]*\)\s*)?|type\s+|const\s+|var\s+)([A-Z][A-Za-z0-9_]*)`)
		reEnvVar = regexp.MustCompile(`"([A-Z][A-Z0-9]*_[A-Z0-9_]+)"`)
		reGoConst = regexp.MustCompile(`^\s*(?:const\s+|var\s+)?([A-Za-z_]\w*)\s*(?:string\s*)?:?=\s*"([a-z][a-z0-9]*(?:-[a-z0-9]+)*)"\s*(?://.*)?$`)
		reArgIdent = regexp.MustCompile(`[(,]\s*([A-Za-z_]\w*)\s*[,)]`)
	})
}

// DocFormat reports whether a file is in a documentation format: markdown
// (.md, .mdx, .markdown), reStructuredText (.rst), AsciiDoc (.adoc,
// .asciidoc), or plain text that is a README or sits in docs/ or doc/
// (requirements.txt is not documentation).
func DocFormat(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".mdx", ".markdown", ".rst", ".adoc", ".asciidoc":
		return true
	case ".txt":
		lp := strings.ToLower(p)
		return strings.HasPrefix(strings.ToUpper(path.Base(p)), "README") ||
			strings.HasPrefix(lp, "docs/") || strings.HasPrefix(lp, "doc/") || strings.Contains(lp, "/docs/") || strings.Contains(lp, "/doc/")
	}
	return false
}

// IsDoc reports whether a tracked file is documentation whose mentions
// count: a doc (DocFormat) that describes what is, not history (a
// changelog, release notes, a dated session log or note) or test data.
func IsDoc(p string) bool {
	if !DocFormat(p) || IgnoredPath(p) {
		return false
	}
	// A hidden folder holds a tool's or agent's notes (.agents/analysis),
	// not the project's documentation; .github's guides are.
	if strings.HasPrefix(p, ".") && !strings.HasPrefix(p, ".github/") || strings.Contains(p, "/.") {
		return false
	}
	return !history(p)
}

// CanAnswer reports whether a changed doc can answer for a name it
// mentioned: any doc but history, hidden folders included (a skill's
// .claude/skills/x/SKILL.md is the source its published copy is built
// from; its mentions do not make the condition hold, its update counts).
func CanAnswer(p string) bool {
	return DocFormat(p) && !IgnoredPath(p) && !history(p)
}

// Mentions reports whether a doc mentions a touched name, as Find reads it.
func Mentions(n Name, doc string, body []byte) bool {
	return len(find([]Change{{Path: n.File}}, []Doc{{Path: doc, Body: body}}, true, []Name{n})) > 0
}

// history: a changelog, release notes, or a dated log entry.
func history(p string) bool {
	base := strings.ToUpper(path.Base(p))
	for _, h := range []string{"CHANGELOG", "CHANGES", "HISTORY", "NEWS", "RELEASE"} {
		if strings.HasPrefix(base, h) {
			return true
		}
	}
	return dated(path.Base(p))
}

// dated: a name that starts with a date (2025-12-26-session-91.md) is a
// log entry of its day.
func dated(base string) bool {
	if len(base) < 10 {
		return false
	}
	for i, c := range base[:10] {
		switch i {
		case 4, 7:
			if c != '-' {
				return false
			}
		default:
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return true
}

// IgnoredPath reports a file whose change never touches documented
// behaviour: tests and their data.
func IgnoredPath(p string) bool {
	lp := strings.ToLower(p)
	for _, d := range []string{"testdata/", "test/", "tests/", "__tests__/", "fixtures/", "spec/"} {
		if strings.HasPrefix(lp, d) || strings.Contains(lp, "/"+d) {
			return true
		}
	}
	base := path.Base(lp)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	return strings.HasSuffix(stem, "_test") || strings.HasPrefix(stem, "test_") ||
		strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") || strings.HasSuffix(stem, ".tests")
}

// Names lists the names a file's change touched: flags the file defines or
// parses and environment variables it reads on its added or removed lines
// (comments aside), exported Go identifiers whose declaration it removed
// or renamed, and its path when it was deleted or renamed.
func Names(c Change) []Name {
	if IgnoredPath(c.Path) || DocFormat(c.Path) {
		return nil
	}
	regexps()
	seen := map[string]bool{}
	var out []Name
	add := func(kind, text string) {
		if !seen[kind+text] {
			seen[kind+text] = true
			out = append(out, Name{Kind: kind, Text: text, File: c.Path})
		}
	}
	if c.Deleted {
		// Renamed or removed: the docs that name it point at nothing. An
		// edited file keeps its name; what changed in it is judged by the
		// names on its lines (an edited workflow or generated file that a
		// contributing guide names was 17% of urfave/cli's code-only
		// commits, none needing a docs change).
		add(KindFile, c.Path)
	}
	goFile := strings.HasSuffix(c.Path, ".go")
	shell := slices.Contains([]string{".sh", ".bash", ""}, path.Ext(c.Path))
	// An identifier counts when its declaration went (removed or renamed):
	// a changed signature keeps the name the docs use.
	declared := map[string]bool{}
	if goFile {
		for _, l := range c.Added {
			if m := reGoDecl.FindStringSubmatch(l); m != nil {
				declared[m[1]] = true
			}
		}
	}
	consts, constArgs := goConsts(c, goFile)
	var codeAfter, codeBefore map[string]bool
	for i, lines := range [][]string{c.Added, c.Removed} {
		removed := i == 1
		side, cache := c.Body, &codeAfter
		if removed {
			side, cache = c.Before, &codeBefore
		}
		for _, l := range lines {
			t := strings.TrimSpace(l)
			if t == "" || comment(t) || pyStringOnly(c.Path, side, t, cache) {
				continue
			}
			// A flag counts where the program defines or parses it, not
			// where it passes one to another program (git log --format).
			def := flagLine(t)
			for _, m := range reDashFlag.FindAllStringSubmatchIndex(t, -1) {
				// A script's case pattern parses it: --verbose) or --verbose|-v)
				if next := m[3]; def || shell && next < len(t) && (t[next] == ')' || t[next] == '|') {
					add(KindFlag, t[m[2]:m[3]])
				}
			}
			if def {
				for _, m := range reQuoted.FindAllStringSubmatch(t, -1) {
					add(KindFlag, "--"+m[1])
				}
				// A flag named through a constant: flag.Bool(verboseFlag, ...).
				for _, m := range reArgIdent.FindAllStringSubmatch(t, -1) {
					if v, ok := consts[m[1]]; ok {
						add(KindFlag, "--"+v)
					}
				}
			} else if m := goConstLine(t, goFile); m != nil && constArgs[m[1]] {
				// The constant a flag definition names changed (renamed flag).
				add(KindFlag, "--"+m[2])
			}
			if removed {
				if f := wrappedFlag(t, goFile); f != "" {
					add(KindFlag, f)
				}
			}
			if strings.Contains(strings.ToLower(t), "env") {
				for _, m := range reEnvVar.FindAllStringSubmatch(t, -1) {
					add(KindVariable, m[1])
				}
			}
			if goFile && removed {
				if m := reGoDecl.FindStringSubmatch(l); m != nil && !slices.Contains(commonMethods, m[1]) && !declared[m[1]] {
					add(KindIdentifier, m[1])
				}
			}
		}
	}
	return out
}

func goConstLine(t string, goFile bool) []string {
	if !goFile {
		return nil
	}
	return reGoConst.FindStringSubmatch(t)
}

// goConsts reads a Go file's flag-shaped string constants (from its body
// and the changed lines) and the names a flag definition passes as an
// argument. A constant declared in another file of the package is not seen.
func goConsts(c Change, goFile bool) (consts map[string]string, args map[string]bool) {
	if !goFile {
		return nil, nil
	}
	consts, args = map[string]string{}, map[string]bool{}
	lines := append(append(strings.Split(c.Body, "\n"), c.Added...), c.Removed...)
	for _, l := range lines {
		if m := reGoConst.FindStringSubmatch(l); m != nil {
			if _, ok := consts[m[1]]; !ok {
				consts[m[1]] = m[2]
			}
		}
	}
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" && !comment(t) && flagLine(t) {
			for _, m := range reArgIdent.FindAllStringSubmatch(t, -1) {
				args[m[1]] = true
			}
		}
	}
	return consts, args
}

// wrappedFlag reads a line that holds nothing but a quoted flag name, the
// argument of a definition wrapped over several lines (gofmt and black
// wrap long calls): `"verbose",` in Go, `"--verbose",` in any language.
// Only removed lines are read: renaming or removing the flag leaves the
// docs' name stale, and such a diff has no definition line to read.
func wrappedFlag(t string, goFile bool) string {
	t = strings.TrimRight(t, ",)")
	if len(t) < 3 || t[0] != t[len(t)-1] || t[0] != '"' && t[0] != '\'' {
		return ""
	}
	name := t[1 : len(t)-1]
	dashed := strings.HasPrefix(name, "--")
	if !dashed && !goFile {
		return ""
	}
	name = strings.TrimPrefix(name, "--")
	// The whole name is flag-shaped (lower-case words joined by dashes).
	if q := `"` + name + `"`; reQuoted.FindString(q) != q {
		return ""
	}
	return "--" + name
}

// commonMethods are exported names too common to tie a change to a doc.
var commonMethods = []string{"String", "Error", "Close", "Read", "Write", "Reset", "Less", "Swap", "Init", "Main", "Name", "Type", "Run", "Done", "Next", "Value", "Equal", "Unwrap", "MarshalJSON", "UnmarshalJSON"}

func comment(t string) bool {
	for _, p := range []string{"//", "#", "/*", "* ", "<!--", "--"} {
		if strings.HasPrefix(t, p) && !(p == "--" && len(t) > 2 && t[2] != ' ') {
			return true
		}
	}
	return t == "*"
}

// flagLine: a line that defines a flag (Go's flag package, cobra,
// urfave/cli, argparse, optparse, click, commander). A line that only
// compares an argument with "--x" is left out: a tool that reads other
// programs' command lines does that for flags it does not define.
func flagLine(t string) bool {
	for _, k := range []string{"Flag{", "Flags()", "flag.Bool", "flag.String", "flag.Int", "flag.Uint", "flag.Float", "flag.Duration",
		"flag.Var", "flag.Func", "flag.TextVar", "add_argument(", "add_option(", ".option(", "Name:", "Aliases:"} {
		if strings.Contains(t, k) {
			return true
		}
	}
	return false
}

// Find returns the first touched name a doc mentions, in the order of
// changes, then docs; ok is false when the change touches no documented
// name.
func Find(changes []Change, docs []Doc) (Hit, bool) {
	if hs := find(changes, docs, true, nil); len(hs) > 0 {
		return hs[0], true
	}
	return Hit{}, false
}

// FindAll returns every touched name a doc mentions, one hit per name and
// doc, in the order of docs, then changes.
func FindAll(changes []Change, docs []Doc) []Hit {
	return FindTouched(Touched(changes, nil), docs)
}

// FindTouched returns every name of Touched a doc mentions, one hit per
// name and doc, in the order of docs, then names.
func FindTouched(names []Name, docs []Doc) []Hit {
	if len(names) == 0 {
		return nil
	}
	return findIn(docs, false, names, true)
}

// find: a flag is mentioned as written (--verbose, or -verbose in a code
// span), an identifier or variable as a whole word inside code (a `span`
// or a fenced block; anywhere in a plain-text doc), a path as written
// anywhere.
func find(changes []Change, docs []Doc, first bool, names []Name) []Hit {
	explicit := names != nil
	if !explicit {
		names = Touched(changes, nil)
	}
	if len(names) == 0 {
		return nil
	}
	return findIn(docs, first, names, !explicit)
}

func findIn(docs []Doc, first bool, names []Name, onlyDocs bool) []Hit {
	var hits []Hit
	for _, d := range docs {
		if onlyDocs && !IsDoc(d.Path) {
			continue
		}
		body := string(d.Body)
		var code string
		for _, n := range names {
			if n.File == d.Path {
				continue
			}
			var ok bool
			if stem := scriptStem(n); stem != "" {
				// A script's name counts where a section about the script
				// names it.
				if !word(body, stem) {
					continue
				}
				parts, scopes := scriptScopes(d.Path, body)
				for i := range parts {
					var c string
					if ok = word(scopes[i], stem) && mentionedIn(n, d.Path, parts[i], &c); ok {
						break
					}
				}
			} else {
				ok = mentionedIn(n, d.Path, body, &code)
			}
			if ok {
				hits = append(hits, Hit{Name: n, Doc: d.Path})
				if first {
					return hits
				}
			}
		}
	}
	return hits
}

// namesProgram: a flag or variable of a script counts in a doc that names
// the script (scripts/new_pr.py: new_pr): a repository of many scripts
// documents many --quiet and PR_NUMBER, most of them another script's (on
// rjmurillo/ai-agents, --jq, --owner and PR_NUMBER of one script were
// named in 10-30 docs about others). A Go file's names belong to the
// program it builds, and a script called main, cli, app or the like is
// the program: the doc need not name either.
// scriptStem is the name a doc must give the program a script's flag or
// variable belongs to ("" when any doc's mention counts).
func scriptStem(n Name) string {
	if n.Kind != KindFlag && n.Kind != KindVariable || strings.HasSuffix(n.File, ".go") {
		return ""
	}
	stem := strings.TrimSuffix(path.Base(n.File), path.Ext(n.File))
	switch strings.ToLower(stem) {
	case "main", "__main__", "cli", "app", "index", "run", "entrypoint", "command", "commands", "cmd", "options", "args", "config", "settings", "setup":
		return ""
	}
	return stem
}

// mentionedIn: a flag as written (or -verbose in code), a path as
// written, a variable or identifier as a word in code; code is filled
// from text on first use.
func mentionedIn(n Name, doc, text string, code *string) bool {
	switch n.Kind {
	case KindFlag:
		if n.Kept && word(text, n.Text) && !describedIn(text, n.Text) {
			return false // only indexes of flags name it: they stay true
		}
		return word(text, n.Text) || (*code != "" || fill(code, doc, text)) && word(*code, n.Text[1:])
	case KindFile:
		return word(text, n.Text)
	}
	return (*code != "" || fill(code, doc, text)) && word(*code, n.Text)
}

func fill(code *string, doc, body string) bool {
	switch strings.ToLower(path.Ext(doc)) {
	case ".txt":
		*code = body // plain text has no code markup
	case ".rst":
		*code = CodeText(strings.ReplaceAll(body, "``", "`")) // ``literal``
	default:
		*code = CodeText(body)
	}
	return *code != ""
}

// word reports whether s holds w with no name character on either side.
func word(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !nameByte(s[j-1])
		after := j+len(w) >= len(s) || !nameByte(s[j+len(w)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func nameByte(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// CodeText returns the text of a markdown document's code: inline `spans`
// and fenced blocks, one per line.
func CodeText(md string) string {
	var b strings.Builder
	fence := ""
	for _, l := range strings.Split(md, "\n") {
		t := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
				continue
			}
			b.WriteString(l)
			b.WriteByte('\n')
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		for {
			i := strings.IndexByte(l, '`')
			if i < 0 {
				break
			}
			j := strings.IndexByte(l[i+1:], '`')
			if j < 0 {
				break
			}
			b.WriteString(l[i+1 : i+1+j])
			b.WriteByte('\n')
			l = l[i+j+2:]
		}
	}
	return b.String()
}
