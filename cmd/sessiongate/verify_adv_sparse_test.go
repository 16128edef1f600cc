package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestVerifyRerunSparseCheckout: a monorepo's CI checks out part of the
// tree (actions/checkout's `sparse-checkout:` input, or `git sparse-checkout
// set` in any CI). git worktree add copies the checkout's sparse patterns
// into the new worktree, so --rerun ran the base's gates on the part of
// the head the job had checked out: a markdown file with a TODO outside
// it (app/notes.md) was not there, mdcheck got no file, the gate was "skipped" and
// verify exited 0 (found round 21 with real git; the old code passed the
// lazy rows). The re-run's worktree now holds the whole head, whatever
// the job checked out. Honest twins: the same range passes in a sparse
// and a full checkout, every changed markdown file linted.
func TestVerifyRerunSparseCheckout(t *testing.T) {
	t.Parallel()
	tools := toolDir(t)
	sw := newSignedWorld(t, false, func(w *ciWorld) {
		w.env = append(w.env, "PATH="+tools+string(os.PathListSeparator)+os.Getenv("PATH"))
		withMdcheck(t)(w)
	})
	w := sw.ciWorld
	honest := w.branchSession(t, "honest-md", func() {
		w.writeFile(t, "docs/guide.md", "# Guide\n\nDone.\n")
		w.writeFile(t, "app/notes.md", "# Notes\n\nWritten.\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "guide and notes")
	})
	hidden := w.branchSession(t, "hidden-md", func() {
		w.writeFile(t, "docs/guide.md", "# Guide\n\nDone.\n")
		w.writeFile(t, "app/notes.md", "# Notes\n\nTODO: write them\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "notes")
		// The local gate lints the work tree: nothing there, nothing linted.
		if err := os.Remove(filepath.Join(w.dev, "app", "notes.md")); err != nil {
			t.Fatal(err)
		}
	})
	w.git(t, w.dev, "checkout", "-q", "--", ".")
	cases := []struct {
		name, tip string
		sparse    []string // git sparse-checkout set ARGS; nil: the whole tree
		code      int
		want      string
	}{
		{"lazy, sparse checkout of docs/ (no cone)", hidden, []string{"--no-cone", "/docs/"}, 1, `FAIL rerun QUALITY_CHECKS: mdcheck`},
		{"lazy, sparse checkout of docs/ (cone)", hidden, []string{"docs"}, 1, `FAIL rerun QUALITY_CHECKS: mdcheck`},
		{"lazy, whole tree", hidden, nil, 1, `FAIL rerun QUALITY_CHECKS: mdcheck`},
		{"honest, sparse checkout of docs/ (no cone)", honest, []string{"--no-cone", "/docs/"}, 0, `OK +rerun QUALITY_CHECKS: mdcheck \{changed:\*\.md\} \(2 changed file\(s\)`},
		{"honest, whole tree", honest, nil, 0, `OK +rerun QUALITY_CHECKS: mdcheck \{changed:\*\.md\} \(2 changed file\(s\)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ci := w.checkout(t, "ci-sparse", false, c.tip, "+refs/heads/*:refs/remotes/origin/*", recsSpec)
			if c.sparse != nil {
				w.git(t, ci, append([]string{"sparse-checkout", "set"}, c.sparse...)...)
				if _, err := os.Stat(filepath.Join(ci, "app", "notes.md")); err == nil {
					t.Fatal("app/notes.md is in the sparse checkout")
				}
			}
			code, out, errb := sgBin(t, ci, w.env, "verify", "--rerun", w.main+".."+c.tip)
			if code != c.code || !regexp.MustCompile(c.want).MatchString(out+errb) {
				t.Fatalf("verify --rerun: exit %d, want %d matching %s\n%s%s", code, c.code, c.want, out, errb)
			}
			if c.sparse != nil {
				// The job's own checkout is left as it was.
				if _, err := os.Stat(filepath.Join(ci, "app", "notes.md")); err == nil {
					t.Fatal("verify widened the job's sparse checkout")
				}
			}
		})
	}
}
