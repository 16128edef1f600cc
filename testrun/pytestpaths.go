package testrun

import (
	"path"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// A pytest config's `testpaths = tests` made `testpaths = tests docs`
// collects more, not less, yet the line compare read the changed line as
// removed and the new one as "it sets which tests run" (round 30, c10:
// verify's whole-file rule for pytest.ini gave way to ConfigChange, and
// a new testpaths entry was a false block at both ends). A testpaths line
// replaced by one that keeps every entry it had is paired off; narrowed
// (an entry dropped or made narrower) it is compared as before.

var testpathsRE = lazyregexp.New(`^\s*testpaths\s*=\s*(.*)$`)

// pytestConfigFile: what names a pytest config (pytest.ini, tox.ini,
// setup.cfg, pyproject.toml), perhaps as "tox.ini's pytest section".
func pytestConfigFile(what string) bool {
	name, _, _ := strings.Cut(what, "'s ")
	switch path.Base(name) {
	case "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml":
		return true
	}
	return false
}

// testpathsEntries are the entries of a one-line testpaths value
// (ini: words; TOML: a list of quoted strings); ok is false for a value
// the line does not close (a TOML list over lines, an ini value on the
// lines below: their entries are lines of their own).
func testpathsEntries(line string) (entries []string, ok bool) {
	m := testpathsRE.Regexp().FindStringSubmatch(line)
	if m == nil {
		return nil, false
	}
	v := strings.TrimSpace(m[1])
	if v == "" || strings.HasPrefix(v, "[") && !strings.HasSuffix(v, "]") {
		return nil, false
	}
	v = strings.Trim(v, "[]")
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		entries = append(entries, strings.Trim(f, `"'`))
	}
	return entries, len(entries) > 0
}

// pairGrownTestpaths drops from removed each testpaths line that an
// added one answers with every entry it had (and more); used marks those
// added lines, which leave the compare too; grown lists the entries so
// added.
func pairGrownTestpaths(removed, added []string) (r []string, used []bool, grown []string) {
	used = make([]bool, len(added))
	for _, old := range removed {
		was, ok := testpathsEntries(old)
		paired := false
		for j, l := range added {
			if !ok || used[j] {
				continue
			}
			now, okNow := testpathsEntries(l)
			if !okNow || slices.ContainsFunc(was, func(e string) bool { return !slices.Contains(now, e) }) {
				continue
			}
			used[j], paired = true, true
			for _, e := range now {
				if !slices.Contains(was, e) {
					grown = append(grown, e)
				}
			}
			break
		}
		if !paired {
			r = append(r, old)
		}
	}
	return r, used, grown
}
