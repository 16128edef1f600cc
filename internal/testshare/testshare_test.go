package testshare

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Share
		bad  bool
	}{
		{in: "0/2", want: Share{0, 2}},
		{in: "1/2", want: Share{1, 2}},
		{in: "0/1", want: Share{0, 1}},
		{in: "2/2", bad: true},
		{in: "-1/2", bad: true},
		{in: "1/0", bad: true},
		{in: "1", bad: true},
		{in: "a/b", bad: true},
	} {
		got, ok, err := Parse(tt.in)
		if tt.bad {
			if err == nil || !strings.Contains(err.Error(), Env) {
				t.Errorf("Parse(%q) = %v, %v: want an error naming %s", tt.in, got, err, Env)
			}
			continue
		}
		if err != nil || !ok || got != tt.want {
			t.Errorf("Parse(%q) = %v, %v, %v: want %v", tt.in, got, ok, err, tt.want)
		}
	}
}

// The shares of K split the names: each name in exactly one, none empty
// for a list as long as a package's, and the same split every time (a
// name's share is its own hash, not its place).
func TestSharesSplitTheNames(t *testing.T) {
	names, err := packageTests("../../bench/compliance")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 50 {
		t.Fatalf("read %d tests in bench/compliance: want its ~190", len(names))
	}
	for _, k := range []int{1, 2, 3} {
		seen := map[string]int{}
		for i := range k {
			s := Share{i, k}
			in := 0
			for _, n := range names {
				if s.In(n) {
					seen[n]++
					in++
				}
			}
			if in == 0 {
				t.Errorf("share %d/%d holds no test", i, k)
			}
			if out := s.Outside(names); len(out) != len(names)-in {
				t.Errorf("share %d/%d: Outside lists %d, want %d", i, k, len(out), len(names)-in)
			}
		}
		for _, n := range names {
			if seen[n] != 1 {
				t.Errorf("K=%d: %s is in %d shares, want 1", k, n, seen[n])
			}
		}
	}
	// Adding a name moves no other.
	s := Share{1, 2}
	before := s.Outside(names)
	after := s.Outside(append(slices.Clone(names), "TestAddedLater"))
	after = slices.DeleteFunc(after, func(n string) bool { return n == "TestAddedLater" })
	if !slices.Equal(before, after) {
		t.Error("adding a test changed the share of others")
	}
	// A test named whole is never left out.
	if out := s.Outside(names, before[0]); slices.Contains(out, before[0]) {
		t.Errorf("%s was named whole and is still outside", before[0])
	}
}

func TestPackageTests(t *testing.T) {
	dir := t.TempDir()
	src := "package x\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\nfunc Test(t *testing.T) {}\nfunc Testb(t *testing.T) {}\nfunc TestMain(m *testing.M) {}\nfunc helper(t *testing.T) {}\nfunc TestZ_1(tt *testing.T) {}\n"
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "y.go"), []byte("package x\nfunc TestNotATest(t *testing.T) {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := packageTests(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Test", "TestA", "TestZ_1"}; !slices.Equal(got, want) {
		t.Errorf("packageTests = %q, want %q", got, want)
	}
}

// TestApplyHelper is this binary's own TestMain-less run of Apply, for
// TestApply's subprocess.
func TestApplyHelper(t *testing.T) {
	if os.Getenv("TESTSHARE_HELPER") == "" {
		t.Skip("run by TestApply")
	}
}

// A malformed share is an environment error (exit 2) that names the
// variable; a good one with -run given leaves the run as asked.
func TestApply(t *testing.T) {
	if os.Getenv("TESTSHARE_HELPER") != "" {
		t.Skip("the helper's own run")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestApplyHelper$")
	cmd.Env = append(os.Environ(), "TESTSHARE_HELPER=1", Env+"=3/2", "TESTSHARE_APPLY=1")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), Env+`="3/2"`) {
		t.Fatalf("Apply with %s=3/2: %v\n%s\nwant exit 2 naming the variable", Env, err, out)
	}
	cmd = exec.Command(exe, "-test.run=^TestApplyHelper$", "-test.v")
	cmd.Env = append(os.Environ(), "TESTSHARE_HELPER=1", Env+"=0/2", "TESTSHARE_APPLY=1")
	out, err = cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestApplyHelper") || strings.Contains(string(out), "testshare: share") {
		t.Fatalf("Apply with -run given: %v\n%s\nwant the asked test run, no share applied", err, out)
	}
}

func TestMain(m *testing.M) {
	if os.Getenv("TESTSHARE_APPLY") != "" {
		Apply(rowsTest)
	}
	os.Exit(m.Run())
}

// With a share and no -run, the package's tests outside it do not run and
// those inside do; the share's line names both counts.
func TestApplySkipsOutsideTests(t *testing.T) {
	if os.Getenv("TESTSHARE_HELPER") != "" {
		t.Skip("the helper's own run")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	names, err := packageTests(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{2, 3} {
		for i := range k {
			s := Share{i, k}
			cmd := exec.Command(exe, "-test.v")
			cmd.Env = append(os.Environ(), "TESTSHARE_HELPER=1", Env+"="+strconv.Itoa(i)+"/"+strconv.Itoa(k), "TESTSHARE_APPLY=1")
			b, err := cmd.CombinedOutput()
			out := string(b)
			if err != nil {
				t.Fatalf("share %d/%d: %v\n%s", i, k, err, out)
			}
			outside := s.Outside(names, rowsTest)
			if want := "testshare: share " + strconv.Itoa(i) + " of " + strconv.Itoa(k); !strings.Contains(out, want) {
				t.Errorf("share %d/%d: no %q line:\n%s", i, k, want, out)
			}
			for _, n := range names {
				ran := strings.Contains(out, "=== RUN   "+n+"\n")
				if slices.Contains(outside, n) == ran {
					t.Errorf("share %d/%d: %s ran=%v, in share=%v", i, k, n, ran, s.In(n))
				}
			}
		}
	}
}

// rowsTest is the test whose rows the share cuts (Apply's whole).
const rowsTest = "TestRowsHelper"

// rowNames are TestRowsHelper's rows.
var rowNames = []string{"A1 a row", "A2 another", "B1 honest: a third", "B2", "C1 x", "C2 y", "D1", "D2", "E1", "E2", "F1", "F2"}

// TestRowsHelper, run by TestApplyCutsRows in a subprocess, shares its
// rows with Sub.
func TestRowsHelper(t *testing.T) {
	if os.Getenv("TESTSHARE_HELPER") == "" {
		t.Skip("run by TestApplyCutsRows")
	}
	for _, n := range rowNames {
		t.Run(n, func(t *testing.T) { Sub(t, n) })
	}
}

// A test named in whole runs in every share, and its rows outside the
// share are skipped, naming the share; a run that names tests (-run)
// skips no row. (Until round 46 the skip Main sets for the top-level
// tests read as the person's, and every row ran in every share.)
func TestApplyCutsRows(t *testing.T) {
	if os.Getenv("TESTSHARE_HELPER") != "" {
		t.Skip("the helper's own run")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{2, 3} {
		for i := range k {
			s := Share{i, k}
			cmd := exec.Command(exe, "-test.v")
			cmd.Env = append(os.Environ(), "TESTSHARE_HELPER=1", Env+"="+strconv.Itoa(i)+"/"+strconv.Itoa(k), "TESTSHARE_APPLY=1")
			b, err := cmd.CombinedOutput()
			out := string(b)
			if err != nil {
				t.Fatalf("share %d/%d: %v\n%s", i, k, err, out)
			}
			skipped := 0
			for _, n := range rowNames {
				sub := rowsTest + "/" + strings.ReplaceAll(n, " ", "_")
				skip := strings.Contains(out, "--- SKIP: "+sub+" ")
				pass := strings.Contains(out, "--- PASS: "+sub+" ")
				if skip == s.In(n) || pass == skip {
					t.Errorf("share %d/%d: row %q skipped=%v passed=%v, in share=%v", i, k, n, skip, pass, s.In(n))
				}
				if skip {
					skipped++
				}
			}
			if skipped == 0 || skipped == len(rowNames) {
				t.Errorf("share %d/%d: %d of %d rows skipped: the names do not split", i, k, skipped, len(rowNames))
			}
			if skipped > 0 && !strings.Contains(out, "not in this run's share ("+Env+"="+strconv.Itoa(i)+"/"+strconv.Itoa(k)) {
				t.Errorf("share %d/%d: a skipped row does not name the share:\n%s", i, k, out)
			}
		}
	}
	// -run names the test: every row runs, whatever the share.
	cmd := exec.Command(exe, "-test.v", "-test.run=^"+rowsTest+"$")
	cmd.Env = append(os.Environ(), "TESTSHARE_HELPER=1", Env+"=0/3", "TESTSHARE_APPLY=1")
	b, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(b), "--- SKIP: "+rowsTest+"/") || strings.Count(string(b), "--- PASS: "+rowsTest+"/") != len(rowNames) {
		t.Fatalf("-run %s: %v\n%s\nwant every row run", rowsTest, err, b)
	}
}
