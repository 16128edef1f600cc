package shellline

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/syntax"
)

// Writes reads only literal operands, so a writer whose operand the shell
// builds passed the agent hook: `sed -i ... SESSION-PROTO*.md`,
// `f=SESSION-PROTOCOL; sed -i ... $f.md`, `for f in *.md; do sed -i ...
// "$f"; done`, `p=.claude; echo x > $p/settings.local.json`. WriteTargets
// reads those operands as patterns, and the links a line makes, so the
// hook can ask whether any of them can name a protected file.

// Target is a written operand (a writer's file operand or an output
// redirection) that is not a plain literal: a glob, a variable assigned
// earlier on the line (NAME=, export NAME=, for NAME in LIST), or a word
// with a part no reading of the line knows ($(...), $1, an unassigned
// variable), which matches anything. A target of unknown parts and no
// literal character ("$f", "$d/$f") is not listed: it could be any file, and denying every
// `sed -i ... "$f"` would block honest loops.
type Target struct {
	// Text is the operand as the line builds it, unknown parts shown as
	// "<?>", for messages.
	Text string
	// Glob is a filepath.Glob pattern for the files the operand names now,
	// "" when a part is unknown.
	Glob string
	// Abs: the operand is an absolute path; else it is relative to the
	// folder the line runs in.
	Abs bool
	re  *regexp.Regexp
	// findRe, findStart: a find -regex target (indirectvars.go).
	findRe    *regexp.Regexp
	findStart string
}

// Match reports whether the target can name p: a slash path relative to
// the folder the line runs in (or absolute when Abs). Matching is
// case-insensitive, as protect.Match is. A shell glob's * and ? do not
// match a leading dot (unless the line turns dotglob on); an unknown part
// matches anything, slashes included.
func (t Target) Match(p string) bool {
	if t.findRe != nil {
		return t.matchFind(p)
	}
	return t.re != nil && t.re.MatchString(p)
}

// Link is a link the line makes (`ln -s TARGET NAME`, `ln TARGET NAME`),
// literal operands only; Name is relative to the line's folder.
type Link struct {
	Name   string
	Target string // "" when the line builds it from what it does not hold
	// Built: TARGET is not a literal word, so Writes does not list this
	// ln's NAME among the line's writes.
	Built bool
	Hard  bool
}

// piece is one part of a word as the shell builds it.
type piece struct {
	kind byte // 'l' literal, 'g' glob text (*, ?, [...]), 'u' unknown
	s    string
}

// maxAlternatives bounds the words one operand is read as (a loop over a
// list, a brace expansion); past it the operand is unknown.
const maxAlternatives = 32

// WriteTargets lists the written operands of a POSIX line that are not
// plain literals (Target), and the links it makes. ok is false when the
// line does not parse.
func WriteTargets(cmd string) (targets []Target, links []Link, ok bool) {
	_, f, ok := Calls(Unwrap(cmd))
	if !ok {
		return nil, nil, false
	}
	dotGlob := dotGlobOn.MatchString(cmd)
	vars := map[string][][]piece{}
	if linkMaker.MatchString(cmd) {
		// rmdir "$d"; ln -s "$PWD" "$d": the fresh name can be made a
		// link to the work tree on the line, so it is any name again.
		vars[noFreshTemp] = nil
	}
	var cwd []piece // where relative operands land after a cd; nil: the start
	add := func(alts [][]piece) {
		for _, ps := range alts {
			if len(ps) == 0 {
				continue
			}
			// "$D/x" may be an absolute folder ($OLDPWD, ~-: where the line
			// was before its cd), so a cd on the line does not move it
			// (round 22: `cd sub && rm "$OLDPWD/SESSION-PROTOCOL.md"`).
			folderVar := ps[0].kind == 'u' && len(ps) > 1 && ps[1].kind == 'l' && strings.HasPrefix(ps[1].s, "/")
			if len(cwd) > 0 && !folderVar && !(ps[0].kind == 'l' && strings.HasPrefix(ps[0].s, "/")) {
				ps = append(append(append([]piece{}, cwd...), piece{'l', "/"}), ps...)
			}
			if t, ok := newTarget(ps, dotGlob); ok {
				targets = append(targets, t)
			}
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ForClause:
			if wi, ok := x.Loop.(*syntax.WordIter); ok && wi.Name != nil {
				var alts [][]piece
				for _, w := range wi.Items {
					for _, bw := range braceWords(w) {
						alts = append(alts, wordPieces(bw, vars)...)
					}
				}
				if wi.InPos.IsValid() && len(alts) > 0 && len(alts) <= maxAlternatives {
					vars[wi.Name.Value] = alts
				} else {
					delete(vars, wi.Name.Value)
				}
			}
		case *syntax.DeclClause:
			for _, a := range x.Args {
				assign(vars, a)
			}
		case *syntax.Redirect:
			switch x.Op {
			case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.RdrInOut:
				if _, lit := Literal(x.Word); !lit {
					add(wordPieces(x.Word, vars))
				}
			}
		case *syntax.Stmt:
			readInto(vars, x) // read NAME <<< WORD (indirectvars.go)
		case *syntax.CallExpr:
			if len(x.Args) == 0 {
				for _, a := range x.Assigns {
					assign(vars, a) // NAME=VALUE alone: it holds for what follows
				}
				return true
			}
			// Each word once as the writer's operands are picked: a literal
			// as itself, another as a placeholder naming its pieces.
			var args []string
			var built [][][]piece
			for _, bw := range x.Args {
				for _, w := range braceWords(bw) {
					if s, lit := Literal(w); lit {
						args = append(args, s)
						continue
					}
					args = append(args, "\x01"+strconv.Itoa(len(built)))
					built = append(built, wordPieces(w, vars))
				}
			}
			args = unwrapCall(args)
			if len(args) == 0 {
				return true
			}
			printfInto(vars, args, built) // printf -v NAME (indirectvars.go)
			setParams(vars, args, built)  // set -- A B
			if script, ok := shellScript(args); ok && !strings.HasPrefix(script, "\x01") {
				if inner, innerLinks, ok := WriteTargets(script); ok {
					targets, links = append(targets, inner...), append(links, innerLinks...)
				}
			} else if ok {
				// sh -c "sed -i ... $f" with f set on the line: the script
				// the shell runs, each reading that is all literal. Writes
				// skips a script it cannot read, so its literal writes are
				// listed here too.
				for _, ps := range placeholder(script, built) {
					sc, lit := literalOf(ps)
					if !lit {
						continue
					}
					if inner, innerLinks, ok := WriteTargets(sc); ok {
						targets, links = append(targets, inner...), append(links, innerLinks...)
					}
					if ws, ok := Writes(sc); ok {
						for _, w := range ws {
							add([][]piece{{{'l', w}}})
						}
					}
				}
			}
			switch args[0] {
			case "cd", "pushd": // pushd DIR moves the shell as cd does
				if len(args) == 2 {
					switch {
					case strings.HasPrefix(args[1], "\x01"):
						cwd = appendDir(cwd, placeholder(args[1], built))
					case args[1] != "" && args[1] != "-":
						cwd = appendDir(cwd, [][]piece{{{'l', args[1]}}})
					}
				}
			case "ln":
				if l, ok := linkMade(args, built); ok {
					if len(cwd) == 0 || path.IsAbs(l.Name) {
						links = append(links, l)
					} else if d, ok := literalOf(cwd); ok {
						l.Name = path.Join(d, l.Name)
						links = append(links, l)
					}
				}
			case "find":
				for _, alts := range findTargets(args[1:], built) {
					add(alts)
				}
				add(findExecInto(args[1:])) // -exec cp {} DIR (findexec.go)
				if len(cwd) == 0 {
					targets = append(targets, findRegexTargets(args[1:], built)...)
				}
				return true
			case "dd":
				// of=WORD: Writes reads a literal one. A glob there is no
				// glob (dd creates that name); a variable is read.
				for _, a := range args[1:] {
					if !strings.HasPrefix(a, "\x01") {
						continue
					}
					var alts [][]piece
					for _, ps := range placeholder(a, built) {
						if len(ps) > 0 && ps[0].kind == 'l' && strings.HasPrefix(ps[0].s, "of=") {
							rest := append([]piece{{'l', strings.TrimPrefix(ps[0].s, "of=")}}, ps[1:]...)
							if !hasGlob([][]piece{rest}) || hasUnknown(rest) {
								alts = append(alts, rest)
							}
						}
					}
					add(alts)
				}
				return true
			}
			add(splitOutputs(args)) // split/csplit PREFIX (findexec.go)
			if args[0] == "chmod" && chmodAddsOnly(args) {
				return true // `chmod -R u+w *`: takes nothing away (indirectwrites.go)
			}
			for _, op := range append(writtenOperands(args), moreWrittenOperands(args)...) {
				if strings.HasPrefix(op, "\x01") {
					add(placeholder(op, built))
				}
			}
		}
		return true
	})
	return targets, links, true
}

// placeholder is the pieces of the word a "\x01N" argument stands for.
func placeholder(arg string, built [][][]piece) [][]piece {
	i, err := strconv.Atoi(strings.TrimPrefix(arg, "\x01"))
	if err != nil || i < 0 || i >= len(built) {
		return [][]piece{{{'u', ""}}}
	}
	return built[i]
}

// appendDir is the folder after `cd DIR` from cwd: one reading (the
// first), or unknown when DIR has several.
func appendDir(cwd []piece, dir [][]piece) []piece {
	if len(dir) != 1 {
		return []piece{{'u', ""}}
	}
	d := dir[0]
	if len(d) > 0 && d[0].kind == 'l' && strings.HasPrefix(d[0].s, "/") || len(cwd) == 0 {
		return append([]piece{}, d...)
	}
	return append(append(append([]piece{}, cwd...), piece{'l', "/"}), d...)
}

// literalOf is pieces' text when all of them are literal.
func literalOf(ps []piece) (string, bool) {
	var b strings.Builder
	for _, p := range ps {
		if p.kind != 'l' {
			return "", false
		}
		b.WriteString(p.s)
	}
	return b.String(), true
}

// assign records NAME=VALUE for the words after it; a value the line does
// not hold makes the name unknown.
func assign(vars map[string][][]piece, a *syntax.Assign) {
	if a != nil && a.Name != nil && (a.Array != nil || a.Index != nil) {
		assignArray(vars, a) // indirectvars.go
		return
	}
	if a == nil || a.Name == nil {
		return
	}
	if a.Value == nil {
		if !a.Naked {
			vars[a.Name.Value] = [][]piece{{}}
		}
		return
	}
	alts := wordPieces(a.Value, vars)
	if a.Append {
		// f+=X: the value read so far, then X; unknown when it was.
		old, ok := vars[a.Name.Value]
		var out [][]piece
		for _, o := range old {
			for _, n := range alts {
				out = append(out, append(append([]piece{}, o...), n...))
			}
		}
		if !ok || len(out) > maxAlternatives {
			delete(vars, a.Name.Value)
			return
		}
		vars[a.Name.Value] = out
		return
	}
	vars[a.Name.Value] = alts
}

// linkMade is the link `ln [-s] [-f] TARGET NAME` makes: a literal NAME
// (one ending in / or ".", a folder, gets TARGET's base name); TARGET as
// the line builds it, "" when unknown (`ln -s "$PWD" self`).
func linkMade(args []string, built [][][]piece) (Link, bool) {
	var ops []string
	l := Link{Hard: true}
	for _, a := range args[1:] {
		switch {
		case a == "--symbolic" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "s"):
			l.Hard = false
		case strings.HasPrefix(a, "-"):
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) != 2 || strings.HasPrefix(ops[1], "\x01") {
		return Link{}, false
	}
	l.Target, l.Name = ops[0], ops[1]
	if strings.HasPrefix(l.Target, "\x01") {
		alts := placeholder(l.Target, built)
		l.Target, l.Built = "", true
		if len(alts) == 1 {
			l.Target, _ = literalOf(alts[0])
		}
		if l.Target == "" && (strings.HasSuffix(l.Name, "/") || l.Name == ".") {
			return Link{}, false // the link's name is the unknown target's base
		}
	}
	if strings.HasSuffix(l.Name, "/") || l.Name == "." {
		l.Name = path.Join(l.Name, path.Base(l.Target))
	}
	return l, true
}

// wordPieces reads a word as the pieces the shell builds it from, one
// list per reading (a variable a loop sets has several). A word starting
// with ~ (a home folder) is outside the work tree: no reading.
func wordPieces(w *syntax.Word, vars map[string][][]piece) [][]piece {
	alts := [][]piece{{}}
	appendAll := func(next [][]piece) {
		var out [][]piece
		for _, a := range alts {
			for _, n := range next {
				out = append(out, append(append([]piece{}, a...), n...))
			}
		}
		if len(out) > maxAlternatives {
			out = [][]piece{{{'u', ""}}}
		}
		alts = out
	}
	one := func(ps ...piece) { appendAll([][]piece{ps}) }
	var part func(p syntax.WordPart, quoted bool)
	part = func(p syntax.WordPart, quoted bool) {
		switch x := p.(type) {
		case *syntax.Lit:
			if quoted {
				one(piece{'l', x.Value})
				return
			}
			one(litPieces(x.Value)...)
		case *syntax.SglQuoted:
			if x.Dollar && strings.Contains(x.Value, `\`) {
				one(piece{'u', ""})
				return
			}
			one(piece{'l', x.Value})
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				part(q, true)
			}
		case *syntax.ParamExp:
			// ${a[0]}, ${a[@]}: an array's elements are its readings.
			plain := x.Param != nil && x.Exp == nil && !x.Length && x.Slice == nil && x.Repl == nil && !x.Excl && x.Names == 0
			if v, ok := vars[paramName(x)]; ok && plain {
				appendAll(v)
				return
			}
			if alts, ok := paramDefault(x, vars); ok {
				appendAll(alts)
				return
			}
			one(piece{'u', ""})
		case *syntax.CmdSubst:
			if v, ok := echoed(x); ok {
				one(piece{'l', v})
				return
			}
			if _, linked := vars[noFreshTemp]; !linked && madeTemp(x) {
				// A name mktemp just made: never an existing (protected)
				// file, nor a folder holding one.
				one(piece{'l', "/tmp/mktemp.XXXXXXXXXX"})
				return
			}
			one(piece{'u', ""})
		default: // $((...)), <(...), extended globs: not read
			one(piece{'u', ""})
		}
	}
	for i, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && i == 0 && (strings.HasPrefix(l.Value, "~+") || strings.HasPrefix(l.Value, "~-")) {
			// ~+ is $PWD and ~- $OLDPWD: a folder that may be the work
			// tree, not a home folder.
			one(piece{'u', ""})
			part(&syntax.Lit{Value: l.Value[2:]}, false)
			continue
		}
		if l, ok := p.(*syntax.Lit); ok && i == 0 && strings.HasPrefix(l.Value, "~") {
			return nil // a home folder
		}
		if i == 0 && outsideVar(p, vars) {
			return nil // "$TMPDIR"/...: the temp folder (indirectwrites.go)
		}
		part(p, false)
	}
	return alts
}

func paramName(x *syntax.ParamExp) string {
	if x.Param == nil {
		return ""
	}
	return x.Param.Value
}

// litPieces reads an unquoted literal: backslash escapes, and the glob
// characters * ? and [...].
func litPieces(v string) []piece {
	var out []piece
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, piece{'l', b.String()})
			b.Reset()
		}
	}
	for k := 0; k < len(v); k++ {
		switch c := v[k]; c {
		case '\\':
			if k+1 < len(v) {
				k++
				if v[k] != '\n' {
					b.WriteByte(v[k])
				}
			}
		case '*', '?':
			flush()
			out = append(out, piece{'g', string(c)})
		case '[':
			end := strings.IndexByte(v[k+1:], ']')
			if end < 0 {
				b.WriteByte(c)
				continue
			}
			if end == 0 { // []...] : the ] is a member
				if e2 := strings.IndexByte(v[k+2:], ']'); e2 >= 0 {
					end = e2 + 1
				}
			}
			flush()
			out = append(out, piece{'g', v[k : k+end+2]})
			k += end + 1
		default:
			b.WriteByte(c)
		}
	}
	flush()
	return out
}

// newTarget builds a Target from one reading of an operand; false when it
// has an unknown part and no literal character other than / and . (it
// could be any file).
func newTarget(ps []piece, dotGlob bool) (Target, bool) {
	// Adjacent literals as one, without a leading "./" (the candidates
	// are clean paths); a copy, the pieces are shared between readings.
	var merged []piece
	for _, p := range ps {
		if n := len(merged); n > 0 && p.kind == 'l' && merged[n-1].kind == 'l' {
			merged[n-1].s += p.s
			continue
		}
		merged = append(merged, p)
	}
	for len(merged) > 0 && merged[0].kind == 'l' && strings.HasPrefix(merged[0].s, "./") {
		merged[0].s = strings.TrimLeft(merged[0].s[2:], "/")
	}
	// A folder a cd named, then ".." (`cd docs && sed -i ... ../*.md`):
	// the literal folders before the last slash, cleaned.
	if len(merged) > 0 && merged[0].kind == 'l' {
		if i := strings.LastIndexByte(merged[0].s, '/'); i > 0 {
			head := path.Clean(merged[0].s[:i+1])
			switch head {
			case ".":
				head = ""
			case "/":
			default:
				head += "/"
			}
			merged[0].s = head + merged[0].s[i+1:]
		}
	}
	ps = merged
	var re, glob, text strings.Builder
	hasLit, unknown, anyPart := false, false, false
	segStart := true
	re.WriteString("(?is)^")
	for i, p := range ps {
		switch p.kind {
		case 'l':
			for _, r := range p.s {
				if r != '/' && r != '.' {
					hasLit = true
				}
			}
			re.WriteString(regexp.QuoteMeta(p.s))
			glob.WriteString(globEscape(p.s))
			text.WriteString(p.s)
			if p.s != "" {
				segStart = strings.HasSuffix(p.s, "/")
			}
		case 'g', 'G', 'P':
			text.WriteString(p.s)
			glob.WriteString(p.s)
			if p.kind != 'g' {
				unknown = true // no filepath.Glob: it would not walk down
			}
			switch {
			case p.kind == 'P' && p.s == "*":
				re.WriteString(`.*`)
			case p.s == "*":
				if segStart && !dotGlob && p.kind == 'g' {
					re.WriteString(`(?:[^/.][^/]*)?`)
				} else {
					re.WriteString(`[^/]*`)
				}
			case p.s == "?":
				if segStart && !dotGlob && p.kind == 'g' {
					re.WriteString(`[^/.]`)
				} else {
					re.WriteString(`[^/]`)
				}
			default:
				re.WriteString(classRegexp(p.s))
			}
			segStart = false
		case 'u':
			unknown, anyPart = true, true
			text.WriteString("<?>")
			// An unknown part followed by a slash may be a whole folder
			// path or nothing at all ("$D/x" with D=. or D=$PWD).
			if i+1 < len(ps) && ps[i+1].kind == 'l' && strings.HasPrefix(ps[i+1].s, "/") {
				re.WriteString(`(?:.*/)?`)
				ps[i+1].s = ps[i+1].s[1:]
				if ps[i+1].s == "" {
					segStart = true
				}
				continue
			}
			re.WriteString(`.*`)
			segStart = false
		}
	}
	re.WriteString("$")
	if !hasLit && anyPart {
		// Only an unknown and slashes or dots ("$f", "$d/$f"): any file.
		// A glob alone (`sed -i ... *`) is judged: the shell expands it.
		return Target{}, false
	}
	t := Target{Text: text.String(), Abs: len(ps) > 0 && ps[0].kind == 'l' && strings.HasPrefix(ps[0].s, "/")}
	if !unknown {
		t.Glob = glob.String()
	}
	r, err := regexp.Compile(re.String())
	if err != nil {
		return Target{}, false
	}
	t.re = r
	return t, true
}

// classRegexp turns a shell bracket expression into a regexp class.
func classRegexp(c string) string {
	body := c[1 : len(c)-1]
	if strings.HasPrefix(body, "!") {
		body = "^" + body[1:]
	}
	body = strings.ReplaceAll(body, `\`, `\\`)
	if _, err := regexp.Compile("[" + body + "]"); err != nil {
		return `[^/]`
	}
	return "[" + body + "]"
}

// globEscape quotes the characters filepath.Glob would read as a pattern.
func globEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(s)
}

// echoed is what $(echo WORDS) or $(printf WORDS) prints, when its words
// are literal (printf's format read as text).
func echoed(x *syntax.CmdSubst) (string, bool) {
	if len(x.Stmts) != 1 || len(x.Stmts[0].Redirs) > 0 {
		return "", false
	}
	c, ok := x.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) < 2 {
		return "", false
	}
	var ws []string
	for _, a := range c.Args {
		l, ok := Literal(a)
		if !ok {
			return "", false
		}
		ws = append(ws, l)
	}
	if ws[0] != "echo" && ws[0] != "printf" {
		return "", false
	}
	return strings.TrimSuffix(strings.Join(ws[1:], " "), `\n`), true
}

// noFreshTemp, a key no shell name can be, marks a line that makes links
// or runs a program that can (linkMaker): $(mktemp) is then unknown.
const noFreshTemp = "\x00links"

// linkMaker matches a line that can put a link where mktemp made a name:
// ln, cp/rsync (-s, -l, a tree), an interpreter, an archive.
var linkMaker = lazyregexp.New(`(?:^|[\s;&|(])(?:ln|link|cp|rsync|install|mv|python[0-9.]*|perl|node|ruby|php|tar|unzip|bsdtar|busybox)(?:\s|$)`)

// madeTemp reports whether x is $(mktemp ...): one call of mktemp, which
// prints a file or folder it has just created under a fresh name.
func madeTemp(x *syntax.CmdSubst) bool {
	if len(x.Stmts) != 1 || len(x.Stmts[0].Redirs) > 0 {
		return false
	}
	c, ok := x.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 || len(c.Assigns) > 0 {
		return false
	}
	name, ok := Literal(c.Args[0])
	return ok && name == "mktemp"
}

// findWriters are the commands find's -exec runs that write the files it
// finds (sed and perl only in place).
var findWriters = map[string]bool{"rm": true, "unlink": true, "shred": true, "truncate": true, "mv": true, "tee": true, "cp": true, "touch": true, "dd": true, "ln": true, "install": true, "chmod": true}

// copiesFoundOut reports whether a find -exec command (cp, install, ln)
// only reads the files find found: {} is a source, never the destination
// (the last operand, or -t DIR). `find . -name '*.md' -exec cp {} /tmp/
// \;` copies protected files out and was denied as writing them (round 22
// c1); `-exec cp /tmp/x {} \;` writes each and is still a writer. Where it
// copies to is findExecInto's (DIR/PATTERN).
func copiesFoundOut(cmd []string) bool {
	switch CommandName(cmd[0]) {
	case "cp", "install", "ln":
	default:
		return false
	}
	valued := map[string]bool{"-m": true, "--mode": true, "-o": true, "-g": true, "-S": true, "--suffix": true, "-t": true, "--target-directory": true}
	for i, a := range cmd {
		if (a == "-t" || a == "--target-directory") && i+1 < len(cmd) {
			return !strings.Contains(cmd[i+1], "{}")
		}
		if v, ok := strings.CutPrefix(a, "--target-directory="); ok {
			return !strings.Contains(v, "{}")
		}
		if strings.HasPrefix(a, "\x01") {
			return false // a word the line builds: unknown, a writer as before
		}
	}
	ops := operands(cmd[1:], valued)
	return len(ops) >= 2 && !strings.Contains(ops[len(ops)-1], "{}")
}

// findTargets reads `find START... EXPR` that deletes or writes what it
// finds (-delete, -exec rm/sed -i/...): each glob -name (or -iname) under
// each start point, in any folder below it, and each glob -path. Literal
// names and start points are Writes'. A glob -name matches a leading dot,
// and -path's * crosses slashes, as find's do.
func findTargets(args []string, built [][][]piece) [][][]piece {
	i := 0
	var starts [][][]piece
	for ; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == `\(` {
			break
		}
		if strings.HasPrefix(a, "\x01") {
			starts = append(starts, placeholder(a, built))
		} else {
			starts = append(starts, [][]piece{litPieces(a)})
		}
	}
	if len(starts) == 0 {
		starts = [][][]piece{{{{'l', "."}}}}
	}
	expr := args[i:]
	writes := false
	var names, paths [][][]piece
	var anyCase []bool // per name: -iname (a Target matches any case)
	for k := 0; k < len(expr); k++ {
		switch a := expr[k]; a {
		case "-delete":
			writes = true
		case "-exec", "-execdir", "-ok", "-okdir":
			if k+1 < len(expr) {
				name := CommandName(expr[k+1])
				inPlace := false
				end := k + 2
				for ; end < len(expr); end++ {
					w := expr[end]
					if w == ";" || w == "+" {
						break
					}
					inPlace = inPlace || strings.HasPrefix(w, "-i") || strings.HasPrefix(w, "-pi") || w == "--in-place"
				}
				writes = writes || findWriters[name] && !copiesFoundOut(expr[k+1:end]) || (name == "sed" || name == "perl") && inPlace
			}
		case "-name", "-iname", "-path", "-ipath", "-wholename":
			if k+1 >= len(expr) {
				continue
			}
			k++
			v := expr[k]
			var alts [][]piece
			if strings.HasPrefix(v, "\x01") {
				alts = placeholder(v, built)
			} else {
				alts = [][]piece{globPieces(v)}
			}
			kind := byte('G')
			if a != "-name" && a != "-iname" {
				kind = 'P'
			}
			for _, ps := range alts {
				ps = append([]piece{}, ps...)
				for j := range ps {
					if ps[j].kind == 'g' {
						ps[j].kind = kind
					}
				}
				if kind == 'P' {
					paths = append(paths, [][]piece{ps})
				} else {
					names = append(names, [][]piece{ps})
					anyCase = append(anyCase, a == "-iname")
				}
			}
		}
	}
	if !writes {
		return nil
	}
	var out [][][]piece
	for _, st := range starts {
		for ni, n := range names {
			if !hasGlob(n) && !hasGlob(st) && !anyCase[ni] {
				continue // literal: Writes reads it (-iname's name in any case is not)
			}
			var alts [][]piece
			for _, s := range st {
				for _, nm := range n {
					ps := append(append([]piece{}, s...), piece{'l', "/"}, piece{'u', ""}, piece{'l', "/"})
					alts = append(alts, append(ps, nm...))
				}
			}
			out = append(out, alts)
		}
	}
	for _, p := range paths {
		var alts [][]piece
		for _, ps := range p {
			if len(ps) > 0 && ps[0].kind == 'l' {
				ps = append([]piece{{'l', strings.TrimPrefix(ps[0].s, "./")}}, ps[1:]...)
			}
			alts = append(alts, ps)
		}
		out = append(out, alts)
	}
	return out
}

// globPieces reads a find pattern (a literal word of the line, quotes
// removed) as glob pieces.
func globPieces(v string) []piece { return litPieces(v) }

// hasGlob reports whether a reading holds a glob or unknown piece.
func hasGlob(alts [][]piece) bool {
	for _, ps := range alts {
		for _, p := range ps {
			if p.kind != 'l' {
				return true
			}
		}
	}
	return false
}

// hasUnknown reports whether a reading holds an unknown piece.
func hasUnknown(ps []piece) bool {
	for _, p := range ps {
		if p.kind == 'u' {
			return true
		}
	}
	return false
}

// paramDefault reads ${NAME:-WORD}, ${NAME-WORD}, ${NAME:=WORD} and
// ${NAME=WORD} (NAME's value, or WORD when it is unset or empty) and
// ${NAME:+WORD}, ${NAME+WORD} (WORD or nothing): the operand may be
// either. NAME's value is unknown unless the line set it.
func paramDefault(x *syntax.ParamExp, vars map[string][][]piece) ([][]piece, bool) {
	if x.Exp == nil || x.Index != nil || x.Length || x.Slice != nil || x.Repl != nil || x.Excl || x.Names != 0 {
		return nil, false
	}
	var word [][]piece
	if x.Exp.Word != nil {
		word = wordPieces(x.Exp.Word, vars)
	} else {
		word = [][]piece{{}}
	}
	switch x.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		value, ok := vars[paramName(x)]
		if !ok {
			value = [][]piece{{{'u', ""}}}
		}
		return append(append([][]piece{}, value...), word...), true
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		return append([][]piece{{}}, word...), true
	}
	return nil, false
}
