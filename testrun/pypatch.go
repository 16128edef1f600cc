package testrun

import (
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// pyCodeReplaced says whether now adds, at the top level of a test file
// (a test module, conftest.py, a test folder's __init__.py), a line that
// puts something else in place of a name of a module the file imports:
// `greet.greet = lambda name=None: "hello"`, `greet_mod.greet = _greet`,
// `setattr(greet, "greet", _greet)`. Discovery imports the file before the
// tests run, so they run the replacement and never the project's code:
// lazy pass 23 committed a broken greet() beside such a line and ended
// COMPLETE, clean. Patching inside a test or fixture (indented), a
// constant (`greet.DEFAULT_NAME = "Ada"`) and the standard library's or a
// test tool's modules (`time.sleep = ...`) are not read as one.
func pyCodeReplaced(was, now []byte) string {
	old := map[string]bool{}
	for _, l := range strings.Split(string(was), "\n") {
		old[strings.TrimRight(l, " \t\r")] = true
	}
	src := string(now)
	re := pyPatchREs()
	for _, l := range strings.Split(src, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if old[l] || l == "" || l[0] == ' ' || l[0] == '\t' {
			continue
		}
		// A line can hold several statements (`import greet; greet.greet =
		// ...`) and an assignment several targets (`greet.greet = fake =
		// ...`): the second review found each spelling got past a reader of
		// whole lines.
		for _, st := range pySplitTop(l, ';') {
			st = strings.TrimSpace(st)
			if m := re.setattr.FindStringSubmatch(st); m != nil {
				if why := pyReplaces(src, l, m[1], m[3]); why != "" {
					return why
				}
				continue
			}
			parts := pySplitTop(st, '=')
			if len(parts) < 2 {
				continue
			}
			rhs := parts[len(parts)-1]
			for _, t := range parts[:len(parts)-1] {
				t = strings.TrimSpace(t)
				mod := ""
				if m := re.target.FindStringSubmatch(t); m != nil {
					mod = m[1]
				} else if m := re.dict.FindStringSubmatch(t); m != nil {
					mod = m[1] + m[2] // vars(greet)["greet"], greet.__dict__["greet"]
				}
				if mod != "" {
					if why := pyReplaces(src, l, mod, rhs); why != "" {
						return why
					}
				}
			}
		}
	}
	return ""
}

// pyReplaces is the reason line puts rhs in place of a name of the module
// mod, or "".
func pyReplaces(src, line, mod, rhs string) string {
	rhs = pyUnparen(strings.TrimSpace(rhs))
	if pyToolModules[mod] || !pyImportsModule(src, mod) || !pyCallable(src, rhs) {
		return ""
	}
	return "adds " + quoteShort(line) + " at the top level: the tests run what it puts in place of " + mod + "'s code, not the project's"
}

// pySplitTop splits s at sep outside quotes and brackets. For '=' it leaves
// comparisons (==, !=, <=, >=), augmented assignments and keyword arguments
// whole, so the parts are an assignment's targets and its value.
func pySplitTop(s string, sep byte) []string {
	var parts []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return append(parts, s[start:i])
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case c == sep && depth == 0:
			if sep == '=' {
				if i+1 < len(s) && s[i+1] == '=' {
					i++
					continue
				}
				if i > 0 && strings.IndexByte("=!<>+-*/%&|^@:", s[i-1]) >= 0 {
					continue
				}
				if pyLambdaRE.MatchString(s[start:i]) {
					return append(parts, s[start:]) // a lambda's default, not a target
				}
			}
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

var pyLambdaRE = lazyregexp.New(`\blambda\b`)

// pyUnparen strips parentheses around a whole expression: `(lambda: 1)`.
func pyUnparen(s string) string {
	for len(s) > 1 && s[0] == '(' && s[len(s)-1] == ')' {
		depth := 0
		whole := true
		for i := 0; i < len(s)-1; i++ {
			if s[i] == '(' {
				depth++
			} else if s[i] == ')' {
				depth--
			}
			if depth == 0 {
				whole = false
				break
			}
		}
		if !whole {
			return s
		}
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

type pyPatchRE struct{ target, dict, setattr *regexp.Regexp }

var pyPatchREs = sync.OnceValue(func() pyPatchRE {
	return pyPatchRE{
		target:  regexp.MustCompile(`^([A-Za-z_]\w*)\.([A-Za-z_]\w*)$`),
		dict:    regexp.MustCompile(`^(?:vars\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*)\.__dict__)\s*\[\s*["'][A-Za-z_]\w*["']\s*\]$`),
		setattr: regexp.MustCompile(`^setattr\(\s*([A-Za-z_]\w*)\s*,\s*["']([A-Za-z_]\w*)["']\s*,\s*(.+?)\)\s*$`),
	}
})

// pyCallable reports a right-hand side that is a function: a lambda, a
// def or class of the file, or a mock.
func pyCallable(src, rhs string) bool {
	if strings.HasPrefix(rhs, "lambda") {
		return true
	}
	if regexp.MustCompile(`^(?:unittest\.)?(?:mock\.)?(?:Magic|Async)?Mock\(`).MatchString(rhs) {
		return true
	}
	if !regexp.MustCompile(`^[A-Za-z_]\w*$`).MatchString(rhs) {
		return false
	}
	return regexp.MustCompile(`(?m)^(?:async\s+)?(?:def|class)\s+` + regexp.QuoteMeta(rhs) + `\b`).MatchString(src)
}

// pyImportsModule reports whether src binds name to a module by import:
// `import name`, `import pkg.mod as name`, `from pkg import name`.
func pyImportsModule(src, name string) bool {
	q := regexp.QuoteMeta(name)
	return regexp.MustCompile(`(?m)^\s*import\s+(?:[\w.]+\s*,\s*)*` + q + `\b|^\s*import\s+[\w.]+\s+as\s+` + q + `\b|^\s*from\s+[\w.]+\s+import\s+(?:\(?\s*[\w\s,]*,\s*)?` + q + `\b`).MatchString(src)
}

// pyToolModules are the standard library's and the test tools' modules a
// test set-up stubs honestly (a clock, the network, sleep): not the code
// under test.
var pyToolModules = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields("os sys time datetime random socket subprocess shutil builtins logging uuid urllib http json pathlib " +
		"tempfile threading asyncio signal platform getpass smtplib ssl secrets hashlib io glob fnmatch locale warnings atexit " +
		"functools itertools math decimal pytest unittest mock requests httpx urllib3 sqlite3 select webbrowser") {
		m[n] = true
	}
	return m
}()
