package verify

import (
	"slices"
	"strings"
	"testing"
)

// TestPatchWeakenings: what a -U0 diff of test files shows that makes a
// re-run prove less, per language; a test moved (removed here, added
// there under the same name) and ordinary edits are not flagged.
func TestPatchWeakenings(t *testing.T) {
	hdr := func(f string) string {
		return "diff --git a/" + f + " b/" + f + "\n--- a/" + f + "\n+++ b/" + f + "\n@@ -1 +1 @@\n"
	}
	cases := []struct {
		name, patch string
		want        []string // "path: what" substrings, in order
	}{
		// Skips in files testrun reads are judged there (TestRangeSkips).
		{"go skip", hdr("a_test.go") + "+\tt.Skip(\"later\")\n", nil},
		{"skip in a file testrun does not read", hdr("testdata/a_test.go") + "+\tt.Skip(\"later\")\n", []string{`testdata/a_test.go: adds t.Skip("later")`}},
		{"go removed", hdr("a_test.go") + "-func TestA(t *testing.T) {\n", []string{"a_test.go: removes the test TestA"}},
		{"go moved", hdr("a_test.go") + "-func TestA(t *testing.T) {\n" + hdr("b_test.go") + "+func TestA(t *testing.T) {\n", nil},
		{"python skip", hdr("tests/test_x.py") + "+@pytest.mark.skip(reason=\"slow\")\n", nil},
		{"python removed", hdr("tests/test_x.py") + "-def test_total():\n", []string{"tests/test_x.py: removes the test test_total"}},
		{"js only", hdr("src/a.test.ts") + "+describe.only('cart', () => {\n", nil},
		{"js xit", hdr("vendor/a.spec.js") + "+  xit('adds', () => {\n", []string{"vendor/a.spec.js: adds xit("}},
		{"js removed", hdr("src/a.spec.js") + "-  it('adds two numbers', () => {\n", []string{"src/a.spec.js: removes the test adds two numbers"}},
		{"not a test file", hdr("main.go") + "+\tt.Skip()\n-func TestA() {\n", nil},
		{"honest edit", hdr("a_test.go") + "-\tif got != 2 {\n+\tif got != want {\n", nil},
		{"content line like a header", hdr("testdata/a_test.go") + "+++ t.Skip(\n", []string{"testdata/a_test.go: adds ++ t.Skip("}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, w := range patchWeakenings(c.patch) {
				got = append(got, w.path+": "+w.what)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
			for i := range got {
				if !strings.Contains(got[i], c.want[i]) {
					t.Errorf("got %q, want it to contain %q", got[i], c.want[i])
				}
			}
		})
	}
}

// TestToolsOf: the runners a command line invokes decide which config
// files the guard watches.
func TestToolsOf(t *testing.T) {
	cases := []struct {
		cmd   string
		tools []string
	}{
		{"npm test", []string{"npm"}},
		{"make check && ./scripts/lint.sh", []string{"make"}},
		{"timeout 300 python3 -m pytest -q", []string{"pytest"}},
		{"go test ./...", nil},
		{"CI=1 pnpm run test", []string{"npm"}},
	}
	for _, c := range cases {
		got, _ := toolsOf(c.cmd)
		if !slices.Equal(got, c.tools) {
			t.Errorf("toolsOf(%q) = %q, want %q", c.cmd, got, c.tools)
		}
	}
}
