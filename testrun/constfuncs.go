package testrun

import (
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// A skip behind a call of a helper that takes no argument and always
// returns the same literal (`func dbMissing() bool { return true }`,
// `def no_db(): return True`) is a skip no condition guards; the rule read
// such a call as unknown, a guard, so a new test skipped that way passed
// the QA gate and, once verify judged skips by this rule, CI too (round
// 19). The call reads as the literal it returns.

var constFuncREs = [2]*lazyregexp.Regexp{
	// a header with the body on its line, or alone: Go, Python, JS
	lazyregexp.New(`^\s*(?:func\s+(\w+)\(\)\s*bool\s*\{\s*(?:return\s+(true|false)\s*\}\s*)?|(?:async\s+)?def\s+(\w+)\(\)\s*(?:->\s*bool\s*)?:\s*(?:return\s+(True|False|[01])\s*)?|function\s+(\w+)\(\)\s*\{\s*(?:return\s+(true|false|[01]);?\s*\}\s*)?|(?:const|let|var)\s+(\w+)\s*=\s*\(\)\s*=>\s*(true|false|[01]);?)$`),
	lazyregexp.New(`^\s*return\s+(true|false|True|False|[01]);?\s*$`),
}

// constFuncs are the functions of src (a test file of kind k, or a source
// file) taking no argument whose body is a single return of a literal, as
// "name()" to the literal; a name defined twice is left out.
func constFuncs(k string, src []byte) map[string]string {
	if k == "conftest" {
		k = "py"
	}
	if k != "go" && k != "py" && k != "js" || !strings.Contains(string(src), "return") && !strings.Contains(string(src), "=>") {
		return nil
	}
	lines := strings.Split(string(src), "\n")
	out, seen := map[string]string{}, map[string]int{}
	for _, l := range lines {
		if m := defRE.FindStringSubmatch(l); m != nil {
			seen[m[1]+m[2]+m[3]+m[4]]++
		}
	}
	for i, l := range lines {
		m := constFuncREs[0].FindStringSubmatch(l)
		if m == nil {
			continue
		}
		name, lit := "", ""
		for j := 1; j+1 < len(m); j += 2 {
			if m[j] != "" {
				name, lit = m[j], m[j+1]
			}
		}
		if name == "" {
			continue
		}
		if lit == "" {
			var stmts []string
			for _, b := range bodyLines(k, lines, i)[1:] {
				if t := strings.TrimSpace(b); t != "" && t != "}" && !strings.HasPrefix(t, "//") && !strings.HasPrefix(t, "#") {
					stmts = append(stmts, b)
				}
			}
			if len(stmts) != 1 {
				continue
			}
			r := constFuncREs[1].FindStringSubmatch(stmts[0])
			if r == nil {
				continue
			}
			lit = r[1]
		}
		out[name+"()"] = lit
	}
	for n := range seen {
		if seen[n] > 1 {
			delete(out, n+"()")
		}
	}
	return out
}
