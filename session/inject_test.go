package session_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// hostileNames are file names that are shell syntax if ever parsed.
var hostileNames = []string{
	"$(touch pwned1).md",
	"`touch pwned2`.md",
	"it's \"quoted\".md",
	"a;touch pwned3.md",
	"new\nline.md",
	"-rf.md",
	"with space.md",
	"non-utf8-\xff.md",
	"$HOME.md",
}

// TestCommandFileNamesAreData puts every hostile name in the changed list and
// runs a command gate with the placeholder unquoted, in double quotes and in
// single quotes: no name may run as a command, and each must reach the
// command as exactly one argument.
func TestCommandFileNamesAreData(t *testing.T) {
	for _, tc := range []struct{ name, cmd string }{
		{"unquoted", `printf '%s\0' {changed:*.md} > args.bin`},
		{"double quotes", `printf '%s\0' "{changed:*.md}" > args.bin`},
		{"single quotes", `printf '%s\0' '{changed:*.md}' > args.bin`},
		{"glued to text", `printf '%s\0' x{changed:*.md}y > args.bin`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, gateProtocol(`<!-- gate: command "true" -->`))
			e.engine.Config.Commands = map[string]string{"CHECK": tc.cmd}
			id := e.start("hostile names")
			for _, n := range hostileNames {
				if err := os.WriteFile(filepath.Join(e.root, n), []byte("x\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			g, err := e.engine.ValidateGate(context.Background(), id, "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != session.StatusPass {
				t.Fatalf("gate %s: %s\n%s", g.Status, g.Message, g.Output)
			}
			for _, p := range []string{"pwned1", "pwned2", "pwned3"} {
				if _, err := os.Stat(filepath.Join(e.root, p)); err == nil {
					t.Errorf("a file name ran as a command: %s exists", p)
				}
			}
			b, err := os.ReadFile(filepath.Join(e.root, "args.bin"))
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
			if len(got) != len(hostileNames) {
				t.Fatalf("%d arguments, want one per file (%d): %q", len(got), len(hostileNames), got)
			}
			want := make([]string, 0, len(hostileNames))
			for _, n := range hostileNames {
				if strings.HasPrefix(n, "-") {
					n = "./" + n // never an option
				}
				want = append(want, n)
			}
			if tc.name == "glued to text" {
				// Text glued to the placeholder sticks to the first and last name, as in sh.
				if !strings.HasPrefix(got[0], "x") || !strings.HasSuffix(got[len(got)-1], "y") {
					t.Fatalf("glued arguments %q", got)
				}
				got[0], got[len(got)-1] = got[0][1:], strings.TrimSuffix(got[len(got)-1], "y")
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("arguments\n got %q\nwant %q", got, want)
			}
		})
	}
}
