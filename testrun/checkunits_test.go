package testrun

import "testing"

// TestDeletedTestMovedChecks: a deleted test counts as moved only when
// one check elsewhere calls its code, compares with its values and
// compares for equality if it did (checkunits.go). Rows marked old got
// through the pool of calls and literals: values parked in an unchecked
// line, a comparison weakened, a call and a value pooled from two checks.
func TestDeletedTestMovedChecks(t *testing.T) {
	const goHead = "package m\n\nimport \"testing\"\n\n"
	goWas := goHead + "func TestA(t *testing.T) {\n\tif got := A(2); got != 42 {\n\t\tt.Fatalf(\"A = %d\", got)\n\t}\n}\n\nfunc TestB(t *testing.T) {\n\tif got := B(); got != \"bee\" {\n\t\tt.Fatal(got)\n\t}\n}\n"
	goB := "\tif got := B(); got != \"bee\" {\n\t\tt.Fatal(got)\n\t}\n"
	pyWas := "def test_a():\n    assert a(2) == 42\n\n\ndef test_b():\n    assert b() == 'bee'\n"
	jsWas := "test('a', () => {\n  expect(a(2)).toBe(42)\n})\n\ntest('b', () => {\n  expect(b()).toBe('bee')\n})\n"
	// A unittest case whose checks reach the code through its own methods
	// and attributes (jsonschema's `self.message_for(...)`): moved as it
	// was, it was read as calling nothing and not carried.
	pyCase := "class TestMessages(TestCase):\n    def message_for(self, instance):\n        return validate(instance).message\n\n    def test_min(self):\n        message = self.message_for(1)\n        self.assertEqual(message, \"1 is less than 2\")\n\n    def test_attrs(self):\n        self.assertEqual(self.Validator.META, self.meta)\n"
	tests := []struct {
		name, kind, was, del, now string
		moved                     bool
	}{
		// Weakenings (all old).
		{"go: the value parked in _ = 42", "go", goWas, "TestA", goHead + "func TestB(t *testing.T) {\n\t_ = A(2)\n\t_ = 42\n" + goB + "}\n", false},
		{"go: the value parked in a log call", "go", goWas, "TestA", goHead + "func TestB(t *testing.T) {\n\tx := A(2)\n\tt.Log(x, 42)\n" + goB + "}\n", false},
		{"go: != weakened to <", "go", goWas, "TestA", goHead + "func TestB(t *testing.T) {\n\tif got := A(2); got < 42 {\n\t\tt.Fatal(got)\n\t}\n" + goB + "}\n", false},
		{"go: the call and the value in two checks", "go", goWas, "TestA", goHead + "func TestB(t *testing.T) {\n\tif A(2) == 0 {\n\t\tt.Fatal()\n\t}\n\tif got := B(); got != \"bee\" && 42 > 0 {\n\t\tt.Fatal(got)\n\t}\n}\n", false},
		{"go: the value in an unrelated variable", "go", goWas, "TestA", goHead + "func TestB(t *testing.T) {\n\twant := 42\n\t_ = want\n\tif A(2) == 0 {\n\t\tt.Fatal()\n\t}\n" + goB + "}\n", false},
		{"py: assert a(2) == 42 to assert a(2)", "py", pyWas, "test_a", "def test_b():\n    assert a(2)\n    x = 42\n    assert b() == 'bee'\n", false},
		{"py: == weakened to >=", "py", pyWas, "test_a", "def test_b():\n    assert a(2) >= 42\n    assert b() == 'bee'\n", false},
		{"py: the value in a bare string", "py", pyWas, "test_a", "def test_b():\n    assert a(2) is not None\n    '42'\n    42\n    assert b() == 'bee'\n", false},
		{"js: toBe(42) weakened to toBeDefined()", "js", jsWas, "a", "test('b', () => {\n  expect(a(2)).toBeDefined()\n  const n = 42\n  expect(b()).toBe('bee')\n})\n", false},
		{"js: the value in a console.log", "js", jsWas, "a", "test('b', () => {\n  expect(a(2)).toBeTruthy()\n  console.log(42)\n  expect(b()).toBe('bee')\n})\n", false},
		{"py: a unittest check through self moved without its assert", "py", pyCase, "test_min", "class TestMessages(TestCase):\n    def message_for(self, instance):\n        return validate(instance).message\n\n    def test_min2(self):\n        message = self.message_for(1)\n        print(message, \"1 is less than 2\")\n", false},
		{"py: a unittest check through self moved with another value", "py", pyCase, "test_min", "class TestMessages(TestCase):\n    def message_for(self, instance):\n        return validate(instance).message\n\n    def test_min2(self):\n        message = self.message_for(1)\n        self.assertEqual(message, \"anything\")\n", false},
		// Honest twins: real refactors.
		{"py: a unittest case moved as it was (checks through self)", "py", pyCase, "test_min", pyCase, true},
		{"py: a unittest attribute check moved as it was", "py", pyCase, "test_attrs", pyCase, true},
		{"go: a module imported as json moved as it was", "go", "package json_test\n\nimport (\n\t\"testing\"\n\n\t\"github.com/goccy/go-json\"\n)\n\nfunc TestValid(t *testing.T) {\n\tif ok := json.Valid([]byte(`{}`)); !ok {\n\t\tt.Error(ok)\n\t}\n}\n", "TestValid", "package json_test\n\nimport (\n\t\"testing\"\n\n\t\"github.com/goccy/go-json\"\n)\n\nfunc TestValid(t *testing.T) {\n\tif ok := json.Valid([]byte(`{}`)); !ok {\n\t\tt.Error(ok)\n\t}\n}\n", true},
		{"go: a table test", "go", goWas, "TestA", goHead + "func TestAB(t *testing.T) {\n\tfor _, tc := range []struct{ got, want any }{\n\t\t{A(2), 42},\n\t\t{B(), \"bee\"},\n\t} {\n\t\tif tc.got != tc.want {\n\t\t\tt.Error(tc.got)\n\t\t}\n\t}\n}\n", true},
		{"go: a named table with subtests", "go", goWas, "TestA", goHead + "func TestA2(t *testing.T) {\n\ttests := []struct {\n\t\tname string\n\t\tin   int\n\t\twant int\n\t}{\n\t\t{\"two\", 2, 42},\n\t}\n\tfor _, tc := range tests {\n\t\tt.Run(tc.name, func(t *testing.T) {\n\t\t\tif got := A(tc.in); got != tc.want {\n\t\t\t\tt.Errorf(\"A(%d) = %d\", tc.in, got)\n\t\t\t}\n\t\t})\n\t}\n}\n", true},
		{"go: a package-level table", "go", goWas, "TestA", goHead + "var aCases = map[int]int{\n\t2: 42,\n}\n\nfunc TestA2(t *testing.T) {\n\tfor in, want := range aCases {\n\t\tif got := A(in); got != want {\n\t\t\tt.Errorf(\"A(%d) = %d\", in, got)\n\t\t}\n\t}\n}\n", true},
		{"go: a helper holding the check", "go", goWas, "TestA", goHead + "func checkA(t *testing.T, in, want int) {\n\tt.Helper()\n\tif got := A(in); got != want {\n\t\tt.Errorf(\"A(%d) = %d\", in, got)\n\t}\n}\n\nfunc TestA2(t *testing.T) {\n\tcheckA(t, 2, 42)\n}\n", true},
		{"go: the test moved to another file as it was", "go", goWas, "TestA", goHead + "func TestA(t *testing.T) {\n\tif got := A(2); got != 42 {\n\t\tt.Fatalf(\"A = %d\", got)\n\t}\n}\n", true},
		{"go: got assigned above the check", "go", goWas, "TestA", goHead + "func TestA2(t *testing.T) {\n\tgot := A(2)\n\tif got != 42 {\n\t\tt.Fatalf(\"A = %d\", got)\n\t}\n}\n", true},
		{"py: parametrize", "py", pyWas, "test_a", "import pytest\n\n\n@pytest.mark.parametrize(\"fn,want\", [\n    (lambda: a(2), 42),\n    (b, 'bee'),\n])\ndef test_ab(fn, want):\n    assert fn() == want\n", true},
		{"py: a module-level table", "py", pyWas, "test_a", "CASES = [(2, 42)]\n\n\ndef test_a_cases():\n    for x, want in CASES:\n        assert a(x) == want\n", true},
		{"py: a helper holding the assert", "py", pyWas, "test_a", "def check(x, want):\n    assert a(x) == want\n\n\ndef test_a2():\n    check(2, 42)\n", true},
		{"py: unittest assertEqual", "py", pyWas, "test_a", "class T(unittest.TestCase):\n    def test_a2(self):\n        self.assertEqual(a(2), 42)\n", true},
		{"js: test.each-free table with forEach", "js", jsWas, "a", "test('all', () => {\n  const cases = [\n    [2, 42],\n  ]\n  cases.forEach(([x, want]) => {\n    expect(a(x)).toBe(want)\n  })\n})\n", true},
		{"js: a describe-level table", "js", jsWas, "a", "describe('a', () => {\n  const cases = [[2, 42]]\n  test('all', () => {\n    for (const [x, want] of cases) {\n      expect(a(x)).toEqual(want)\n    }\n  })\n})\n", true},
		{"py: a test whose check reads no call, moved as it was", "py", "def test_warns():\n    with pytest.warns(DeprecationWarning):\n        a(2)\n", "test_warns", "def test_warns():\n    with pytest.warns(DeprecationWarning):\n        a(2)\n", true},
		{"js: result in a const", "js", jsWas, "a", "test('a2', () => {\n  const r = a(2)\n  expect(r).toBe(42)\n})\n", true},
	}
	for _, tc := range tests {
		if got := DeletedTestMoved(tc.kind, []byte(tc.was), tc.del, [][]byte{[]byte(tc.now)}); got != tc.moved {
			t.Errorf("%s: moved %v, want %v", tc.name, got, tc.moved)
		}
	}
}
