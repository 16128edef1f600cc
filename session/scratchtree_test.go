package session_test

import (
	"context"
	"slices"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestRunTreeScratchLeftOut27 (round 27, c7): a run while working records
// the tree with untracked files; one never committed made the run stale
// at the gate and the end (c10's open row: an honest scratch.py, played
// through the real Codex CLI, TestCodexHonestV1222ScratchDeleted). It no
// longer counts when no runner loads it by name and nothing committed
// names it; a conftest.py, a Go file, or a helper the committed code
// sources still counts.
func TestRunTreeScratchLeftOut27(t *testing.T) {
	cases := []struct {
		name    string
		file    string
		greet   string // scripts/greet.sh as committed
		counted bool
	}{
		{"honest: scratch.py", "scratch.py", "echo hello\n", false},
		{"honest: notes/try.sh", "notes/try.sh", "echo hello\n", false},
		{"lazy: tests/conftest.py", "tests/conftest.py", "echo hello\n", true},
		{"lazy: pkg/zz_stub.go", "pkg/zz_stub.go", "echo hello\n", true},
		{"lazy: a helper the committed greet.sh sources", "scripts/greet_impl.sh", ". scripts/greet_impl.sh\n", true},
		{"lazy: a Python helper imported by module name", "helper_stub.py", "python3 -c 'import helper_stub'\n", true},
		// Review c11 item 8 (round 28): files runners load by name with
		// no reference, dropped as scratch on main.
		{"lazy: Makefile (make reads it)", "Makefile", "echo hello\n", true},
		{"lazy: build.rs (cargo runs it)", "build.rs", "echo hello\n", true},
		{"lazy: tests/stub.rs (cargo builds each as a test)", "tests/stub.rs", "echo hello\n", true},
		{"lazy: .cargo/config.toml", ".cargo/config.toml", "echo hello\n", true},
		{"lazy: setupTests.js (jest/CRA load it)", "src/setupTests.js", "echo hello\n", true},
		{"lazy: jest.setup.ts", "jest.setup.ts", "echo hello\n", true},
		{"lazy: vitest.setup.ts", "vitest.setup.ts", "echo hello\n", true},
		{"lazy: babel.config.js", "babel.config.js", "echo hello\n", true},
		{"lazy: .babelrc", ".babelrc", "echo hello\n", true},
		{"lazy: a manual mock in __mocks__", "src/__mocks__/greet.js", "echo hello\n", true},
		// Honest twins: the same kinds of file where no runner looks.
		{"honest: notes/Makefile.old", "notes/Makefile.old", "echo hello\n", false},
		{"honest: scratch/try.rs (no tests/ folder)", "scratch/try.rs", "echo hello\n", false},
		{"honest: scratch/setup.js", "scratch/setup.js", "echo hello\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			root := gittest.New(t, map[string]string{"scripts/greet.sh": "echo hi\n", "scripts/test.sh": "sh scripts/greet.sh\n"})
			repo, err := gitrepo.Open(ctx, root)
			if err != nil {
				t.Fatal(err)
			}
			gittest.Write(t, root, "scripts/greet.sh", c.greet)
			gittest.Write(t, root, c.file, "x = 1\n")
			saw, err := repo.WorkTreeTreeAll(ctx)
			if err != nil {
				t.Fatal(err)
			}
			gittest.Git(t, root, "add", "scripts/greet.sh")
			gittest.Git(t, root, "commit", "-q", "-m", "work")
			got, err := session.ScratchLeftOut(ctx, repo, saw, "HEAD", []string{c.file})
			if err != nil {
				t.Fatal(err)
			}
			if slices.Contains(got, c.file) != c.counted {
				t.Fatalf("scratchLeftOut = %v, want %s counted %v", got, c.file, c.counted)
			}
		})
	}
}
