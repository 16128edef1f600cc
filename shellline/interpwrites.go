package shellline

import (
	"path"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/syntax"
)

// An interpreter writes files too: `python3 -c "import sqlite3;
// sqlite3.connect('.git/sessiongate/sessiongate.db').execute('UPDATE
// phase_results ...')"` marked the start phases PASSED, and `python3 -
// <<'EOF' ... open('sessiongate.yaml','w') ... EOF` changed the config,
// seen only at the next gate (issue 25.7 route 4). When the code is
// literal on the line (-c/-e, a here-document or here-string fed to the
// interpreter), the files its plain write calls name are the line's
// writes. Code read from a file, or paths built at run time, stay
// unknown: the protected-file checks at every gate and the end's phase
// audit catch what gets past.

// writeCalls are the calls whose string-literal arguments are files
// written (or removed, or renamed): one pattern per language family, the
// argument list captured.
var writeCalls = []*lazyregexp.Regexp{
	// Python: pathlib, os, shutil, sqlite3 (checked for a writing statement below).
	lazyregexp.New(`Path\(([^()]*)\)\s*\.\s*(?:write_text|write_bytes|unlink|touch|rename|replace|rmdir|chmod)\(`),
	lazyregexp.New(`\b(?:os\.(?:remove|unlink|rename|replace|truncate|chmod)|shutil\.(?:copy\w*|move|rmtree))\(([^()]*)\)`),
	// Node: fs and fs/promises.
	lazyregexp.New(`\b(?:writeFile|appendFile|rm|unlink|copyFile|rename|truncate|cp)(?:Sync)?\(([^()]*)\)`),
	// Ruby.
	lazyregexp.New(`\bFile(?:Utils)?\.(?:write|delete|unlink|rename|cp|mv|rm|rm_f|touch)\(([^()]*)\)`),
	// Perl, whose calls need no parentheses: unlink ".git/x", rmtree(...).
	lazyregexp.New(`\b(?:unlink|rmtree|remove_tree|rename|truncate|move|copy)\b\s*\(?\s*([^;()]*)`),
}

// openCall is open(NAME, MODE) in Python (and Ruby's File.open): written
// when the mode writes, appends, creates or updates.
var openCall = lazyregexp.New(`\bopen\(\s*(['"])([^'"]+)['"]\s*,\s*(?:mode\s*=\s*)?['"]([^'"]*)['"]`)

// sqliteConnect is sqlite3.connect(NAME) (Python) or new Database(NAME)
// (Node's better-sqlite3, node:sqlite).
var sqliteConnect = lazyregexp.New(`(?:sqlite3\.connect|new\s+(?:Database|DatabaseSync))\(\s*(['"])([^'"]+)['"]`)

// perlOpen is Perl's open with a writing mode: open(F, ">x") and
// open(my $f, '>', 'x').
var perlOpen = lazyregexp.New(`\bopen\s*\(?[^,;]+,\s*['"](\+?>>?|\+<)\s*([^'"]*)['"](?:\s*,\s*['"]([^'"]+)['"])?`)

var stringLit = lazyregexp.New(`'([^'\\]*)'|"([^"\\]*)"`)

// A path built by a path function from string literals is one literal
// (round 22): os.path.join('.', 'SESSION-PROTOCOL.md'), Path('.') /
// 'sessiongate.yaml', path.join(...) in Node, File.join in Ruby, catfile
// in Perl.
var (
	pathLit  = `(?:'[^'\\\n]*'|"[^"\\\n]*")`
	joinCall = lazyregexp.New(`\b(os\.path\.join|path\.join|path\.resolve|File\.join|catfile|Path|PurePath|PosixPath)\(\s*(` + pathLit + `(?:\s*,\s*` + pathLit + `)*)\s*\)`)
	// p.join('.', 'x') with path imported under another name: any
	// NAME.join of two or more string literals (a separator's join takes
	// one list)
	anyJoin   = lazyregexp.New(`\b[A-Za-z_]\w*\.join\(\s*(` + pathLit + `(?:\s*,\s*` + pathLit + `)+)\s*\)`)
	slashJoin = lazyregexp.New(`\bPath\(\s*(` + pathLit + `)\s*\)((?:\s*/\s*` + pathLit + `)+)`)
	pathParen = lazyregexp.New(`\(\s*(Path\('[^'\n]*'\))\s*\)`)
)

// joinedPaths rewrites the path builders above as the literal they build.
func joinedPaths(code string) string {
	if !strings.Contains(code, "join") && !strings.Contains(code, "Path") && !strings.Contains(code, "catfile") && !strings.Contains(code, "resolve") {
		return code
	}
	join := func(list string) string {
		var parts []string
		for _, m := range stringLit.FindAllStringSubmatch(list, -1) {
			parts = append(parts, m[1]+m[2])
		}
		return path.Clean(strings.Join(parts, "/"))
	}
	for range 4 {
		next := joinCall.ReplaceAllStringFunc(code, func(m string) string {
			sm := joinCall.FindStringSubmatch(m)
			j := join(sm[2])
			if strings.HasSuffix(sm[1], "Path") {
				return "Path('" + j + "')"
			}
			return "'" + j + "'"
		})
		next = anyJoin.ReplaceAllStringFunc(next, func(m string) string {
			return "'" + join(anyJoin.FindStringSubmatch(m)[1]) + "'"
		})
		next = slashJoin.ReplaceAllStringFunc(next, func(m string) string {
			sm := slashJoin.FindStringSubmatch(m)
			return "Path('" + join(sm[1]+sm[2]) + "')"
		})
		next = pathParen.ReplaceAllString(next, "$1")
		if next == code {
			break
		}
		code = next
	}
	return code
}

// interpreterWrites lists the files code writes by the calls above.
func interpreterWrites(code string) []string {
	code = joinedPaths(code)
	var out []string
	for _, re := range writeCalls {
		for _, m := range re.FindAllStringSubmatch(code, -1) {
			for _, s := range stringLit.FindAllStringSubmatch(m[1], -1) {
				if p := s[1] + s[2]; p != "" && !strings.ContainsAny(p, " \n") {
					out = append(out, p)
				}
			}
		}
	}
	for _, m := range openCall.FindAllStringSubmatch(code, -1) {
		if strings.ContainsAny(m[3], "wax+") {
			out = append(out, m[2])
		}
	}
	for _, m := range perlOpen.FindAllStringSubmatch(code, -1) {
		if p := m[2] + m[3]; p != "" {
			out = append(out, strings.TrimSpace(p))
		}
	}
	for _, m := range sqliteConnect.FindAllStringSubmatch(code, -1) {
		if sqlWrites(code) || strings.Contains(code, "executescript") {
			out = append(out, m[2])
		}
	}
	// The Perl pattern also matches Python's and Node's calls of the same
	// names: each file once.
	seen := map[string]bool{}
	return slices.DeleteFunc(out, func(p string) bool {
		dup := seen[p]
		seen[p] = true
		return dup
	})
}

// stmtInterpreterCode is the code an interpreter statement runs when it
// is on the line: `python3 -c CODE`, `node -e CODE`, or `python3 -` /
// `python3` fed a here-document or here-string.
func stmtInterpreterCode(st *syntax.Stmt) (string, bool) {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return "", false
	}
	var args []string
	for _, w := range call.Args {
		s, _ := Literal(w)
		args = append(args, s)
	}
	args = unwrapCall(args)
	if len(args) == 0 {
		return "", false
	}
	if code, ok := interpreterCode(args); ok {
		return code, true
	}
	name := CommandName(args[0])
	if _, ok := interpreters[name]; !ok && !strings.HasPrefix(name, "python3.") {
		return "", false
	}
	// A script file as the first operand runs that file, not standard input.
	for _, a := range args[1:] {
		if a != "-" && !strings.HasPrefix(a, "-") {
			return "", false
		}
	}
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			return WordText(r.Hdoc), r.Hdoc != nil
		case syntax.WordHdoc:
			return WordText(r.Word), r.Word != nil
		}
	}
	return "", false
}

// WordText is a word's literal text, expansions left out: a here-document
// with an unquoted delimiter may hold $x, which does not hide the calls
// around it.
func WordText(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	if s, ok := Literal(w); ok {
		return s
	}
	var b strings.Builder
	syntax.Walk(w, func(n syntax.Node) bool {
		if l, ok := n.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		}
		return true
	})
	return b.String()
}
