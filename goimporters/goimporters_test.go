package goimporters

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestFind: the importers of a changed package, in a repository with a
// nested module, past 5,000 files (round 22's walk stopped there), and
// not in vendor/, testdata/ or a _test.go file.
func TestFind(t *testing.T) {
	files := map[string]string{
		"go.mod":                 "module example.com/tool\n",
		"main.go":                "package main\n\nimport \"example.com/tool/limits\"\n\nvar _ = limits.N\n",
		"limits/limits.go":       "package limits\n\nconst N = 5\n",
		"libs/lim/go.mod":        "module example.com/lim\n",
		"libs/lim/lim.go":        "package lim\n\nconst M = 1\n",
		"cmd/x/x.go":             "package main\n\nimport \"example.com/lim\"\n\nvar _ = lim.M\n",
		"cmd/y/y_test.go":        "package main\n\nimport \"example.com/tool/limits\"\n",
		"vendor/v/v.go":          "package v\n\nimport \"example.com/tool/limits\"\n",
		"zz/late.go":             "package zz\n\nimport \"example.com/tool/limits\"\n",
		"nomod/a/a.go":           "package a\n",
		"nomod/b/b.go":           "package b\n\nimport \"other.org/nomod/a\"\n",
		"libs/lim/sub/sub.go":    "package sub\n",
		"libs/lim/user/user.go":  "package user\n\nimport \"example.com/lim/sub\"\n",
		"libs/lim/testdata/t.go": "package t\n\nimport \"example.com/lim/sub\"\n",
	}
	// 5,001 files before zz/ in the walk's order: an importer past them.
	for i := range 5001 {
		files[fmt.Sprintf("a/f%04d/f.go", i)] = "package f\n"
	}
	root := gittest.New(t, files)
	for _, c := range []struct {
		dirs []string
		want string
	}{
		{[]string{"limits"}, ". zz"},
		{[]string{"libs/lim"}, "cmd/x"},
		{[]string{"libs/lim/sub"}, "libs/lim/user"},
		{[]string{"nomod/a"}, ""}, // a go.mod at the root names it example.com/tool/nomod/a
		{[]string{"a/f0001"}, ""},
	} {
		got, complete := Find(context.Background(), root, c.dirs)
		if g := strings.Join(got, " "); g != c.want || !complete {
			t.Errorf("%v: importers %q (complete %v), want %q", c.dirs, g, complete, c.want)
		}
	}
	// Untracked, not ignored: a file the session wrote counts.
	if err := os.WriteFile(filepath.Join(root, "new.go"), []byte("package main\n\nimport \"example.com/lim\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := Find(context.Background(), root, []string{"libs/lim"}); !slices.Contains(got, ".") {
		t.Errorf("untracked importer not found: %v", got)
	}
	// Not a repository: the walk finds the same.
	plain := t.TempDir()
	for f, b := range map[string]string{"go.mod": "module m\n", "p/p.go": "package p\n", "q/q.go": "package q\n\nimport \"m/p\"\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(plain, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(plain, f), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, complete := Find(context.Background(), plain, []string{"p"}); strings.Join(got, " ") != "q" || !complete {
		t.Errorf("walk: %v %v", got, complete)
	}
}

// TestImportPath names a folder by its nearest go.mod.
func TestImportPath(t *testing.T) {
	root := t.TempDir()
	for f, b := range map[string]string{"go.mod": "module example.com/tool\n", "staging/src/k8s.io/api/go.mod": "// x\nmodule k8s.io/api\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for dir, want := range map[string]string{
		"limits":                          `"example.com/tool/limits"`,
		".":                               `"example.com/tool"`,
		"staging/src/k8s.io/api":          `"k8s.io/api"`,
		"staging/src/k8s.io/api/core/v1":  `"k8s.io/api/core/v1"`,
		"staging/src/k8s.io/apimachinery": `"example.com/tool/staging/src/k8s.io/apimachinery"`,
	} {
		if got := ImportPath(root, dir); got != want {
			t.Errorf("%s: %s, want %s", dir, got, want)
		}
	}
}

// TestMeasureFind times Find on a real repository (GOIMPORTERS_REPO, a
// git work tree; GOIMPORTERS_DIRS, its changed folders, space separated)
// and the round-22 walk (root go.mod, 5,000-file cap) beside it. A
// measurement: it logs, and skips without GOIMPORTERS_REPO.
func TestMeasureFind(t *testing.T) {
	root := os.Getenv("GOIMPORTERS_REPO")
	if root == "" {
		t.Skip("GOIMPORTERS_REPO not set: nothing to measure")
	}
	dirs := strings.Fields(os.Getenv("GOIMPORTERS_DIRS"))
	n, _ := exec.Command("git", "-C", root, "ls-files", "*.go").Output()
	t.Logf("%s: %d .go files tracked", root, strings.Count(string(n), "\n"))
	for _, d := range dirs {
		start := time.Now()
		got, complete := Find(context.Background(), root, []string{d})
		t.Logf("Find %s (%s): %d importer folders, complete %v, %v", d, ImportPath(root, d), len(got), complete, time.Since(start).Round(time.Millisecond))
		start = time.Now()
		found := map[string]bool{}
		want := ImportPath(root, d)
		walkComplete := walk(root, []string{want}, found)
		t.Logf("walk %s: %d importer folders, complete %v, %v", d, len(found), walkComplete, time.Since(start).Round(time.Millisecond))
	}
}
