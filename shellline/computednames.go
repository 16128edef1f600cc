package shellline

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/syntax"
)

// Round 23 (c3): names a program on the line computes and the hook does
// not emulate. `jq -r .f cfg.json | xargs rm`, `git show HEAD:list |
// xargs rm`, `ls | grep SESSION | xargs rm`, `awk '{print tolower($0)}' f
// | xargs rm`, `python3 -c "os.remove(open('f').read().strip())"` write a
// file whose name only the program's run gives. The hook cannot run it,
// so it guesses from what the program reads: a name it is given
// (Sources.Names, the protected paths) that the program's input spells,
// letters and digits compared without case after printf's escapes are
// decoded, or, for a program that lists files (ls, find, git ls-files),
// a name its operands select. Each such name is given back as the
// writer's operand, so the line is judged as if it wrote it; an honest
// program that reads a file naming no protected path guesses nothing.

// Sources is what FileValueLinesFrom may read for a line.
type Sources struct {
	// Read reads a file (a slash path relative to the line's folder, or
	// absolute); false when it cannot.
	Read func(string) (string, bool)
	// Blob reads git's REV:PATH (`git show`, `git cat-file -p`); nil when
	// the caller has no repository.
	Blob func(spec string) (string, bool)
	// Names are the paths a computed name is compared with.
	Names []string
	// Exists reports whether a name is a file in the work tree (a lister
	// prints only those); nil: all are.
	Exists func(string) bool
}

// listers print names of files in the tree (their operands select).
var listers = map[string]bool{"ls": true, "find": true, "fd": true, "fdfind": true, "tree": true, "locate": true}

// gitListers are git's subcommands that print paths.
// (diff and status are not: they list changed files, and a protected
// file changed is caught at every gate; `git diff --name-only | xargs
// gofmt -w` is an honest shape.)
var gitListers = map[string]bool{"ls-files": true, "ls-tree": true}

// selectors print some of their input's lines as they are (a later
// stage after a guessed one: its names pass or not, never change).
var selectors = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "head": true, "tail": true, "sort": true, "uniq": true, "cat": true, "tee": true, "tac": true}

// normName is s with only its letters and digits, lower case.
func normName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// spelledNames are the names whose base name text spells (normName of
// both, and of text with escapes decoded).
func spelledNames(text string, names []string) []string {
	if text == "" {
		return nil
	}
	hay := normName(text) + "\x00" + normName(decodeEscapes(text))
	var out []string
	for _, n := range names {
		if strings.ContainsAny(n, "*?[") {
			continue
		}
		if b := normName(path.Base(n)); b != "" && strings.Contains(hay, b) {
			out = append(out, n)
		}
	}
	return out
}

// decodeEscapes decodes printf's and echo -e's escapes (\xHH, \0NNN,
// \NNN, \uHHHH) and $'...' quoting's.
func decodeEscapes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		c := s[i+1]
		switch {
		case c == 'x' || c == 'u' || c == 'U':
			j := i + 2
			for j < len(s) && j < i+2+map[byte]int{'x': 2, 'u': 4, 'U': 8}[c] && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
				j++
			}
			if n, err := strconv.ParseUint(s[i+2:j], 16, 32); err == nil {
				b.WriteRune(rune(n))
				i = j - 1
				continue
			}
		case c >= '0' && c <= '7':
			j := i + 1
			if c == '0' {
				j++
			}
			k := j
			for k < len(s) && k < j+3 && s[k] >= '0' && s[k] <= '7' {
				k++
			}
			if n, err := strconv.ParseUint(s[j:k], 8, 32); err == nil && k > j {
				b.WriteRune(rune(n))
				i = k - 1
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// listedNames are the names a lister's words select: all of them with no
// path operand; those an operand (a folder, a file or a glob) covers;
// find's -name/-iname/-path patterns must match too.
func listedNames(words []string, names []string) []string {
	name := CommandName(words[0])
	args := words[1:]
	if name == "git" {
		name += " " + args[0]
		args = args[1:] // the subcommand
	}
	var ops, pats, nots []string
	fold, neg, or := false, false, false
	// Round 24 review (c8): `find . -not \( -name '*.go' \)` negates a
	// group, and `! !` cancels; a pattern is negated when its own `!`s
	// and its groups' are odd in number.
	var groups []bool
	negated := func() bool {
		n := neg
		for _, g := range groups {
			n = n != g
		}
		return n
	}
	fdPat, fdHave, fdFull, fdGlob, fdFixed := "", false, false, false, false
	treeish := name == "git ls-tree"
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
		case name == "find" && (a == "!" || a == "-not"):
			neg = !neg // the next test is negated
			continue
		case name == "find" && (a == "-o" || a == "-or"):
			or = true
		case name == "find" && a == "(":
			groups = append(groups, neg)
		case name == "find" && a == ")":
			if len(groups) > 0 {
				groups = groups[:len(groups)-1]
			}
		case name == "find" && (a == "-name" || a == "-iname" || a == "-path" || a == "-wholename") && i+1 < len(args):
			if negated() {
				nots = append(nots, args[i+1])
			} else {
				pats = append(pats, args[i+1])
			}
			fold = fold || a == "-iname"
			i++
		case name == "find" && strings.HasPrefix(a, "-"):
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && a != "-print" && a != "-print0" && a != "-delete" {
				i++ // the test's value (-type f, -maxdepth 2)
			}
		case name == "fd" && (a == "-x" || a == "-X" || a == "--exec" || a == "--exec-batch"):
			i = len(args) // the rest is the command fd runs
		case name == "fd" && (a == "-p" || a == "--full-path"):
			fdFull = true
		case name == "fd" && (a == "-g" || a == "--glob"):
			fdGlob = true
		case name == "fd" && (a == "-F" || a == "--fixed-strings"):
			fdFixed = true
		case name == "fd" && a == "--search-path" && i+1 < len(args):
			ops = append(ops, strings.TrimPrefix(path.Clean(args[i+1]), "./"))
			i++
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// An option's value is not an operand (`ls -I '*.go'`,
			// `git ls-files -x '*.go'`, `fd -e md` list more than
			// their value selects).
			if optionTakesNext(listerValueOpts[name], a) {
				i++
			}
		case treeish:
			treeish = false // git ls-tree's tree, not a path
		case name == "fd" && !fdHave:
			fdPat, fdHave = a, true // fd's first operand is a pattern
		case name == "locate":
			// Its operands are patterns over the whole path (`locate
			// PROTOCOL`): a word without a wildcard matches inside it.
			if !strings.ContainsAny(a, "*?[") {
				a = "*" + a + "*"
			}
			pats = append(pats, "*/"+a)
			fold, or = true, true // any of them
		default:
			ops = append(ops, strings.TrimPrefix(path.Clean(a), "./"))
		}
		neg = false
	}
	if fdHave && fdPat != "" {
		names = fdSelected(names, fdPat, fdFull, fdGlob, fdFixed)
	}
	// A name is selected when every pattern matches it and no negated one
	// does (`-name '*.md' -not -name SESSION-PROTOCOL.md` leaves the
	// protocol out). With -o the expression is not worked out: a name any
	// pattern, negated or not, could select is selected.
	match := func(p, n string) bool {
		s, q := path.Base(n), p
		if strings.Contains(p, "/") {
			s = "./" + n
		}
		if fold {
			s, q = strings.ToLower(s), strings.ToLower(q)
		}
		return globMatch(q, s) || globMatch(q, n)
	}
	var out []string
	for _, n := range names {
		ok := len(ops) == 0
		for _, o := range ops {
			if o == "." || o == n || strings.HasPrefix(n, o+"/") || globMatch(o, n) || !strings.Contains(o, "/") && globMatch(o, path.Base(n)) {
				ok = true
			}
		}
		if or {
			any := len(pats) == 0 || len(nots) > 0
			for _, p := range pats {
				any = any || match(p, n)
			}
			ok = ok && any
		} else {
			for _, p := range pats {
				ok = ok && match(p, n)
			}
			for _, p := range nots {
				ok = ok && !match(p, n)
			}
		}
		if ok {
			out = append(out, n)
		}
	}
	return out
}

// listerValueOpts are, per lister, the short options (letters) and
// long ones (without `=`) whose value is the next word.
var listerValueOpts = map[string]valueOpts{
	"ls":           {"IwT", []string{"--ignore", "--hide", "--width", "--tabsize", "--format", "--sort", "--time-style", "--quoting-style", "--block-size", "--indicator-style"}},
	"tree":         {"ILPo", []string{"--filelimit", "--timefmt", "--charset", "--sort"}},
	"fd":           {"eEtdjSoc", []string{"--extension", "--exclude", "--type", "--max-depth", "--min-depth", "--exact-depth", "--threads", "--size", "--changed-within", "--changed-before", "--owner", "--base-directory", "--path-separator", "--color", "--max-results", "--ignore-file"}},
	"fdfind":       {"eEtdjSoc", []string{"--extension", "--exclude", "--type", "--max-depth", "--min-depth", "--exact-depth", "--threads", "--size", "--changed-within", "--changed-before", "--owner", "--base-directory", "--path-separator", "--color", "--max-results", "--ignore-file"}},
	"git ls-files": {"xX", []string{"--exclude", "--exclude-from", "--exclude-per-directory", "--with-tree", "--format"}},
	"git ls-tree":  {"", []string{"--format"}},
	"locate":       {"dln", []string{"--database", "--limit"}},
}

// valueOpts: short option letters and long options that take a value.
type valueOpts struct {
	short string
	long  []string
}

// optionTakesNext reports whether option word a takes the next word as
// its value: a long one listed, without `=`, or a short cluster whose
// last letter takes one (`-rlm 1`; `-m1` holds its value).
func optionTakesNext(v valueOpts, a string) bool {
	if strings.HasPrefix(a, "--") {
		return !strings.Contains(a, "=") && slices.Contains(v.long, a)
	}
	for j := 1; j < len(a); j++ {
		if strings.IndexByte(v.short, a[j]) >= 0 {
			return j == len(a)-1
		}
	}
	return false
}

// fdSelected are the names fd's pattern selects: a regular expression
// (or a glob with -g) on the base name (the path with -p), compared
// without case (fd's smart case folds a lower-case pattern; folding
// always selects more). A pattern that does not compile selects all.
func fdSelected(names []string, pat string, full, glob, fixed bool) []string {
	var out []string
	for _, n := range names {
		s := path.Base(n)
		if full {
			s = n
		}
		ok := true
		switch {
		case glob:
			ok = globMatch(strings.ToLower(pat), strings.ToLower(s))
		default:
			if re, good := compileRE(pat, true, fixed, true); good {
				ok = re.MatchString(s)
			}
		}
		if ok {
			out = append(out, n)
		}
	}
	return out
}

// globMatch is path.Match with '*' also crossing slashes (git's and
// find -path's patterns do).
func globMatch(pat, s string) bool {
	if ok, _ := path.Match(pat, s); ok {
		return true
	}
	if !strings.Contains(pat, "*") {
		return false
	}
	re := "^" + strings.ReplaceAll(strings.ReplaceAll(regexp.QuoteMeta(pat), `\*`, ".*"), `\?`, ".") + "$"
	r, err := regexp.Compile(re)
	return err == nil && r.MatchString(s)
}

// guessedText is the names a pipeline's output may hold when pipeText
// cannot work it out: the stages before the first unknown one are worked
// out, the unknown one gives the names it spells or lists, and selectors
// after it are applied (a transform after it is not: the names stand).
// ok is false when nothing is guessed.
func guessedText(stages []*syntax.Stmt, cwd string, src Sources, read func(string) (string, bool)) (string, bool) {
	if len(src.Names) == 0 || len(stages) == 0 {
		return "", false
	}
	k := 0
	in, have := "", false
	for ; k < len(stages); k++ {
		t, ok := pipeText(stages[:k+1], cwd, read)
		if !ok {
			break
		}
		in, have = t, true
	}
	if k == len(stages) {
		return in, strings.TrimSpace(in) != "" // "$(rev <<< X)": worked out
	}
	names := stageNames(stages[k], in, have, cwd, src, read)
	// Round 24 review (c8): a transform after the unknown stage may put
	// the name in itself (`date | sed 's/.*/SESSION-PROTOCOL.md/' |
	// xargs rm`): what its own words and files spell counts too.
	for _, st := range stages[k+1:] {
		if ws, ok := literalWords(st); ok && !selectors[CommandName(ws[0])] {
			for _, n := range stageNames(st, "", false, cwd, src, read) {
				if !slices.Contains(names, n) {
					names = append(names, n)
				}
			}
		}
	}
	if len(names) == 0 {
		return "", false
	}
	text := unlines(names)
	for _, st := range stages[k+1:] {
		ws, ok := literalWords(st)
		if !ok || !selectors[CommandName(ws[0])] {
			continue
		}
		if t, ok := filterText(ws, text, true, func(p string) (string, bool) { return read(joinCwd(cwd, path.Clean(p))) }); ok {
			text = t
		}
	}
	return text, strings.TrimSpace(text) != ""
}

// stageNames are the names one command not emulated may print: a
// lister's selection, or those spelled by what it reads (its file
// operands, git's REV:PATH, its standard input, its own words).
func stageNames(st *syntax.Stmt, in string, have bool, cwd string, src Sources, read func(string) (string, bool)) []string {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return nil
	}
	var ws []string
	for _, a := range c.Args {
		s, lit := Literal(a)
		if !lit {
			return nil
		}
		ws = append(ws, s)
	}
	name := CommandName(ws[0])
	if ns, ok := grepListed(ws, src, cwd, read); ok {
		return ns
	}
	if ns, ok := globPrinted(name, c.Args, ws, src); ok {
		return ns
	}
	if name == "git" && len(ws) > 1 && gitHistoryLister(ws[1], ws[2:]) {
		// Round 24 review (c8): `git log --name-only` lists every file
		// the history touched, and `git diff --name-only EMPTY_TREE` every
		// file (the empty tree's id): the protected files that exist.
		var have []string
		for _, n := range src.Names {
			if src.Exists == nil || src.Exists(n) {
				have = append(have, n)
			}
		}
		var ops []string
		if i := slices.Index(ws, "--"); i >= 0 {
			ops = ws[i+1:]
		}
		return listedNames(append([]string{"ls"}, ops...), have)
	}
	if listers[name] || name == "git" && len(ws) > 1 && gitListers[ws[1]] {
		var have []string
		for _, n := range src.Names {
			if src.Exists == nil || src.Exists(n) {
				have = append(have, n)
			}
		}
		return listedNames(ws, have)
	}
	var b strings.Builder
	if have {
		b.WriteString(in)
	}
	for _, r := range st.Redirs {
		if r.Op == syntax.RdrIn {
			if p, lit := Literal(r.Word); lit {
				if t, ok := read(joinCwd(cwd, path.Clean(p))); ok {
					b.WriteString(t)
				}
			}
		} else if r.Op == syntax.WordHdoc || r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc {
			if s, lit := Literal(r.Word); lit {
				b.WriteString(s)
			} else if r.Hdoc != nil {
				if s, lit := Literal(r.Hdoc); lit {
					b.WriteString(s)
				}
			}
		}
	}
	for _, w := range ws[1:] {
		b.WriteString("\n" + w)
		if strings.HasPrefix(w, "-") {
			continue
		}
		if rev, p, ok := strings.Cut(w, ":"); ok && name == "git" && rev != "" && p != "" {
			if src.Blob != nil {
				if t, ok := src.Blob(w); ok {
					b.WriteString("\n" + t)
				}
			}
			if t, ok := read(joinCwd(cwd, path.Clean(p))); ok {
				b.WriteString("\n" + t)
			}
			continue
		}
		if t, ok := read(joinCwd(cwd, path.Clean(w))); ok {
			b.WriteString("\n" + t)
		}
	}
	return spelledNames(b.String(), src.Names)
}

// emptyTree is git's id of the empty tree (SHA-1): a diff against it
// lists every file.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// gitHistoryLister: a git command printing file names that takes in every
// file: `git log --name-only/--name-status` (all the history), `git
// diff`/`git show` against the empty tree or with --root. `git diff
// --name-only` of two revisions lists changed files only, and stays no
// lister (`git diff --name-only | xargs gofmt -w` is honest).
func gitHistoryLister(sub string, args []string) bool {
	names := slices.ContainsFunc(args, func(a string) bool {
		return a == "--name-only" || a == "--name-status" || a == "--stat" || a == "--numstat" || strings.HasPrefix(a, "--stat=")
	})
	if !names {
		return false
	}
	switch sub {
	case "log", "whatchanged":
		return true
	case "diff", "show", "diff-tree":
		return slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, emptyTree[:7]) || a == "--root" })
	}
	return false
}

// globPrinted are the protected files `compgen -f` prints (round 24
// review, c8: `compgen -f | xargs rm` was allowed), or an echo/printf of
// an unquoted glob names when it reaches here (`echo * | xargs ...` is
// still worked out before, as its text: left open). ok is false for a
// stage that is no such printer.
func globPrinted(name string, args []*syntax.Word, ws []string, src Sources) ([]string, bool) {
	var have []string
	for _, n := range src.Names {
		if src.Exists == nil || src.Exists(n) {
			have = append(have, n)
		}
	}
	if name == "compgen" {
		if slices.Contains(ws, "-f") || slices.Contains(ws, "file") {
			return have, true
		}
		return nil, false
	}
	if name != "echo" && name != "printf" {
		return nil, false
	}
	var pats []string
	for _, w := range args[1:] {
		for _, p := range w.Parts {
			if l, ok := p.(*syntax.Lit); ok && strings.ContainsAny(l.Value, "*?[") {
				pats = append(pats, ws[slices.Index(args, w)])
				break
			}
		}
	}
	if len(pats) == 0 {
		return nil, false
	}
	var out []string
	for _, n := range have {
		for _, p := range pats {
			if globMatch(p, n) || !strings.Contains(p, "/") && !strings.Contains(n, "/") && globMatch(p, n) {
				out = append(out, n)
				break
			}
		}
	}
	return out, true
}

// substStages are the statements of a word that is one command
// substitution (`$(jq -r .f cfg.json)`, `"$(git show HEAD:f)"`).
func substStages(w *syntax.Word) []*syntax.Stmt {
	parts := w.Parts
	if len(parts) == 1 {
		if dq, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = dq.Parts
		}
	}
	if len(parts) != 1 {
		return nil
	}
	cs, ok := parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return nil
	}
	st := cs.Stmts[0]
	if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
		return PipeStages(b)
	}
	return cs.Stmts
}

// interpWriter: interpreter code that deletes, moves or writes a file.
var interpWriter = lazyregexp.New(`\b(?:os\.(?:remove|unlink|rename|replace|truncate)|shutil\.(?:rmtree|move|copy\w*)|unlink(?:Sync)?|rmSync|rm|writeFile(?:Sync)?|appendFile(?:Sync)?|renameSync|copyFileSync|write_text|write_bytes|File\.(?:delete|write|open)|FileUtils\.\w+)\s*\(|\bopen\s*\([^)]*,\s*['"]?[wax]`)

// interpQuoted are the quoted strings of interpreter code.
var interpQuoted = lazyregexp.New(`'([^'\\]*)'|"([^"\\]*)"`)

// interpReadNames are the names interpreter code that writes a file may
// take from outside its text: the files it names (their text), its
// standard input and its arguments. `python3 -c "import os;
// os.remove(open('names.txt').read().strip())"` removes what names.txt
// holds. The code's own literals are read elsewhere (interpwrites.go).
func interpReadNames(words []string, stdin string, cwd string, src Sources, read func(string) (string, bool)) []string {
	if len(src.Names) == 0 || len(words) < 3 || !codeInterpreters[CommandName(words[0])] {
		return nil
	}
	i := 1
	for i < len(words) && words[i] != "-c" && words[i] != "-e" && words[i] != "-E" && words[i] != "--eval" && words[i] != "-p" {
		if !strings.HasPrefix(words[i], "-") {
			return nil
		}
		i++
	}
	if i+1 >= len(words) {
		return nil
	}
	code := words[i+1]
	if !interpWriter.MatchString(code) {
		return nil
	}
	var b strings.Builder
	b.WriteString(stdin)
	for _, a := range words[i+2:] {
		b.WriteString("\n" + a)
	}
	for _, m := range interpQuoted.FindAllStringSubmatch(code, -1) {
		p := m[1] + m[2]
		if p == "" || strings.ContainsAny(p, " \n") {
			continue
		}
		if t, ok := read(joinCwd(cwd, path.Clean(p))); ok {
			b.WriteString("\n" + t)
		}
	}
	return spelledNames(b.String(), src.Names)
}

// codeInterpreters run code given with -c or -e.
var codeInterpreters = map[string]bool{"python": true, "python3": true, "python2": true, "node": true, "nodejs": true, "perl": true, "ruby": true, "php": true, "deno": true, "bun": true}

// guessLine is the line judged for a name guessed: the writer with it,
// and why (a comment the deny message shows).
func guessLine(line, why string) string {
	return line + " # " + why
}

// stageName names a pipeline's programs for a message (`jq`, `git show`).
func stageName(stages []*syntax.Stmt) string {
	var ns []string
	for _, st := range stages {
		ws, ok := literalWords(st)
		if !ok {
			ns = append(ns, "a command")
			continue
		}
		n := CommandName(ws[0])
		if n == "git" && len(ws) > 1 {
			n += " " + ws[1]
		}
		ns = append(ns, n)
	}
	return "`" + strings.Join(ns, " | ") + "`"
}

// grepValueOpts are grep's (and git grep's) options whose value is the
// next word (-e and -f are read apart).
var grepValueOpts = valueOpts{"mABCdDO", []string{"--max-count", "--after-context", "--before-context", "--context", "--directories", "--devices", "--include", "--exclude", "--exclude-dir", "--exclude-from", "--label", "--binary-files", "--max-depth", "--threads", "--open-files-in-pager"}}

// rgValueOpts are ripgrep's.
var rgValueOpts = valueOpts{"mABCdgtTjEM", []string{"--max-count", "--after-context", "--before-context", "--context", "--max-depth", "--glob", "--iglob", "--type", "--type-not", "--threads", "--encoding", "--max-columns", "--max-filesize", "--type-add", "--ignore-file", "--sort", "--sortr", "--replace", "--path-separator", "--pre", "--pre-glob", "--color", "--colors", "--engine"}}

// patternLines joins a pattern file's lines as alternatives ("" when
// one is empty: an empty pattern matches every line).
func patternLines(t string) string {
	var alts []string
	for _, l := range strings.Split(strings.TrimSuffix(t, "\n"), "\n") {
		if l == "" {
			return ""
		}
		alts = append(alts, l)
	}
	return strings.Join(alts, "\n")
}

// grepListed are the protected files `grep -rl PAT DIR` or `git grep -l
// PAT` prints: those its paths select whose text matches PAT (a file the
// hook cannot read counts). `grep -rl MUST . | xargs sed -i s/MUST/MAY/`
// rewrote the protocol; `git grep -l oldName | xargs sed -i ...` is an
// honest rename when the protocol does not say oldName. ok is false for
// a line that is no such grep.
func grepListed(ws []string, src Sources, cwd string, read func(string) (string, bool)) ([]string, bool) {
	name := CommandName(ws[0])
	args := ws[1:]
	git := name == "git" && len(ws) > 1 && ws[1] == "grep"
	if git {
		args = ws[2:]
	} else if name != "grep" && name != "egrep" && name != "fgrep" && name != "rg" {
		return nil, false
	}
	list, fold, fixed := name == "rg", false, name == "fgrep"
	pat, have := "", false
	opts := grepValueOpts
	if name == "rg" {
		opts = rgValueOpts
	}
	var paths []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
		case (a == "-e" || a == "--regexp") && i+1 < len(args):
			pat, have = args[i+1], true
			i++
		case a == "--files-with-matches" || a == "--files-without-match":
			list = true
		case (a == "-f" || a == "--file") && i+1 < len(args):
			// Round 24 review (c8): the patterns are in a file
			// (`grep -rl -f pats.txt .`); its value was taken for the
			// pattern. Its lines are the alternatives; unread, any.
			pat, have = "", true
			if t, ok := read(joinCwd(cwd, path.Clean(args[i+1]))); ok {
				pat = patternLines(t)
			}
			i++
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(a) > 1:
			cl, val := a[1:], ""
			k := strings.IndexAny(cl, opts.short+"ef")
			if k >= 0 {
				cl, val = cl[:k+1], cl[k+1:] // the rest is the option's value
				if val == "" && i+1 < len(args) {
					i++ // -m 1, -A 2: a value, not the pattern
					val = args[i]
				}
			}
			list = list || strings.ContainsAny(cl, "lLrR")
			fold = fold || strings.Contains(cl, "i")
			fixed = fixed || strings.Contains(cl, "F")
			switch {
			case strings.ContainsAny(cl, "vL"):
				pat, have = "", true // every file may be printed
			case k >= 0 && cl[k] == 'e':
				pat, have = val, true
			case k >= 0 && cl[k] == 'f':
				pat, have = "", true
				if t, ok := read(joinCwd(cwd, path.Clean(val))); ok {
					pat = patternLines(t)
				}
			}
		case strings.HasPrefix(a, "-"):
			if optionTakesNext(opts, a) {
				i++
			}
		case !have:
			pat, have = a, true
		default:
			paths = append(paths, a)
		}
	}
	if !list || !have {
		return nil, false
	}
	// A pattern with newlines is one alternative per line (grep's -f,
	// and `grep $'a\nb'`).
	var res []*regexp.Regexp
	for _, p := range strings.Split(pat, "\n") {
		if pat == "" {
			break
		}
		r, ok := compileRE(p, name == "egrep" || name == "rg", fixed, fold)
		if !ok {
			pat, res = "", nil
			break
		}
		res = append(res, r)
	}
	var out []string
	for _, n := range listedNames(append([]string{"ls"}, paths...), src.Names) {
		if src.Exists != nil && !src.Exists(n) {
			continue
		}
		if t, ok := read(joinCwd(cwd, n)); ok && pat != "" && !slices.ContainsFunc(res, func(r *regexp.Regexp) bool { return r.MatchString(t) }) {
			continue
		}
		out = append(out, n)
	}
	return out, true
}
