package session_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestRunQAFreshens: `sessiongate run -- make test` for a QA phase with no
// command of its own proves the phase, so it gets a QA gate's dates: the
// session's files now, future-dated outputs set back. A broken greet.c
// with its mtime set back, or a build output dated ahead, made make keep
// the start's binary and the run pass (the route rows fail on the old
// code); the honest change rebuilds and passes.
func TestRunQAFreshens(t *testing.T) {
	needProg(t, "make")
	needProg(t, "cc")
	const good = "#include <stdio.h>\nint main(void) { puts(\"hello\"); return 0; }\n"
	const broken = "#include <stdio.h>\nint main(void) { puts(\"hullo\"); return 0; }\n"
	cases := []struct {
		name   string
		change string
		lazy   string // shell line after the change, before the run
		want   int
	}{
		{name: "source set back", change: broken, lazy: "touch -d '-1 hour' greet.c", want: 2},
		{name: "output dated ahead", change: broken, lazy: "touch -d '+1 year' build/greet", want: 2},
		{name: "honest change", change: good + "/* greet prints hello */\n", want: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, earlyProtocol)
			gittest.Write(t, e.root, ".gitignore", "build/\n")
			gittest.Write(t, e.root, "greet.c", good)
			gittest.Write(t, e.root, "Makefile", ".PHONY: test\ntest: build/greet\n\ttest \"$$(build/greet)\" = hello\n\nbuild/greet: greet.c\n\tmkdir -p build && cc -o build/greet greet.c\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "feat: greet")
			old := time.Now().Add(-2 * time.Hour)
			if err := os.Chtimes(filepath.Join(e.root, "greet.c"), old, old); err != nil {
				t.Fatal(err)
			}
			sh(t, e.root, "make -s test") // the start's build
			id := e.start(c.name)
			e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: make test")
			e.advance(id) // WORKING
			gittest.Write(t, e.root, "greet.c", c.change)
			if c.lazy != "" {
				sh(t, e.root, c.lazy)
			}
			gittest.Git(t, e.root, "commit", "-q", "-am", "feat: greet")
			e.advance(id) // QA_VALIDATION
			res, err := e.engine.Run(ctx, session.RunRequest{ID: id, Phase: "QA_VALIDATION", Argv: []string{"make", "-s", "test"}})
			if err != nil {
				t.Fatal(err)
			}
			if res.ExitCode != c.want {
				t.Fatalf("make test exited %d, want %d", res.ExitCode, c.want)
			}
		})
	}
}
