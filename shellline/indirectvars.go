package shellline

import (
	"regexp"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Round 18 (t4): more ways a line sets the value a writer's operand is
// built from, for WriteTargets: arrays (`a=(SESSION-PROTOCOL.md); sed -i
// ... ${a[0]}`; every element is a reading of any index), `read NAME <<<
// WORD` and `printf -v NAME FORMAT ARGS`. A value the line does not hold
// makes the name unknown, as for NAME=VALUE.

// assignArray records a=(A B), a[i]=X and a+=(C): the elements so far
// are the name's readings.
func assignArray(vars map[string][][]piece, a *syntax.Assign) {
	name := a.Name.Value
	var alts [][]piece
	if a.Append || a.Index != nil {
		old, ok := vars[name]
		if !ok && a.Append {
			delete(vars, name)
			return
		}
		alts = append(alts, old...)
	}
	switch {
	case a.Array != nil:
		for _, el := range a.Array.Elems {
			if el.Value == nil {
				continue
			}
			alts = append(alts, wordPieces(el.Value, vars)...)
		}
	case a.Value != nil:
		alts = append(alts, wordPieces(a.Value, vars)...)
	}
	if len(alts) == 0 || len(alts) > maxAlternatives {
		delete(vars, name)
		return
	}
	vars[name] = alts
}

// readInto records `read [-r] NAME... <<< WORD`: each NAME may be WORD
// (the last takes the rest; reading the whole as each is the superset).
func readInto(vars map[string][][]piece, st *syntax.Stmt) {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) < 2 {
		return
	}
	n, ok := Literal(c.Args[0])
	if !ok || n != "read" && n != "mapfile" && n != "readarray" {
		return
	}
	var value [][]piece
	for _, r := range st.Redirs {
		if r.Op == syntax.WordHdoc && r.Word != nil {
			value = wordPieces(r.Word, vars)
		}
	}
	for i := 1; i < len(c.Args); i++ {
		a, ok := Literal(c.Args[i])
		switch {
		case !ok:
			return
		case a == "-t" && n != "read":
			// mapfile -t: strip newlines, no value
		case a == "-p" || a == "-d" || a == "-n" || a == "-N" || a == "-t" || a == "-u" || a == "-i" || a == "-O" || a == "-s" || a == "-c" || a == "-C":
			i++
		case a == "-a":
			// read -a NAME: an array of the words.
		case strings.HasPrefix(a, "-"):
		case value != nil && isName(a):
			vars[a] = value
		case isName(a):
			delete(vars, a) // read from elsewhere: unknown
		}
	}
}

// printfInto records `printf -v NAME FORMAT ARGS` (args: the call's
// words, "\x01N" for a built one).
func printfInto(vars map[string][][]piece, args []string, built [][][]piece) {
	if len(args) < 4 || args[0] != "printf" || args[1] != "-v" || !isName(args[2]) {
		return
	}
	var words []string
	for _, a := range args[3:] {
		if strings.HasPrefix(a, "\x01") {
			ps := placeholder(a, built)
			if len(ps) != 1 {
				delete(vars, args[2])
				return
			}
			s, ok := literalOf(ps[0])
			if !ok {
				vars[args[2]] = [][]piece{{{'u', ""}}}
				return
			}
			a = s
		}
		words = append(words, a)
	}
	vars[args[2]] = [][]piece{{{'l', printfText(words[0], words[1:])}}}
}

// findRegexp is a find -regex pattern (emacs syntax, find's default) as
// a Go regexp matching a whole path; nil when it does not compile.
func findRegexp(pat string) *regexp.Regexp {
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch {
		case c == '\\' && i+1 < len(pat) && strings.IndexByte("(){}|", pat[i+1]) >= 0:
			b.WriteByte(pat[i+1]) // \( is a group in emacs syntax
			i++
		case c == '\\' && i+1 < len(pat):
			b.WriteByte(c)
			b.WriteByte(pat[i+1])
			i++
		case strings.IndexByte("(){}|", c) >= 0:
			b.WriteByte('\\') // ( is a literal
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	re, err := regexp.Compile("(?is)^(?:" + b.String() + ")$")
	if err != nil {
		return nil
	}
	return re
}

// findRegexTargets are the targets of `find START... -regex PAT` (or
// -iregex) that deletes or writes what it finds: PAT matched against
// the path find prints, under START. A START the line builds is read
// as any folder.
func findRegexTargets(args []string, built [][][]piece) []Target {
	i := 0
	var starts []string
	for ; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == `\(` {
			break
		}
		if strings.HasPrefix(a, "\x01") {
			a = "" // unknown
		}
		starts = append(starts, a)
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	expr := args[i:]
	writes := false
	var pats []string
	for k := 0; k < len(expr); k++ {
		switch a := expr[k]; a {
		case "-delete":
			writes = true
		case "-exec", "-execdir", "-ok", "-okdir":
			if k+1 < len(expr) {
				name := CommandName(expr[k+1])
				writes = writes || findWriters[name] || name == "sed" || name == "perl"
			}
		case "-regex", "-iregex":
			if k+1 < len(expr) {
				k++
				pats = append(pats, expr[k])
			}
		}
	}
	if !writes {
		return nil
	}
	var out []Target
	for _, p := range pats {
		re := findRegexp(p)
		if strings.HasPrefix(p, "\x01") || re == nil {
			re = regexp.MustCompile(`.*`) // built or unreadable: any path
		}
		for _, s := range starts {
			out = append(out, Target{Text: s + " -regex " + p, findRe: re, findStart: s, Abs: strings.HasPrefix(s, "/")})
		}
	}
	return out
}

// matchFind reports whether a find -regex target can name p (relative to
// the line's folder, or absolute when Abs): the path find prints for p
// under the target's start point matches the pattern.
func (t Target) matchFind(p string) bool {
	s := t.findStart
	if s == "" { // a start the line builds: p as find may print it
		return t.findRe.MatchString(p) || t.findRe.MatchString("./"+p) || t.findRe.MatchString("/"+p)
	}
	clean := strings.TrimSuffix(strings.TrimPrefix(s, "./"), "/")
	if clean == "." || clean == "" {
		return t.findRe.MatchString(strings.TrimSuffix(s, "/") + "/" + p)
	}
	if !strings.HasPrefix(strings.ToLower(p), strings.ToLower(clean)+"/") {
		return false
	}
	return t.findRe.MatchString(strings.TrimSuffix(s, "/") + p[len(clean):])
}

// setParams records `set -- A B...`: $1, $2... and $@ (any of them).
// mapfile/readarray NAME <<< WORD is read by readInto's kin below.
func setParams(vars map[string][][]piece, args []string, built [][][]piece) {
	if len(args) < 2 || args[0] != "set" || args[1] != "--" {
		return
	}
	var all [][]piece
	for k, a := range args[2:] {
		alts := [][]piece{{{'l', a}}}
		if strings.HasPrefix(a, "\x01") {
			alts = placeholder(a, built)
		}
		vars[strconv.Itoa(k+1)] = alts
		all = append(all, alts...)
	}
	for _, n := range []string{"@", "*"} {
		if len(all) > 0 && len(all) <= maxAlternatives {
			vars[n] = all
		} else {
			delete(vars, n)
		}
	}
}
