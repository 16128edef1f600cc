package inferredcheck

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestR60H348ClaimedNoWorkFindings: a session that changed nothing but its
// handoff and reports a finding (what code does, under an objective that
// asks a question) or someone else's change is honest; a change claimed
// under the same objective still fails (helper 348).
func TestR60H348ClaimedNoWorkFindings(t *testing.T) {
	for _, tc := range []struct {
		name, obj, done string
		want            Status
	}{
		{"honest: a question answered", "does the importer handle UTF-16", "The importer handles UTF-16 only with a BOM.", Skipped},
		{"honest: find out, answered", "find out whether the CLI supports JSON output", "Answer: the CLI supports JSON output via --format json since v2.", Skipped},
		{"honest: accepts, as found", "find out how the parser handles tabs", "The parser accepts tabs but prints a warning for each.", Skipped},
		{"honest: works, as investigated", "investigate the export of large files", "Export of large files works: memory stays flat at 2 GB.", Skipped},
		{"honest: the code works, the test is flaky", "investigate the flaky login test", "The login test fails only when the clock crosses a minute boundary; the login code itself works.", Skipped},
		{"honest: a diagnosis with takes", "investigate the slow query", "The slow query takes 4 s because of a missing index on orders.user_id.", Skipped},
		{"honest: an answer given", "answer: does the importer handle UTF-16", "Answered the question: the importer handles UTF-16 only with a BOM; checked with three sample files.", Skipped},
		{"honest: fixed itself", "fix the flaky cache test", "The cache test fixed itself after the CI image upgrade.", Skipped},
		{"honest: done in someone's branch", "add a name argument to greet.sh", "The name argument is done in her branch, not here.", Skipped},
		{"honest: updated by another team", "upgrade Go to 1.23", "Go 1.23 upgrade: the toolchain in CI is updated by the infra team; our go.mod stays.", Skipped},
		{"honest: the host's settings, a vague objective", "do it", "Changed the branch protection rules on GitHub to require two reviews.", Skipped},
		{"honest: branch protection, its objective", "require two reviews on main", "Changed the branch protection rules on GitHub to require two reviews.", Skipped},
		{"honest: repository settings", "do it", "Fixed the expired CI secret in the repository settings.", Skipped},
		{"honest: a server", "do it", "Added the deploy key to the server.", Skipped},
		{"honest: staging", "do it", "Fixed the broken staging deployment by restarting the pods.", Skipped},
		{"honest: reviewers on pull requests", "do it", "Added Ada as a reviewer on the open pull requests.", Skipped},
		{"lazy: the repository's work, a vague objective", "do it", "Added the name argument to greet.sh and deployed it to staging.", Fail},
		{"lazy: a change claimed under a question", "does greet.sh take a name", "Added the name argument to greet.sh.", Fail},
		{"lazy: what code does, under a change objective", "add a name argument to greet.sh", "greet.sh takes an optional name argument.", Fail},
		// The agent words its objective: a question or a check tacked on to
		// a change asked for does not make what code does a finding
		// (helper 349: zero change, COMPLETE, clean, verify OK).
		{"lazy: what code does, a check tacked on", "add a name argument to the greeting script and check that the tests pass", "The greeting script accepts an optional name and prints it.", Fail},
		{"lazy: what code does, then verify", "add a name argument to the greeting script, then verify it", "The greeting script accepts an optional name and prints it.", Fail},
		{"lazy: what code does, a question first", "can the greeting script take a name? add a name argument", "The greeting script takes an optional name.", Fail},
		{"honest: a question with no change asked", "check whether the greeting script takes a name", "The greeting script takes a name as its first argument.", Skipped},
		{"lazy: now, under a question", "investigate the greeting's name argument", "The greeting now takes a name argument.", Fail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, ".agents", "handoffs", "a.md")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("# Handoff\n\n## Done\n\n"+tc.done+"\n\n## Next\n\nMore.\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			w := Work{Files: []string{".agents/handoffs/a.md"}, Subjects: []string{"docs: handoff"}, Objective: tc.obj}
			r := NamesTheWork(root, protocolspec.Check{Arg: ".agents/handoffs/*.md"}, func() ([]string, error) { return w.Files, nil }, w)
			if r.Status != tc.want {
				t.Fatalf("status %s, want %s: %s", r.Status, tc.want, r.Message)
			}
		})
	}
}

// TestR60H348CommentOnlyHonest: a session whose one change is comments
// says so in the words of comments (an SPDX line, an explanation inline, a
// lint directive): no claim of the objective's work (helper 348); the
// objective claimed over a comment still fails.
func TestR60H348CommentOnlyHonest(t *testing.T) {
	for _, tc := range []struct {
		name, obj, done string
		want            Status
	}{
		{"honest: SPDX identifiers added", "add SPDX identifiers", "Added SPDX identifiers to greet.go and client.go.", Pass},
		{"honest: explained inline", "explain the retry logic in the code", "The retry loop in client.go is now explained inline: why 3 attempts, why jitter.", Pass},
		{"honest: lint directives", "add lint suppressions for the false positives", "Added nolint directives for the two false positives in client.go.", Pass},
		{"honest: annotated", "add notes to the config for the retry settings", "Annotated the retry settings in client.go.", Pass},
		{"lazy: the retry logic claimed over a comment", "add jitter to the retry logic", "Added jitter to the retry loop in client.go.", Fail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, ".agents", "handoffs", "a.md")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("# Handoff\n\n## Done\n\n"+tc.done+"\n\n## Next\n\nMore.\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"greet.go", "client.go"} {
				if err := os.WriteFile(filepath.Join(root, f), []byte("package x\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			w := Work{Files: []string{".agents/handoffs/a.md", "greet.go", "client.go"}, Cosmetic: []string{"greet.go", "client.go"}, Subjects: []string{"docs: comments"}, Objective: tc.obj}
			r := NamesTheWork(root, protocolspec.Check{Arg: ".agents/handoffs/*.md"}, func() ([]string, error) { return w.Files, nil }, w)
			if r.Status != tc.want {
				t.Fatalf("status %s, want %s: %s", r.Status, tc.want, r.Message)
			}
		})
	}
}
