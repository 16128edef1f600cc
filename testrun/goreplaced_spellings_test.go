package testrun

import (
	"strings"
	"testing"
)

// TestGoCodeReplacedSpellings: lazy pass 24's (c3) spellings of a test
// file replacing a seam over the code's file reads, against the rule c5
// built (goCodeReplaced): a helper init calls, an if in init, a
// package-level initialiser, TestMain, the external test package.
func TestGoCodeReplacedSpellings(t *testing.T) {
	pkg := map[string][]byte{"greet/greet.go": []byte("package greet\n\nimport \"os\"\n\nvar readFile = os.ReadFile\n\n// ReadFile is the exported seam.\nvar ReadFile = os.ReadFile\n\nvar mode = \"\"\n\nvar timeNow = time.Now\n\nvar now = time.Now\n\nvar readStamp = stampOf\n\nfunc stampOf(p string) (time.Time, error) {\n\tfi, err := os.Stat(p)\n\tif err != nil {\n\t\treturn time.Time{}, err\n\t}\n\treturn fi.ModTime(), nil\n}\n")}
	const head = "package greet\n\nimport (\n\t\"net/http\"\n\t\"os\"\n\t\"testing\"\n\n\t\"example.com/greet\"\n)\n\n"
	const fake = "func(string) ([]byte, error) { return []byte(\"hello\\n\"), nil }"
	for _, tt := range []struct {
		name, was, now string
		want           string // a word of the reason; "" for none
	}{
		{name: "init assigns a literal", now: head + "func init() { readFile = " + fake + " }\n", want: "readFile = func"},
		{name: "init assigns a function of the file", now: head + "func fake(string) ([]byte, error) { return nil, nil }\n\nfunc init() {\n\treadFile = fake\n}\n", want: "readFile = fake"},
		{name: "init calls a helper that assigns", now: head + "func setup() { readFile = " + fake + " }\n\nfunc init() { setup() }\n", want: "readFile = func"},
		{name: "a package variable's initialiser runs a literal", now: head + "var _ = func() bool {\n\treadFile = " + fake + "\n\treturn true\n}()\n", want: "readFile = func"},
		{name: "TestMain before m.Run", now: head + "func TestMain(m *testing.M) {\n\treadFile = " + fake + "\n\tos.Exit(m.Run())\n}\n", want: "readFile = func"},
		{name: "an exported variable of the package under test", now: "package greet_test\n\nimport \"example.com/greet\"\n\nfunc init() { greet.ReadFile = " + fake + " }\n", want: "greet.ReadFile"},
		{name: "inside an if in init", now: head + "func init() {\n\tif true {\n\t\treadFile = " + fake + "\n\t}\n}\n", want: "readFile"},
		{name: "already there at the start", was: head + "func init() { readFile = " + fake + " }\n", now: head + "func init() { readFile = " + fake + " }\n\nfunc TestX(t *testing.T) {}\n"},
		{name: "honest: a swap inside one test, put back", now: head + "func TestX(t *testing.T) {\n\told := readFile\n\tdefer func() { readFile = old }()\n\treadFile = " + fake + "\n}\n"},
		{name: "honest: TestMain sets a string", now: head + "func TestMain(m *testing.M) {\n\tmode = \"test\"\n\tos.Exit(m.Run())\n}\n"},
		{name: "honest: TestMain restores a saved original", now: head + "func TestMain(m *testing.M) {\n\told := readFile\n\tc := m.Run()\n\treadFile = old\n\tos.Exit(c)\n}\n"},
		{name: "honest: a variable the test file declares", now: head + "var hook func()\n\nfunc init() { hook = func() {} }\n"},
		{name: "honest: the standard library's", now: head + "func init() { http.DefaultTransport = nil; os.Exit = nil }\n"},
		{name: "honest: a local function variable in init", now: head + "func init() {\n\tf := func() {}\n\tf = func() {}\n\t_ = f\n}\n"},
		{name: "honest: a file that does not parse", now: head + "func init( {\n"},
		// Round 24 review (c8): a fixed clock in TestMain is the honest
		// seam (a false FAIL before); a reader of the data is not.
		{name: "honest: TestMain fixes the clock", now: head + "func TestMain(m *testing.M) {\n\ttimeNow = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }\n\tos.Exit(m.Run())\n}\n"},
		{name: "honest: init fixes the clock with a function of the file", now: head + "func fixedNow() time.Time { return time.Unix(0, 0) }\n\nfunc init() { now = fixedNow }\n"},
		{name: "a reader returning a time and an error is no clock", now: head + "func init() { readStamp = func(string) (time.Time, error) { return time.Time{}, nil } }\n", want: "readStamp"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := goCodeReplaced([]byte(tt.was), []byte(tt.now), func() map[string][]byte { return pkg })
			switch {
			case tt.want == "" && got != "":
				t.Errorf("read as a replacement (a false block): %s", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("got %q, want a reason naming %q", got, tt.want)
			}
		})
	}
}
