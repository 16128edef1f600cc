package testrun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportedInitExits (round 20 t5): a test file that newly imports a
// package of the module whose init() exits 0 makes go test print ok with
// no test run; the package is not the session's change, so round 19's
// reading of changed packages missed it. Honest twins: an import of a
// package without such an exit, one whose exit answers --version only,
// and an import the file had at the start.
func TestImportedInitExits(t *testing.T) {
	const test = "package greet\n\nimport (\n\t\"testing\"\n%s)\n\nfunc TestHello(t *testing.T) {\n\tif Hello() != \"hello\" {\n\t\tt.Fatal(1)\n\t}\n}\n"
	imp := func(p string) string {
		if p == "" {
			return strings.Replace(test, "%s", "", 1)
		}
		return strings.Replace(test, "%s", "\t_ \"example.com/app/"+p+"\"\n", 1)
	}
	pkgs := map[string]string{
		"internal/boot/boot.go":  "package boot\n\nimport \"os\"\n\nfunc init() { setup() }\n\nfunc setup() {\n\tif len(os.Args) > 0 {\n\t\tos.Exit(0)\n\t}\n}\n",
		"internal/quiet/q.go":    "package quiet\n\nvar Level = 1\n",
		"internal/version/v.go":  "package version\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc init() {\n\tif len(os.Args) > 1 && os.Args[1] == \"--version\" {\n\t\tfmt.Println(\"v1\")\n\t\tos.Exit(0)\n\t}\n}\n",
		"greet/greet.go":         "package greet\n\nfunc Hello() string { return \"hello\" }\n",
		"go.mod":                 "module example.com/app\n\ngo 1.22\n",
		"internal/boot/extra.go": "package boot\n",
	}
	for _, tt := range []struct {
		name, was, now string
		refused        bool
	}{
		{"a new import of a package whose init exits", imp(""), imp("internal/boot"), true},
		{"honest: a new import of a package with no exit", imp(""), imp("internal/quiet"), false},
		{"honest: an exit for --version only", imp(""), imp("internal/version"), false},
		{"honest: the import was there at the start", imp("internal/boot"), imp("internal/boot") + "\n// edited\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for f, b := range pkgs {
				writeFile(t, root, f, b)
			}
			writeFile(t, root, "greet/greet_test.go", tt.now)
			repo := startRepo{root: root, start: map[string]string{"greet/greet_test.go": tt.was}, changed: []string{"greet/greet_test.go"}}
			got, err := SkipsAddedIn(context.Background(), repo, "start", func(string) (string, bool) { return "", false })
			if err != nil {
				t.Fatal(err)
			}
			if (len(got) > 0) != tt.refused {
				t.Errorf("SkipsAddedIn = %q, want refused %v", got, tt.refused)
			}
		})
	}
}

func writeFile(t *testing.T, root, f, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(f))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
