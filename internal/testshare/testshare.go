// Package testshare runs one share of a slow package's tests. The nine
// packages that start the real binary, git and the agent CLIs hundreds of
// times take well over CI's 90 minutes together on its 2-core micro-VMs
// (docs/benchmarks.md, "CI time, round 32"), so .ci/run gives each run one
// share of their tests, rotating with the commit count, as its fuzz step
// does with the fuzz targets. Without $SESSIONGATE_TEST_SHARE every test
// runs: the README's test command and a plain `go test` run them all.
//
// A test's share is a hash of its name, not its place in a list: adding a
// test moves no other test to another share.
package testshare

import (
	"bufio"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Env holds "i/K" (0 <= i < K): run the share i of K.
const Env = "SESSIONGATE_TEST_SHARE"

// Share is the share I of K the tests run in.
type Share struct{ I, K int }

// FromEnv reads Env: ok is false when it is unset or empty (every test
// runs), and the error says what is wrong with a malformed value.
func FromEnv() (s Share, ok bool, err error) {
	v := strings.TrimSpace(os.Getenv(Env))
	if v == "" {
		return Share{}, false, nil
	}
	return Parse(v)
}

// Parse reads "i/K".
func Parse(v string) (Share, bool, error) {
	is, ks, found := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(is)
	k, err2 := strconv.Atoi(ks)
	if !found || err1 != nil || err2 != nil || k < 1 || i < 0 || i >= k {
		return Share{}, false, fmt.Errorf("%s=%q: want i/K with 0 <= i < K (as 1/2), or empty to run every test", Env, v)
	}
	return Share{I: i, K: k}, true, nil
}

// In reports whether the test or subtest named name is in the share.
func (s Share) In(name string) bool {
	if s.K <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32()%uint32(s.K)) == s.I
}

// Outside lists the names outside the share, in their order, leaving
// out those named in whole.
func (s Share) Outside(names []string, whole ...string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(whole, n) && !s.In(n) {
			out = append(out, n)
		}
	}
	return out
}

// Sub skips t when name, one row of a table test too long to run whole
// in one share, is outside the share: the row shows as skipped, with the
// reason, in go test's output.
func Sub(t testing.TB, name string) {
	t.Helper()
	skip, why, err := Out(name)
	if err != nil {
		t.Fatal(err)
	}
	if skip {
		t.Skip(why)
	}
}

// Out reports whether the row named name is outside the share in Env,
// and the reason to skip it with; for tests that are not a testing.TB
// (testscript's). A run that names its tests (-run, -skip) skips no row.
func Out(name string) (skip bool, why string, err error) {
	s, ok, err := FromEnv()
	if err != nil || !ok || s.In(name) || named() {
		return false, "", err
	}
	return true, fmt.Sprintf("not in this run's share (%s=%d/%d; empty runs every test)", Env, s.I, s.K), nil
}

// testFunc is a top-level test's declaration in a _test.go file.
var testFunc = regexp.MustCompile(`^func (Test[A-Z0-9_]\w*|Test)\(\w+ \*testing\.T\)`)

// Main, called by a TestMain after flag.Parse, sets -test.skip to the
// package's top-level tests outside the share named in Env, and says on
// stderr how many run and which do not. It does nothing without Env, or
// when the run already names tests (-run or -skip: the person asked for
// those). The tests named in whole shard their own rows with Sub, so
// they run in every share. The package's tests are read from the
// _test.go files of the working folder, which go test makes the
// package's.
func Main(whole ...string) error {
	s, ok, err := FromEnv()
	if err != nil || !ok {
		return err
	}
	if named() {
		return nil
	}
	names, err := packageTests(".")
	if err != nil {
		return fmt.Errorf("%s: list the package's tests: %w", Env, err)
	}
	out := s.Outside(names, whole...)
	fmt.Fprintf(os.Stderr, "testshare: share %d of %d (%s; empty runs every test): %d of %d top-level tests run", s.I, s.K, Env, len(names)-len(out), len(names))
	if len(whole) > 0 {
		fmt.Fprintf(os.Stderr, "; %s run a share of their rows", strings.Join(whole, ", "))
	}
	fmt.Fprintln(os.Stderr)
	if len(out) == 0 {
		return nil
	}
	fmt.Fprintf(os.Stderr, "testshare: not run here: %s\n", strings.Join(out, " "))
	shareSkip = "^(" + strings.Join(out, "|") + ")$"
	return flag.Set("test.skip", shareSkip)
}

// shareSkip is the -test.skip Main set to leave out the tests outside
// the share: it is the share's, not the person's.
var shareSkip string

// named reports whether the run names its tests (-run or -skip): the
// person asked for those, and gets them whatever the share. The skip Main
// set does not count: counted, it made every row of the tests named in
// whole run in every share (from 2026-12-02 until round 46).
func named() bool {
	for _, f := range []string{"test.run", "test.skip"} {
		if fl := flag.Lookup(f); fl != nil && fl.Value.String() != "" && (f != "test.skip" || fl.Value.String() != shareSkip) {
			return true
		}
	}
	return false
}

// packageTests lists the top-level test functions declared in dir's
// _test.go files, sorted.
func packageTests(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			if m := testFunc.FindSubmatch(sc.Bytes()); m != nil {
				names = append(names, string(m[1]))
			}
		}
		err = sc.Err()
		fh.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
	}
	sort.Strings(names)
	return names, nil
}

// Apply is Main for a TestMain's first line: it parses the flags when
// nothing has yet, and exits 2 (an environment error) when Env is
// malformed or the package's tests cannot be listed.
func Apply(whole ...string) {
	if !flag.Parsed() {
		flag.Parse()
	}
	if err := Main(whole...); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
