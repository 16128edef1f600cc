package testrun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// startRepo is a Repo whose start commit is a map and whose work tree is
// a folder.
type startRepo struct {
	root    string
	start   map[string]string
	changed []string
}

func (r startRepo) Root() string { return r.root }
func (r startRepo) ChangedFiles(context.Context, string) ([]string, error) {
	return r.changed, nil
}
func (r startRepo) ExistsAt(_ context.Context, _, p string) (bool, error) {
	_, ok := r.start[p]
	return ok, nil
}
func (r startRepo) ReadAt(_ context.Context, _, p string) ([]byte, error) {
	return []byte(r.start[p]), nil
}

// TestTestsRemovedDeadCode: a test file deleted with the code it tested
// passes the QA gate; deleted while the code stays (or in a folder of
// tests alone, which has no code to lose) it is refused.
func TestTestsRemovedDeadCode(t *testing.T) {
	const greet = "package greet\n\nfunc Hello() string { return \"hello\" }\n\nfunc Shout() string { return \"HELLO\" }\n"
	const shoutTest = "package greet\n\nimport \"testing\"\n\nfunc TestShout(t *testing.T) {\n\tif Shout() != \"HELLO\" {\n\t\tt.Fatal(1)\n\t}\n}\n"
	const greet2 = "package greet\n\nfunc Hello() string { return \"hello\" }\n\n// Shout shouts.\nfunc Shout() string {\n\tup := strings.ToUpper(Hello())\n\treturn up + \"!\"\n}\n"
	const pyCalc = "def add(a, b):\n    total = a + b\n    return total\n\n\ndef sub(a, b):\n    return a - b\n"
	const pyTest = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
	const codec = "package codec\n\nfunc Encode(s string) string {\n\treturn s + \"!\"\n}\n\nfunc Decode(s string) string {\n\treturn s[:len(s)-1]\n}\n"
	codecEncodeOnly := func(mark string) string {
		return "package codec\n\nfunc Encode(s string) string {\n\treturn s + \"" + mark + "\"\n}\n"
	}
	const codecOther = "package codec\n\nimport \"testing\"\n\nfunc TestOther(t *testing.T) {\n\tif len(\"x\") != 1 {\n\t\tt.Fatal(2)\n\t}\n}\n"
	const codecTest = codecOther + "\nfunc TestRoundTrip(t *testing.T) {\n\tif Decode(Encode(\"a\")) != \"a\" {\n\t\tt.Fatal(1)\n\t}\n}\n"
	const e2eTest = "package e2e\n\nimport \"testing\"\n\nfunc TestFlow(t *testing.T) { t.Fatal(\"fails\") }\n"
	tests := []struct {
		name    string
		start   map[string]string
		now     map[string]string // the work tree ("" body: absent)
		changed []string
		refused bool
	}{
		{"function deleted with its test", map[string]string{"greet.go": greet, "shout_test.go": shoutTest},
			map[string]string{"greet.go": "package greet\n\nfunc Hello() string { return \"hello\" }\n"}, []string{"greet.go", "shout_test.go"}, false},
		{"test deleted, function stays", map[string]string{"greet.go": greet, "shout_test.go": shoutTest},
			map[string]string{"greet.go": greet}, []string{"shout_test.go"}, true},
		{"test deleted, another function edited", map[string]string{"greet.go": greet, "shout_test.go": shoutTest},
			map[string]string{"greet.go": greet + "\n// edited\n"}, []string{"greet.go", "shout_test.go"}, true},
		// Renamed, not dead (issue 25's review): the code the test checked stays.
		{"function renamed with its body, its test deleted", map[string]string{"greet.go": greet2, "shout_test.go": shoutTest},
			map[string]string{"greet.go": strings.Replace(greet2, "func Shout(", "func Loud(", 1)}, []string{"greet.go", "shout_test.go"}, true},
		{"function deleted, another added, its test deleted", map[string]string{"greet.go": greet2, "shout_test.go": shoutTest},
			map[string]string{"greet.go": "package greet\n\nfunc Hello() string { return \"hello\" }\n\nfunc Wave() string {\n\treturn strings.Repeat(\"~\", 3)\n}\n"}, []string{"greet.go", "shout_test.go"}, false},
		{"file renamed, the test named for it deleted", map[string]string{"shout.go": greet2, "shout_test.go": shoutTest},
			map[string]string{"loud.go": greet2}, []string{"shout.go", "loud.go", "shout_test.go"}, true},
		{"file deleted with the test named for it", map[string]string{"shout.go": greet2, "hello.go": "package greet\n", "shout_test.go": shoutTest},
			map[string]string{"hello.go": "package greet\n"}, []string{"shout.go", "shout_test.go"}, false},
		{"python: function renamed with its body, its test file deleted", map[string]string{"calc.py": pyCalc, "tests/test_calc.py": pyTest},
			map[string]string{"calc.py": strings.Replace(pyCalc, "def add(", "def add_numbers(", 1)}, []string{"calc.py", "tests/test_calc.py"}, true},
		{"python: module renamed, its test file deleted", map[string]string{"calc.py": pyCalc, "tests/test_calc.py": pyTest},
			map[string]string{"arith.py": pyCalc}, []string{"calc.py", "arith.py", "tests/test_calc.py"}, true},
		{"python: function deleted with its test file", map[string]string{"calc.py": pyCalc, "tests/test_calc.py": pyTest},
			map[string]string{"calc.py": "def sub(a, b):\n    return a - b\n"}, []string{"calc.py", "tests/test_calc.py"}, false},
		// A test of deleted code that also checked code the change edited
		// (issue 25's review): Encode broken, Decode deleted, TestRoundTrip
		// gone with it; honest when Encode is unchanged or still checked.
		{"round trip deleted with Decode while Encode was edited", map[string]string{"codec.go": codec, "codec_test.go": codecTest},
			map[string]string{"codec.go": codecEncodeOnly("?"), "codec_test.go": codecOther}, []string{"codec.go", "codec_test.go"}, true},
		{"round trip deleted with Decode, Encode unchanged", map[string]string{"codec.go": codec, "codec_test.go": codecTest},
			map[string]string{"codec.go": codecEncodeOnly("!"), "codec_test.go": codecOther}, []string{"codec.go", "codec_test.go"}, false},
		{"round trip deleted with Decode, the edited Encode checked", map[string]string{"codec.go": codec, "codec_test.go": codecTest},
			map[string]string{"codec.go": codecEncodeOnly("?"), "codec_test.go": codecOther + "\nfunc TestEncode(t *testing.T) {\n\tif Encode(\"a\") != \"a?\" {\n\t\tt.Fatal(3)\n\t}\n}\n"}, []string{"codec.go", "codec_test.go"}, false},
		{"package deleted with its tests", map[string]string{"old/old.go": "package old\n\nfunc Shout() {}\n", "old/shout_test.go": shoutTest},
			map[string]string{}, []string{"old/old.go", "old/shout_test.go"}, false},
		// Renamed while the code it calls changed (issue 25 item 4): its
		// values may change with the code, its comparison may not weaken.
		{"check weakened to >= under a new name while Shout changed (old)", map[string]string{"greet.go": greet, "shout_test.go": shoutTest},
			map[string]string{"greet.go": strings.Replace(greet, "HELLO", "HELLO!", 1), "shout_test.go": "package greet\n\nimport \"testing\"\n\nfunc TestShoutLoud(t *testing.T) {\n\tif len(Shout()) < 1 {\n\t\tt.Fatal(1)\n\t}\n}\n"}, []string{"greet.go", "shout_test.go"}, true},
		{"check renamed with the new value while Shout changed", map[string]string{"greet.go": greet, "shout_test.go": shoutTest},
			map[string]string{"greet.go": strings.Replace(greet, "HELLO", "HELLO!", 1), "shout_test.go": "package greet\n\nimport \"testing\"\n\nfunc TestShoutBang(t *testing.T) {\n\tif Shout() != \"HELLO!\" {\n\t\tt.Fatal(1)\n\t}\n}\n"}, []string{"greet.go", "shout_test.go"}, false},
		{"a folder of tests alone: a failing test deleted", map[string]string{"e2e/flow_test.go": e2eTest, "e2e/other_test.go": "package e2e\n"},
			map[string]string{"e2e/other_test.go": "package e2e\n"}, []string{"e2e/flow_test.go"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for p, b := range tc.now {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, p), []byte(b), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := testsRemoved(context.Background(), startRepo{root, tc.start, tc.changed}, "start", tc.changed)
			if err != nil {
				t.Fatal(err)
			}
			if (len(got) > 0) != tc.refused {
				t.Errorf("refused %v, want %v: %q", len(got) > 0, tc.refused, got)
			}
		})
	}
}
