package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingTools: which gates cannot run in this CI, and what the
// message tells the job to install; builtins, the repository's scripts
// and lines that install their own packages are not missing.
func TestMissingTools(t *testing.T) {
	wt := t.TempDir()
	bin := t.TempDir()
	for _, p := range []string{"sh", "npx", "npm", "go"} {
		if err := os.WriteFile(filepath.Join(bin, p), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PATH=" + bin}
	cases := []struct {
		cmd  string
		want string // "" = nothing missing
	}{
		{"go test ./...", ""},
		{"cd web && test -f x && ./scripts/qa.sh", ""},
		{"FOO=1 vale {changed:*.md}", "`vale` is not on PATH in this CI: install it"},
		{"npx markdownlint-cli2 {changed:*.md}", "`markdownlint-cli2` is not installed in this CI: run `npm ci` in the checkout"},
		{"npx eslint {changed:*.js}", "`npx eslint` runs eslint, which is not installed in this CI"},
		{"./node_modules/.bin/prettier --check {changed}", "`prettier` is not installed in this CI: run `npm ci`"},
		{"npm ci && npx eslint .", ""},
	}
	for _, c := range cases {
		got := strings.Join(missingTools([]RerunResult{{Phase: "P", Command: c.cmd, Source: "S"}}, env, wt), "\n")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("missingTools(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}

// TestRerunLine: the built-in lint gate's npx runs the installed linter.
func TestRerunLine(t *testing.T) {
	if got := rerunLine("npx markdownlint-cli2 {changed:*.md}"); got != "./node_modules/.bin/markdownlint-cli2 {changed:*.md}" {
		t.Fatal(got)
	}
	if got := rerunLine("npx eslint ."); got != "npx eslint ." {
		t.Fatal(got)
	}
}
