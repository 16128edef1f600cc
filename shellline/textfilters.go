package shellline

import (
	"encoding/base64"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Round 22 (c2): the text filters a line passes a file's names through
// before it writes them. `sort names.txt | xargs rm`, `tr a-z A-Z < f |
// xargs rm`, `rm "$(sed -n 1p f)"`, `awk '{print "rm " $0}' f | sh` and
// `printf 'rm %s\n' X | bash` write the files the filtered text names, and
// round 21 read only `cat F` and `head -1 F`. The hook has the file (it
// reads it, as for `X=$(cat F)`), so it works out the filter's output the
// way the tool would, for the plain forms of cat, sort, uniq, tac, rev,
// head, tail, grep, tr, cut, sed, awk, echo, printf and a bare xargs. A
// form it does not know (an awk program with a function call, sed's y or
// w) gives no text: the line is judged as before (the operand unknown).

// maxFilterText bounds the text a pipeline is worked out for.
const maxFilterText = 64 << 10

// pipeText is what the statements of a pipeline, in order, print: each a
// simple command of literal words whose first reads a file (an operand,
// or `< F`) or prints its words (echo, printf). ok is false when a stage
// is not one of the filters above, or a file cannot be read.
func pipeText(stages []*syntax.Stmt, cwd string, read func(string) (string, bool)) (string, bool) {
	if len(stages) == 0 || read == nil {
		return "", false
	}
	text, have := "", false
	for _, st := range stages {
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 || len(c.Assigns) > 0 {
			return "", false
		}
		var ws []string
		for _, a := range c.Args {
			s, lit := Literal(a)
			if !lit {
				return "", false
			}
			ws = append(ws, s)
		}
		for _, r := range st.Redirs {
			switch {
			case r.Op == syntax.RdrIn:
				p, lit := Literal(r.Word)
				if !lit {
					return "", false
				}
				body, ok := read(joinCwd(cwd, path.Clean(p)))
				if !ok {
					return "", false
				}
				text, have = body, true
			case r.Op == syntax.WordHdoc:
				s, lit := Literal(r.Word)
				if !lit {
					return "", false
				}
				text, have = s+"\n", true
			case r.N != nil && r.N.Value == "2" || r.Op == syntax.DplOut:
				// 2>/dev/null, 2>&1: the text is the same
			default:
				return "", false
			}
		}
		out, ok := filterText(ws, text, have, func(p string) (string, bool) { return read(joinCwd(cwd, path.Clean(p))) })
		if !ok || len(out) > maxFilterText {
			return "", false
		}
		text, have = out, true
	}
	return text, true
}

// filterText is what one filter prints: words are its literal words, in
// its standard input (have: it has one), read a file operand's text.
func filterText(words []string, in string, have bool, read func(string) (string, bool)) (string, bool) {
	name := CommandName(words[0])
	args := words[1:]
	// input is the filter's text: its file operands' (in order), or its
	// standard input when it has none.
	input := func(files []string) (string, bool) {
		if len(files) == 0 || len(files) == 1 && files[0] == "-" {
			return in, have
		}
		var b strings.Builder
		for _, f := range files {
			t, ok := read(f)
			if !ok {
				return "", false
			}
			b.WriteString(t)
			if t != "" && !strings.HasSuffix(t, "\n") {
				b.WriteByte('\n')
			}
		}
		return b.String(), true
	}
	switch name {
	case "dirname", "basename":
		// pure string functions of their operands
		if len(args) != 1 || strings.HasPrefix(args[0], "-") {
			return "", false
		}
		if name == "dirname" {
			return path.Dir(args[0]) + "\n", true
		}
		return path.Base(args[0]) + "\n", true
	case "paste":
		// paste -s [-d D] F: the lines joined
		d, serial := "\t", false
		var files []string
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-s":
				serial = true
			case a == "-d" && i+1 < len(args):
				d = args[i+1]
				i++
			case strings.HasPrefix(a, "-sd"):
				serial, d = true, a[3:]
			case strings.HasPrefix(a, "-d"):
				d = a[2:]
			case strings.HasPrefix(a, "-") && a != "-":
				return "", false
			default:
				files = append(files, a)
			}
		}
		t, ok := input(files)
		if !serial || len(d) > 1 || !ok {
			return "", false
		}
		return strings.Join(lines(t), d) + "\n", true
	case "xargs":
		// xargs with no command runs echo with its input's words (round
		// 49: `fail=$(echo $fail | xargs)` trims the count). Quotes and
		// backslashes are xargs' own syntax, and a long input is split
		// into several echoes: neither is read here.
		if len(args) > 0 || !have || strings.ContainsAny(in, `'"\`) || len(in) > 4096 {
			return "", false
		}
		return strings.Join(strings.Fields(in), " ") + "\n", true
	case "tee":
		// tee FILE passes its input on (FILE is a write Writes reads)
		if !have {
			return "", false
		}
		return in, true
	case "echo":
		// echo -e/-n (round 23): escapes decoded as bash's echo does
		nl, esc := "\n", false
		for len(args) > 0 && (args[0] == "-e" || args[0] == "-n" || args[0] == "-E" || args[0] == "-ne" || args[0] == "-en") {
			esc = esc && args[0] != "-E" || strings.Contains(args[0], "e")
			if strings.Contains(args[0], "n") {
				nl = ""
			}
			args = args[1:]
		}
		t := strings.Join(args, " ")
		if esc {
			s, _, err := expand.Format(&expand.Config{}, "%b", []string{t})
			if err != nil {
				return "", false
			}
			t = s
		}
		return t + nl, true
	case "printf":
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			return "", false
		}
		if strings.Contains(args[0], `\`) || strings.Contains(args[0], "%b") {
			// printf 'SESSION\x2dPROTOCOL.md' (round 23): the shell's
			// printf, escapes and all
			s, err := printfAll(args[0], args[1:])
			return s, err == nil
		}
		return printfText(args[0], args[1:]), true
	case "cat", "tac", "rev":
		if len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
			return "", false
		}
		t, ok := input(args)
		if !ok {
			return "", false
		}
		ls := lines(t)
		switch name {
		case "tac":
			slices.Reverse(ls)
		case "rev":
			for i, l := range ls {
				r := []rune(l)
				slices.Reverse(r)
				ls[i] = string(r)
			}
		}
		return unlines(ls), true
	case "sort", "uniq":
		var files []string
		uniq, rev := name == "uniq", false
		for _, a := range args {
			switch {
			case a == "-u" && name == "sort":
				uniq = true
			case a == "-r" && name == "sort":
				rev = true
			case name == "sort" && (a == "-n" || a == "-f" || a == "-V" || a == "-h" || a == "-b"):
				// orders only: the names are the same
			case strings.HasPrefix(a, "-") && a != "-":
				return "", false
			default:
				files = append(files, a)
			}
		}
		if name == "uniq" && len(files) > 1 {
			return "", false // uniq IN OUT writes OUT
		}
		t, ok := input(files)
		if !ok {
			return "", false
		}
		ls := lines(t)
		if name == "sort" {
			slices.Sort(ls)
			if rev {
				slices.Reverse(ls)
			}
		}
		if uniq {
			ls = slices.Compact(ls)
		}
		return unlines(ls), true
	case "head", "tail":
		if len(args) >= 2 && args[0] == "-c" {
			// head -c N F: the first N bytes (a name cut out of a longer line)
			n, err := strconv.Atoi(args[1])
			t, ok := input(args[2:])
			if err != nil || n < 0 || !ok {
				return "", false
			}
			if name == "head" {
				return t[:min(n, len(t))], true
			}
			return t[len(t)-min(n, len(t)):], true
		}
		n, files, ok := lineCount(args)
		if !ok {
			return "", false
		}
		t, ok := input(files)
		if !ok {
			return "", false
		}
		ls := lines(t)
		switch {
		case name == "head":
			ls = ls[:min(n.n, len(ls))]
		case n.from:
			ls = ls[min(max(n.n-1, 0), len(ls)):]
		default:
			ls = ls[len(ls)-min(n.n, len(ls)):]
		}
		return unlines(ls), true
	case "grep", "egrep", "fgrep":
		return grepText(name, args, input)
	case "jq":
		return jqText(args, input)
	case "tr":
		return trText(args, in, have)
	case "cut":
		return cutText(args, input)
	case "sed":
		return sedText(args, input)
	case "awk", "gawk", "mawk", "nawk":
		return awkText(args, input)
	case "base64":
		// base64 -d: names decoded on the way to xargs are names still
		var files []string
		dec := false
		for _, a := range args {
			switch {
			case a == "-d" || a == "--decode" || a == "-di" || a == "-id" || a == "-i" || a == "--ignore-garbage":
				dec = dec || a != "-i" && a != "--ignore-garbage"
			case strings.HasPrefix(a, "-") && a != "-":
				return "", false
			default:
				files = append(files, a)
			}
		}
		t, ok := input(files)
		if !dec || !ok {
			return "", false
		}
		b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(t), ""))
		return string(b), err == nil
	}
	return "", false
}

// lines splits text into its lines (no final empty one).
func lines(t string) []string {
	t = strings.TrimSuffix(t, "\n")
	if t == "" {
		return nil
	}
	return strings.Split(t, "\n")
}

func unlines(ls []string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}

type count struct {
	n    int
	from bool // tail -n +N
}

// lineCount reads head's or tail's -n N, -N, -nN, --lines=N; files are
// the rest.
func lineCount(args []string) (count, []string, bool) {
	c := count{n: 10}
	var files []string
	num := func(s string) bool {
		if rest, ok := strings.CutPrefix(s, "+"); ok {
			c.from, s = true, rest
		}
		v, err := strconv.Atoi(s)
		c.n = v
		return err == nil && v >= 0
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-n" || a == "--lines") && i+1 < len(args):
			if !num(args[i+1]) {
				return c, nil, false
			}
			i++
		case strings.HasPrefix(a, "--lines="):
			if !num(strings.TrimPrefix(a, "--lines=")) {
				return c, nil, false
			}
		case strings.HasPrefix(a, "-n") && len(a) > 2:
			if !num(a[2:]) {
				return c, nil, false
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if !num(a[1:]) {
				return c, nil, false
			}
		default:
			files = append(files, a)
		}
	}
	return c, files, true
}

// grepText is grep's output for -v, -i, -x, -E, -F, -e PAT and -m N.
func grepText(name string, args []string, input func([]string) (string, bool)) (string, bool) {
	ext, fixed, inv, fold, whole := name == "egrep", name == "fgrep", false, false, false
	maxN := -1
	pat, havePat := "", false
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e" && i+1 < len(args):
			pat, havePat = args[i+1], true
			i++
		case (a == "-m" || a == "--max-count") && i+1 < len(args):
			n, err := strconv.Atoi(args[i+1])
			if err != nil {
				return "", false
			}
			maxN = n
			i++
		case strings.HasPrefix(a, "--max-count="):
			n, err := strconv.Atoi(strings.TrimPrefix(a, "--max-count="))
			if err != nil {
				return "", false
			}
			maxN = n
		case strings.HasPrefix(a, "-m") && len(a) > 2:
			n, err := strconv.Atoi(a[2:])
			if err != nil {
				return "", false
			}
			maxN = n
		case strings.HasPrefix(a, "-") && len(a) > 1 && !strings.HasPrefix(a, "--"):
			for _, f := range a[1:] {
				switch f {
				case 'v':
					inv = true
				case 'i':
					fold = true
				case 'x':
					whole = true
				case 'E':
					ext = true
				case 'F':
					fixed = true
				case 's', 'h':
				default:
					return "", false // -o, -n, -c, -l, -r...: another output
				}
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			return "", false
		case !havePat:
			pat, havePat = a, true
		default:
			files = append(files, a)
		}
	}
	if !havePat {
		return "", false
	}
	re, ok := compileRE(pat, ext, fixed, fold)
	if !ok {
		return "", false
	}
	if whole {
		if re, ok = compileRE("^(?:"+re.String()+")$", true, false, false); !ok {
			return "", false
		}
	}
	t, ok := input(files)
	if !ok {
		return "", false
	}
	var out []string
	for _, l := range lines(t) {
		if maxN >= 0 && len(out) >= maxN {
			break
		}
		if re.MatchString(l) != inv {
			out = append(out, l)
		}
	}
	return unlines(out), true
}

// compileRE compiles a grep or sed pattern: basic (BRE) unless ext,
// a plain string when fixed.
func compileRE(pat string, ext, fixed, fold bool) (*regexp.Regexp, bool) {
	if fixed {
		pat = regexp.QuoteMeta(pat)
	} else if !ext {
		pat = breToRE2(pat)
	}
	if fold {
		pat = "(?i)" + pat
	}
	re, err := regexp.Compile(pat)
	return re, err == nil
}

// breToRE2 turns a POSIX basic expression into Go's syntax: \( \) \{ \}
// \| \+ \? are the operators, their bare forms literal.
func breToRE2(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' && i+1 < len(p) {
			n := p[i+1]
			if strings.IndexByte("(){}|+?", n) >= 0 {
				b.WriteByte(n)
			} else {
				b.WriteByte('\\')
				b.WriteByte(n)
			}
			i++
			continue
		}
		if strings.IndexByte("(){}|+?", c) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// trText is tr's output for SET1 [SET2] with -d and -s, the sets holding
// characters, ranges (a-z), escapes and the classes lower, upper, digit,
// alpha, alnum, space.
func trText(args []string, in string, have bool) (string, bool) {
	if !have {
		return "", false
	}
	del, squeeze := false, false
	var sets []string
	for _, a := range args {
		switch {
		case a == "-d":
			del = true
		case a == "-s":
			squeeze = true
		case a == "-ds" || a == "-sd":
			del, squeeze = true, true
		case strings.HasPrefix(a, "-") && len(a) > 1:
			return "", false // -c: the complement
		default:
			sets = append(sets, a)
		}
	}
	if len(sets) == 0 || len(sets) > 2 {
		return "", false
	}
	s1, ok := trSet(sets[0])
	if !ok {
		return "", false
	}
	var s2 []rune
	if len(sets) == 2 {
		if s2, ok = trSet(sets[1]); !ok || len(s2) == 0 {
			return "", false
		}
	}
	if !del && len(s2) == 0 && !squeeze {
		return "", false
	}
	last := rune(-1)
	var b strings.Builder
	for _, r := range in {
		i := slices.Index(s1, r)
		if i >= 0 {
			if del {
				continue
			}
			if len(s2) > 0 {
				r = s2[min(i, len(s2)-1)]
			}
		}
		sq := s2
		if len(sq) == 0 || del {
			sq = s1
			if del {
				sq = s2
			}
		}
		if squeeze && r == last && slices.Contains(sq, r) {
			continue
		}
		b.WriteRune(r)
		last = r
	}
	return b.String(), true
}

// trSet expands one of tr's sets.
func trSet(s string) ([]rune, bool) {
	classes := map[string]string{
		"lower": "abcdefghijklmnopqrstuvwxyz", "upper": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "digit": "0123456789",
		"space": " \t\n\r\v\f",
	}
	classes["alpha"] = classes["lower"] + classes["upper"]
	classes["alnum"] = classes["alpha"] + classes["digit"]
	var out []rune
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '[' && i+1 < len(rs) && rs[i+1] == ':' {
			// The class's closing ":]" after its opening "[:", in runes
			// (`[:]` has none: a byte index of ":]" from "[" found the
			// opening's colon and sliced backwards, a fuzz crash).
			end := -1
			for j := i + 2; j+1 < len(rs); j++ {
				if rs[j] == ':' && rs[j+1] == ']' {
					end = j
					break
				}
			}
			if end < 0 {
				return nil, false
			}
			c, ok := classes[string(rs[i+2:end])]
			if !ok {
				return nil, false
			}
			out = append(out, []rune(c)...)
			i = end + 1
			continue
		}
		if r == '[' || r == ']' && len(out) == 0 {
			return nil, false // [x*n], equivalence classes
		}
		if r == '\\' && i+1 < len(rs) {
			i++
			switch rs[i] {
			case 'n':
				r = '\n'
			case 't':
				r = '\t'
			case 'r':
				r = '\r'
			case '0':
				r = 0
			default:
				r = rs[i]
			}
		}
		if i+2 < len(rs) && rs[i+1] == '-' {
			hi := rs[i+2]
			if hi < r {
				return nil, false
			}
			for c := r; c <= hi; c++ {
				out = append(out, c)
			}
			i += 2
			continue
		}
		out = append(out, r)
	}
	return out, true
}

// cutText is cut's output for -d D -f LIST (numbers and N-M).
func cutText(args []string, input func([]string) (string, bool)) (string, bool) {
	delim, list, chars := "\t", "", false
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-d" && i+1 < len(args):
			delim = args[i+1]
			i++
		case strings.HasPrefix(a, "-d") && len(a) > 2:
			delim = a[2:]
		case a == "-c" && i+1 < len(args):
			list, chars = args[i+1], true
			i++
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			list, chars = a[2:], true
		case a == "-f" && i+1 < len(args):
			list = args[i+1]
			i++
		case strings.HasPrefix(a, "-f") && len(a) > 2:
			list = a[2:]
		case strings.HasPrefix(a, "-") && len(a) > 1:
			return "", false
		default:
			files = append(files, a)
		}
	}
	if len(delim) != 1 || list == "" {
		return "", false
	}
	var keep []int
	for _, f := range strings.Split(list, ",") {
		lo, hi, rng := strings.Cut(f, "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if rng {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 1 || b < a || b-a > 64 {
			return "", false
		}
		for k := a; k <= b; k++ {
			keep = append(keep, k)
		}
	}
	t, ok := input(files)
	if !ok {
		return "", false
	}
	var out []string
	for _, l := range lines(t) {
		if chars {
			// cut -c LIST: the characters at those positions
			rs := []rune(l)
			var b strings.Builder
			for _, k := range keep {
				if k <= len(rs) {
					b.WriteRune(rs[k-1])
				}
			}
			out = append(out, b.String())
			continue
		}
		fs := strings.Split(l, delim)
		if len(fs) == 1 {
			out = append(out, l) // no delimiter: the line whole, as cut does
			continue
		}
		var got []string
		for _, k := range keep {
			if k <= len(fs) {
				got = append(got, fs[k-1])
			}
		}
		out = append(out, strings.Join(got, delim))
	}
	return unlines(out), true
}

// sedCmd is one command of a sed script: an address (a line number, $,
// or a pattern; none is every line), then p, d, q or s.
type sedCmd struct {
	line    int // 0: none
	lastL   bool
	addr    *regexp.Regexp
	op      byte
	re      *regexp.Regexp
	repl    string
	global  bool
	printed bool // s///p
}

// sedText is sed's output for a script of p, d, q and s///[gpI]
// commands (addressed by a line number, $ or /RE/), with -n, -e, -E.
func sedText(args []string, input func([]string) (string, bool)) (string, bool) {
	quiet, ext := false, false
	var scripts, files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-n" || a == "--quiet" || a == "--silent":
			quiet = true
		case a == "-E" || a == "-r" || a == "--regexp-extended":
			ext = true
		case a == "-nE" || a == "-En" || a == "-nr" || a == "-rn":
			quiet, ext = true, true
		case (a == "-e" || a == "--expression") && i+1 < len(args):
			scripts = append(scripts, args[i+1])
			i++
		case strings.HasPrefix(a, "-") && len(a) > 1:
			return "", false // -i writes, -f reads a script, -z...
		case len(scripts) == 0 && !slices.Contains(args[:i], "-e"):
			scripts = append(scripts, a)
		default:
			files = append(files, a)
		}
	}
	if len(scripts) == 0 {
		return "", false
	}
	var cmds []sedCmd
	for _, s := range scripts {
		for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '\n' }) {
			c, ok := parseSed(strings.TrimSpace(part), ext)
			if !ok {
				return "", false
			}
			cmds = append(cmds, c)
		}
	}
	t, ok := input(files)
	if !ok {
		return "", false
	}
	ls := lines(t)
	var out []string
lines:
	for n, l := range ls {
		deleted := false
		for _, c := range cmds {
			switch {
			case c.line > 0 && c.line != n+1, c.lastL && n != len(ls)-1, c.addr != nil && !c.addr.MatchString(l):
				continue
			}
			switch c.op {
			case 'p':
				out = append(out, l)
			case 'd':
				deleted = true
			case 'q':
				if !quiet {
					out = append(out, l)
				}
				break lines
			case 's':
				if !c.re.MatchString(l) {
					continue
				}
				if c.global {
					l = c.re.ReplaceAllString(l, c.repl)
				} else {
					loc := c.re.FindStringSubmatchIndex(l)
					var b []byte
					b = c.re.ExpandString(b, c.repl, l, loc)
					l = l[:loc[0]] + string(b) + l[loc[1]:]
				}
				if c.printed {
					out = append(out, l)
				}
			}
			if deleted {
				break
			}
		}
		if !quiet && !deleted {
			out = append(out, l)
		}
	}
	return unlines(out), true
}

// parseSed reads one sed command (see sedCmd).
func parseSed(s string, ext bool) (sedCmd, bool) {
	var c sedCmd
	switch {
	case s == "":
		return c, false
	case s[0] >= '0' && s[0] <= '9':
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		c.line, _ = strconv.Atoi(s[:i])
		s = s[i:]
	case s[0] == '$':
		c.lastL, s = true, s[1:]
	case s[0] == '/':
		end := strings.IndexByte(s[1:], '/')
		if end < 0 {
			return c, false
		}
		re, ok := compileRE(s[1:1+end], ext, false, false)
		if !ok {
			return c, false
		}
		c.addr, s = re, s[2+end:]
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return c, false
	}
	c.op = s[0]
	switch c.op {
	case 'p', 'd', 'q':
		return c, len(s) == 1
	case 's':
		if len(s) < 4 {
			return c, false
		}
		d := string(s[1])
		parts := strings.Split(s[2:], d)
		if len(parts) != 3 || strings.Contains(s[2:], `\`+d) {
			return c, false
		}
		for _, f := range parts[2] {
			switch f {
			case 'g':
				c.global = true
			case 'p':
				c.printed = true
			default:
				return c, false // w FILE, e, numbers
			}
		}
		re, ok := compileRE(parts[0], ext, false, false)
		if !ok {
			return c, false
		}
		c.re = re
		// & is the match, \N a group; Go's template spells them ${0}, ${N}.
		var b strings.Builder
		r := parts[1]
		for i := 0; i < len(r); i++ {
			switch {
			case r[i] == '&':
				b.WriteString("${0}")
			case r[i] == '\\' && i+1 < len(r):
				i++
				if r[i] >= '0' && r[i] <= '9' {
					b.WriteString("${" + string(r[i]) + "}")
				} else if r[i] == 'n' {
					b.WriteByte('\n')
				} else {
					b.WriteByte(r[i])
				}
			case r[i] == '$':
				b.WriteString("$$")
			default:
				b.WriteByte(r[i])
			}
		}
		c.repl = b.String()
		return c, true
	}
	return c, false
}

// awkProg is the awk programs read: `PATTERN`, `{print ITEMS}`, `PATTERN
// {print ITEMS}` with an optional `; exit`, PATTERN being NR==N or /RE/.
var awkProg = lazyregexp.New(`^\s*(NR\s*==\s*\d+|/(?:[^/\\]|\\.)*/)?\s*(?:\{\s*(print(?:\s+[^;{}]*)?)?\s*(;\s*exit\s*;?)?\s*\})?\s*$`)

// awkItem is one item of a print: a string or a field.
var awkItem = lazyregexp.New(`^\s*(?:"((?:[^"\\]|\\.)*)"|\$(\d+)|\$NF|,)`)

// awkText is awk's output for the programs awkProg reads, with -F SEP.
func awkText(args []string, input func([]string) (string, bool)) (string, bool) {
	sep := ""
	prog, have := "", false
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-F" && i+1 < len(args):
			sep = args[i+1]
			i++
		case strings.HasPrefix(a, "-F") && len(a) > 2:
			sep = a[2:]
		case strings.HasPrefix(a, "-") && len(a) > 1:
			return "", false
		case !have:
			prog, have = a, true
		default:
			files = append(files, a)
		}
	}
	m := awkProg.FindStringSubmatch(prog)
	if !have || m == nil || m[1] == "" && m[2] == "" {
		return "", false
	}
	lineN := 0
	var pat *regexp.Regexp
	if p := m[1]; strings.HasPrefix(p, "NR") {
		lineN, _ = strconv.Atoi(strings.TrimSpace(p[strings.LastIndex(p, "=")+1:]))
	} else if p != "" {
		re, err := regexp.Compile(p[1 : len(p)-1])
		if err != nil {
			return "", false
		}
		pat = re
	}
	// items: the print's parts, each a string or a field number (-1: NF).
	type item struct {
		s     string
		field int
		comma bool
	}
	var items []item
	if pr := strings.TrimSpace(strings.TrimPrefix(m[2], "print")); pr != "" {
		for pr != "" {
			im := awkItem.FindStringSubmatchIndex(pr)
			if im == nil {
				return "", false
			}
			tok := pr[im[0]:im[1]]
			switch {
			case strings.TrimSpace(tok) == ",":
				items = append(items, item{comma: true})
			case im[2] >= 0:
				s := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`, `\\`, `\`).Replace(pr[im[2]:im[3]])
				items = append(items, item{s: s, field: -2})
			case im[4] >= 0:
				n, _ := strconv.Atoi(pr[im[4]:im[5]])
				items = append(items, item{field: n})
			default:
				items = append(items, item{field: -1})
			}
			pr = strings.TrimSpace(pr[im[1]:])
		}
	}
	t, ok := input(files)
	if !ok {
		return "", false
	}
	var out []string
	for n, l := range lines(t) {
		if lineN > 0 && n+1 != lineN || pat != nil && !pat.MatchString(l) {
			continue
		}
		if len(items) == 0 {
			out = append(out, l)
		} else {
			var fs []string
			if sep == "" {
				fs = strings.Fields(l)
			} else {
				fs = strings.Split(l, sep)
			}
			var b strings.Builder
			for _, it := range items {
				switch {
				case it.comma:
					b.WriteByte(' ')
				case it.field == -2:
					b.WriteString(it.s)
				case it.field == 0:
					b.WriteString(l)
				case it.field == -1:
					if len(fs) > 0 {
						b.WriteString(fs[len(fs)-1])
					}
				case it.field <= len(fs):
					b.WriteString(fs[it.field-1])
				}
			}
			out = append(out, b.String())
		}
		if m[3] != "" {
			break // exit after the first line printed
		}
	}
	return unlines(out), true
}

// printfAll is printf's output: the format reused while arguments are
// left, as the shell's printf does.
func printfAll(format string, args []string) (string, error) {
	var b strings.Builder
	for first := true; first || len(args) > 0; first = false {
		s, n, err := expand.Format(&expand.Config{}, format, args)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
		if n == 0 || n >= len(args) {
			break
		}
		args = args[n:]
	}
	return b.String(), nil
}
