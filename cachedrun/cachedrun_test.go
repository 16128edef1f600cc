package cachedrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWhy: the reasons read from a command line and its output alone (the
// engine's TestObservedQACaches runs them with real programs in a
// session): go test's "(cached)" in plain and -json output, eslint
// --cache, ruff without --no-cache, and --cache behind an npm script.
// Each honest twin gets no reason.
func TestWhy(t *testing.T) {
	for _, tt := range []struct {
		name, cmd, out string
		pkgJSON        string // the work tree's package.json, "" none
		why            string // "" no reason
	}{
		{name: "go test cached", cmd: "go test ./...", out: "ok  \texample.com/m\t(cached)\n", why: "(cached)"},
		{name: "go test -json cached", cmd: "go test -json ./...", out: `{"Action":"output","Output":"ok  \texample.com/m\t(cached)\n"}`, why: "(cached)"},
		{name: "honest: go test ran", cmd: "go test -count=1 ./...", out: "ok  \texample.com/m\t0.012s\n"},
		{name: "eslint --cache", cmd: "npx eslint --cache .", why: "--cache"},
		{name: "honest: eslint --cache=false", cmd: "npx eslint --cache=false ."},
		{name: "ruff check", cmd: "ruff check .", why: "--no-cache"},
		{name: "honest: ruff check -n", cmd: "ruff check -n ."},
		{name: "honest: ruff version", cmd: "ruff version"},
		{name: "npm run lint adds --cache", cmd: "npm run lint", pkgJSON: `{"scripts": {"lint": "eslint --cache src"}}`, why: `"lint" script`},
		{name: "honest: npm run lint", cmd: "npm run lint", pkgJSON: `{"scripts": {"lint": "eslint src"}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if tt.pkgJSON != "" {
				if err := os.WriteFile(filepath.Join(root, "package.json"), []byte(tt.pkgJSON), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got := Why(root, nil, tt.cmd, []byte(tt.out), time.Time{})
			if (got == "") != (tt.why == "") || !strings.Contains(got, tt.why) {
				t.Fatalf("Why(%q) = %q, want one saying %q", tt.cmd, got, tt.why)
			}
		})
	}
}
