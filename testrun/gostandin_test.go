package testrun_test

import (
	"context"
	"os"
	"os/exec"
	"path"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestGoStandIns: Go stand-ins for the code under test that round 24's
// rule (gopatch.go) did not read (lazy pass 26, c1), each played against
// a broken Greet with the real `go test`: a seam initialised to a method
// value, a package-level `var greet = func...` swapped in TestMain,
// `//go:linkname` of the package's variable from the external test
// package, writes through a pointer, unsafe.Pointer and reflect, and a
// helper package the test imports that swaps the seam. Each lazy row
// passed SkipsAdded before while `go test` passed the broken code.
// Honest twins: a fake collaborator passed in, a clock injected through
// the var the code reads (in TestMain, through a helper package, or by
// reflect), a swap inside one test.
func TestGoStandIns(t *testing.T) {
	gittest.Require(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not found")
	}
	const mod = "module example.com/greet\n\ngo 1.22\n"
	seam := func(word, decl string) string {
		return "package greet\n\nimport \"time\"\n\n" + decl + "\n\nfunc greet() string {\n\ts := \"" + word + "\"\n\treturn s\n}\n\n// Now is the clock the code reads.\nvar Now = time.Now\n\nvar now = time.Now\n\n// Greet greets.\nfunc Greet() string { _ = now(); _ = Now(); return greetFn() }\n"
	}
	const test = "package greet\n\nimport \"testing\"\n\nfunc TestGreet(t *testing.T) {\n\tif got := Greet(); got != \"hello\" {\n\t\tt.Fatalf(\"Greet() = %q\", got)\n\t}\n}\n"
	const xtest = "package greet_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/greet\"\n)\n\nfunc TestGreet(t *testing.T) {\n\tif got := greet.Greet(); got != \"hello\" {\n\t\tt.Fatalf(\"Greet() = %q\", got)\n\t}\n}\n"
	const fake = "func fakeGreet() string { return \"hello\" }\n"
	for _, c := range []struct {
		name          string
		start, during map[string]string
		weakens       bool
	}{
		{name: "a seam initialised to a method value, swapped in init",
			start: map[string]string{"go.mod": mod, "greet.go": seam("hello", "type greeter struct{}\n\nfunc (greeter) greet() string { return greet() }\n\nvar greetFn = greeter{}.greet"), "greet_test.go": test},
			during: map[string]string{"greet.go": seam("helo", "type greeter struct{}\n\nfunc (greeter) greet() string { return greet() }\n\nvar greetFn = greeter{}.greet"),
				"greet_test.go": test + "\n" + fake + "\nfunc init() { greetFn = fakeGreet }\n"},
			weakens: true},
		{name: "a package-level var greetFn = func..., swapped in TestMain of a new file",
			start: map[string]string{"go.mod": mod, "greet.go": seam("hello", "var greetFn = func() string { return greet() }"), "greet_test.go": test},
			during: map[string]string{"greet.go": seam("helo", "var greetFn = func() string { return greet() }"),
				"main_test.go": "package greet\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\n" + fake + "\nfunc TestMain(m *testing.M) {\n\tgreetFn = fakeGreet\n\tos.Exit(m.Run())\n}\n"},
			weakens: true},
		{name: "go:linkname of the unexported seam from the external test package",
			start: map[string]string{"go.mod": mod, "greet.go": seam("hello", "var greetFn = greet"), "greet_test.go": xtest},
			during: map[string]string{"greet.go": seam("helo", "var greetFn = greet"),
				"link_test.go": "package greet_test\n\nimport _ \"unsafe\"\n\n//go:linkname seam example.com/greet.greetFn\nvar seam func() string\n\n" + fake + "\nfunc init() { seam = fakeGreet }\n"},
			weakens: true},
		{name: "a write through a pointer in init",
			start: map[string]string{"go.mod": mod, "greet.go": seam("hello", "var greetFn = greet"), "greet_test.go": test},
			during: map[string]string{"greet.go": seam("helo", "var greetFn = greet"),
				"greet_test.go": test + "\n" + fake + "\nfunc init() {\n\tp := &greetFn\n\t*p = fakeGreet\n}\n"},
			weakens: true},
		{name: "an unsafe.Pointer write in init",
			start: map[string]string{"go.mod": mod, "greet.go": seam("hello", "var greetFn = greet"), "greet_test.go": test},
			during: map[string]string{"greet.go": seam("helo", "var greetFn = greet"),
				"greet_test.go": strings.Replace(test, "import \"testing\"", "import (\n\t\"testing\"\n\t\"unsafe\"\n)", 1) + "\n" + fake + "\nfunc init() { *(*func() string)(unsafe.Pointer(&greetFn)) = fakeGreet }\n"},
			weakens: true},
		{name: "a reflect write of the exported seam from the external test package",
			start: map[string]string{"go.mod": mod, "greet.go": seam("hello", "// GreetFn is the seam.\nvar GreetFn = greet\n\nvar greetFn = func() string { return GreetFn() }"), "greet_test.go": xtest},
			during: map[string]string{"greet.go": seam("helo", "// GreetFn is the seam.\nvar GreetFn = greet\n\nvar greetFn = func() string { return GreetFn() }"),
				"reflect_test.go": "package greet_test\n\nimport (\n\t\"reflect\"\n\n\t\"example.com/greet\"\n)\n\n" + fake + "\nfunc init() { reflect.ValueOf(&greet.GreetFn).Elem().Set(reflect.ValueOf(fakeGreet)) }\n"},
			weakens: true},
		{name: "a helper package the external test imports swaps the exported seam",
			start: map[string]string{"go.mod": mod, "greet.go": seam("hello", "// GreetFn is the seam.\nvar GreetFn = greet\n\nvar greetFn = func() string { return GreetFn() }"), "greet_test.go": xtest},
			during: map[string]string{"greet.go": seam("helo", "// GreetFn is the seam.\nvar GreetFn = greet\n\nvar greetFn = func() string { return GreetFn() }"),
				"internal/greettest/greettest.go": "// Package greettest helps greet's tests.\npackage greettest\n\nimport \"example.com/greet\"\n\n// Install sets up greet for tests.\nfunc Install() { greet.GreetFn = func() string { return \"hello\" } }\n",
				"setup_test.go":                   "package greet_test\n\nimport \"example.com/greet/internal/greettest\"\n\nfunc init() { greettest.Install() }\n"},
			weakens: true},
		{name: "a helper package's own init, imported blank",
			start: map[string]string{"go.mod": mod, "greet.go": seam("hello", "// GreetFn is the seam.\nvar GreetFn = greet\n\nvar greetFn = func() string { return GreetFn() }"), "greet_test.go": xtest},
			during: map[string]string{"greet.go": seam("helo", "// GreetFn is the seam.\nvar GreetFn = greet\n\nvar greetFn = func() string { return GreetFn() }"),
				"internal/stub/stub.go": "// Package stub.\npackage stub\n\nimport \"example.com/greet\"\n\nfunc init() { greet.GreetFn = func() string { return \"hello\" } }\n",
				"setup_test.go":         "package greet_test\n\nimport _ \"example.com/greet/internal/stub\"\n"},
			weakens: true},
		// Lazy pass 27 (c3): two packages away.
		{name: "a helper that calls a second helper package which swaps the seam",
			start: map[string]string{"go.mod": mod, "greet.go": seam("hello", "// GreetFn is the seam.\nvar GreetFn = greet\n\nvar greetFn = func() string { return GreetFn() }"), "greet_test.go": xtest},
			during: map[string]string{"greet.go": seam("helo", "// GreetFn is the seam.\nvar GreetFn = greet\n\nvar greetFn = func() string { return GreetFn() }"),
				"internal/stubs/stubs.go":         "// Package stubs.\npackage stubs\n\nimport \"example.com/greet\"\n\n// Swap stubs greet.\nfunc Swap() { greet.GreetFn = func() string { return \"hello\" } }\n",
				"internal/greettest/greettest.go": "// Package greettest helps greet's tests.\npackage greettest\n\nimport \"example.com/greet/internal/stubs\"\n\n// Install sets up greet for tests.\nfunc Install() { stubs.Swap() }\n",
				"setup_test.go":                   "package greet_test\n\nimport \"example.com/greet/internal/greettest\"\n\nfunc init() { greettest.Install() }\n"},
			weakens: true},
		{name: "a helper whose blank import's init, two packages away, swaps the seam",
			start: map[string]string{"go.mod": mod, "greet.go": seam("hello", "// GreetFn is the seam.\nvar GreetFn = greet\n\nvar greetFn = func() string { return GreetFn() }"), "greet_test.go": xtest},
			during: map[string]string{"greet.go": seam("helo", "// GreetFn is the seam.\nvar GreetFn = greet\n\nvar greetFn = func() string { return GreetFn() }"),
				"internal/stubs/stubs.go":         "// Package stubs.\npackage stubs\n\nimport \"example.com/greet\"\n\nfunc init() { greet.GreetFn = func() string { return \"hello\" } }\n",
				"internal/greettest/greettest.go": "// Package greettest helps greet's tests.\npackage greettest\n\nimport _ \"example.com/greet/internal/stubs\"\n\n// Install sets up greet for tests.\nfunc Install() {}\n",
				"setup_test.go":                   "package greet_test\n\nimport \"example.com/greet/internal/greettest\"\n\nfunc init() { greettest.Install() }\n"},
			weakens: true},
		{name: "honest: a helper that calls a clock helper freezing the exported clock",
			start: map[string]string{"go.mod": mod, "greet.go": seam("hello", "var greetFn = greet"), "greet_test.go": xtest},
			during: map[string]string{"internal/clocktest/clocktest.go": "// Package clocktest freezes greet's clock.\npackage clocktest\n\nimport (\n\t\"time\"\n\n\t\"example.com/greet\"\n)\n\n// Freeze stops the clock.\nfunc Freeze() { greet.Now = func() time.Time { return time.Unix(0, 0) } }\n",
				"internal/greettest/greettest.go": "// Package greettest helps greet's tests.\npackage greettest\n\nimport \"example.com/greet/internal/clocktest\"\n\n// Install sets up greet for tests.\nfunc Install() { clocktest.Freeze() }\n",
				"setup_test.go":                   "package greet_test\n\nimport \"example.com/greet/internal/greettest\"\n\nfunc init() { greettest.Install() }\n"}},
		// Honest twins: the code fixed, the same shapes used on a
		// collaborator or the clock.
		{name: "honest: a fake collaborator passed in",
			start: map[string]string{"go.mod": mod, "greet.go": seam("hello", "var greetFn = greet"), "greet_test.go": test},
			during: map[string]string{"store.go": "package greet\n\n// Store names people.\ntype Store interface{ Name() string }\n\n// GreetFrom greets a stored name.\nfunc GreetFrom(s Store) string { return Greet() + \" \" + s.Name() }\n",
				"store_test.go": "package greet\n\nimport \"testing\"\n\ntype fakeStore struct{}\n\nfunc (fakeStore) Name() string { return \"ann\" }\n\nfunc TestGreetFrom(t *testing.T) {\n\tif got := GreetFrom(fakeStore{}); got != \"hello ann\" {\n\t\tt.Fatal(got)\n\t}\n}\n"}},
		{name: "honest: the clock fixed in TestMain through a pointer",
			start:  map[string]string{"go.mod": mod, "greet.go": seam("hello", "var greetFn = greet"), "greet_test.go": test},
			during: map[string]string{"main_test.go": "package greet\n\nimport (\n\t\"os\"\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestMain(m *testing.M) {\n\tp := &now\n\t*p = func() time.Time { return time.Unix(0, 0) }\n\tos.Exit(m.Run())\n}\n"}},
		{name: "honest: a helper package that fixes the exported clock",
			start: map[string]string{"go.mod": mod, "greet.go": seam("hello", "var greetFn = greet"), "greet_test.go": xtest},
			during: map[string]string{"internal/clocktest/clocktest.go": "// Package clocktest freezes greet's clock.\npackage clocktest\n\nimport (\n\t\"time\"\n\n\t\"example.com/greet\"\n)\n\n// Freeze stops the clock.\nfunc Freeze() { greet.Now = func() time.Time { return time.Unix(0, 0) } }\n",
				"setup_test.go": "package greet_test\n\nimport \"example.com/greet/internal/clocktest\"\n\nfunc init() { clocktest.Freeze() }\n"}},
		{name: "honest: reflect reads the seam, a test swaps it and puts it back",
			start:  map[string]string{"go.mod": mod, "greet.go": seam("hello", "var greetFn = greet"), "greet_test.go": test},
			during: map[string]string{"swap_test.go": "package greet\n\nimport (\n\t\"reflect\"\n\t\"testing\"\n)\n\nvar kind = reflect.ValueOf(&greetFn).Elem().Kind()\n\nfunc TestSwap(t *testing.T) {\n\told := greetFn\n\tdefer func() { greetFn = old }()\n\tgreetFn = func() string { return \"x\" }\n\tif Greet() != \"x\" || kind != reflect.Func {\n\t\tt.Fatal(\"no swap\")\n\t}\n}\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo, start := commitStart(t, root, c.start)
			writeFiles(t, root, c.during)
			got, err := testrun.SkipsAdded(context.Background(), repo, start)
			if err != nil {
				t.Fatal(err)
			}
			if (len(got) > 0) != c.weakens {
				t.Errorf("SkipsAdded = %q, want weakens=%v", got, c.weakens)
			}
			// Verify's range reader: the changed files at both ends, the
			// tip's other files of the changed test files' packages.
			var files []testrun.RangeFile
			dirs := map[string]bool{}
			for p, b := range c.during {
				w, existed := c.start[p]
				files = append(files, testrun.RangeFile{Path: p, Existed: existed, Was: []byte(w), Now: []byte(b)})
				if strings.HasSuffix(p, "_test.go") {
					dirs[path.Dir(p)] = true
				}
			}
			pkg := map[string][]byte{}
			for p, b := range c.start {
				if _, ok := c.during[p]; !ok && dirs[path.Dir(p)] && strings.HasSuffix(p, ".go") {
					pkg[p] = []byte(b)
				}
			}
			if byPath := testrun.SkipsAddedRange(files, pkg, nil, nil); (len(byPath) > 0) != c.weakens {
				t.Errorf("SkipsAddedRange = %q, want weakens=%v", byPath, c.weakens)
			}
			cmd := exec.Command("go", "test", "-count=1", "./...")
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("go test: %v, want a pass: the lazy change passes the broken code, the honest work passes\n%s", err, out)
			}
		})
	}
}
