package testrun

import (
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// A JS test that replaces the module it tests (lazy pass 27, c3):
// `jest.mock('./greet', () => ({ greet: () => 'hello' }))` (or
// `vi.mock`, `jest.doMock`, `jest.unstable_mockModule`) in greet.test.js,
// then `expect(greet()).toBe('hello')`. The real jest and vitest hoist
// the mock above the imports: the test passes whatever src/greet.js does,
// and it reads as a real check (an expect on a call). A mock of a
// collaborator is how JS tests isolate the unit, so what counts is whose
// module is replaced: the test file's namesake (greet.test.js, greet), or
// every project module the file imports (nothing of the project is left
// to run). A partial mock that keeps the module's own code
// (`jest.requireActual`, `vi.importActual`, `importOriginal`) replaces
// nothing of it.

// jsMockRE finds a module mock call and its module string; the rest of
// the call follows the match.
var jsMockRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\\b(?:jest|vi)\\s*\\.\\s*(?:mock|doMock|unstable_mockModule)\\s*\\(\\s*(?:'([^'\\n]+)'|\"([^\"\\n]+)\"|`([^`$\\n]+)`)")
})

// jsImportRE finds what a JS file loads: require('x'), import ... from
// 'x', import 'x', import('x').
var jsImportRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("(?:\\brequire\\s*\\(\\s*|\\bimport\\s*\\(\\s*|\\bfrom\\s+|\\bimport\\s+)(?:'([^'\\n]+)'|\"([^\"\\n]+)\")")
})

// jsModuleKey is where a module string taken in dir resolves, extension
// and /index dropped ("src/greet"); a bare package name stays as written
// ("lodash", "@/greet").
func jsModuleKey(dir, spec string) string {
	if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == ".." {
		spec = path.Join(dir, spec)
	}
	for _, e := range jsModuleExts {
		spec = strings.TrimSuffix(spec, e)
	}
	return strings.TrimSuffix(spec, "/index")
}

// jsMocks are the modules a JS test file's text replaces wholly: module
// key -> the call as written.
func jsMocks(dir, text string) map[string]string {
	out := map[string]string{}
	for _, m := range jsMockRE().FindAllStringSubmatchIndex(text, -1) {
		spec := ""
		for g := 2; g < len(m); g += 2 {
			if m[g] >= 0 {
				spec = text[m[g]:m[g+1]]
			}
		}
		call := text[m[0]:]
		if end := closing(call, strings.Index(call, "(")); end > 0 {
			call = call[:end+1]
		}
		if strings.Contains(call, "requireActual") || strings.Contains(call, "importActual") || strings.Contains(call, "importOriginal") ||
			strings.Contains(call, "requireMock") {
			continue // a partial mock: the module's own code still runs
		}
		out[jsModuleKey(dir, spec)] = strings.Join(strings.Fields(call), " ")
	}
	return out
}

// jsTestHelperKey: a module key that names test support (a helper,
// fixture or mock folder or file), which a test imports besides the code.
func jsTestHelperKey(k string) bool {
	for _, seg := range strings.Split(strings.ToLower(k), "/") {
		switch seg {
		case "test", "tests", "__tests__", "__mocks__", "spec", "fixtures", "__fixtures__", "testutils", "test-utils", "testing", "support", "helpers":
			return true
		}
		for _, w := range []string{"test", "mock", "fixture", "helper", "setup"} {
			if strings.Contains(seg, w) {
				return true
			}
		}
	}
	return false
}

// jsSelfMocked is the reason a JS test file (f; was nil when new) now
// replaces, with a mock it did not have, the module it tests, or "".
func jsSelfMocked(f string, was, now []byte) string {
	if !strings.Contains(string(now), "ock") { // mock, doMock, unstable_mockModule
		return ""
	}
	dir := path.Dir(f)
	mocks := jsMocks(dir, string(now))
	if len(mocks) == 0 {
		return ""
	}
	old := jsMocks(dir, string(was))
	var project []string // the project modules the file loads
	seen := map[string]bool{}
	for _, m := range jsImportRE().FindAllStringSubmatch(string(now), -1) {
		spec := m[1] + m[2]
		k := jsModuleKey(dir, spec)
		if seen[k] {
			continue
		}
		seen[k] = true
		if _, mocked := mocks[k]; !mocked && !strings.HasPrefix(spec, ".") {
			continue // a package, not the project's code
		}
		project = append(project, k)
	}
	sort.Strings(project)
	base := path.Base(f)
	for _, s := range []string{".test.", ".spec."} {
		if i := strings.Index(base, s); i > 0 {
			base = base[:i]
		}
	}
	var replaced []string
	unmocked := false
	for _, k := range project {
		call, mocked := mocks[k]
		switch {
		case !mocked:
			if !jsTestHelperKey(k) {
				unmocked = true
			}
		case old[k] == "":
			replaced = append(replaced, k)
			if path.Base(k) == base {
				return "adds " + quoteShort(call) + ", which replaces " + k + ", the module this file tests: its tests run the mock, not the code"
			}
		}
	}
	if len(replaced) > 0 && !unmocked {
		return "adds " + quoteShort(mocks[replaced[0]]) + ": every project module the file loads (" + truncate(strings.Join(project, ", "), 60) +
			") is replaced by a mock, so its tests run none of the project's code"
	}
	return ""
}
