package testrun

import "testing"

// TestSkipsInConstHelper: a skip behind a no-argument helper returning a
// literal true is unguarded (it was read as a guard: round 19); one
// returning false, or a helper with a real condition, still guards.
func TestSkipsInConstHelper(t *testing.T) {
	const head = "package x\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\n"
	test := "func TestStore(t *testing.T) {\n\tif dbMissing() {\n\t\tt.Skip(\"no database\")\n\t}\n}\n"
	cases := []struct {
		name, k, now string
		flagged      bool
	}{
		{"go true, one line", "go", head + "func dbMissing() bool { return true }\n\n" + test, true},
		{"go true, body below", "go", head + "func dbMissing() bool {\n\treturn true\n}\n\n" + test, true},
		{"go false", "go", head + "func dbMissing() bool { return false }\n\n" + test, false},
		{"go env read", "go", head + "func dbMissing() bool { return os.Getenv(\"DB_URL\") == \"\" }\n\n" + test, false},
		{"go defined twice", "go", head + "func dbMissing() bool { return true }\n\nfunc dbMissing() bool { return false }\n\n" + test, false},
		{"py True", "py", "import pytest\n\ndef no_db():\n    return True\n\n@pytest.mark.skipif(no_db(), reason=\"x\")\ndef test_store():\n    assert 1\n", true},
		{"js arrow true", "js", "const noDB = () => true\n\ntest.skipIf(noDB())('stores', () => {\n  expect(1).toBe(1)\n})\n", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := SkipsIn(c.k, nil, []byte(c.now), false)
			if (len(got) > 0) != c.flagged {
				t.Fatalf("SkipsIn = %q, want flagged %v", got, c.flagged)
			}
		})
	}
}
