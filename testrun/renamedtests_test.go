package testrun

import (
	"strings"
	"testing"
)

// TestSkipsInRenamedTest: a test renamed in the change, its body kept,
// ran at the start: a skip added to it is judged as on an old test (a
// condition this run meets fires). It was judged as new (round 19). A
// new test with another body beside a deleted one stays new.
func TestSkipsInRenamedTest(t *testing.T) {
	env := func(name string) (string, bool) {
		if name == "GREET_SKIP" {
			return "1", true
		}
		return "", false
	}
	const goWas = "package x\n\nimport \"testing\"\n\nfunc TestGreet(t *testing.T) {\n\tif greet() != \"hi\" {\n\t\tt.Fatal(greet())\n\t}\n}\n"
	const pyWas = "import os\nimport pytest\n\n\ndef test_greet():\n    assert greet() == \"hi\"\n"
	goSkip := "\tif os.Getenv(\"GREET_SKIP\") != \"\" {\n\t\tt.Skip(\"later\")\n\t}\n"
	cases := []struct {
		name, k, was, now string
		flagged           bool
	}{
		{"go renamed", "go", goWas, strings.Replace(goWas, "func TestGreet(t *testing.T) {\n", "func TestGreeting(t *testing.T) {\n"+goSkip, 1), true},
		{"go same name", "go", goWas, strings.Replace(goWas, "func TestGreet(t *testing.T) {\n", "func TestGreet(t *testing.T) {\n"+goSkip, 1), true},
		{"go other body", "go", goWas, "package x\n\nimport \"testing\"\n\nfunc TestStore(t *testing.T) {\n" + goSkip + "\tif store() != nil {\n\t\tt.Fatal(\"store\")\n\t}\n}\n", false},
		{"py renamed", "py", pyWas, strings.Replace(pyWas, "def test_greet", "@pytest.mark.skipif(os.environ.get(\"GREET_SKIP\"), reason=\"later\")\ndef test_greeting", 1), true},
		{"py other body", "py", pyWas, "import os\nimport pytest\n\n\n@pytest.mark.skipif(os.environ.get(\"GREET_SKIP\"), reason=\"later\")\ndef test_store():\n    assert store() is None\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := skipsIn(c.k, []byte(c.was), []byte(c.now), true, nil, nil, env)
			if (len(got) > 0) != c.flagged {
				t.Fatalf("skipsIn = %q, want flagged %v", got, c.flagged)
			}
		})
	}
}
