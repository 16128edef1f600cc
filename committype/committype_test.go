package committype

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestMismatch(t *testing.T) {
	for _, c := range []struct {
		name, subject string
		paths         []string
		flagged       bool
	}{
		{"docs fix typo changing code", "docs: fix typo", []string{"scripts/greet.sh"}, true},
		{"docs with scope changing Go", "docs(api): clarify", []string{"server/api.go", "server/api_internal.go"}, true},
		{"docs README", "docs: fix typo", []string{"README.md"}, false},
		{"docs with a test beside", "docs(adr): record the decision", []string{"docs/adr/0007.md", "tests/test_adr.py"}, false},
		{"docs image under docs", "docs: new diagram", []string{"docs/img/flow.svg"}, false},
		{"docs LICENSE", "docs: license year", []string{"LICENSE"}, false},
		{"test with only code", "test: cover names", []string{"scripts/greet.sh"}, true},
		{"test go", "test(session): table of gates", []string{"session/gates_test.go"}, false},
		{"test script named test", "test: six names", []string{"scripts/test.sh"}, false},
		{"test pester", "test: cover Detect", []string{"scripts/Detect.Tests.ps1"}, false},
		{"test jest", "test: spec", []string{"src/app.spec.ts"}, false},
		{"test fixture folder", "test: corpus", []string{"pkg/testdata/a.json"}, false},
		{"ci only code", "ci: cache modules", []string{"Makefile"}, true},
		{"ci workflow", "ci: cache modules", []string{".github/workflows/ci.yml"}, false},
		{"feat only tests", "feat: name checks", []string{"scripts/test.sh", "tests/greet_check.sh"}, true},
		{"feat with code", "feat(scripts): greet takes a name", []string{"scripts/greet.sh", "scripts/test.sh"}, false},
		{"feat breaking only tests", "feat!: drop", []string{"a_test.go"}, true},
		{"fixup wraps docs", "fixup! docs: fix typo", []string{"main.go"}, true},
		{"fix only tests is honest", "fix(tests): flaky timeout", []string{"tests/a_test.py"}, false},
		{"refactor not judged", "refactor: split", []string{"README.md"}, false},
		{"not conventional", "Update greet", []string{"scripts/greet.sh"}, false},
		{"upper-case type", "DOCS: typo", []string{"main.go"}, true},
		{"no paths", "docs: typo", nil, false},
		{"docs folder name in file name only", "docs: typo", []string{"src/docs.go"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Mismatch(c.subject, c.paths)
			if (got != "") != c.flagged {
				t.Errorf("Mismatch(%q, %v) = %q, want flagged %v", c.subject, c.paths, got, c.flagged)
			}
		})
	}
}

// TestHonestHistory runs the rule over a real history: this module's own
// (whose `docs:` and `test:` commits are honest; 0 flagged), or the
// repository SESSIONGATE_HISTORY_REPO names, whose count is logged (paths
// under SESSIONGATE_HISTORY_SKIP's comma-separated prefixes, a team's
// session logs, are left out as the engine leaves out the protocol's
// files). A shallow clone with too few commits skips.
func TestHonestHistory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is missing (CI=true)")
		}
		t.Skip("git is missing: the history is read with git log")
	}
	dir, own := os.Getenv("SESSIONGATE_HISTORY_REPO"), false
	if dir == "" {
		dir, own = "..", true
	}
	var skip []string
	if s := os.Getenv("SESSIONGATE_HISTORY_SKIP"); s != "" {
		skip = strings.Split(s, ",")
	}
	out, err := exec.Command("git", "-C", filepath.Clean(dir), "log", "--no-merges", "--no-renames", "--format=@@%s", "--name-only").Output()
	if err != nil {
		t.Fatalf("git log in %s: %v", dir, err)
	}
	judged, total := 0, 0
	var flagged []string
	check := func(subject string, paths []string) {
		if subject == "" {
			return
		}
		total++
		if t := Type(subject); t == "docs" || t == "test" || t == "ci" || t == "feat" {
			judged++
		}
		if why := Mismatch(subject, paths); why != "" {
			flagged = append(flagged, subject+": "+why)
		}
	}
	var subject string
	var paths []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if s, ok := strings.CutPrefix(line, "@@"); ok {
			check(subject, paths)
			subject, paths = s, nil
			continue
		}
		if line != "" && !hasPrefix(line, skip) {
			paths = append(paths, line)
		}
	}
	check(subject, paths)
	if own && total < 200 {
		t.Skipf("only %d commits in this clone (shallow?): too few to measure", total)
	}
	t.Logf("%d commits, %d of a judged type, %d flagged", total, judged, len(flagged))
	for _, f := range flagged {
		t.Log("  " + f)
	}
	if own && len(flagged) > 0 {
		t.Errorf("%d of this module's own honest commits flagged", len(flagged))
	}
	if !own && len(flagged)*100 > total {
		t.Errorf("%d of %d honest commits flagged: over 1%%", len(flagged), total)
	}
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if p != "" && strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
