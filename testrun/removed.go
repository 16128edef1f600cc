package testrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// Tests the session removed do not fail (issue 25 route 2): a failing
// test file deleted, renamed so the runner no longer collects it
// (test_x.py -> x_test_disabled.py, a_test.go -> a_test.go.off), or a test
// function renamed so the runner skips it (TestFoo -> testFoo, test_x ->
// _test_x) leaves the same command passing on fewer tests. A test file
// moved to another collected name, a test renamed to another test name,
// and a test file deleted with the code it tested (its source file, or
// every source file of its folder) are honest. A test function deleted
// from a file that stays counts the same way (issue 25: it got through):
// honest when it moved under a new name (its calls on the code and the
// values it compares with reappear in a checking test of a changed,
// collected file: tests consolidated into a table) or when code it calls
// was deleted; its checks gone while the code stays is a weakening. A
// test renamed while the code it calls changed may compare with new
// values, as it may under its old name.

var testNameREs = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		// Any function that looks like a test, collected or not: the
		// collected ones are told apart by collected().
		"go": regexp.MustCompile(`(?m)^func\s+(\w*[Tt]est\w*)\s*\(\s*\w+\s+\*testing\.[TBF]\s*\)`),
		"py": regexp.MustCompile(`(?m)^\s*(?:async\s+)?def\s+(\w*test\w*)\s*\(`),
		"js": regexp.MustCompile(`(?m)\b((?:x|f)?(?:it|test))(?:\.\w+)?\s*\(\s*['"\x60]([^'"\x60]+)['"\x60]`),
	}
})

// testNames lists the tests of a file of kind k: the name of each
// function, or for JS "it NAME"; uncollected is those the runner skips.
func testNames(k string, b []byte) (collected, uncollected []string) {
	if k == "conftest" {
		return nil, nil
	}
	re := testNameREs()[k]
	for _, m := range re.FindAllStringSubmatch(string(b), -1) {
		name, ok := m[1], false
		switch k {
		case "go":
			// go test runs TestX where X does not start with a lower-case letter.
			rest, has := strings.CutPrefix(name, "Test")
			ok = has && (rest == "" || !(rest[0] >= 'a' && rest[0] <= 'z'))
		case "py":
			ok = strings.HasPrefix(name, "test")
		case "js":
			ok = m[1] == "it" || m[1] == "test"
			name = m[2]
		}
		if ok {
			collected = append(collected, name)
		} else {
			uncollected = append(uncollected, name)
		}
	}
	return collected, uncollected
}

// TestsRemoved lists the tests the session's change (work tree against
// the start commit) stopped the runner from running, as "file: why".
func TestsRemoved(ctx context.Context, repo Repo, start string) ([]string, error) {
	if start == "" {
		return nil, nil
	}
	changed, err := repo.ChangedFiles(ctx, start)
	if err != nil {
		return nil, fmt.Errorf("list the files changed since the start: %w", err)
	}
	return testsRemoved(ctx, repo, start, changed)
}

func testsRemoved(ctx context.Context, repo Repo, start string, changed []string) ([]string, error) {
	type file struct {
		path, kind string
		was, now   []byte
	}
	var files []file
	nowNames := map[string]map[string]bool{} // kind -> collected test names now
	deleted := map[string]bool{}             // base names of the files deleted
	pool := map[string]*checkPool{}          // kind -> what the changed test files check now
	gone := map[string]map[string]bool{}     // kind -> names the session's change stopped defining
	defined := map[string]map[string]bool{}  // kind -> names changed source files define now
	gonePaths := map[string]bool{}           // their paths
	rn := newRenames()                       // to tell deleted code from renamed code
	for _, f := range changed {
		now, err := readWork(repo.Root(), f)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("read %s: %w", f, err)
		}
		if now == nil {
			deleted[path.Base(f)] = true
			gonePaths[f] = true
		}
		k := FileKind(f)
		if k == "go" && now != nil && !GoCollects(f, now) {
			now = nil // go test does not build it here: its tests do not run
		}
		if k == "" {
			if sk := sourceKind(f); sk != "" && !SkippedDir(f) {
				if err := definitionsGone(ctx, repo, start, f, sk, now, gone, defined, rn); err != nil {
					return nil, err
				}
			}
			continue
		}
		if k == "conftest" {
			continue // only a test file's tests are counted here
		}
		if now != nil {
			c, _ := testNames(k, now)
			if nowNames[k] == nil {
				nowNames[k] = map[string]bool{}
				pool[k] = newCheckPool()
			}
			for _, n := range c {
				nowNames[k][n] = true
			}
			pool[k].add(k, now)
		}
		existed, err := repo.ExistsAt(ctx, start, f)
		if err != nil {
			return nil, fmt.Errorf("look up %s at the start commit: %w", f, err)
		}
		if !existed {
			continue
		}
		was, err := repo.ReadAt(ctx, start, f)
		if err != nil {
			return nil, fmt.Errorf("read %s at the start commit: %w", f, err)
		}
		files = append(files, file{f, k, was, now})
	}
	for k, ns := range defined {
		for n := range ns {
			delete(gone[k], n) // moved to another file
		}
	}
	for k, ns := range gone {
		for n := range ns {
			if rn.renamed(k, n) {
				delete(ns, n) // renamed: its body is defined under another name
			}
		}
	}
	// A deleted source file whose names all survive (moved, renamed) or
	// whose content reappears in a changed file was moved, not deleted.
	for f, ns := range rn.files {
		k := sourceKind(f)
		if !slices.ContainsFunc(ns, func(n string) bool { return gone[k][n] }) {
			delete(deleted, path.Base(f))
		}
	}
	// moved: a test gone from its file whose checks run elsewhere (its
	// calls and expected values reappear in a checking test of a changed,
	// collected file: consolidated under a new name), or whose code went.
	moved := func(k, body string, sc *scope) bool {
		cs := callees(k, body)
		p := pool[k]
		for c := range cs {
			if !gone[k][c] {
				continue
			}
			// It tested code the change deleted, and with it any code
			// the change edited, which a checking test must still call
			// (issue 25's review: Encode broken, Decode deleted, and
			// TestRoundTrip went with Decode).
			for o := range cs {
				if rn.edited[k][o] && (p == nil || !p.callees[o]) {
					return false
				}
			}
			return true
		}
		if p == nil {
			return false
		}
		if p.carries(k, body, sc, true) {
			return true
		}
		// Renamed while the code it calls changed: its expected values may
		// change with the code, as they may under the same name; its
		// checks may not weaken (issue 25: `!=` to `>=` under a new name).
		touched := false
		for c := range cs {
			touched = touched || defined[k][c]
		}
		return touched && p.carries(k, body, sc, false)
	}
	var out []string
	for _, f := range files {
		was, _ := testNames(f.kind, f.was)
		bodies := testBodies(f.kind, f.was)
		sc := fileScope(f.kind, f.was)
		if f.now == nil {
			// Deleted (or renamed away): its tests must run from another
			// collected file, unless the code they tested went too.
			var lost []string
			for _, n := range was {
				if !nowNames[f.kind][n] && !moved(f.kind, bodies[n], sc) {
					lost = append(lost, n)
				}
			}
			if len(lost) > 0 && !testedCodeGone(repo.Root(), f.path, f.kind, deleted, gonePaths) && !testedFuncsGone(ctx, repo, start, changed, f.path, f.kind, lost) {
				out = append(out, fmt.Sprintf("%s: deleted or renamed so the runner no longer collects it (its tests %s run from no other test file, and their checks appear in no other), and the code it tested is still here", f.path, truncate(strings.Join(lost, ", "), 60)))
			}
			continue
		}
		// Kept: a test renamed to a name the runner skips, or deleted
		// from it while the code it tested stays.
		now, off := testNames(f.kind, f.now)
		for _, n := range was {
			if slices.Contains(now, n) || nowNames[f.kind][n] {
				continue
			}
			renamed := false
			for _, o := range off {
				if strings.Contains(strings.ToLower(o), strings.ToLower(n)) {
					out = append(out, fmt.Sprintf("%s: renames the test %s to %s, which the runner does not run", f.path, n, o))
					renamed = true
					break
				}
			}
			if !renamed && !moved(f.kind, bodies[n], sc) {
				out = append(out, fmt.Sprintf("%s: deletes the test %s while the code it tested stays (its calls and expected values appear in no checking test of a collected file)", f.path, n))
			}
		}
	}
	return out, nil
}

// DeletedTestMoved reports whether the test name of a test file of kind k
// (was: the file's content before) still has its checks in one of now
// (test files' contents after): its calls on the code and the values it
// compares with appear in a test there that checks something. For
// readers of a commit range, such as verify's rerun guard, which see
// blobs rather than a work tree.
func DeletedTestMoved(k string, was []byte, name string, now [][]byte) bool {
	body, ok := testBodies(k, was)[name]
	if !ok {
		return false
	}
	p := newCheckPool()
	for _, b := range now {
		p.add(k, b)
	}
	return p.carries(k, body, fileScope(k, was), true)
}

// carries: each check of body (a unit: the assertion and what flows
// into it, checkunits.go) that calls the code has a check in the pool
// that calls the same code, compares with the same values (values: with
// any values, for a test renamed while its code changed) and compares
// for equality if it did. A body that calls nothing carries nothing: its
// numbers alone (`if 2-1 != 1`) are in almost any other test. sc is the
// scope of the file body was in.
func (p *checkPool) carries(k, body string, sc *scope, values bool) bool {
	var olds []unit
	for _, u := range checkUnits(k, body, sc) {
		if len(u.callees) > 0 {
			olds = append(olds, u)
		}
	}
	if len(olds) == 0 {
		// No check of body reads a call (the code runs inside a `with
		// self.assertWarns(...)` block, or the test fails only by raising):
		// its calls on the code and its values must run in the pool's tests.
		cs := callees(k, body)
		if len(cs) == 0 || !subset(cs, p.bodyCallees) {
			return false
		}
		return !values || subset(checkLiterals(body), p.bodyLits)
	}
	for _, o := range olds {
		if !slices.ContainsFunc(p.units, func(n unit) bool {
			return subset(o.callees, n.callees) && (!values || subset(o.lits, n.lits)) && (!o.eq || n.eq)
		}) {
			return false
		}
	}
	return true
}

func subset(a, b map[string]bool) bool {
	for x := range a {
		if !b[x] {
			return false
		}
	}
	return true
}

// goFuncDeclRE finds Go function and method declarations by name.
var goFuncDeclRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*[\[(]`)
})

// testedFuncsGone: every lost Go test TestX (TestX_case too) tests a
// function or method X that a non-test file of its package changed in the
// session declared at the start and no non-test file of the package
// declares now: dead code deleted with its tests (issue 25's honest field
// pass: `Shout` dropped from greet.go with shout_test.go). A test whose X
// is still declared, or was never a function of the package, stays lost.
func testedFuncsGone(ctx context.Context, repo Repo, start string, changed []string, f, kind string, lost []string) bool {
	if kind != "go" || len(lost) == 0 {
		return false
	}
	dir := path.Dir(f)
	var was []byte
	for _, c := range changed {
		if path.Dir(c) != dir || !strings.HasSuffix(c, ".go") || strings.HasSuffix(c, "_test.go") {
			continue
		}
		if ok, err := repo.ExistsAt(ctx, start, c); err != nil || !ok {
			continue
		}
		b, err := repo.ReadAt(ctx, start, c)
		if err != nil {
			return false
		}
		was = append(append(was, b...), '\n')
	}
	if len(was) == 0 {
		return false
	}
	var now []byte
	ents, err := os.ReadDir(filepath.Join(repo.Root(), filepath.FromSlash(dir)))
	if err != nil {
		return false
	}
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		b, err := boundedread.File(filepath.Join(repo.Root(), filepath.FromSlash(dir), e.Name()), maxInput)
		if err != nil {
			return false
		}
		now = append(append(now, b...), '\n')
	}
	return GoFuncsGone(lost, was, now)
}

// GoFuncsGone: every Go test of lost (TestX, TestX_case) tests a function
// or method X that the package's source declared before (was: its
// changed non-test files at the start) and does not declare now (now: all
// its non-test files), nor declares under a new name with its body (a
// rename keeps the code the test checked: issue 25's review).
func GoFuncsGone(lost []string, was, now []byte) bool {
	declared := func(b []byte) map[string]bool {
		m := map[string]bool{}
		for _, sm := range goFuncDeclRE().FindAllSubmatch(b, -1) {
			m[string(sm[1])] = true
		}
		return m
	}
	before, after := declared(was), declared(now)
	if len(lost) == 0 {
		return false
	}
	var added [][]string // bodies of the functions declared now, not before
	nowBodies := defBodies("go", now)
	for n := range after {
		if !before[n] {
			added = append(added, nowBodies[n])
		}
	}
	wasBodies := defBodies("go", was)
	for _, t := range lost {
		x, _, _ := strings.Cut(strings.TrimPrefix(t, "Test"), "_")
		if x == "" || !before[x] || after[x] || reappears(wasBodies[x], added) {
			return false // still here, or renamed with its body
		}
	}
	return true
}

// checkPool is the checks of some files' tests (units that read the
// code) and the code they call.
type checkPool struct {
	callees map[string]bool
	units   []unit
	// bodyCallees and bodyLits: any line of a test (for a test whose own
	// checks read no call).
	bodyCallees, bodyLits map[string]bool
}

func newCheckPool() *checkPool {
	return &checkPool{callees: map[string]bool{}, bodyCallees: map[string]bool{}, bodyLits: map[string]bool{}}
}

func (p *checkPool) add(k string, src []byte) {
	sc := fileScope(k, src)
	for _, b := range testBodies(k, src) {
		us := checkUnits(k, b, sc)
		for c := range callees(k, b) {
			p.bodyCallees[c] = true
		}
		for l := range checkLiterals(b) {
			p.bodyLits[l] = true
		}
		for _, u := range us {
			if !u.about {
				continue
			}
			p.units = append(p.units, u)
			for c := range u.callees {
				p.callees[c] = true
			}
		}
	}
}

// definitionsGone adds to gone[k] the names source file f defined at the
// start and no longer defines (now nil: deleted), and to defined[k] those
// it defines now.
func definitionsGone(ctx context.Context, repo Repo, start, f, k string, now []byte, gone, defined map[string]map[string]bool, rn *renames) error {
	have := definitions(k, now)
	nowBodies := defBodies(k, now)
	if defined[k] == nil {
		defined[k] = map[string]bool{}
	}
	for n := range have {
		defined[k][n] = true
	}
	existed, err := repo.ExistsAt(ctx, start, f)
	if err != nil {
		return fmt.Errorf("look up %s at the start commit: %w", f, err)
	}
	var was []byte
	if existed {
		if was, err = repo.ReadAt(ctx, start, f); err != nil {
			return fmt.Errorf("read %s at the start commit: %w", f, err)
		}
	}
	had := definitions(k, was)
	for n := range have {
		if !had[n] {
			rn.added[k] = append(rn.added[k], nowBodies[n])
		}
	}
	wasBodies := defBodies(k, was)
	for n := range had {
		if now == nil {
			rn.files[f] = append(rn.files[f], n)
		}
		if have[n] && !slices.Equal(wasBodies[n], nowBodies[n]) {
			if rn.edited[k] == nil {
				rn.edited[k] = map[string]bool{}
			}
			rn.edited[k][n] = true
		}
		if !have[n] {
			if gone[k] == nil {
				gone[k] = map[string]bool{}
				rn.gone[k] = map[string][]string{}
			}
			gone[k][n] = true
			rn.gone[k][n] = wasBodies[n]
		}
	}
	return nil
}

// testedCodeGone: the source file a deleted test file is named for
// (a_test.go -> a.go, test_a.py or a_test.py -> a.py, a.test.js -> a.js)
// was deleted in the session too, in any folder (Python tests sit apart
// from their code); or, for Go, whose tests sit in their package, the
// folder keeps no non-test .go file (the package went).
func testedCodeGone(root, f, kind string, deleted, gonePaths map[string]bool) bool {
	dir, b := path.Split(f)
	var src string
	switch kind {
	case "go":
		src = strings.TrimSuffix(b, "_test.go") + ".go"
	case "py":
		src = strings.TrimSuffix(strings.TrimPrefix(b, "test_"), ".py")
		src = strings.TrimSuffix(src, "_test") + ".py"
	case "js":
		src = strings.Replace(strings.Replace(b, ".test.", ".", 1), ".spec.", ".", 1)
	}
	if src != b && deleted[src] {
		return true
	}
	if kind != "go" {
		return false
	}
	// The package went only if it had code the session deleted: a folder
	// of tests alone (e2e/*_test.go) keeps no source to lose, and deleting
	// its failing test file had passed as "the package went".
	had := false
	for d := range gonePaths {
		if path.Dir(d) == path.Clean(dir) && strings.HasSuffix(d, ".go") && !strings.HasSuffix(d, "_test.go") {
			had = true
			break
		}
	}
	if !had {
		return false
	}
	ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			return false
		}
	}
	return true
}

// CollectedTests lists the tests the runner collects from a test file of
// kind k (FileKind), named as DeletedTestMoved takes them.
func CollectedTests(k string, b []byte) []string {
	c, _ := testNames(k, b)
	return c
}
