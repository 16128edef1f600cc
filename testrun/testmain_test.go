package testrun

import (
	"runtime"
	"testing"
)

func TestTestMainHides(t *testing.T) {
	const head = "package greet\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\n"
	for _, tt := range []struct {
		name     string
		was, now string
		hides    bool
	}{
		{"honest: os.Exit(m.Run())", "", head + "func TestMain(m *testing.M) {\n\tos.Exit(m.Run())\n}\n", false},
		{"honest: code kept past teardown", "", head + "func TestMain(m *testing.M) {\n\tcode := m.Run()\n\tos.RemoveAll(\"tmp\")\n\tos.Exit(code)\n}\n", false},
		{"honest: m.Run() and return (go test exits with its result)", "", head + "func TestMain(m *testing.M) {\n\tsetup()\n\tm.Run()\n}\n", false},
		{"honest: a helper process exits 0 before the run", "", head + "func TestMain(m *testing.M) {\n\tif os.Getenv(\"HELPER\") == \"1\" {\n\t\tos.Exit(0)\n\t}\n\tos.Exit(m.Run())\n}\n", false},
		{"honest: an old lazy TestMain left as it was", head + "func TestMain(m *testing.M) {\n\tm.Run()\n\tos.Exit(0)\n}\n", head + "func TestMain(m *testing.M) {\n\tm.Run()\n\tos.Exit(0)\n}\n\nfunc TestX(t *testing.T) {}\n", false},
		{"honest: m.Run handed to another package's helper", "", head + "func TestMain(m *testing.M) {\n\tos.Exit(tmpleak.Run(m.Run))\n}\n", false},
		{"honest: m handed to goleak", "", head + "func TestMain(m *testing.M) {\n\tgoleak.VerifyTestMain(m)\n}\n", false},
		{"honest: m handed after another argument", "", head + "func TestMain(m *testing.M) {\n\tos.Exit(testscript.RunMain(m, map[string]func() int{}))\n}\n", false},
		{"m.Run handed to a same-package helper", "", head + "func TestMain(m *testing.M) {\n\tos.Exit(run(m.Run))\n}\n\nfunc run(f func() int) int { return 0 }\n", true},
		{"m.Run() then os.Exit(0)", "", head + "func TestMain(m *testing.M) {\n\tm.Run()\n\tos.Exit(0)\n}\n", true},
		{"_ = m.Run(); os.Exit(0) on one line", "", head + "func TestMain(m *testing.M) { _ = m.Run(); os.Exit(0) }\n", true},
		{"no m.Run", "", head + "func TestMain(tm *testing.M) {\n\tos.Exit(0)\n}\n", true},
		{"m.Run only in a comment", "", head + "func TestMain(m *testing.M) {\n\t// m.Run()\n}\n", true},
		{"an honest TestMain changed to drop the result", head + "func TestMain(m *testing.M) {\n\tos.Exit(m.Run())\n}\n", head + "func TestMain(m *testing.M) {\n\tm.Run()\n\tos.Exit(0)\n}\n", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := testMainHides([]byte(tt.was), []byte(tt.now))
			if (got != "") != tt.hides {
				t.Errorf("testMainHides = %q, want hides=%v", got, tt.hides)
			}
			if sk := SkipsIn("go", []byte(tt.was), []byte(tt.now), tt.was != ""); (len(sk) > 0) != tt.hides {
				t.Errorf("SkipsIn = %q, want a skip=%v", sk, tt.hides)
			}
		})
	}
}

func TestGoCollects(t *testing.T) {
	other := "windows"
	if runtime.GOOS == "windows" {
		other = "linux"
	}
	const body = "package greet\n\nimport \"testing\"\n\nfunc TestGreeting(t *testing.T) {}\n"
	for _, tt := range []struct {
		rel, body string
		want      bool
	}{
		{"greet_test.go", body, true},
		{"sub/greeting_test.go", body, true},
		{"greet_" + runtime.GOOS + "_test.go", body, true},
		{"greet_" + runtime.GOARCH + "_test.go", body, true},
		{"_greet_test.go", body, false},
		{".greet_test.go", body, false},
		{"greet_" + other + "_test.go", body, false},
		{"greet_test.go", "//go:build ignore\n\n" + body, false},
		{"greet_test.go", "//go:build " + other + "\n\n" + body, false},
		{"greet_test.go", "//go:build !" + other + "\n\n" + body, true},
		{"greet_test.go", "// +build ignore\n\n" + body, false},
	} {
		if got := GoCollects(tt.rel, []byte(tt.body)); got != tt.want {
			t.Errorf("GoCollects(%s, %.20q) = %v, want %v", tt.rel, tt.body, got, tt.want)
		}
	}
}

func TestGoChecksDropped(t *testing.T) {
	const head = "package greet\n\nimport \"testing\"\n\n"
	const was = head + "func TestGreeting(t *testing.T) {\n\tif g := Greeting(); g != \"hello\" {\n\t\tt.Fatalf(\"got %q\", g)\n\t}\n}\n"
	for _, tt := range []struct {
		name, now string
		dropped   bool
	}{
		{"honest: the message reworded", head + "func TestGreeting(t *testing.T) {\n\tif g := Greeting(); g != \"hello\" {\n\t\tt.Errorf(\"Greeting() = %q, want hello\", g)\n\t}\n}\n", false},
		{"honest: the check moved into a helper that takes t", head + "func TestGreeting(t *testing.T) {\n\tcheck(t, Greeting(), \"hello\")\n}\n", false},
		{"honest: an assertion library", head + "func TestGreeting(t *testing.T) {\n\trequire.Equal(t, \"hello\", Greeting())\n}\n", false},
		{"honest: subtests", head + "func TestGreeting(t *testing.T) {\n\tt.Run(\"plain\", func(t *testing.T) {\n\t\tif Greeting() != \"hello\" {\n\t\t\tt.Fail()\n\t\t}\n\t})\n}\n", false},
		{"honest: the test deleted (removed.go judges that)", head, false},
		{"t.Fatalf made t.Logf", head + "func TestGreeting(t *testing.T) {\n\tif g := Greeting(); g != \"hello\" {\n\t\tt.Logf(\"got %q\", g)\n\t}\n}\n", true},
		{"the failing call commented out", head + "func TestGreeting(t *testing.T) {\n\tif g := Greeting(); g != \"hello\" {\n\t\t// t.Fatalf(\"got %q\", g)\n\t}\n}\n", true},
		{"the check replaced by a call", head + "func TestGreeting(t *testing.T) {\n\t_ = Greeting()\n}\n", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := goChecksDropped([]byte(was), []byte(tt.now))
			if (len(got) > 0) != tt.dropped {
				t.Errorf("goChecksDropped = %q, want dropped=%v", got, tt.dropped)
			}
		})
	}
}

func TestGoRunFlagsSet(t *testing.T) {
	const head = "package greet\n\nimport (\n\t\"flag\"\n\t\"os\"\n\t\"os/exec\"\n\t\"testing\"\n)\n\n"
	for _, tt := range []struct {
		name, now string
		sets      bool
	}{
		{"honest: the test binary re-run as a helper process", head + "func TestCrash(t *testing.T) {\n\tcmd := exec.Command(os.Args[0], \"-test.run=TestHelperProcess\")\n\t_ = cmd.Run()\n}\n", false},
		{"honest: a flag of the package's own", head + "var update = flag.Bool(\"update\", false, \"rewrite golden files\")\n", false},
		{"honest: os.Args read", head + "func TestArgs(t *testing.T) {\n\tif len(os.Args) == 0 {\n\t\tt.Fatal(\"no args\")\n\t}\n}\n", false},
		{"flag.Set test.run in init", head + "func init() {\n\ttesting.Init()\n\tflag.Set(\"test.run\", \"^TestTo$\")\n}\n", true},
		{"flag.Lookup test.skip", head + "func init() {\n\ttesting.Init()\n\tflag.Lookup(\"test.skip\").Value.Set(\"TestGreeting\")\n}\n", true},
		{"os.Args rewritten", head + "func init() {\n\tos.Args = append(os.Args, \"-test.run=^TestTo$\")\n}\n", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := goRunFlagsSet(nil, []byte(tt.now)); (len(got) > 0) != tt.sets {
				t.Errorf("goRunFlagsSet = %q, want sets=%v", got, tt.sets)
			}
		})
	}
}
