package scriptrun

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/shellline"
)

// What the agent hooks' script judging needs from a script, a line and a
// scan, with no session: moved out of session/agent_scripts.go, whose
// scriptVerdict keeps the walk that needs the bound session and policy.

// PathLike reports whether a missing file a script's string names could
// be one the script writes and runs: a word with a slash or a dot (not
// only dots, no spaces, not ending in a colon), or one the script holds as
// a literal of its own ("second", '/tmp/second'). A line joined from a
// list of literals (inList) holds each of its words as a literal where it
// stands, so only another one counts: ["node", "module-sync"], a list of
// export conditions, names no file the script writes. A word ending in a
// colon is a message's label ("mnemonist/vector: expecting ..."): it counts
// only as a literal of its own.
func PathLike(p, text string, inList bool) bool {
	switch {
	case strings.ContainsAny(p, " \t\n"), strings.Trim(p, ".") == "":
		return false
	case strings.ContainsAny(p, "/.") && !strings.HasSuffix(p, ":"):
		return true
	}
	n := 0
	for _, q := range []string{`"`, `'`, "`", "/"} {
		for _, e := range []string{`"`, `'`, "`"} {
			n += strings.Count(text, q+p+e)
		}
	}
	if inList {
		return n > 1 // one is the list's own
	}
	return n > 0 // a literal of its own: a name the script can write
}

// compiler is a command that writes a compiled program.
var compiler = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(?:^|[;&|(]|\s)(?:go (?:build|install)|cc|gcc|clang|g\+\+|c\+\+|tcc|rustc|cargo build|swiftc|javac|bazel(?:isk)? build|cmake --build)\s`)
})

// Builds reports whether a shell script compiles a program and writes p no
// other way (a redirect, cp, tee...): then p is that program.
func Builds(text, p string) bool {
	if !compiler().MatchString(text) || LangOf(p, nil) != Shell || path.Ext(p) != "" && path.Ext(p) != ".out" {
		return false // a script's extension (x.sh, x.py) is no compiler's output
	}
	ws, ok := shellline.Writes(text)
	if !ok {
		return false
	}
	want := path.Clean(p)
	for _, w := range ws {
		if path.Clean(filepath.ToSlash(w)) == want {
			return false
		}
	}
	return true
}

// InstalledJS reports whether a JS file is an installed package's (its
// real path runs through node_modules).
func InstalledJS(abs string) bool {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		real = abs
	}
	return strings.Contains(filepath.ToSlash(real)+"/", "/node_modules/")
}

// QuotedWords are a line's literal words other than the programs and the
// scripts it runs, quoted as literals for Scan: what the line hands its
// scripts (arguments, variables).
func QuotedWords(line string, runs []Run) string {
	skip := map[string]bool{}
	for _, r := range runs {
		skip[r.Path] = true
		skip[r.Code] = true // code on the line (node -e) is judged as code
	}
	var b strings.Builder
	for _, p := range shellline.Programs(line) {
		for i, w := range p {
			if i == 0 || w == "" || skip[w] {
				continue
			}
			b.WriteString(`"` + strings.ReplaceAll(w, `"`, "") + "\"\n")
		}
	}
	// Assignments on the line (P=... python3 x.py; export P=...).
	for _, f := range strings.Fields(line) {
		if i := strings.IndexByte(f, '='); i > 0 && !strings.HasPrefix(f, "-") {
			b.WriteString(`"` + strings.Trim(f[i+1:], `"'`) + "\"\n")
		}
	}
	return b.String()
}

// ScanReason says why a scan finding in the file name stops a run.
func ScanReason(name string, f Finding) string {
	if f.How == "runs code it decodes" {
		return fmt.Sprintf("%s, whose line %d runs code it decodes, which no check can read", name, f.Line)
	}
	return fmt.Sprintf("%s, whose line %d names %s%s: a script the agent runs may not touch what polices the session", name, f.Line, f.What, HowNote(f.How))
}

// HowNote is a finding's How as a note after its name: " (escaped)", or
// nothing.
func HowNote(h string) string {
	if h == "" {
		return ""
	}
	return " (" + h + ")"
}

// ViaText is how a message names the run of f: the line's own words,
// with the path when the line did not name the file.
func ViaText(r Run, f *File) string {
	if r.Via == r.Path || r.Via == f.Rel || r.By != "" {
		return r.Via
	}
	return r.Via + " " + r.Path
}

// MakeStmts are the recipe lines of a make run to judge: with goals that
// are not all literals on the line, or rules that can come from elsewhere
// (--eval, a second -f, MAKEFILES/MAKEFLAGS: r.ArgsKnown false), every
// recipe; else those the goals reach (MakeRecipes).
func MakeStmts(r Run, mfs []MakeFile, vars []string) []Stmt {
	if !r.ArgsKnown {
		var all []Stmt
		for _, f := range mfs {
			for _, st := range Recipes(f.Text) {
				st.File = f.Name
				all = append(all, st)
			}
		}
		return all
	}
	return MakeRecipes(mfs, r.ArgList(), vars)
}
