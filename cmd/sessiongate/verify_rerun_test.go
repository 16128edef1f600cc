package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mdcheckGate is a linter gate on the changed markdown, added to the
// starter protocol's Quality Checks phase: mdcheck fails on a TODO.
const mdcheckGate = `<!-- gate: command "mdcheck {changed:*.md}" -->`

// withMdcheck puts the mdcheck gate in the protocol committed on main.
func withMdcheck(t *testing.T) func(w *ciWorld) {
	return func(w *ciWorld) {
		p := filepath.Join(w.dev, "SESSION-PROTOCOL.md")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out := strings.Replace(string(b), "1. The agent MUST run the project's linters", mdcheckGate+"\n\n1. The agent MUST run the project's linters", 1)
		if out == string(b) {
			t.Fatal("no Quality Checks text in the starter protocol to put the gate before")
		}
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// toolDir holds mdcheck, a linter that fails on a TODO in a file it is given.
func toolDir(t *testing.T) string {
	d := t.TempDir()
	if err := os.WriteFile(filepath.Join(d, "mdcheck"), []byte("#!/bin/sh\n[ $# -gt 0 ] || { echo 'mdcheck: no files'; exit 3; }\nif grep -n TODO \"$@\"; then exit 1; fi\necho \"mdcheck: $# file(s) clean\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestVerifyRerunChanged: --rerun runs the base protocol's linter gates on
// {changed:...} too, with the range's changed files (issue 26 item 2.1).
// A session that hid its markdown from the local gate (deleted from the
// work tree while the gate ran: zero files, skipped) passes locally; the
// re-run in CI lints what the head holds and fails. An honest range
// passes with the gate reported as run; a CI without the gate's program
// exits 2 naming it, never passes.
func TestVerifyRerunChanged(t *testing.T) {
	tools := toolDir(t)
	sw := newSignedWorld(t, false, func(w *ciWorld) {
		w.env = append(w.env, "PATH="+tools+string(os.PathListSeparator)+os.Getenv("PATH"))
		withMdcheck(t)(w)
	})
	w := sw.ciWorld
	honest := w.branchSession(t, "honest-md", func() {
		w.writeFile(t, "docs/guide.md", "# Guide\n\nDone.\n")
		w.writeFile(t, "odd name; $(touch pwned).md", "# odd\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "guide")
	})
	hidden := w.branchSession(t, "hidden-md", func() {
		w.writeFile(t, "notes.md", "# Notes\n\nTODO: write them\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "notes")
		// The local gate lints the work tree: nothing there, nothing linted.
		if err := os.Remove(filepath.Join(w.dev, "notes.md")); err != nil {
			t.Fatal(err)
		}
	})
	w.git(t, w.dev, "checkout", "-q", "--", ".")
	noPath := []string{}
	for _, kv := range w.env {
		if !strings.HasPrefix(kv, "PATH=") {
			noPath = append(noPath, kv)
		}
	}
	cases := []struct {
		name, tip string
		env       []string
		args      []string
		code      int
		want      []string
	}{
		{"honest", honest, w.env, nil, 0, []string{`OK +rerun QUALITY_CHECKS: mdcheck \{changed:\*\.md\} \(2 changed file\(s\)`}},
		{"hidden markdown", hidden, w.env, nil, 1, []string{`FAIL rerun QUALITY_CHECKS: mdcheck`, `3:TODO: write them`}},
		{"hidden markdown, json", hidden, w.env, []string{"--format", "json"}, 1, []string{`"status": ?"fail"`}},
		{"linter missing in CI", honest, noPath, nil, 2, []string{"`mdcheck` is not on PATH in this CI: install it"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ci := w.checkout(t, "ci-rerun", false, c.tip, "+refs/heads/*:refs/remotes/origin/*", recsSpec)
			code, out, errb := sgBin(t, ci, c.env, append([]string{"verify", "--rerun", w.main + ".." + c.tip}, c.args...)...)
			for _, want := range c.want {
				if code != c.code || !regexp.MustCompile(want).MatchString(out+errb) {
					t.Fatalf("verify --rerun: exit %d, want %d matching %s\n%s%s", code, c.code, want, out, errb)
				}
			}
			if _, err := os.Stat(filepath.Join(ci, "pwned")); err == nil {
				t.Fatal("a changed file's name ran as a command")
			}
			if strings.Contains(c.name, "json") {
				var rep struct {
					Rerun []struct{ Phase, Status string }
				}
				if err := json.Unmarshal([]byte(out), &rep); err != nil {
					t.Fatalf("json: %v\n%s", err, out)
				}
			}
		})
	}
}
