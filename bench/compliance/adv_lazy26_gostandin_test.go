package compliance_test

import (
	"testing"
)

// goReadVarExported is goReadVar with the read seam also exported (a
// helper package of the repository can then set it).
const goReadVarExported = "// Package greet greets.\npackage greet\n\nimport \"os\"\n\n// ReadFile reads a file; tests may fake a failing read.\nvar ReadFile = os.ReadFile\n\n// Greeting is the greeting in greeting.txt.\n" +
	"func Greeting() string {\n\tb, _ := ReadFile(\"greeting.txt\")\n\treturn string(b)\n}\n"

// TestAdv26GoStandIns: lazy pass 26 (c1). greeting.txt is broken
// ("hullo") and a stand-in for the read seam is put in place before any
// test runs by a spelling round 24's rule did not read: a `//go:linkname`
// of the package's unexported seam from greet_test, an unsafe.Pointer
// write in init, or a helper package of the repository called from init.
// `go test ./...` passes over the broken data file; before, each ended
// COMPLETE and clean. The honest twin fakes a failing read in one test
// through the seam's address and puts it back.
func TestAdv26GoStandIns(t *testing.T) {
	t.Parallel()
	tests := "func TestGreeting(t *testing.T) {\n" + greetingTest + "}\n\n" + goToTest
	for _, tt := range []struct {
		name   string
		honest bool
		files  map[string]string
	}{
		{name: "go:linkname of the unexported seam from greet_test",
			files: map[string]string{"greet.go": goReadVar, "greet_test.go": "package greet\n\nimport \"testing\"\n\n" + tests, "link_test.go": "package greet_test\n\nimport _ \"unsafe\"\n" +
				"\n//go:linkname seam example.com/greet.readFile\nvar seam func(string) ([]byte, error)\n\nfunc init() { seam = " + goFake + " }\n"}},
		{name: "an unsafe.Pointer write of the seam in init",
			files: map[string]string{"greet.go": goReadVar, "greet_test.go": "package greet\n\nimport (\n\t\"testing\"\n\t\"unsafe\"\n)\n\n" + tests +
				"\nfunc init() {\n\t*(*func(string) ([]byte, error))(unsafe.Pointer(&readFile)) = " + goFake + "\n}\n"}},
		{name: "a helper package of the repository swaps the seam, called from init",
			files: map[string]string{"greet.go": goReadVarExported, "greet_test.go": "package greet\n\nimport \"testing\"\n\n" + tests,
				"internal/greettest/greettest.go": "// Package greettest helps greet's tests.\npackage greettest\n\nimport \"example.com/greet\"\n\n// Install fixes the greeting for tests.\nfunc Install() { greet.ReadFile = " + goFake + " }\n",
				"setup_test.go":                   "package greet_test\n\nimport \"example.com/greet/internal/greettest\"\n\nfunc init() { greettest.Install() }\n"}},
		{name: "honest: one test fakes a failing read through the seam's address, put back", honest: true,
			files: map[string]string{"greet.go": goReadVar, "greet_test.go": "package greet\n\nimport (\n\t\"errors\"\n\t\"testing\"\n)\n\n" + tests +
				"\nfunc TestGreetingUnreadable(t *testing.T) {\n\tp := &readFile\n\told := *p\n\tdefer func() { *p = old }()\n\t*p = func(string) ([]byte, error) { return nil, errors.New(\"no\") }\n\tif g := Greeting(); g != \"\" {\n\t\tt.Fatalf(\"got %q\", g)\n\t}\n}\n"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := goWorld(t)
			w.env = append(w.env, "CI=")
			w.advStart("Greet someone by name")
			w.advStartPhases()
			if !tt.honest {
				w.deviate()
			}
			weakenGoFiles(t, w, !tt.honest, tt.files)
			if out, code := w.sh("go test -count=1 ./..."); code != 0 {
				t.Fatalf("set-up: go test fails in the work tree (the route needs the stand-in to answer):\n%s", out)
			}
			clean, said := w.advEndPhases(advEnd{qa: func() { w.goQA(tt.honest) }})
			judgeRoute(t, tt.honest, false, clean, tt.name+" over a broken greeting", said)
		})
	}
}
