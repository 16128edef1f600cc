package logfacts_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/logfacts"
)

// TestR64ForeignLog: a session log brought from another project names that
// project's files. Round 62's open MEDIUM row: the fixtures' real session
// 92 log with one line added naming the session's script passed every
// rule (it names a changed file, says no "None", nothing abandoned).
func TestR64ForeignLog(t *testing.T) {
	ctx := context.Background()
	const log = ".agents/sessions/2026-12-08-session-01.md"
	b, err := os.ReadFile(filepath.Join("..", "..", "shared", "fixtures", "ai-agents", "session-log_noncanonical-md_2025-12-27-session-92_at-4a00fca3b.md"))
	if err != nil {
		t.Skipf("fixtures not here: %v", err)
	}
	copied := strings.Replace(string(b), "2025-12-27", "2026-12-08", -1) + "\n- Also updated `scripts/greet.sh` to take a name.\n"
	protocol, err := os.ReadFile(filepath.Join("..", "..", "shared", "fixtures", "ai-agents", "SESSION-PROTOCOL_2025-12-22_3821367d2.md"))
	if err != nil {
		t.Skipf("fixtures not here: %v", err)
	}
	judge := func(t *testing.T, text string, onDisk ...string) *logfacts.Finding {
		t.Helper()
		dir := gittest.New(t, nil)
		start := gittest.Git(t, dir, "rev-parse", "HEAD")
		for _, f := range onDisk {
			p := filepath.Join(dir, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		gittest.Commit(t, dir, "feat: greet takes a name", map[string]string{"scripts/greet.sh": "echo \"Hello, $1\"\n", "scripts/test.sh": "sh scripts/greet.sh x\n", log: text})
		own := strings.Fields(gittest.Git(t, dir, "rev-list", "HEAD", "--not", start))
		f, err := logfacts.Check(ctx, logfacts.Session{Root: dir, Start: start, Own: own, Changed: []string{"scripts/greet.sh", "scripts/test.sh"}, Protocol: protocol}, log, []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	t.Run("lazy: another project's log with one line naming the work", func(t *testing.T) {
		f := judge(t, copied)
		if f == nil || !strings.Contains(f.Msg, "another project's log") || !strings.Contains(f.Msg, "src/claude/architect.md") {
			t.Fatalf("finding = %+v, want the copy named another project's log", f)
		}
	})
	for _, tc := range []struct {
		name, text string
		onDisk     []string
	}{
		{"honest: the session's files and one planned", "# Session 01\n\n## Work Log\n\n- `scripts/greet.sh` takes a name; `scripts/test.sh` checks it.\n\n## Next\n\n- document it in `docs/usage.md`.\n", nil},
		{"honest: files relative to their folder, and folders", "# Session 01\n\nChanged greet.sh in scripts/; see `greet/../x` and `scripts/greet.sh`, `test.sh`, and `.agents/sessions/2026-12-08-session-01.md`.\n", nil},
		{"honest: the protocol's own paths (its template's), absent here", "# Session 01\n\n- Read `.agents/governance/PROJECT-CONSTRAINTS.md`, `.serena/memories/skill-usage-mandatory.md`, `.agents/planning/enhancement-PROJECT-PLAN.md`, as `.agents/sessions/2025-12-17-session-01.md` did.\n- `scripts/greet.sh` takes a name.\n", nil},
		{"honest: ignored outputs on disk", "# Session 01\n\n- `scripts/greet.sh` takes a name.\n- Built `dist/app.js`, `dist/app.css` and `coverage/index.html`; see `out/report.txt`.\n", []string{"dist/app.js", "dist/app.css", "coverage/index.html", "out/report.txt"}},
		{"honest: URLs, code and hosts are no paths", "# Session 01\n\n- `scripts/greet.sh`: see https://example.com/a/b.md and github.com/o/r/c.md.\n\n```\nsrc/x/y.go\nsrc/x/z.go\nsrc/x/w.go\n```\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if f := judge(t, tc.text, tc.onDisk...); f != nil {
				t.Fatalf("honest log refused: %+v", f)
			}
		})
	}
}

// TestR64LogPaths: what counts as a path a log names.
func TestR64LogPaths(t *testing.T) {
	text := "Edited `scripts/greet.sh`. See ./docs/a.md, https://x.io/p/q.md, github.com/o/r.md and src/x/y.go.\n" +
		"file:src/z.go, v1.2/3.4, a/b, .agents/HANDOFF.md:12\n```\ncode/in/fence.go\n```\n"
	got, lines := logfacts.Paths([]byte(text))
	want := []string{"scripts/greet.sh", "docs/a.md", "src/x/y.go", ".agents/HANDOFF.md"}
	if !slices.Equal(got, want) {
		t.Errorf("Paths = %q, want %q", got, want)
	}
	if len(lines) != len(got) || len(lines) > 0 && lines[0] != 1 {
		t.Errorf("lines = %v", lines)
	}
}
