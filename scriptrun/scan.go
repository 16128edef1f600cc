package scriptrun

import (
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/syntax"
)

// Stmt is one command line of a script, with the line it starts on.
type Stmt struct {
	Line int
	Text string
	File string // the file it is in, when a run reads several (makefiles)
	// List: a list of string literals joined (CommandLines), each word
	// a literal of its own where it stands.
	List bool
}

// Statements splits a shell script into its top-level statements, each
// with the text up to the next one (so a here-document's body stays with
// its command), for the shell-line rules to judge one by one. A script
// that does not parse is taken line by line (continuations joined).
func Statements(text string) []Stmt {
	f, err := syntax.NewParser().Parse(strings.NewReader(text), "")
	if err != nil {
		return lineByLine(text)
	}
	var out []Stmt
	for i, st := range f.Stmts {
		start := int(st.Pos().Offset())
		end := len(text)
		if i+1 < len(f.Stmts) {
			end = int(f.Stmts[i+1].Pos().Offset())
		}
		if start < 0 || start > end || end > len(text) {
			continue
		}
		out = append(out, Stmt{Line: int(st.Pos().Line()), Text: strings.TrimSpace(text[start:end])})
	}
	return out
}

func lineByLine(text string) []Stmt {
	var out []Stmt
	var cur strings.Builder
	first := 0
	for i, l := range strings.Split(text, "\n") {
		if cur.Len() == 0 {
			first = i + 1
		}
		if strings.HasSuffix(l, `\`) {
			cur.WriteString(strings.TrimSuffix(l, `\`))
			continue
		}
		cur.WriteString(l)
		if s := strings.TrimSpace(cur.String()); s != "" && !strings.HasPrefix(s, "#") {
			out = append(out, Stmt{Line: first, Text: s})
		}
		cur.Reset()
	}
	return out
}

// Recipes lists a makefile's recipe lines (a tab first), each as the shell
// line make would run: its @, - and + prefixes dropped, $$ made $.
// Continued recipe lines are joined.
func Recipes(text string) []Stmt {
	var out []Stmt
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "\t") {
			continue
		}
		first := i + 1
		cmd := strings.TrimSpace(l)
		for strings.HasSuffix(cmd, `\`) && i+1 < len(lines) {
			i++
			cmd = strings.TrimSuffix(cmd, `\`) + " " + strings.TrimSpace(lines[i])
		}
		cmd = strings.TrimLeft(cmd, "@-+ ")
		cmd = strings.ReplaceAll(cmd, "$$", "$")
		if cmd != "" {
			out = append(out, Stmt{Line: first, Text: cmd})
		}
	}
	return out
}

// Target is a thing a script must not name: Needle is matched
// case-insensitively, What is said in the reason.
type Target struct {
	Needle string
	What   string
	// Read is true for a target honest tools read (the git config, the
	// hooks folder): a reference the code only reads is let pass (use.go).
	Read bool
	// Word: the needle names the target only where no letter, digit or _
	// comes before it ("KeyboardEvent.key" is a DOM property, not the
	// event.key file).
	Word bool
}

// indexOf is the first place in s (lower case) from off where t's needle n
// names t, -1 when none.
func (t Target) indexOf(s, n string, off int) int {
	for off <= len(s) {
		i := strings.Index(s[off:], n)
		if i < 0 {
			return -1
		}
		i += off
		if !t.Word || i == 0 || !identByte(s[i-1]) {
			return i
		}
		off = i + 1
	}
	return -1
}

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// DefaultTargets are what every repository protects: sessiongate's
// database, its key and event files, the git hooks and config, the
// records refs, the git plumbing that rewrites refs and commits, the hook
// bypass, and the agents' transcripts.
var DefaultTargets = []Target{
	{Needle: ".git/sessiongate", What: "sessiongate's database folder"},
	{Needle: "sessiongate.db", What: "the session database"},
	{Needle: "event.key", What: "the gate event key", Word: true},
	{Needle: ".git/hooks", What: "the git hooks", Read: true},
	{Needle: ".git/config", What: "the git config", Read: true},
	{Needle: ".git/info/attributes", What: "the git attributes", Read: true},
	{Needle: "hookspath", What: "the git hooks path", Read: true},
	{Needle: "refs/sessiongate", What: "the records ref"},
	{Needle: "update-ref", What: "`git update-ref`"},
	{Needle: "commit-tree", What: "`git commit-tree`"},
	{Needle: "symbolic-ref", What: "`git symbolic-ref`"},
	{Needle: "--no-verify", What: "the hooks bypass --no-verify"},
	{Needle: ".claude/projects", What: "Claude Code's transcripts"},
	{Needle: "agent-hook", What: "sessiongate's agent hook"},
	// Python runs these at every start (a test run's too): a script that
	// writes one makes later runs do what it says (issue 25 item 3).
	{Needle: "sitecustomize", What: "Python's startup file sitecustomize.py"},
	{Needle: "usercustomize", What: "Python's startup file usercustomize.py"},
}

// pthTarget is a string naming a `.pth` file, which site.py runs the
// `import` lines of at every Python start: found by the literal's ending
// (".pth" alone is too common in code: self.pth), passed where only read.
var pthTarget = Target{Needle: ".pth", What: "a Python .pth startup file", Read: true}

// Finding is a protected thing a script names.
type Finding struct {
	Line int
	What string // the target's What
	// How the reference was written when not plainly: "built from pieces",
	// "reversed", "rot13", "base64", "hex", "escaped", "runs code it decodes".
	How string
}

// Hidden keeps the findings whose reference was not written plainly
// (built from pieces, reversed, encoded, escaped).
func Hidden(fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.How != "" {
			out = append(out, f)
		}
	}
	return out
}

// Scan finds the targets a script in a language other than shell names:
// in its code (comments left out), in its string literals once their
// escapes, chr() codes and concatenations are undone, and in the
// literals' reversed, rot13, base64 and hex readings. It also reports code
// that runs what it decodes (exec(b64decode(...))), which no check can read.
func Scan(lang Lang, text string, targets []Target) []Finding {
	code, all := literals(lang, text)
	// Prose (a docstring, a message) names things to tell a person, and
	// no file API opens a sentence: honest scripts say ".git/hooks" or
	// "never use --no-verify" in them. Their text leaves the scan; a
	// command line in prose is still judged by CommandLines' line rules.
	var lits []lit
	blank := []byte(code)
	docs := !strings.Contains(code, "__doc__") // a docstring read back is data
	for _, l := range all {
		if l.from >= 0 && l.to <= len(blank) && prose(l.s) && (docs && docstring(code, l) || message(code, l)) {
			for i := l.from; i < l.to; i++ {
				if blank[i] != '\n' {
					blank[i] = ' '
				}
			}
			continue
		}
		lits = append(lits, l)
	}
	code = string(blank)
	var out []Finding
	add := func(line int, t Target, how string, from ...lit) {
		// A reference to a target honest tools read, written plainly or
		// in pieces, passes where each literal it is made of is only read.
		if t.Read && len(from) > 0 && (how == "" || how == "escaped" || how == "built from pieces") &&
			!slices.ContainsFunc(from, func(l lit) bool { return !readOnlyUse(code, lits, l) }) {
			return
		}
		for _, f := range out {
			if f.What == t.What {
				return // each target once: the first place names it
			}
		}
		out = append(out, Finding{Line: line, What: t.What, How: how})
	}
	low := strings.ToLower(code)
	for _, t := range targets {
		n := strings.ToLower(t.Needle)
		for off := 0; ; {
			i := t.indexOf(low, n, off)
			if i < 0 {
				break
			}
			off = i + len(n)
			j := inLit(lits, i)
			if t.Read && j >= 0 && i+len(n) <= lits[j].to {
				add(1+strings.Count(code[:i], "\n"), t, "", lits[j])
			} else {
				add(1+strings.Count(code[:i], "\n"), t, "")
			}
			if !t.Read {
				break
			}
		}
	}
	for _, l := range lits {
		if strings.HasSuffix(strings.ToLower(strings.TrimSpace(l.s)), ".pth") && len(strings.TrimSpace(l.s)) > 4 {
			add(l.line, pthTarget, "", l)
		}
	}
	for _, l := range lits {
		ll := strings.ToLower(l.s)
		decs := decodings(l.s)
		for _, t := range targets {
			n := strings.ToLower(t.Needle)
			switch {
			case t.indexOf(ll, n, 0) >= 0:
				add(l.line, t, "escaped", l)
			case strings.Contains(reverse(ll), n):
				add(l.line, t, "reversed")
			case strings.Contains(rot13(ll), n):
				add(l.line, t, "rot13")
			}
			for _, d := range decs {
				if strings.Contains(strings.ToLower(d.text), n) {
					add(l.line, t, d.how)
				}
			}
		}
	}
	// Pieces: every literal in order, glued without and with a slash
	// (".", "git", "/hooks"; os.path.join(".git", "hooks")), read
	// forwards, backwards and rot13'd, and the base64 runs in it decoded.
	seps := []string{"", "/"}
	if slices.ContainsFunc(lits, func(l lit) bool { return l.s == "-" }) {
		// a '-' literal is a join's separator ('-'.join(["agent",
		// "hook"]), [...].join('-')): glued with it, a hyphened needle shows
		seps = append(seps, "-")
	}
	for _, sep := range seps {
		var b strings.Builder
		var ends []int // the end offset of each literal in b
		for i, l := range lits {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(strings.ToLower(l.s))
			ends = append(ends, b.Len())
		}
		glued := b.String()
		lineAt := func(off int) int {
			i, _ := slices.BinarySearch(ends, off)
			if i >= len(lits) {
				i = len(lits) - 1
			}
			return lits[i].line
		}
		rev, r13 := reverse(glued), rot13(glued)
		for _, t := range targets {
			n := strings.ToLower(t.Needle)
			for off := 0; off < len(glued); {
				i := t.indexOf(glued, n, off)
				if i < 0 {
					break
				}
				off = i + len(n)
				if t.Read {
					add(lineAt(i+len(n)), t, "built from pieces", span(lits, ends, i, i+len(n))...)
					continue
				}
				add(lineAt(i+len(n)), t, "built from pieces")
				break
			}
			if i := strings.Index(rev, n); i >= 0 {
				add(lineAt(len(glued)-i-len(n)), t, "reversed")
			}
			if i := strings.Index(r13, n); i >= 0 {
				add(lineAt(i+len(n)), t, "rot13")
			}
		}
		if sep == "" {
			// base64 split over literals ("LmdpdC9z" + "aG9va3M=").
			var raw strings.Builder
			for _, l := range lits {
				raw.WriteString(l.s)
			}
			for _, m := range b64Run.FindAllStringIndex(raw.String(), -1) {
				for _, d := range decodings(raw.String()[m[0]:m[1]]) {
					for _, t := range targets {
						if strings.Contains(strings.ToLower(d.text), strings.ToLower(t.Needle)) {
							add(lits[len(lits)-1].line, t, d.how+" built from pieces")
						}
					}
				}
			}
		}
	}
	// Pieces glued as the code glues them: "." + "git" (also Perl's and
	// PHP's "." and Ruby's <<) with nothing between, os.path.join(".git",
	// "hooks") and Path(".git") / "hooks" with a slash; other code between
	// two literals ends a piece.
	var piece strings.Builder
	var pieceLits []lit
	var pieceEnds []int
	pieceLine := 0
	flush := func() {
		if piece.Len() > 0 {
			p := strings.ToLower(piece.String())
			for _, t := range targets {
				n := strings.ToLower(t.Needle)
				switch {
				case t.indexOf(p, n, 0) >= 0:
					i := t.indexOf(p, n, 0)
					add(pieceLine, t, "built from pieces", span(pieceLits, pieceEnds, i, i+len(n))...)
				case strings.Contains(reverse(p), n):
					add(pieceLine, t, "reversed")
				}
			}
		}
		piece.Reset()
		pieceLits, pieceEnds = pieceLits[:0], pieceEnds[:0]
	}
	for i, l := range lits {
		if i > 0 && lits[i-1].to <= l.from {
			between := strings.TrimSpace(code[lits[i-1].to:l.from])
			switch strings.Trim(between, " \t\n") {
			case "+", ".", "..", "<<", "+=":
			case ",", "/", "),", ") /", ")/":
				piece.WriteByte('/')
			default:
				flush()
			}
		}
		piece.WriteString(l.s)
		pieceLits = append(pieceLits, l)
		pieceEnds = append(pieceEnds, piece.Len())
		pieceLine = l.line
	}
	flush()
	if m := execDecoded.FindStringIndex(code); m != nil {
		out = append(out, Finding{Line: 1 + strings.Count(code[:m[0]], "\n"), What: "code it decodes", How: "runs code it decodes"})
	}
	slices.SortStableFunc(out, func(a, b Finding) int { return a.Line - b.Line })
	return out
}

// span is the literals glued into [i, j) of a text whose literal k ends
// at ends[k].
func span(lits []lit, ends []int, i, j int) []lit {
	a, _ := slices.BinarySearch(ends, i+1)
	b, _ := slices.BinarySearch(ends, j)
	return lits[min(a, len(lits)-1):min(b+1, len(lits))]
}

// messageCall is a call that shows its argument to a person: print, a
// logger, a warning, an error raised.
var messageCall = lazyregexp.New(`(?:\bprint|\bputs|\becho|\bprintf|\bdie|\bwarn|\bwarning|\berror|\binfo|\bdebug|\blog|Error|Exception|\bwrite)\s*\(?\s*[fFrRbBuU]?$`)

// message reports whether literal l is the first argument of a call that
// shows it to a person (print("..."), logger.info("..."), raise
// ValueError("..."), console.error("...")).
func message(code string, l lit) bool {
	before := code[max(0, l.from-40):l.from]
	return messageCall.MatchString(before)
}

// docstring reports whether literal l stands alone as a statement: the
// only thing on its lines (a docstring, or a string used as a comment).
func docstring(code string, l lit) bool {
	start := strings.LastIndexByte(code[:l.from], '\n') + 1
	end := strings.IndexByte(code[l.to:], '\n')
	if end < 0 {
		end = len(code) - l.to
	}
	return strings.TrimSpace(code[start:l.from]) == "" && strings.TrimSpace(code[l.to:l.to+end]) == ""
}

// prose reports whether a literal reads as a sentence: three words or
// more, most of them letters only (trailing punctuation aside), and none
// of the characters code is written with (quotes, brackets, =, |, &, $,
// backslash). "import os; os.remove('x')" is code, not prose.
func prose(s string) bool {
	if strings.ContainsAny(s, "()[]{}=<>|&$'\"`\\") {
		return false
	}
	words := strings.Fields(s)
	if len(words) < 3 {
		return false
	}
	letters := 0
	for _, w := range words {
		w = strings.TrimRight(w, ".,:;!?")
		if w != "" && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
			letters++
		}
	}
	return letters*5 >= len(words)*3
}

// execDecoded is code that runs what it decodes in the same expression:
// exec(base64.b64decode(...)), eval(atob(...)), eval(Buffer.from(..)).
var execDecoded = lazyregexp.New(`\b(?:exec|eval|Function|compile|system|instance_eval)\s*\(?\s*[^;\n]{0,80}?(?:b(?:16|32|64|85)decode|fromhex|unhexlify|decodebytes|codecs\.decode|zlib\.decompress|marshal\.loads|atob\(|Buffer\.from\(|decode_base64|unpack|pack\s*\(?\s*['"][Hhmu]|Base64\.\w*decode|fromCharCode|\[::-1\]|\.reverse)`)

var b64Run = lazyregexp.New(`[A-Za-z0-9+/_-]{12,}={0,2}`)

type decoded struct{ text, how string }

// decodings are a literal's base64 and hex readings that are text.
func decodings(s string) []decoded {
	s = strings.TrimSpace(s)
	if len(s) < 8 {
		return nil
	}
	var out []decoded
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && printable(b) {
			out = append(out, decoded{string(b), "base64"})
			if more := decodings(string(b)); len(more) > 0 { // twice encoded
				out = append(out, more...)
			}
			break
		}
	}
	if len(s)%2 == 0 {
		if b, err := hex.DecodeString(s); err == nil && printable(b) {
			out = append(out, decoded{string(b), "hex"})
		}
	}
	return out
}

func printable(b []byte) bool {
	if len(b) == 0 || !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if r < 0x20 && r != '\n' && r != '\t' && r != '\r' {
			return false
		}
	}
	return true
}

func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}

type lit struct {
	s    string
	line int
	// from, to are the literal's place in the code literals returns
	// (quotes included); -1 for a chr() call's text.
	from, to int
}

var (
	chrCall  = lazyregexp.New(`\b(?:chr|unichr|String\.fromCharCode|fromCharCode)\s*\(\s*([0-9xXa-fA-F]+(?:\s*,\s*[0-9xXa-fA-F]+)*)\s*\)|\bchr\s+([0-9]+)`)
	listExpr = lazyregexp.New(`\[\s*(?:"[^"\n]*"|'[^'\n]*')(?:\s*,\s*(?:"[^"\n]*"|'[^'\n]*'))+\s*,?\s*\]`)
)

// literals returns the code with comments blanked (newlines kept) and its
// string literals, escapes decoded and chr()/fromCharCode() calls turned
// into the text they make.
func literals(lang Lang, text string) (string, []lit) {
	hash := lang != Node && lang != Go && lang != Lua
	slashes := lang == Node || lang == PHP || lang == Go
	wordStart := lang == Shell || lang == Make // ${#x}, a#b are no comments
	var code strings.Builder
	var lits []lit
	line := 1
	n := len(text)
	for i := 0; i < n; i++ {
		c := text[i]
		switch {
		case c == '\n':
			line++
			code.WriteByte(c)
		case c == '#' && hash && (i == 0 || text[i-1] != '$' && text[i-1] != '\\') && (!wordStart || i == 0 || strings.IndexByte(" \t\n;", text[i-1]) >= 0):
			for i < n && text[i] != '\n' {
				i++
			}
			i--
		case slashes && c == '/' && i+1 < n && text[i+1] == '/':
			for i < n && text[i] != '\n' {
				i++
			}
			i--
		case slashes && c == '/' && i+1 < n && text[i+1] == '*':
			j := strings.Index(text[i+2:], "*/")
			if j < 0 {
				j = n - i - 2
			}
			body := text[i : i+2+j]
			line += strings.Count(body, "\n")
			code.WriteString(strings.Repeat("\n", strings.Count(body, "\n")))
			i += j + 3
		case c == '"' || c == '\'' || c == '`':
			q := string(c)
			if lang == Python && strings.HasPrefix(text[i:], q+q+q) {
				q = q + q + q
			}
			start := line
			j := i + len(q)
			var b strings.Builder
			for j < n && !strings.HasPrefix(text[j:], q) {
				if text[j] == '\n' {
					line++
					if len(q) == 1 && c != '`' {
						break // an apostrophe in prose, not a literal
					}
				}
				if text[j] == '\\' && j+1 < n {
					r, w := unescape(text[j:])
					b.WriteString(r)
					j += w
					continue
				}
				b.WriteByte(text[j])
				j++
			}
			from := code.Len()
			code.WriteString(text[i:min(j+len(q), n)])
			lits = append(lits, lit{b.String(), start, from, code.Len()})
			i = j + len(q) - 1
		default:
			code.WriteByte(c)
		}
	}
	out := code.String()
	// chr(46) + chr(103)...: the characters, as literals where they stand.
	for _, m := range chrCall.FindAllStringSubmatchIndex(out, -1) {
		args := ""
		if m[2] >= 0 {
			args = out[m[2]:m[3]]
		} else {
			args = out[m[4]:m[5]]
		}
		var s strings.Builder
		for _, a := range strings.Split(args, ",") {
			if v, err := strconv.ParseInt(strings.TrimSpace(a), 0, 32); err == nil && v > 0 && v < 0x110000 {
				s.WriteRune(rune(v))
			}
		}
		ln := 1 + strings.Count(out[:m[0]], "\n")
		lits = append(lits, lit{s.String(), ln, m[0], m[1]})
	}
	slices.SortStableFunc(lits, func(a, b lit) int { return a.from - b.from })
	return out, lits
}

// unescape decodes one backslash escape at the start of s: \xNN, \uNNNN,
// \NNN (octal), \n...; it returns the text and the bytes consumed.
func unescape(s string) (string, int) {
	if len(s) < 2 {
		return s, len(s)
	}
	switch s[1] {
	case 'x':
		if len(s) >= 4 {
			if v, err := strconv.ParseUint(s[2:4], 16, 8); err == nil {
				return string(rune(v)), 4
			}
		}
	case 'u':
		if len(s) >= 6 {
			if v, err := strconv.ParseUint(s[2:6], 16, 32); err == nil {
				return string(rune(v)), 6
			}
		}
	case 'n':
		return "\n", 2
	case 't':
		return "\t", 2
	case '0', '1', '2', '3', '4', '5', '6', '7':
		j := 1
		for j < 4 && j < len(s) && s[j] >= '0' && s[j] <= '7' {
			j++
		}
		if v, err := strconv.ParseUint(s[1:j], 8, 8); err == nil {
			return string(rune(v)), j
		}
	}
	return s[1:2], 2
}

// CommandLines are the command lines a script's string literals hold: a
// literal with a space in it (os.system("git commit -n")) and a list of
// literals joined by spaces (subprocess.run(["sh", "b.sh"])), each with
// its line, for the shell-line rules.
//
// Only lines that name a program the line rules care about are listed (git,
// sessiongate, a shell or interpreter, a scheduler, a wrapper), at most
// MaxCommandLines: a bundled 500 KiB file holds thousands of strings, and
// the protected files they could name are Scan's targets anyway.
func CommandLines(lang Lang, text string) []Stmt {
	code, lits := literals(lang, text)
	var out []Stmt
	seen := map[string]bool{}
	add := func(line int, s string, list bool) {
		if len(out) < MaxCommandLines && !seen[s] && commandWord.MatchString(s) && (!proseAt.MatchString(s) || atTime.MatchString(s)) {
			seen[s] = true
			out = append(out, Stmt{Line: line, Text: s, List: list})
		}
	}
	for _, l := range lits {
		if strings.Contains(strings.TrimSpace(l.s), " ") {
			add(l.line, l.s, false)
		}
	}
	if lang == Go {
		// go generate runs a file's directives (comments the scan skips)
		for _, st := range GoGenerateLines(text) {
			if len(out) < MaxCommandLines && !seen[st.Text] {
				seen[st.Text] = true
				out = append(out, st)
			}
		}
	}
	for _, m := range listExpr.FindAllStringIndex(code, -1) {
		if membership(code[:m[0]], code[m[1]:]) {
			continue
		}
		_, ws := literals(lang, code[m[0]+1:m[1]-1])
		var parts []string
		for _, w := range ws {
			parts = append(parts, shellQuote(w.s))
		}
		add(1+strings.Count(code[:m[0]], "\n"), strings.Join(parts, " "), true)
	}
	return out
}

// membership reports whether a list literal between before and after is
// only tested for membership (["node", "browser"].indexOf(env), env in
// [...]): a set of names no call receives as an argv. A loop over it
// (`for c in [...]`) hands each word on, so it is not one.
func membership(before, after string) bool {
	after = strings.TrimLeft(after, " \t")
	for _, m := range []string{".indexOf(", ".includes(", ".lastIndexOf("} {
		if strings.HasPrefix(after, m) {
			return true
		}
	}
	before = strings.TrimRight(before, " \t")
	return strings.HasSuffix(before, " in") && !forIn.MatchString(before)
}

// forIn is a loop header ending in "in": for x in, for (k in, for a, b in.
var forIn = lazyregexp.New(`\bfor\s*\(?\s*(?:(?:const|let|var)\s+)?[\w, ()\[\]]*\s+in$`)

// proseAt is a string that starts with the word "at" and no time after
// it (" at new Foo", "at least one recipient"): at(1) refuses such a
// line ("Garbled time"), so it schedules nothing; prose and stack traces
// are full of them. A time (a digit, now, noon, midnight, teatime, today,
// tomorrow, next, a month or a day) or an option keeps it a command line.
var proseAt = lazyregexp.New(`(?i)^\s*at\s+(?:[^-0-9\s]\S*)(?:\s|$)`)
var atTime = lazyregexp.New(`(?i)^\s*at\s+(?:now|noon|midnight|teatime|today|tomorrow|next|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)`)

// MaxCommandLines bounds the string command lines judged per script.
const MaxCommandLines = 64

// commandWord is a program whose command lines the line rules judge.
var commandWord = lazyregexp.New(`(?:^|[\s;&|(/'"])(?:git|sessiongate|sh|bash|zsh|dash|ksh|python[0-9.]*|node|perl|ruby|php|deno|bun|make|source|eval|exec|xargs|env|setsid|nohup|sudo|script|at|batch|crontab|systemd-run|rm|find|sqlite3)(?:$|[\s'"])`)

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>()*?[]{}~#") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
