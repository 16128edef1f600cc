package testrun

import (
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// Round 19 (issue 25): a skip that fires because a variable is UNSET.
// Round 17 left `if os.Getenv("X") == "" { return }` unread whatever the
// run held: it is the shape of an honest test that needs a database. But
// a test that existed at the start ran there without X (it passed
// without the resource, so it does not need it): the guard, added in the
// session, only hides it. So in a test that existed at the start (and a
// TestMain of a file that did) an unset variable reads as each language
// has it (Go "", Python None, JS undefined, LookupEnv false, `in
// os.environ` False) and a Python default as the value; a new test keeps
// the guard. withEnv and envReads take the choice as `unset`.
//
// The spellings round 18 left unread are read here too: strtobool and
// regexp.MatchString fold over literals (envcalls.go), self.skipTest
// skips (skips.go), and Python's os module under another name (`import
// os as o`, `from os import environ, getenv`) reads as os.

// strtobool is distutils.util.strtobool over a literal: "True"/"False",
// ok false for a value it raises on.
func strtobool(v string) (string, bool) {
	switch strings.ToLower(v) {
	case "y", "yes", "t", "true", "on", "1":
		return "True", true
	case "n", "no", "f", "false", "off", "0":
		return "False", true
	}
	return "", false
}

// matchString is Go's regexp.MatchString over two literals (ok false for
// a pattern that does not compile: left unread). The pattern is the
// condition's own, compiled when a QA run is judged, never at init.
func matchString(pattern, s string) (bool, bool) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return false, false
	}
	return re.MatchString(s), true
}

var pyOSImportREs = sync.OnceValue(func() (r struct{ importAs, fromOS *regexp.Regexp }) {
	r.importAs = regexp.MustCompile(`^\s*import\s+os\s+as\s+(\w+)\s*(?:#.*)?$`)
	r.fromOS = regexp.MustCompile(`^\s*from\s+os\s+import\s+(.+)$`)
	return r
})

// pyOSAlias rewrites a line's reads of Python's os module under another
// name to os's own (`o.getenv(` -> `os.getenv(`, `environ.get(` ->
// `os.environ.get(`, `E["X"]` -> `os.environ["X"]`), so the env rule
// reads them. Names only the file's imports bind are rewritten.
func pyOSAlias(src []byte) func(string) string {
	if !strings.Contains(string(src), "os") {
		return func(s string) string { return s }
	}
	r := pyOSImportREs()
	to := map[string]string{} // name -> what it stands for
	for _, l := range strings.Split(string(src), "\n") {
		if m := r.importAs.FindStringSubmatch(l); m != nil && m[1] != "os" {
			to[m[1]] = "os"
		}
		m := r.fromOS.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		for _, part := range strings.Split(strings.Trim(strings.TrimSpace(strings.SplitN(m[1], "#", 2)[0]), "()"), ",") {
			f := strings.Fields(part)
			if len(f) == 0 {
				continue
			}
			as := f[0]
			if len(f) == 3 && f[1] == "as" {
				as = f[2]
			}
			switch f[0] {
			case "environ", "getenv":
				to[as] = "os." + f[0]
			}
		}
	}
	if len(to) == 0 {
		return func(s string) string { return s }
	}
	// a name not after a dot (`self.environ` is not os's), followed by
	// what a module or the two os names are used with
	use := pyOSUseRE.Regexp()
	return func(s string) string {
		if strings.HasPrefix(strings.TrimSpace(s), "from ") || strings.HasPrefix(strings.TrimSpace(s), "import ") {
			return s
		}
		return use.ReplaceAllStringFunc(s, func(w string) string {
			m := use.FindStringSubmatch(w)
			v, ok := to[m[2]]
			if !ok {
				return w
			}
			return m[1] + v + m[3]
		})
	}
}

var pyOSUseRE = lazyregexp.New(`(^|[^\w.])([A-Za-z_]\w*)(\s*[.(\[])`)

// strConsts are the names a file (Go, Python or JS) sets once to a
// string literal: `os.Setenv(skipVar, "1")` with `const skipVar =
// "GREET_SKIP"` sets GREET_SKIP.
func strConsts(src []byte) map[string]string {
	if !strings.Contains(string(src), "env") && !strings.Contains(string(src), "Env") {
		return nil
	}
	out := map[string]string{}
	for _, k := range []string{"go", "py", "js"} {
		for n, v := range fileConsts(k, src) {
			if strings.HasPrefix(v, `"`) || strings.HasPrefix(v, "'") {
				out[n] = v
			}
		}
	}
	return out
}
