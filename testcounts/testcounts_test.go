package testcounts

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

func TestFromOutput(t *testing.T) {
	tests := []struct {
		name, out string
		want      []int
	}{
		{"pytest", "....\n========== 4 passed, 1 skipped in 0.12s ==========\n", []int{4}},
		{"pytest -q", "..\n2 passed in 0.01s\n", []int{2}},
		{"unittest", "...\n----------------------------------------------------------------------\nRan 3 tests in 0.001s\n\nOK\n", []int{3}},
		{"mocha", "  greet\n    ✓ says hello\n\n  17 passing (8ms)\n", []int{17}},
		{"jest", "Test Suites: 1 passed, 1 total\nTests:       5 passed, 5 total\n", []int{1, 5}},
		{"TAP", "ok 1 - a\nok 2 - b\n# tests 2\n# pass  2\n# fail  0\n", []int{2}},
		{"go test -v", "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n--- PASS: TestB (0.00s)\nPASS\nok  \tm\t0.1s\n", []int{2}},
		{"go test without -v says no count", "ok  \texample.com/greet\t0.004s\n", nil},
		{"a failure only", "1 failed in 0.02s\n", nil},
		{"0 passed is no count", "0 passed, 3 deselected\n", nil},
		{"a script's own noun", "1 validation(s) passed\n", []int{1}},
		{"checks passed", "12 checks passed, 0 failed\n", []int{12}},
		{"two words before passed are no count", "3 of them passed\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FromOutput([]byte(tt.out)); !slices.Equal(got, tt.want) {
				t.Fatalf("FromOutput = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestClaims(t *testing.T) {
	tests := []struct {
		name, text string
		want       []int
	}{
		{"pytest words", "Verified: 181 passed across tests/test_a.py.", []int{181}},
		{"all N tests pass", "All 17 tests pass.", []int{17}},
		{"N tests passing", "42 tests passing, lint clean", []int{42}},
		{"N/N", "12/12 tests passed", []int{12}},
		{"unittest words", "Ran 9 tests, OK", []int{9}},
		{"negative controls are no pass claim", "restoring the regex turns 4 tests red, dropping the echo turns 1 red", nil},
		{"errors and failures are no pass claim", "0 errors in changed files; 0 failed", nil},
		{"a validation count is not a test count", "scripts/test.sh reported no failure: 1 validation(s) passed", nil},
		{"no numbers", "The tests pass.", nil},
		{"an issue's verdict", "Initial validation: #751 PASS, #734 PASS", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			for _, c := range Claims(tt.text) {
				got = append(got, c.N)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Claims = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestUnbacked(t *testing.T) {
	tests := []struct {
		name  string
		claim int
		seen  []int
		want  bool // unbacked
	}{
		{"a run showed it", 181, []int{181}, false},
		{"two suites added up", 17, []int{12, 5}, false},
		{"no run showed it", 42, []int{3}, true},
		{"no run counted at all", 42, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Unbacked([]Claim{{N: tt.claim}}, tt.seen)
			if (len(got) == 1) != tt.want {
				t.Fatalf("Unbacked(%d, %v) = %v, want unbacked=%v", tt.claim, tt.seen, got, tt.want)
			}
		})
	}
}

func TestRefRoundTrip(t *testing.T) {
	ref := "exit 0, 120 bytes" + RefNote([]int{4, 17}) + ", saw tree abc"
	if got := FromRef(ref); !slices.Equal(got, []int{4, 17}) {
		t.Fatalf("FromRef(%q) = %v", ref, got)
	}
	if RefNote(nil) != "" || FromRef("exit 0, 12 bytes") != nil {
		t.Fatal("no counts must leave no note and read back none")
	}
}

// TestClaimsRealLogs measures how often honest session logs state pass
// counts (../shared/fixtures: one of three, "181 passed"; with
// SESSIONGATE_LOGS_DIR, every .md and .json under it, reported as
// counts). The logs hold no run output, so whether the counts match a run
// is not measured here; the claims found are logged for reading.
func TestClaimsRealLogs(t *testing.T) {
	dir := os.Getenv("SESSIONGATE_FIXTURES")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "fixtures")
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "ai-agents", "session-log_*"))
	if len(logs) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the real session logs are required under CI=true (%s)", dir)
		}
		t.Skipf("no real session logs in %s: set SESSIONGATE_FIXTURES", dir)
	}
	want := map[string][]int{"session-log_json_2026-07-26-session-3364_at-HEAD-70241a006.json": {181, 181}}
	for _, n := range logs {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, c := range Claims(string(b)) {
			got = append(got, c.N)
		}
		if !slices.Equal(got, want[filepath.Base(n)]) {
			t.Errorf("%s: claims %v, want %v", filepath.Base(n), got, want[filepath.Base(n)])
		}
	}
	more := os.Getenv("SESSIONGATE_LOGS_DIR")
	if more == "" {
		return
	}
	files, with, claims := 0, 0, 0
	err := filepath.WalkDir(more, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".json")) {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		if cs := Claims(string(b)); len(cs) > 0 {
			with++
			claims += len(cs)
			for _, c := range cs {
				t.Logf("%s:%d: %d (%q)", filepath.Base(p), c.Line, c.N, c.Text)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d logs state a pass count (%d claims)", with, files, claims)
}
