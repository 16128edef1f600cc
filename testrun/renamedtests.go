package testrun

import "strings"

// A skip in a new test is judged leniently (a new test may need a
// database the run lacks); renaming a test made it new: `if
// os.Getenv("DB_URL") == "" { t.Skip() }` added to TestAdd in one commit
// and TestAdd renamed TestAddition in the next passed the QA gate and
// verify (round 19), the removal read as a test moved under a new name.
// A test under a new name whose body holds the body of a test the file
// had at the start and no longer has is that test, renamed: it ran at
// the start.

// renamedTests are the header lines (indexes into lines) of tests with
// a name the file did not have at the start whose body holds most of the
// body of a test gone from the file.
func renamedTests(k string, wasLines, lines []string, oldKeys map[string]bool, nowKeys map[int]string) map[int]bool {
	if len(oldKeys) == 0 {
		return nil
	}
	nowNames := map[string]bool{}
	for _, key := range nowKeys {
		nowNames[key] = true
	}
	var gone [][]string // bodies of the tests gone, as trimmed lines
	for i, key := range testKeys(k, wasLines) {
		if !nowNames[key] {
			if b := bodySet(k, wasLines, i); len(b) > 0 {
				gone = append(gone, b)
			}
		}
	}
	if len(gone) == 0 {
		return nil
	}
	out := map[int]bool{}
	for i, key := range nowKeys {
		if oldKeys[key] {
			continue
		}
		have := map[string]bool{}
		for _, l := range bodySet(k, lines, i) {
			have[l] = true
		}
		for _, g := range gone {
			n := 0
			for _, l := range g {
				if have[l] {
					n++
				}
			}
			if 2*n >= len(g)+1 && n > 0 { // more than half of its lines
				out[i] = true
				break
			}
		}
	}
	return out
}

// bodySet is the trimmed lines of the body of the test whose header is
// lines[i], less blank lines, braces and comments.
func bodySet(k string, lines []string, i int) []string {
	kk := k
	if kk == "conftest" {
		kk = "py"
	}
	var out []string
	for _, l := range bodyLines(kk, lines, i)[1:] {
		t := strings.TrimSpace(l)
		switch {
		case t == "", t == "}", t == "})", t == "});", strings.HasPrefix(t, "//"), strings.HasPrefix(t, "#"):
			continue
		}
		out = append(out, t)
	}
	return out
}

// marksRenamed: lines[i] is a Python decorator on a test renamedTests
// found (the decorator is read before its test's header).
func marksRenamed(k string, lines []string, i int, renamed map[int]bool) bool {
	if len(renamed) == 0 || k != "py" && k != "conftest" || !strings.HasPrefix(strings.TrimSpace(lines[i]), "@") {
		return false
	}
	for j := i + 1; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if t == "" || strings.HasPrefix(t, "@") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, ")") || !strings.HasPrefix(t, "def ") && !strings.HasPrefix(t, "async def ") && !strings.HasPrefix(t, "class ") && indentOf(lines[j]) != indentOf(lines[i]) {
			continue // blank, another decorator, or a decorator's continued arguments
		}
		return renamed[j]
	}
	return false
}
