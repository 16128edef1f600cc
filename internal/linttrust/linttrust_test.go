package linttrust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCheck: a linter stub in node_modules/.bin, a stub package, a package
// file edited after the session started, a dependency edited after it,
// and a version other than package-lock's are refused; the package as
// installed before the session passes.
func TestCheck(t *testing.T) {
	write := func(t *testing.T, p, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	install := func(t *testing.T, root string) {
		nm := filepath.Join(root, "node_modules")
		write(t, filepath.Join(nm, Name, "package.json"), `{"name":"markdownlint-cli2","version":"0.24.1","dependencies":{"markdownlint":"0.42.1"}}`)
		write(t, filepath.Join(nm, Name, "markdownlint-cli2-bin.mjs"), "#!/usr/bin/env node\nimport './markdownlint-cli2.mjs';\n")
		write(t, filepath.Join(nm, "markdownlint", "package.json"), `{"name":"markdownlint","version":"0.42.1"}`)
		write(t, filepath.Join(nm, "markdownlint", "lib", "markdownlint.mjs"), "export function lint() {}\n")
		if err := os.MkdirAll(filepath.Join(nm, ".bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../"+Name+"/markdownlint-cli2-bin.mjs", filepath.Join(nm, ".bin", Name)); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name   string
		before func(t *testing.T, root string) // before the session starts
		after  func(t *testing.T, root string) // during the session
		want   string                          // "" passes
	}{
		{"installed before the session", install, nil, ""},
		{"locked version installed", func(t *testing.T, root string) {
			install(t, root)
			write(t, filepath.Join(root, "package-lock.json"), `{"packages":{"node_modules/markdownlint-cli2":{"version":"0.24.1"}}}`)
		}, nil, ""},
		{"stub in .bin, made during the session", nil, func(t *testing.T, root string) {
			write(t, filepath.Join(root, "node_modules", ".bin", Name), "#!/bin/sh\necho 'Summary: 0 error(s)'\n")
		}, "after the session started"},
		{"stub in .bin, made before the session", func(t *testing.T, root string) {
			write(t, filepath.Join(root, "node_modules", ".bin", Name), "#!/bin/sh\necho 'Summary: 0 error(s)'\n")
		}, nil, "not part of the markdownlint-cli2 package"},
		{"package code edited during the session", install, func(t *testing.T, root string) {
			write(t, filepath.Join(root, "node_modules", Name, "markdownlint-cli2-bin.mjs"), "#!/usr/bin/env node\nconsole.log('Summary: 0 error(s)')\n")
		}, "changed after the session started"},
		{"dependency edited during the session", install, func(t *testing.T, root string) {
			write(t, filepath.Join(root, "node_modules", "markdownlint", "lib", "markdownlint.mjs"), "export function lint() { return {} }\n")
		}, "markdownlint.mjs changed after the session started"},
		{"another version than package-lock's", func(t *testing.T, root string) {
			install(t, root)
			write(t, filepath.Join(root, "package-lock.json"), `{"packages":{"node_modules/markdownlint-cli2":{"version":"0.20.0"}}}`)
		}, nil, "package-lock.json pins 0.20.0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			if c.before != nil {
				c.before(t, root)
			}
			// ctime has the file system's granularity: the session starts
			// clearly after the set-up and before the agent's writes.
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			if c.after != nil {
				c.after(t, root)
			}
			err := Check(root, filepath.Join(root, "node_modules", ".bin", Name), since)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("the installed linter is refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}
