package testrun

import (
	"regexp"
	"strings"
	"sync"
)

// A test that ran at the start is told from a new one by its name, not by
// its header line's text (issue 25 round 18, E0): `func TestGreet(t
// *testing.T)  { // x`, or a parameter renamed, made the header new, so
// the new-test leniency let an env-guarded return into a test that ran
// before. The key is what the runner calls the test: Go's function name,
// Python's def name inside its class, a JS test's title.

var testKeyREs = sync.OnceValue(func() (r struct{ goName, pyDef, pyClass, jsTitle *regexp.Regexp }) {
	r.goName = regexp.MustCompile(`^func\s+(\w+)\s*\(`)
	r.pyDef = regexp.MustCompile(`^(\s*)(?:async\s+)?def\s+(\w+)\s*\(`)
	r.pyClass = regexp.MustCompile(`^(\s*)class\s+(\w+)\b`)
	r.jsTitle = regexp.MustCompile(`^\s*(?:it|test)(?:\.(?:concurrent|failing|sequential))?\s*\(\s*(?:'([^']*)'|"([^"]*)"|` + "`([^`]*)`" + `)`)
	return r
})

// testKeys maps the index of each line of lines (a test file of kind k)
// that opens a test, as skipsIn finds them, to the test's key (no entry
// when its name cannot be read: the header's text is used then).
func testKeys(k string, lines []string) map[int]string {
	r := testKeyREs()
	out := map[int]string{}
	type class struct {
		indent int
		name   string
	}
	var classes []class // the enclosing Python classes, outermost first
	for i, l := range lines {
		if k == "py" || k == "conftest" {
			t := strings.TrimSpace(l)
			ind := len(l) - len(strings.TrimLeft(l, " \t"))
			if t != "" && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "@") && !strings.HasPrefix(t, ")") {
				for len(classes) > 0 && classes[len(classes)-1].indent >= ind {
					classes = classes[:len(classes)-1]
				}
			}
			if m := r.pyClass.FindStringSubmatch(l); m != nil {
				classes = append(classes, class{len(m[1]), m[2]})
				continue
			}
		}
		if !testFuncRE().MatchString(l) && !(k == "js" && jsTestHeader(l)) {
			continue
		}
		switch k {
		case "go":
			if m := r.goName.FindStringSubmatch(l); m != nil {
				out[i] = m[1]
			}
		case "py", "conftest":
			if m := r.pyDef.FindStringSubmatch(l); m != nil {
				key := m[2]
				for j := len(classes) - 1; j >= 0; j-- {
					key = classes[j].name + "." + key
				}
				out[i] = key
			}
		case "js":
			if m := r.jsTitle.FindStringSubmatch(l); m != nil {
				out[i] = "it " + m[1] + m[2] + m[3]
			}
		}
	}
	return out
}
