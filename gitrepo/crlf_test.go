package gitrepo_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestConvertedScripts: a tracked shell script checked out with CRLF that
// git converts back to LF reads clean to status, but bash runs it with a
// CR on every line (the lazy agent's `git config core.autocrlf true` and a
// fresh checkout of scripts/test.sh), whatever the script's name when its
// #! names a shell. A script committed with CRLF, one an eol=lf attribute
// keeps LF, and other files converted (.bat/.cmd, whose CRLF is their own,
// a Makefile, which GNU make reads without the CR, a Python script) are not
// listed.
func TestConvertedScripts(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	const script = "#!/bin/bash\nset -e\ntest 1 = 2\necho ok\n"
	for _, tt := range []struct {
		name  string
		files map[string]string
		after []string // git config / checkout after the commit
		want  []string
	}{
		{"LF as committed", map[string]string{"scripts/test.sh": script}, nil, nil},
		{"checked out with CRLF by core.autocrlf", map[string]string{"scripts/test.sh": script, "README.md": "# r\n"},
			[]string{"config core.autocrlf true", "rm"}, []string{"scripts/test.sh"}},
		{"committed with CRLF", map[string]string{"scripts/test.sh": "set -e\r\necho ok\r\n"}, []string{"config core.autocrlf true", "rm"}, nil},
		{"a bash script without an extension (what make test runs)", map[string]string{"scripts/test": script, "Makefile": "test:\n\tbash scripts/test\n"},
			[]string{"config core.autocrlf true", "rm"}, []string{"scripts/test"}},
		{"an env sh shebang", map[string]string{"bin/check": "#!/usr/bin/env sh\nset -e\nfalse\n"},
			[]string{"config core.autocrlf true", "rm"}, []string{"bin/check"}},
		{"honest: .bat and .cmd files, a Makefile, a Python script with CRLF", map[string]string{
			"build.bat": "@echo off\nexit /b 0\n", "test.cmd": "@echo off\n", "Makefile": "test:\n\tfalse\n",
			"scripts/check": "#!/usr/bin/env python3\nprint('ok')\n", "LICENSE": "MIT\n"},
			[]string{"config core.autocrlf true", "rm"}, nil},
		{"kept LF by an eol attribute", map[string]string{"scripts/test.sh": script, ".gitattributes": "*.sh text eol=lf\n"},
			[]string{"config core.autocrlf true", "rm"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			gittest.Git(t, dir, "init", "-q", "-b", "main")
			for p, b := range tt.files {
				gittest.Write(t, dir, p, b)
			}
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "-m", "init")
			for _, a := range tt.after {
				if a == "rm" {
					for p := range tt.files {
						if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
							t.Fatal(err)
						}
					}
					gittest.Git(t, dir, "checkout", "--", ".")
					continue
				}
				gittest.Git(t, dir, "config", "core.autocrlf", "true")
			}
			if st := gittest.Git(t, dir, "status", "--porcelain"); st != "" {
				t.Fatalf("status not clean: %q", st)
			}
			r, err := gitrepo.Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.ConvertedScripts(ctx)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("ConvertedScripts = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
