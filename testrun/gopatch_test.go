package testrun

import "testing"

func TestGoCodeReplaced(t *testing.T) {
	pkg := map[string][]byte{
		"greet/greet.go": []byte("package greet\n\nimport \"time\"\n\nvar greetFn = greet\n\nvar shout = func(s string) string { return s + \"!\" }\n\nvar now = time.Now\n\nvar timeout = 5\n\nfunc greet(name string) string { return \"hello \" + name }\n\n// Greet greets.\nfunc Greet(name string) string { return greetFn(name) }\n\nvar GreetFn = greet\n\nvar testHookStep = func() {}\n\nvar hookForce = hookDummy\n\nfunc hookDummy() bool { return false }\n"),
	}
	const fake = "func fakeGreet(name string) string { return \"hello \" + name }\n\n"
	const test = "func TestGreet(t *testing.T) {\n\tif Greet(\"Ada\") != \"hello Ada\" {\n\t\tt.Fatal(\"no\")\n\t}\n}\n"
	const head = "package greet\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\n"
	for _, c := range []struct {
		name, was, now string
		want           bool
	}{
		{"init assigns the package's function variable", "", head + fake + "func init() { greetFn = fakeGreet }\n\n" + test, true},
		{"TestMain assigns it before m.Run", "", head + fake + "func TestMain(m *testing.M) {\n\tgreetFn = fakeGreet\n\tos.Exit(m.Run())\n}\n\n" + test, true},
		{"a package-level initialiser that calls a literal", "", head + fake + "var _ = func() bool { greetFn = fakeGreet; return true }()\n\n" + test, true},
		{"a function literal in init", "", head + "func init() {\n\tshout = func(s string) string { return s }\n}\n\n" + test, true},
		{"an external test package through the import", "", "package greet_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/greet\"\n)\n\n" + fake + "func init() { greet.GreetFn = fakeGreet }\n", true},
		{"init added to a file that had the test", head + fake + test, head + fake + "func init() { greetFn = fakeGreet }\n\n" + test, true},
		// Honest.
		{"the variable replaced inside a test, restored after", "", head + fake + "func TestFake(t *testing.T) {\n\told := greetFn\n\tgreetFn = fakeGreet\n\tdefer func() { greetFn = old }()\n}\n", false},
		{"a restore deferred in TestMain", "", head + "func TestMain(m *testing.M) {\n\told := greetFn\n\tdefer func() { greetFn = old }()\n\tos.Exit(m.Run())\n}\n", false},
		{"a restore after m.Run in TestMain", "", head + "func TestMain(m *testing.M) {\n\told := greetFn\n\tcode := m.Run()\n\tgreetFn = old\n\tos.Exit(code)\n}\n", false},
		{"the clock stubbed in init (another package's function)", "", head + "func init() { now = func() time.Time { return time.Time{} } }\n", false},
		{"a value, not a function, set in init", "", head + "func init() { timeout = 1 }\n", false},
		{"the init was there at the start", head + fake + "func init() { greetFn = fakeGreet }\n", head + fake + "func init() { greetFn = fakeGreet }\n\n" + test, false},
		{"a local of the same name in a test", "", head + fake + "func TestX(t *testing.T) {\n\tgreetFn := fakeGreet\n\t_ = greetFn\n}\n", false},
		{"a test hook set in init (a no-op literal in the code)", "", head + "func init() { testHookStep = func() { println() } }\n", false},
		{"a test hook set in init (a function that returns false)", "", head + "func init() { hookForce = func() bool { return true } }\n", false},
		{"another package's test file", "", "package other\n\nfunc init() { greetFn = nil }\n", false},
	} {
		why := goCodeReplaced([]byte(c.was), []byte(c.now), func() map[string][]byte { return pkg })
		if got := why != ""; got != c.want {
			t.Errorf("%s: replaced=%v (%q), want %v", c.name, got, why, c.want)
		}
	}
}
