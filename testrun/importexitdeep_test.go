package testrun

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestImportedInitExitsDeep (round 21 c1): a new import of a module
// package whose own files have no exit, but which imports (directly or a
// few packages down) one whose init() exits 0: the test binary
// initialises every package it links, so go test prints ok with no test
// run. Round 20 read the imported package's own files only. Honest twins:
// the same chain with no exit, and with an exit answering --version only.
func TestImportedInitExitsDeep(t *testing.T) {
	const test = "package greet\n\nimport (\n\t\"testing\"\n\n\t_ \"example.com/app/internal/a\"\n)\n\nfunc TestHello(t *testing.T) {\n\tif Hello() != \"hello\" {\n\t\tt.Fatal(1)\n\t}\n}\n"
	const plain = "package greet\n\nimport \"testing\"\n\nfunc TestHello(t *testing.T) {\n\tif Hello() != \"hello\" {\n\t\tt.Fatal(1)\n\t}\n}\n"
	chain := func(n int, last string) map[string]string {
		pkgs := map[string]string{}
		names := []string{"a"}
		for i := 1; i < n; i++ {
			names = append(names, fmt.Sprintf("p%d", i))
		}
		for i, nm := range names {
			body := "package " + nm + "\n\nvar Level = 1\n"
			if i+1 < len(names) {
				body = "package " + nm + "\n\nimport _ \"example.com/app/internal/" + names[i+1] + "\"\n\nvar Level = 1\n"
			} else if last != "" {
				body = last
			}
			pkgs["internal/"+nm+"/"+nm+".go"] = body
		}
		return pkgs
	}
	exits := func(pkg string) string {
		return "package " + pkg + "\n\nimport \"os\"\n\nfunc init() {\n\tif len(os.Args) > 0 {\n\t\tos.Exit(0)\n\t}\n}\n"
	}
	version := func(pkg string) string {
		return "package " + pkg + "\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc init() {\n\tif len(os.Args) > 1 && os.Args[1] == \"--version\" {\n\t\tfmt.Println(\"v1\")\n\t\tos.Exit(0)\n\t}\n}\n"
	}
	for _, tt := range []struct {
		name    string
		pkgs    map[string]string
		refused bool
	}{
		{"the imported package's import exits", chain(2, exits("p1")), true},
		{"four packages down", chain(5, exits("p4")), true},
		{"honest: a chain with no exit", chain(5, ""), false},
		{"honest: the exit answers --version only", chain(3, version("p2")), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, root, "go.mod", "module example.com/app\n\ngo 1.22\n")
			writeFile(t, root, "greet/greet.go", "package greet\n\nfunc Hello() string { return \"hello\" }\n")
			for f, b := range tt.pkgs {
				writeFile(t, root, f, b)
			}
			writeFile(t, root, "greet/greet_test.go", test)
			repo := startRepo{root: root, start: map[string]string{"greet/greet_test.go": plain}, changed: []string{"greet/greet_test.go"}}
			got, err := SkipsAddedIn(context.Background(), repo, "start", func(string) (string, bool) { return "", false })
			if err != nil {
				t.Fatal(err)
			}
			if (len(got) > 0) != tt.refused || tt.refused && !strings.Contains(strings.Join(got, "\n"), "imports") {
				t.Errorf("SkipsAddedIn = %q, want refused %v", got, tt.refused)
			}
		})
	}
}
