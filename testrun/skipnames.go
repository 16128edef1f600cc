package testrun

import (
	"regexp"
	"strings"
	"sync"
)

// Skips behind a name (issue 25 item 5, routes left open): a condition
// that is a constant the file sets once (`const skip = true; if skip {
// t.Skip() }`, `SKIP = True`), a helper whose body skips with no condition
// (`skipAlways(t)`, defined in a file the test does not live in), and
// pytest's markers through an import alias (`from pytest import mark;
// @mark.skip`, `import pytest as pt`) read as what they name.

var nameREs = sync.OnceValue(func() (r struct {
	goConst, pyConst, jsConst, assign, pyFromPytest, pyImportAs, pyFromUnittest, call *regexp.Regexp
}) {
	lit := `(true|false|True|False|-?\d+|"[^"]*"|'[^']*')`
	r.goConst = regexp.MustCompile(`^\s*(?:const|var)?\s*(\w+)\s*(?:bool\s*)?(?::=|=)\s*` + lit + `\s*(?://.*)?$`)
	r.pyConst = regexp.MustCompile(`^\s*(\w+)\s*(?::\s*\w+\s*)?=\s*` + lit + `\s*(?:#.*)?$`)
	r.jsConst = regexp.MustCompile(`^\s*(?:export\s+)?(?:const|let|var)\s+(\w+)\s*=\s*` + lit + `\s*;?\s*(?://.*)?$`)
	// Any assignment to a name (a constant set twice is a variable).
	r.assign = regexp.MustCompile(`(?m)^\s*(?:(?:const|var|let)\s+)?(\w+)\s*(?::\s*\w+\s*)?(?::=|[-+*/|&]?=)[^=]`)
	r.pyFromPytest = regexp.MustCompile(`^\s*from\s+pytest\s+import\s+(.+)$`)
	r.pyImportAs = regexp.MustCompile(`^\s*import\s+pytest\s+as\s+(\w+)`)
	r.pyFromUnittest = regexp.MustCompile(`^\s*from\s+unittest\s+import\s+(.+)$`)
	r.call = regexp.MustCompile(`(?:^|[^\w.])(?:\w+\.)?(\w+)\s*\(`)
	return r
})

// fileConsts are the names a test file sets once, to a literal.
func fileConsts(k string, src []byte) map[string]string {
	r := nameREs()
	re := map[string]*regexp.Regexp{"go": r.goConst, "py": r.pyConst, "conftest": r.pyConst, "js": r.jsConst}[k]
	if re == nil {
		return nil
	}
	sets := map[string]int{}
	for _, m := range r.assign.FindAllStringSubmatch(string(src), -1) {
		sets[m[1]]++
	}
	out := map[string]string{}
	for _, l := range strings.Split(string(src), "\n") {
		if m := re.FindStringSubmatch(l); m != nil && sets[m[1]] == 1 {
			out[m[1]] = m[2]
		}
	}
	return out
}

// withConsts replaces the file's constants in condition c by their values.
func withConsts(c string, consts map[string]string) string {
	if len(consts) == 0 {
		return c
	}
	return identRE().ReplaceAllStringFunc(c, func(w string) string {
		if v, ok := consts[w]; ok {
			return v
		}
		return w
	})
}

// pyAliases rewrites a line's pytest and unittest names imported under
// another name to their full names (`mark.skip` -> `pytest.mark.skip`).
func pyAliases(src []byte) func(string) string {
	r := nameREs()
	var pairs []string
	for _, l := range strings.Split(string(src), "\n") {
		if m := r.pyImportAs.FindStringSubmatch(l); m != nil {
			pairs = append(pairs, m[1]+".", "pytest.")
		}
		for _, x := range []struct {
			re  *regexp.Regexp
			mod string
		}{{r.pyFromPytest, "pytest"}, {r.pyFromUnittest, "unittest"}} {
			m := x.re.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			for _, part := range strings.Split(strings.Trim(m[1], "() "), ",") {
				f := strings.Fields(part)
				if len(f) == 0 {
					continue
				}
				as := f[0]
				if len(f) == 3 && f[1] == "as" {
					as = f[2]
				}
				if x.mod == "pytest" && f[0] == "mark" {
					pairs = append(pairs, as+".", "pytest.mark.")
				} else if strings.HasPrefix(f[0], "skip") || f[0] == "xfail" || f[0] == "expectedFailure" {
					pairs = append(pairs, as+"(", x.mod+"."+f[0]+"(", "@"+as, "@"+x.mod+"."+f[0])
				}
			}
		}
	}
	if len(pairs) == 0 {
		return func(s string) string { return s }
	}
	var res []*regexp.Regexp
	var to []string
	for i := 0; i < len(pairs); i += 2 {
		from := pairs[i]
		pre := `(^|[^\w.])`
		if strings.HasPrefix(from, "@") {
			pre = `(^|\s)`
		}
		res = append(res, regexp.MustCompile(pre+regexp.QuoteMeta(from)+`\b?`))
		to = append(to, pairs[i+1])
	}
	return func(s string) string {
		for i, re := range res {
			s = re.ReplaceAllString(s, "${1}"+to[i])
		}
		return s
	}
}

// skipHelpers are the functions of a file (kind k: "go" or "py") whose
// body skips with no condition.
func skipHelpers(k string, src []byte) map[string]bool {
	out := map[string]bool{}
	var head *regexp.Regexp
	switch k {
	case "go":
		head = unitREs().goHelper
	case "py", "conftest":
		head = unitREs().pyHelper
		k = "py"
	default:
		return out
	}
	lines := strings.Split(string(src), "\n")
	consts := fileConsts(k, src)
	for i, l := range lines {
		m := head.FindStringSubmatch(l)
		if m == nil || strings.HasPrefix(m[1], "Test") || strings.HasPrefix(m[1], "test") {
			continue
		}
		body := bodyLines(k, lines, i)
		prev := body[0]
		for _, b := range body[1:] {
			t := strings.TrimSpace(b)
			if t == "" {
				continue
			}
			if s := addedSkip(k, b, lineAt{prev: prev, consts: consts}); s == "a skip no condition guards" {
				out[m[1]] = true
				break
			}
			prev = b
		}
	}
	return out
}

// helperSkip names a helper the line calls that skips with no
// condition, "" for none.
func helperSkip(line string, helpers map[string]bool) string {
	if len(helpers) == 0 {
		return ""
	}
	for _, m := range nameREs().call.FindAllStringSubmatch(stripStrings(line), -1) {
		if helpers[m[1]] {
			return m[1]
		}
	}
	return ""
}
