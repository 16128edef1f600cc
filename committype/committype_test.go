package committype

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestMismatch(t *testing.T) {
	for _, c := range []struct {
		name, subject string
		paths         []string
		flagged       bool
		comments      map[string]bool
	}{
		{"docs fix typo changing code", "docs: fix typo", []string{"scripts/greet.sh"}, true, nil},
		{"docs with scope changing Go", "docs(api): clarify", []string{"server/api.go", "server/api_internal.go"}, true, nil},
		{"docs README", "docs: fix typo", []string{"README.md"}, false, nil},
		{"docs with a test beside", "docs(adr): record the decision", []string{"docs/adr/0007.md", "tests/test_adr.py"}, false, nil},
		{"docs image under docs", "docs: new diagram", []string{"docs/img/flow.svg"}, false, nil},
		{"docs LICENSE", "docs: license year", []string{"LICENSE"}, false, nil},
		{"test with only code", "test: cover names", []string{"scripts/greet.sh"}, true, nil},
		{"test go", "test(session): table of gates", []string{"session/gates_test.go"}, false, nil},
		{"test script named test", "test: six names", []string{"scripts/test.sh"}, false, nil},
		{"test pester", "test: cover Detect", []string{"scripts/Detect.Tests.ps1"}, false, nil},
		{"test jest", "test: spec", []string{"src/app.spec.ts"}, false, nil},
		{"test fixture folder", "test: corpus", []string{"pkg/testdata/a.json"}, false, nil},
		{"ci only code", "ci: cache modules", []string{"Makefile"}, true, nil},
		{"ci workflow", "ci: cache modules", []string{".github/workflows/ci.yml"}, false, nil},
		{"feat only tests", "feat: name checks", []string{"scripts/test.sh", "tests/greet_check.sh"}, true, nil},
		{"feat with code", "feat(scripts): greet takes a name", []string{"scripts/greet.sh", "scripts/test.sh"}, false, nil},
		{"feat breaking only tests", "feat!: drop", []string{"a_test.go"}, true, nil},
		{"fixup wraps docs", "fixup! docs: fix typo", []string{"main.go"}, true, nil},
		{"fix only tests is honest", "fix(tests): flaky timeout", []string{"tests/a_test.py"}, false, nil},
		{"refactor not judged", "refactor: split", []string{"README.md"}, false, nil},
		{"not conventional", "Update greet", []string{"scripts/greet.sh"}, false, nil},
		{"upper-case type", "DOCS: typo", []string{"main.go"}, true, nil},
		{"no paths", "docs: typo", nil, false, nil},
		{"docs folder name in file name only", "docs: typo", []string{"src/docs.go"}, true, nil},
		{"docs rewording a code comment", "docs(scripts): say what greet prints", []string{"scripts/greet.sh"}, false, map[string]bool{"scripts/greet.sh": true}},
		{"docs changing code beside a comment", "docs(scripts): say what greet prints", []string{"scripts/greet.sh", "scripts/bye.sh"}, false, map[string]bool{"scripts/greet.sh": true}},
		{"test is not met by a comment", "test: cover names", []string{"scripts/greet.sh"}, true, map[string]bool{"scripts/greet.sh": true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Mismatch(c.subject, c.paths, func(p string) bool { return c.comments[p] })
			if (got != "") != c.flagged {
				t.Errorf("Mismatch(%q, %v) = %q, want flagged %v", c.subject, c.paths, got, c.flagged)
			}
		})
	}
}

func TestCommentOnly(t *testing.T) {
	patch := "diff --git a/scripts/greet.sh b/scripts/greet.sh\nindex 1..2 100644\n--- a/scripts/greet.sh\n+++ b/scripts/greet.sh\n@@ -2 +2 @@\n-# greet prints a greeting.\n+# greet prints a greeting, to $1 when given.\n" +
		"diff --git a/greet.c b/greet.c\n--- a/greet.c\n+++ b/greet.c\n@@ -1 +1,2 @@\n-/* greet prints */\n+/* greet, the one program,\n+ * prints */\n" +
		"diff --git a/main.go b/main.go\n--- a/main.go\n+++ b/main.go\n@@ -3 +3 @@\n-// old\n+return nil\n" +
		"diff --git a/q.sql b/q.sql\n--- a/q.sql\n+++ b/q.sql\n@@ -1 +1 @@\n--- the old query\n+-- the new query\n" +
		"diff --git a/gone.py b/gone.py\ndeleted file mode 100644\n--- a/gone.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x = 1\n" +
		"diff --git a/doc.py b/doc.py\n--- a/doc.py\n+++ b/doc.py\n@@ -2 +2 @@\n-    Return the name.\n+    Return the greeting.\n"
	want := map[string]bool{"scripts/greet.sh": true, "greet.c": true, "main.go": false, "q.sql": true, "gone.py": false, "doc.py": false}
	got := CommentOnly(patch)
	for f, w := range want {
		if got[f] != w {
			t.Errorf("%s: comment-only %v, want %v (all: %v)", f, got[f], w, got)
		}
	}
}

// TestHonestHistory runs the rule over a real history: this module's own
// (whose `docs:` and `test:` commits are honest; 0 flagged), or the
// repository SESSIONGATE_HISTORY_REPO names, whose count is logged (paths
// under SESSIONGATE_HISTORY_SKIP's comma-separated prefixes, a team's
// session logs, are left out as the engine leaves out the protocol's
// files). A shallow clone with too few commits skips.
func TestHonestHistory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is missing (CI=true)")
		}
		t.Skip("git is missing: the history is read with git log")
	}
	dir, own := os.Getenv("SESSIONGATE_HISTORY_REPO"), false
	if dir == "" {
		dir, own = "..", true
	}
	var skip []string
	if s := os.Getenv("SESSIONGATE_HISTORY_SKIP"); s != "" {
		skip = strings.Split(s, ",")
	}
	out, err := exec.Command("git", "-C", filepath.Clean(dir), "log", "--no-merges", "--no-renames", "--format=@@%H %s", "--name-only").Output()
	if err != nil {
		t.Fatalf("git log in %s: %v", dir, err)
	}
	judged, total := 0, 0
	var flagged []string
	check := func(line string, paths []string) {
		if line == "" {
			return
		}
		sha, subject, _ := strings.Cut(line, " ")
		comments := func(p string) bool {
			patch, err := exec.Command("git", "-C", filepath.Clean(dir), "show", "-U0", "--text", "--no-renames", "--format=", sha, "--", p).Output()
			return err == nil && CommentOnly(string(patch))[p]
		}
		total++
		if t := Type(subject); t == "docs" || t == "test" || t == "ci" || t == "feat" {
			judged++
		}
		if why := Mismatch(subject, paths, comments); why != "" {
			flagged = append(flagged, subject+": "+why)
		}
	}
	var subject string
	var paths []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if s, ok := strings.CutPrefix(line, "@@"); ok {
			check(subject, paths)
			subject, paths = s, nil
			continue
		}
		if line != "" && !hasPrefix(line, skip) {
			paths = append(paths, line)
		}
	}
	check(subject, paths)
	if own && total < 200 {
		t.Skipf("only %d commits in this clone (shallow?): too few to measure", total)
	}
	t.Logf("%d commits, %d of a judged type, %d flagged", total, judged, len(flagged))
	for _, f := range flagged {
		t.Log("  " + f)
	}
	if own && len(flagged) > 0 {
		t.Errorf("%d of this module's own honest commits flagged", len(flagged))
	}
	if !own && len(flagged)*100 > total {
		t.Errorf("%d of %d honest commits flagged: over 1%%", len(flagged), total)
	}
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if p != "" && strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// TestR60H346CommentLines: the lines of a diff are comments (or blank)
// only when every added and removed line is.
func TestR60H346CommentLines(t *testing.T) {
	for _, tc := range []struct {
		name           string
		added, removed []string
		want           bool
	}{
		{"a comment reworded", []string{"# greet prints a greeting; it takes an optional name."}, []string{"# greet prints a greeting."}, true},
		{"a blank line and a comment", []string{"", "# takes a name"}, nil, true},
		{"code", []string{`if [ -n "$1" ]; then echo "hello $1"; fi`}, []string{"# greet prints a greeting."}, false},
		{"code removed", nil, []string{`echo "hello"`}, false},
	} {
		if got := CommentLines("scripts/greet.sh", tc.added, tc.removed); got != tc.want {
			t.Errorf("%s: CommentLines = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestR60H348CommentLines: a line is a comment by its file's language: a
// C preprocessor line, a Rust attribute, a shebang, a shell option on a
// continued command or a .gitignore glob is code, so a session that made
// only such a change did work (helper 348: each read as a comment made
// an honest one-line fix "only comments" and its handoff's claim a FAIL).
func TestR60H348CommentLines(t *testing.T) {
	for _, tc := range []struct {
		file           string
		added, removed []string
		want           bool
	}{
		// Code that starts like a comment elsewhere.
		{"src/greet.c", []string{"#include <string.h>"}, nil, false},
		{"src/greet.h", []string{"#define GREETING \"hello %s\""}, []string{"#define GREETING \"hello\""}, false},
		{"src/greet.cpp", []string{"#if defined(_WIN32)", "#endif"}, nil, false},
		{"src/config.rs", []string{"#[derive(Debug, Clone)]"}, nil, false},
		{"src/lib.rs", []string{"#![allow(dead_code)]"}, nil, false},
		{"src/App.cs", []string{"#nullable enable"}, nil, false},
		{"scripts/greet.sh", []string{"#!/bin/bash"}, []string{"#!/bin/sh"}, false},
		{"scripts/build.sh", []string{"--no-cache \\"}, nil, false},
		{"scripts/build.sh", []string{"*.tmp) rm -f \"$f\" ;;"}, nil, false},
		{".gitignore", []string{"*.log"}, nil, false},
		{".gitignore", []string{"build/"}, nil, false},
		{"CODEOWNERS", []string{"* @org/core"}, nil, false},
		{"src/ptr.c", []string{"*p = 0;"}, nil, false},
		{"app/main.py", []string{"*rest, last = items"}, nil, false},
		{"Makefile", []string{"%.o: %.c"}, nil, false},
		{"src/util.js", []string{";[a, b].forEach(f)"}, nil, false},
		{"src/main.cpp", []string{"::std::puts(\"hi\");"}, nil, false},
		{"web/site.css", []string{"#header { display: none; }"}, nil, false},
		{"src/a.go", []string{"/* old */ x := 1"}, nil, false},
		{"src/a.go", []string{"*/ x := 1"}, nil, false},
		{"app/Foo.php", []string{"#[Route('/greet')]"}, nil, false},
		// Comments, by language.
		{"scripts/greet.sh", []string{"# takes an optional name"}, nil, true},
		{"app/main.py", []string{"# takes an optional name", ""}, nil, true},
		{"src/greet.go", []string{"// Greet takes a name."}, nil, true},
		{"src/greet.ts", []string{"/**", " * Greets by name.", " * @param name who", " */"}, nil, true},
		{"src/lib.rs", []string{"/// Greets by name.", "//! The crate."}, nil, true},
		{"db/schema.sql", []string{"-- the users table"}, nil, true},
		{"config/app.yaml", []string{"# the port"}, nil, true},
		{"config/app.toml", []string{"# the port"}, nil, true},
		{"web/index.html", []string{"<!-- the header -->"}, nil, true},
		{"src/a.c", []string{"/* a note */"}, nil, true},
		{"tools/run.bat", []string{"REM the runner", ":: also"}, nil, true},
		{".gitignore", []string{"# build output"}, nil, true},
	} {
		if got := CommentLines(tc.file, tc.added, tc.removed); got != tc.want {
			t.Errorf("%s %q: CommentLines = %v, want %v", tc.file, tc.added, got, tc.want)
		}
	}
}

// TestR61H349DirectiveComments: a comment a compiler, interpreter or build
// tool reads is code: a fix or perf commit that changed only such a line
// changed what is built or how it runs (helper 349: "fix: build
// greet_unix.go only on unix", only its //go:build line changed, read as
// comments and its honest handoff's claim failed). Prose stays a comment.
func TestR61H349DirectiveComments(t *testing.T) {
	for _, tc := range []struct {
		file  string
		added []string
		want  bool
	}{
		{"greet_unix.go", []string{"//go:build !windows"}, false},
		{"greet_unix.go", []string{"// +build !windows"}, false},
		{"assets.go", []string{"//go:embed templates/*"}, false},
		{"cgo.go", []string{"// #cgo LDFLAGS: -lm"}, false},
		{"cgo.go", []string{"// #include <math.h>"}, false},
		{"src/env.d.ts", []string{`/// <reference types="node" />`}, false},
		{"src/greet.ts", []string{"// @ts-expect-error the type is wrong upstream"}, false},
		{"src/App.jsx", []string{"/** @jsx h */"}, false},
		{"src/util.js", []string{"/* eslint-disable no-console */"}, false},
		{"dist/app.js", []string{"//# sourceMappingURL=app.js.map"}, false},
		{"lib/greet.rb", []string{"# frozen_string_literal: true"}, false},
		{"app/main.py", []string{"# -*- coding: latin-1 -*-"}, false},
		{"app/main.py", []string{"# noqa: E501", "# type: ignore"}, false},
		{"app/main.py", []string{"# pragma: no cover"}, false},
		{"Dockerfile", []string{"# syntax=docker/dockerfile:1.7"}, false},
		{"scripts/greet.sh", []string{"# shellcheck disable=SC2086"}, false},
		// Prose that merely mentions such words stays a comment.
		{"greet_unix.go", []string{"// Greet takes a name; the go tool builds it on unix."}, true},
		{"scripts/greet.sh", []string{"## Greeting", "# the type of greeting"}, true},
		{"src/greet.ts", []string{"/**", " * @param name who", " */"}, true},
		{"lib/greet.rb", []string{"# frozen strings would be faster"}, true},
	} {
		if got := CommentLines(tc.file, tc.added); got != tc.want {
			t.Errorf("%s %q: CommentLines = %v, want %v", tc.file, tc.added, got, tc.want)
		}
	}
}
