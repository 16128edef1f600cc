package testrun

import (
	"slices"
	"testing"
)

// TestWeakTestsIn: a new test that checks nothing about the code is
// weak (issue 25: assert True, expect(true).toBe(true), a Go test with
// no t.Error/t.Fatal/require/assert); one that checks what the code
// returns is not, and tests that were there are not judged.
func TestWeakTestsIn(t *testing.T) {
	tests := []struct {
		name, kind, was, now string
		weak                 []string
	}{
		// A test written on its header's line (round 19: the body's readers
		// started below the header, so an honest vitest one-liner on a new
		// module checked nothing and its QA run was refused).
		{"js: one-line arrow test checks the code", "js", "", "import add from \"./c.js\";\ntest(\"add adds\", () => { expect(add(1, 2)).toBe(3); });\n", nil},
		{"js: one-line function test checks the code", "js", "", "const add = require(\"./c\");\nit(\"adds\", function () { expect(add(1, 2)).toBe(3); });\n", nil},
		{"js: one-line test checks nothing", "js", "", "test(\"x\", () => { expect(true).toBe(true); });\n", []string{"x"}},
		{"py: one-line def checks the code", "py", "", "from c import add\n\ndef test_add(): assert add(1, 2) == 3\n", nil},
		{"py: one-line def checks nothing", "py", "", "def test_add() -> None: assert True\n", []string{"test_add"}},
		{"go: calls the code, checks nothing", "go", "", "func TestA(t *testing.T) {\n\t_ = A()\n}\n", []string{"TestA"}},
		// A module imported under a standard library's name is the code
		// (goccy/go-json's TestValid read as checking nothing before);
		// the standard library's own json is not.
		{"go: a module imported as json", "go", "", "package json_test\n\nimport (\n\t\"testing\"\n\n\t\"github.com/goccy/go-json\"\n)\n\nfunc TestValid(t *testing.T) {\n\tif ok := json.Valid([]byte(`{}`)); !ok {\n\t\tt.Error(ok)\n\t}\n}\n", nil},
		{"go: an aliased module imported as json", "go", "", "package m_test\n\nimport (\n\t\"testing\"\n\n\tjson \"example.com/fastjson/v2\"\n)\n\nfunc TestValid(t *testing.T) {\n\tif ok := json.Valid([]byte(`{}`)); !ok {\n\t\tt.Error(ok)\n\t}\n}\n", nil},
		{"go: the standard library's json checked", "go", "", "package m_test\n\nimport (\n\t\"encoding/json\"\n\t\"testing\"\n)\n\nfunc TestValid(t *testing.T) {\n\tif ok := json.Valid([]byte(`{}`)); !ok {\n\t\tt.Error(ok)\n\t}\n}\n", []string{"TestValid"}},
		{"go: if false { t.Error }", "go", "", "func TestA(t *testing.T) {\n\tif 1 != 1 {\n\t\tt.Error(\"x\")\n\t}\n}\n", []string{"TestA"}},
		{"go: require.True(t, true)", "go", "", "func TestA(t *testing.T) {\n\trequire.True(t, true)\n}\n", []string{"TestA"}},
		{"py: assert True", "py", "", "def test_a():\n    a()\n    assert True\n", []string{"test_a"}},
		{"py: assert 1 == 1", "py", "", "def test_a():\n    assert 1 == 1, \"ok\"\n", []string{"test_a"}},
		{"js: expect(true).toBe(true)", "js", "", "test('a', () => {\n  add(1, 2)\n  expect(true).toBe(true)\n})\n", []string{"a"}},
		{"js: assert.ok(true)", "js", "", "it('a', () => {\n  assert.ok(true)\n})\n", []string{"a"}},
		// Checks that cannot fail, and calls whose result no check reads
		// (issue 25 item 4; all got through before).
		{"go: if got != got", "go", "", "func TestA(t *testing.T) {\n\tgot := A()\n\tif got != got {\n\t\tt.Fatal(got)\n\t}\n}\n", []string{"TestA"}},
		{"go: the result discarded, a literal checked", "go", "", "func TestA(t *testing.T) {\n\tA()\n\tif 1+1 != 2 {\n\t\tt.Fatal()\n\t}\n}\n", []string{"TestA"}},
		{"go: the result discarded, a local checked", "go", "", "func TestA(t *testing.T) {\n\tA()\n\tx := 3\n\tif x != 3 {\n\t\tt.Fatal()\n\t}\n}\n", []string{"TestA"}},
		{"go: require.Equal(t, got, got)", "go", "", "func TestA(t *testing.T) {\n\tgot := A()\n\trequire.Equal(t, got, got)\n}\n", []string{"TestA"}},
		{"go: t.Fatal after a return", "go", "", "func TestA(t *testing.T) {\n\tgot := A()\n\treturn\n\tif got != 3 {\n\t\tt.Fatal(got)\n\t}\n}\n", []string{"TestA"}},
		{"py: assert r == r", "py", "", "def test_a():\n    r = a()\n    assert r == r\n", []string{"test_a"}},
		{"py: assert len(r) >= 0", "py", "", "def test_a():\n    r = a()\n    assert len(r) >= 0\n", []string{"test_a"}},
		{"py: assert r is not None or True", "py", "", "def test_a():\n    r = a()\n    assert r is not None or True\n", []string{"test_a"}},
		{"py: try/except AssertionError: pass", "py", "", "def test_a():\n    try:\n        assert a() == 3\n    except AssertionError:\n        pass\n", []string{"test_a"}},
		{"py: bare except swallows", "py", "", "def test_a():\n    try:\n        assert a() == 3\n    except:\n        print('flaky')\n", []string{"test_a"}},
		{"py: the result discarded", "py", "", "def test_a():\n    a()\n    x = 3\n    assert x == 3\n", []string{"test_a"}},
		{"py: self.assertEqual(r, r)", "py", "", "class T(unittest.TestCase):\n    def test_a(self):\n        r = a()\n        self.assertEqual(r, r)\n", []string{"test_a"}},
		{"js: expect(f()).toEqual(f())", "js", "", "test('a', () => {\n  expect(f()).toEqual(f())\n})\n", []string{"a"}},
		{"js: the result discarded", "js", "", "test('a', () => {\n  f()\n  const x = 3\n  expect(x).toBe(3)\n})\n", []string{"a"}},
		{"js: try/catch swallows", "js", "", "test('a', () => {\n  try {\n    expect(f()).toBe(3)\n  } catch (e) {\n    console.log(e)\n  }\n})\n", []string{"a"}},
		// Honest twins.
		{"go: err from the code checked", "go", "", "func TestA(t *testing.T) {\n\t_, err := Parse(\"x\")\n\tif err == nil {\n\t\tt.Fatal(\"no error\")\n\t}\n}\n", nil},
		{"go: a package constant checked", "go", "", "func TestA(t *testing.T) {\n\tif Version == \"\" {\n\t\tt.Fatal(\"no version\")\n\t}\n}\n", nil},
		{"go: a helper in the file holds the check", "go", "", "func eq(t *testing.T, got, want int) {\n\tif got != want {\n\t\tt.Fatal(got)\n\t}\n}\n\nfunc TestA(t *testing.T) {\n\teq(t, A(), 3)\n}\n", nil},
		{"go: a return after a failed check", "go", "", "func TestA(t *testing.T) {\n\tgot, err := A()\n\tif err != nil {\n\t\tt.Error(err)\n\t\treturn\n\t}\n\tif got != 3 {\n\t\tt.Fatal(got)\n\t}\n}\n", nil},
		{"py: a fixture checked", "py", "", "def test_a(client):\n    assert client.get('/').status_code == 200\n", nil},
		{"py: try/except that fails", "py", "", "def test_a():\n    try:\n        r = a()\n    except ValueError:\n        pytest.fail('raised')\n    assert r == 3\n", nil},
		{"py: except AssertionError that re-raises", "py", "", "def test_a():\n    try:\n        assert a() == 3\n    except AssertionError:\n        dump()\n        raise\n", nil},
		{"py: a unittest case's own method and a local named error", "py", "", "class T(TestCase):\n    def test_a(self):\n        error = self.make_error()\n        self.assertGreater(len(error.args), 1)\n", nil},
		{"py: the code's own equal(nan, nan)", "py", "", "class T(TestCase):\n    def test_a(self):\n        self.assertTrue(equal(nan, nan))\n", nil},
		{"go: a variable named it", "go", "", "func TestA(t *testing.T) {\n\tlist := New()\n\tit := list.Iterator()\n\tit.Next()\n\tif index := it.Index(); index != 0 {\n\t\tt.Errorf(\"got %d\", index)\n\t}\n}\n", nil},
		{"js: a table of cases", "js", "", "test('a', () => {\n  for (const [x, want] of [[1, 2]]) {\n    expect(inc(x)).toBe(want)\n  }\n})\n", nil},
		{"js: g(1) compared with g(2)", "js", "", "test('a', () => {\n  expect(g(1)).not.toEqual(g(2))\n})\n", nil},
		// Honest twins.
		{"go: if A() != 3 { t.Fatal }", "go", "", "func TestA(t *testing.T) {\n\tif A() != 3 {\n\t\tt.Fatal(\"A\")\n\t}\n}\n", nil},
		{"go: got := A(); t.Errorf below a condition", "go", "", "func TestA(t *testing.T) {\n\tgot := A()\n\tif got != 3 {\n\t\tt.Errorf(\"got %d\", got)\n\t}\n}\n", nil},
		{"go: require.Equal(t, 3, A())", "go", "", "func TestA(t *testing.T) {\n\trequire.Equal(t, 3, A())\n}\n", nil},
		{"go: a helper that takes t", "go", "", "func TestA(t *testing.T) {\n\tcheckGreet(t, \"x\")\n}\n", nil},
		{"py: assert a() == 3", "py", "", "def test_a():\n    assert a() == 3\n", nil},
		{"py: self.assertEqual", "py", "", "class T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(a(), 3)\n", nil},
		{"js: expect(add(1, 2)).toBe(3)", "js", "", "test('a', () => {\n  expect(add(1, 2)).toBe(3)\n})\n", nil},
		// Honest checks the check units first missed (the module cache,
		// site-packages and node_modules), each with its lazy twin.
		{"go: a closure run by the assertion", "go", "", "func TestA(t *testing.T) {\n\tg := New()\n\tassert.Panics(t, func() {\n\t\tg.Static(\"/x\", \"../\")\n\t})\n}\n", nil},
		{"go: a closure that runs no code", "go", "", "func TestA(t *testing.T) {\n\tassert.NotPanics(t, func() {\n\t\t_ = 1 + 1\n\t})\n}\n", []string{"TestA"}},
		{"go: a buffer the code writes to", "go", "", "func TestA(t *testing.T) {\n\tvar b bytes.Buffer\n\tNewWriter(&b).Write([]byte{0x1b})\n\tif b.Len() > 0 {\n\t\tt.Fatal(b.Len())\n\t}\n}\n", nil},
		{"go: a receiver the code changes", "go", "", "func TestA(t *testing.T) {\n\tlist := New()\n\tlist.Add(\"a\")\n\tany := list.Any(func(i int, v any) bool {\n\t\treturn v == \"a\"\n\t})\n\tif any != true {\n\t\tt.Error(any)\n\t}\n}\n", nil},
		{"go: a flag set under a condition on what the code wrote", "go", "", "func TestA(t *testing.T) {\n\tvar p Poly\n\tvar m [32]byte\n\tok := true\n\tfor i := 0; i < 3; i++ {\n\t\tp.Compress(m[:])\n\t\tif m[0] != 1 {\n\t\t\tok = false\n\t\t}\n\t}\n\tif !ok {\n\t\tt.Fatal()\n\t}\n}\n", nil},
		{"go: a value passed to the code, which cannot change it", "go", "", "func TestA(t *testing.T) {\n\tx := 3\n\tA(x)\n\tif x != 3 {\n\t\tt.Fatal(x)\n\t}\n}\n", []string{"TestA"}},
		{"go: a package variable set by the code", "go", "", "func TestA(t *testing.T) {\n\tstd.names = []string{}\n\tSetName(\"x\")\n\tassert.Equal(t, []string{\"x\"}, std.names)\n}\n", nil},
		{"go: a goroutine's result", "go", "", "func TestA(t *testing.T) {\n\tc := New()\n\tresult := make(chan error, 1)\n\tgo func() {\n\t\t_, err := c.Send(\"x\")\n\t\tresult <- err\n\t}()\n\terr := <-result\n\tif err != io.EOF {\n\t\tt.Error(err)\n\t}\n}\n", nil},
		{"go: a flag the code sets through a pointer", "go", "", "func TestA(t *testing.T) {\n\tp := NewPrinter()\n\tfailed := false\n\tr := &Recur{3, &failed}\n\tp.Sprintf(\"%v\", &r)\n\tif failed {\n\t\tt.Error(\"failed\")\n\t}\n}\n", nil},
		{"go: a flag behind a pointer nothing uses", "go", "", "func TestA(t *testing.T) {\n\tA()\n\tfailed := false\n\tr := &failed\n\t_ = r\n\tif failed {\n\t\tt.Error(\"failed\")\n\t}\n}\n", []string{"TestA"}},
		{"go: a table of the code's functions", "go", "", "func TestA(t *testing.T) {\n\ttests := []struct {\n\t\tenum func(int) string\n\t\twant string\n\t}{\n\t\t{list.Alphabet, \"A\"},\n\t}\n\tfor _, test := range tests {\n\t\tif got := test.enum(0); got != test.want {\n\t\t\tt.Error(got)\n\t\t}\n\t}\n}\n", nil},
		{"py: a nested def the code decorates", "py", "", "def test_a():\n    @decorators.flag_calls\n    def f():\n        pass\n\n    f()\n    assert f.called\n", nil},
		{"py: a nested def of the test's own", "py", "", "def test_a():\n    a()\n\n    def f():\n        pass\n\n    f.called = True\n    assert f.called\n", []string{"test_a"}},
		{"py: sympy's Symbol", "py", "", "def test_a():\n    x = Symbol('x')\n    assert 1/(1/x) == x\n", nil},
		{"py: a list a callback of the code fills", "py", "", "def test_a():\n    record = []\n\n    def cb(x):\n        record.append(x)\n\n    run(cb)\n    assert record == [1]\n", nil},
		{"py: a list nothing fills", "py", "", "def test_a():\n    record = []\n    a()\n    assert record == []\n", []string{"test_a"}},
		{"py: a number passed to the code", "py", "", "def test_a():\n    x = 3\n    a(x)\n    assert x == 3\n", []string{"test_a"}},
		{"py: a dict the code fills", "py", "", "def test_a():\n    ns = {}\n    pt.import_pylab(ns)\n    assert 'plt' in ns\n", nil},
		{"py: a base class's own assertion", "py", "", "class T(CodemodTest):\n    def test_a(self):\n        before = 'f(a)'\n        after = 'f(a,)'\n        self.assertCodemod(before, after)\n", nil},
		{"py: unittest's assertion on two locals", "py", "", "class T(TestCase):\n    def test_a(self):\n        before = 'f(a)'\n        after = before\n        self.assertEqual(before, after)\n", []string{"test_a"}},
		{"py: a fail in a handler the code calls", "py", "", "class T(TestCase):\n    def test_a(self):\n        def handler(url):\n            self.fail('called twice')\n\n        r = Resolver(handlers={'foo': handler})\n        r.resolve('foo://x')\n", nil},
		{"py: a fail in a handler nothing calls", "py", "", "class T(TestCase):\n    def test_a(self):\n        def handler(url):\n            self.fail('called twice')\n", []string{"test_a"}},
		{"js: a counter a callback of the code bumps", "js", "", "test('a', (t) => {\n  let n = 0\n  const s = writeStream(function (data) {\n    n += 1\n  })\n  const log = pino({}, multistream().add(s))\n  log.info('x')\n  t.equal(n, 1)\n})\n", nil},
		{"js: a counter nothing bumps", "js", "", "test('a', (t) => {\n  let n = 0\n  f()\n  t.equal(n, 0)\n})\n", []string{"a"}},
		{"js: an array the code's listeners fill", "js", "", "it('a', function () {\n  var order = [];\n  var e = new Emitter();\n  e.event(function (d) { return order.push(d); });\n  e.fire(1);\n  assert.deepEqual(order, [1]);\n});\n", nil},
		{"js: a value a callback of the code stashes", "js", "", "test('a', () => {\n  let seen\n  z.string()\n    .catch((ctx) => {\n      seen = ctx\n      return 'x'\n    })\n    .parse('hi')\n  expect(seen.aborted).toBe(true)\n})\n", nil},
		{"js: a closure run by expect", "js", "", "test('a', () => {\n  expect(() => {\n    z.string({ bad: 1 })\n  }).toThrow()\n})\n", nil},
		{"js: a closure that runs no code", "js", "", "test('a', () => {\n  expect(() => {\n    return 1\n  }).toThrow()\n})\n", []string{"a"}},
		{"js: a property set and read back", "js", "", "test('a', () => {\n  const o = {}\n  o.x = 3\n  expect(o.x).toBe(3)\n})\n", []string{"a"}},
		{"js: the package under test loaded", "js", "", "const uri = require('..')\n\ntest('a', (t) => {\n  t.ok(uri)\n})\n", nil},
		{"js: a standard module loaded", "js", "", "const fs = require('fs')\n\ntest('a', (t) => {\n  t.ok(fs)\n})\n", []string{"a"}},
		{"go: a weak test that was there", "go", "func TestA(t *testing.T) {\n\t_ = A()\n}\n", "func TestA(t *testing.T) {\n\t_ = A()\n}\n", nil},
	}
	for _, tc := range tests {
		var was []byte
		if tc.was != "" {
			was = []byte(tc.was)
		}
		if got := WeakTestsIn(tc.kind, was, []byte(tc.now)); !slices.Equal(got, tc.weak) {
			t.Errorf("%s: weak %q, want %q", tc.name, got, tc.weak)
		}
	}
}

// TestCheckReappears: what a deleted test calls and compares with, and
// whether a test file's checks carry them (removed.go).
func TestCheckReappears(t *testing.T) {
	was := "func TestGreetName(t *testing.T) {\n\tif got := Greet(\"x\"); got != \"hello x\" {\n\t\tt.Fatalf(\"Greet(x) = %q\", got)\n\t}\n}\n"
	body := testBodies("go", []byte(was))["TestGreetName"]
	if c := callees("go", body); !c["Greet"] || len(c) != 1 {
		t.Errorf("callees %v, want Greet only", c)
	}
	if l := checkLiterals(body); !l["hello x"] || !l["x"] || l["Greet(x) = %q"] {
		t.Errorf("literals %v, want the expected values without the message", l)
	}
	tests := []struct {
		name, now string
		carries   bool
	}{
		{"a table with the same call and values", "func TestGreet(t *testing.T) {\n\tfor in, want := range map[string]string{\"x\": \"hello x\"} {\n\t\tif got := Greet(in); got != want {\n\t\t\tt.Error(got)\n\t\t}\n\t}\n}\n", true},
		{"the call without its check", "func TestGreet(t *testing.T) {\n\t_ = Greet(\"x\")\n\t_ = \"hello x\"\n}\n", false},
		{"another expected value", "func TestGreet(t *testing.T) {\n\tif got := Greet(\"x\"); got != \"hi x\" {\n\t\tt.Error(got)\n\t}\n}\n", false},
	}
	for _, tc := range tests {
		if got := DeletedTestMoved("go", []byte(was), "TestGreetName", [][]byte{[]byte(tc.now)}); got != tc.carries {
			t.Errorf("%s: moved %v, want %v", tc.name, got, tc.carries)
		}
	}
}
