package scriptrun

import (
	"regexp"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/shellline"
)

// A target marked Read (the git config, the hooks folder, core.hooksPath)
// is one honest tools read: a remote's URL from .git/config, whether a
// hook is installed, `git config --get core.hooksPath`. Scan lets such a
// reference pass only where the code shows it is read: the literal is the
// first argument of a read call (fs.readFileSync, open with a read mode,
// os.path.exists...), through path builders (path.join, Path, /), or held
// in a variable that is only ever used so, or it is a read-only command
// (`git config --get`, `git log`, `cat`). Anything else (a write call, a
// variable passed on, a mode that is not a literal read mode, a flag
// option, a name the reader does not know) keeps the finding: a lazy
// agent's write disguised as a read fails one of these.

// readCalls are calls that only read the path in their first argument
// (their other arguments are checked by readArgs).
var readCalls = map[string]bool{
	"readFileSync": true, "readFile": true, "existsSync": true, "exists": true, "statSync": true, "lstatSync": true,
	"stat": true, "lstat": true, "readdirSync": true, "readdir": true, "listdir": true, "scandir": true,
	"isfile": true, "isdir": true, "islink": true, "access": true, "accessSync": true, "createReadStream": true,
	"getmtime": true, "getsize": true, "read_text": true, "read_bytes": true, "readlines": true, "read": true,
	"file_get_contents": true, "is_file": true, "is_dir": true, "file_exists": true, "readlink": true,
	"readlinkSync": true, "exist?": true, "exists?": true, "file?": true, "directory?": true, "foreach": true,
	"open": true, "openSync": true, "fopen": true, "load": true, "glob": true, "iglob": true,
}

// showCalls show their arguments to a person: a path printed is not
// opened (a call inside the arguments, open(p, "w"), is met first).
var showCalls = map[string]bool{
	"print": true, "puts": true, "echo": true, "console.log": true, "console.info": true, "console.warn": true,
	"console.error": true, "console.debug": true, "logger.info": true, "logger.debug": true, "logger.warning": true,
	"logger.error": true, "log.info": true, "log.debug": true, "log.warn": true, "log.error": true, "warn": true,
}

// pathCalls build a path from their arguments without touching a file.
var pathCalls = map[string]bool{
	"join": true, "resolve": true, "normalize": true, "Path": true, "PurePath": true, "PosixPath": true,
	"abspath": true, "realpath": true, "expanduser": true, "fspath": true, "str": true, "String": true,
	"expand_path": true, "normpath": true, "relative": true, "dirname": true,
}

// readMethods follow a path expression and only read it:
// Path(".git/config").read_text(), p.exists().
var readMethod = lazyregexp.New(`^\s*\.\s*(read_text|read_bytes|exists|is_file|is_dir|stat|lstat|open|resolve|absolute)\s*\(`)

// readOnlyUse reports whether the literal l of code is only read.
func readOnlyUse(code string, lits []lit, l lit) bool {
	if l.from < 0 {
		return false // a chr() call's text: built, not written plainly
	}
	if readOnlyCommand(l.s) {
		return true
	}
	return usedForReading(code, lits, l.from, l.to, 0)
}

// usedForReading follows the expression code[from:to] outwards: through
// path builders to a read call, or through an assignment to the uses of
// the variable (depth bounds the hops).
func usedForReading(code string, lits []lit, from, to, depth int) bool {
	for range 6 {
		name, open, first, ok := enclosingCall(code, lits, from)
		if !ok {
			break
		}
		if code[open] == '[' {
			return readOnlyList(code, lits, open)
		}
		short := name[strings.LastIndexByte(name, '.')+1:]
		end := closing(code, lits, open)
		switch {
		case pathCalls[short]:
			from, to = open-len(name), end+1
			continue
		case readCalls[short] && first && !redefined(code, lits, short):
			return readArgs(code, lits, to, end)
		case showCalls[name] || showCalls[short] && !strings.Contains(name, "."):
			return true // shown to a person: a call inside it was judged first
		}
		return false
	}
	// Path(".git") / "config": the operator glues the pieces on.
	for {
		m := slashPiece.FindStringIndex(code[to:])
		if m == nil {
			break
		}
		to += m[1]
	}
	if m := readMethod.FindStringSubmatch(code[to:]); m != nil && !redefined(code, lits, m[1]) {
		o := to + strings.IndexByte(code[to:], '(')
		return readArgs(code, lits, o+1, closing(code, lits, o))
	}
	if depth >= 2 {
		return false
	}
	name := assigned(code, from)
	if name == "" {
		return false
	}
	// Every other use of the variable must read (and there must be one: a
	// name used through globals() or eval is not seen).
	ls, uses := lineStart(code, from), 0
	re := regexp.MustCompile(`(?:^|[^\w.])\$?(` + regexp.QuoteMeta(name) + `)(?:[^\w$]|$)`)
	for _, m := range re.FindAllStringSubmatchIndex(code, -1) {
		at := m[2]
		if at < from && lineStart(code, at) == ls && declPrefix.MatchString(code[ls:at]) {
			continue // the definition itself
		}
		if inLit(lits, at) >= 0 {
			return false // named inside a string (a command line, a template)
		}
		if reassign.MatchString(code[at+len(name):]) {
			return false
		}
		uses++
		if !usedForReading(code, lits, at, at+len(name), depth+1) {
			return false
		}
	}
	return uses > 0
}

var (
	slashPiece = lazyregexp.New(`^\s*/\s*(?:"[^"\n]*"|'[^'\n]*'|[A-Za-z_][\w.]*)`)
	declPrefix = lazyregexp.New(`^\s*(?:(?:const|let|var|my|local)\s+)?\$?$`)
	reassign   = lazyregexp.New(`^\s*(?:[-+*/|&]?=[^=]|\.(?:append|push|extend|concat)\b)`)
	assignment = lazyregexp.New(`^\s*(?:(?:const|let|var|my|local)\s+)?\$?([A-Za-z_$][\w$]*)\s*(?::\s*[\w.\[\]]+\s*)?=[^=]`)
)

// assigned is the variable the statement holding pos assigns, "" when the
// line does not start with NAME = (const, let, var, my).
func assigned(code string, pos int) string {
	m := assignment.FindStringSubmatch(code[lineStart(code, pos):pos])
	if m == nil {
		return ""
	}
	return m[1]
}

func lineStart(code string, pos int) int {
	return strings.LastIndexByte(code[:pos], '\n') + 1
}

// inLit is the index of the literal holding offset pos, -1 when none does.
func inLit(lits []lit, pos int) int {
	i, _ := slices.BinarySearchFunc(lits, pos, func(l lit, p int) int { return l.from - p })
	for _, j := range []int{i - 1, i} {
		if j >= 0 && j < len(lits) && lits[j].from >= 0 && lits[j].from <= pos && pos < lits[j].to {
			return j
		}
	}
	return -1
}

// enclosingCall finds the innermost open bracket around pos: a call's
// '(' with the dotted name before it, or a list's '['. first is true when
// pos is in the call's first argument. It stops at a statement's end
// (; { } at depth 0) or 2 KiB back.
func enclosingCall(code string, lits []lit, pos int) (name string, open int, first, ok bool) {
	depth := 0
	first = true
	for i := pos - 1; i >= 0 && pos-i < 2048; i-- {
		if j := inLit(lits, i); j >= 0 {
			i = lits[j].from
			continue
		}
		switch c := code[i]; c {
		case ')', ']':
			depth++
		case '(', '[':
			if depth > 0 {
				depth--
				continue
			}
			if c == '[' {
				return "[", i, first, true
			}
			j := i
			for j > 0 && (isIdent(code[j-1]) || code[j-1] == '.' || code[j-1] == '?') {
				j--
			}
			return strings.TrimLeft(code[j:i], "."), i, first, j < i
		case ',':
			if depth == 0 {
				first = false
			}
		case ';', '{', '}':
			if depth == 0 {
				return "", 0, false, false
			}
		}
	}
	return "", 0, false, false
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// closing is the offset of the bracket that closes the one at open (the
// end of the code when none does).
func closing(code string, lits []lit, open int) int {
	if open < 0 || open >= len(code) {
		return len(code) - 1
	}
	depth := 0
	for i := open; i < len(code); i++ {
		if j := inLit(lits, i); j >= 0 {
			i = lits[j].to - 1
			continue
		}
		switch code[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(code) - 1
}

// readArgs checks a read call's arguments after the path (code[to:end]):
// literal modes that read, and only the keywords of encodings and read
// flags; a mode in a variable, a write flag or anything else is no read.
// A callback last ((err, data) => ...) is the call's, not the file's: its
// own calls are judged where they stand.
func readArgs(code string, lits []lit, to, end int) bool {
	if end <= to {
		return true
	}
	var bare strings.Builder
	for i := to; i < end; i++ {
		if j := inLit(lits, i); j >= 0 {
			s := lits[j].s
			switch {
			case modeLit.MatchString(s) && strings.ContainsAny(s, "wax+"):
				return false
			case !modeLit.MatchString(s) && !encoding.MatchString(s):
				return false // text a write call would take: not a read's argument
			}
			i = lits[j].to - 1
			continue
		}
		bare.WriteByte(code[i])
	}
	b := callback.ReplaceAllString(bare.String(), "")
	return readArg.MatchString(b)
}

var (
	readArg  = lazyregexp.New(`^(?:[\s,{}]|(?:encoding|errors|newline|mode|flag|flags|withFileTypes)\s*[=:]|(?:os\.|fs\.constants\.|fs\.)?O_RDONLY\b|true\b|false\b|True\b|False\b|None\b|null\b)*$`)
	callback = lazyregexp.New(`(?s),\s*(?:async\s+)?(?:function\b.*|\([\w\s,]*\)\s*=>.*|\w+\s*=>.*)$`)
	modeLit  = lazyregexp.New(`^[rwaxbt+sU]{1,5}$`)
	encoding = lazyregexp.New(`(?i)^(?:utf-?8|utf-?8-sig|utf-?16(?:le|be)?|ucs-?2|ascii|latin-?1|iso-8859-1|binary|base64|hex|cp1252|surrogateescape|strict|ignore|replace|)$`)
)

// redefined reports whether a script makes its own reader of that name
// (const readFileSync = fs.writeFileSync, {writeFileSync: readFileSync},
// import remove as open, def open, setattr(..., "open", ...)): its calls
// then read nothing the reader knows.
func redefined(code string, lits []lit, name string) bool {
	q := regexp.QuoteMeta(name)
	re := regexp.MustCompile(`(?:^|[^\w$.])` + q + `\s*(?:=[^=>]|:[^:])|(?::|\bas|\bdef|\bfunction|\bsub)\s+` + q + `\b|\bfunction\s*\*?\s*` + q + `\b`)
	if re.MatchString(code) {
		return true
	}
	for _, l := range lits {
		if l.s == name {
			return true
		}
	}
	return false
}

// readOnlyList reports whether the list opened at open is a read-only
// command's words: ["git", "config", "--get", "core.hooksPath"], or
// execFileSync("git", ["config", "--get", ...]).
func readOnlyList(code string, lits []lit, open int) bool {
	end := closing(code, lits, open)
	var words []string
	for i := open + 1; i < end; i++ {
		j := inLit(lits, i)
		switch {
		case j >= 0:
			words = append(words, lits[j].s)
			i = lits[j].to - 1
		case code[i] == ',' || code[i] == ' ' || code[i] == '\t' || code[i] == '\n':
		default:
			return false // a variable among the words: unknown
		}
	}
	if len(words) > 0 && words[0] != "git" {
		// execFileSync("git", [...]): the program is the call's first argument.
		if name, o, _, ok := enclosingCall(code, lits, open); ok && name != "[" {
			j := inLit(lits, o+1+len(code[o+1:])-len(strings.TrimLeft(code[o+1:], " \t\n")))
			if j >= 0 && lits[j].s == "git" {
				words = append([]string{"git"}, words...)
			}
		}
	}
	return readOnlyWords(words)
}

// readOnlyCommand reports whether a literal is a command line that only
// reads: git's read commands, cat, head, grep...; no redirect, pipe,
// substitution or second command.
func readOnlyCommand(s string) bool {
	s = strings.NewReplacer("2>/dev/null", "", "2>&1", "", "2> /dev/null", "").Replace(s)
	if strings.ContainsAny(s, "><;&|$`\n\\") {
		return false
	}
	return readOnlyWords(strings.Fields(s))
}

// readOnlyWords reports whether a command's words only read.
func readOnlyWords(w []string) bool {
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "cat", "head", "tail", "grep", "ls", "test", "stat", "wc", "file":
		for _, a := range w[1:] {
			if a == "-i" || strings.HasPrefix(a, "--in-place") {
				return false
			}
		}
		return true
	case "git":
	default:
		return false
	}
	i := 1
	for i < len(w) && strings.HasPrefix(w[i], "-") {
		switch {
		case w[i] == "-C" && i+1 < len(w):
			i += 2
		case w[i] == "--no-pager" || strings.HasPrefix(w[i], "--git-dir=") || strings.HasPrefix(w[i], "--work-tree="):
			i++
		default:
			return false // -c KEY=VALUE and the rest: not judged here
		}
	}
	if i >= len(w) {
		return false
	}
	args := w[i+1:]
	switch w[i] {
	case "rev-parse", "log", "show", "status", "diff", "ls-files", "ls-tree", "cat-file", "describe",
		"for-each-ref", "show-ref", "var", "blame", "shortlog", "name-rev", "merge-base", "rev-list", "version":
		return true
	case "config":
		return shellline.ConfigReadOnly(args)
	case "remote":
		return len(args) == 0 || args[0] == "-v" || args[0] == "get-url" || args[0] == "show"
	}
	return false
}
