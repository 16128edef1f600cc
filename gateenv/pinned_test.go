package gateenv_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gateenv"
)

// TestPinnedVars: HOME, CARGO_HOME, XDG_CONFIG_HOME... given anew after
// the session started (`HOME=/tmp/fh sessiongate session end`, fh holding
// a cargo runner) are put back to the start's values for a gate's
// command, and named; one unset at the start is unset again. Honest twin:
// the values the session started with, a HOME in /tmp included, pass
// unchanged and unnamed.
func TestPinnedVars(t *testing.T) {
	start := gateenv.PinnedVars([]string{"HOME=/tmp/ci-home", "CARGO_HOME=/opt/cargo", "PATH=/usr/bin"})
	for _, c := range []struct {
		name    string
		environ []string
		want    []string // pinned variables in the result
		named   []string
	}{
		{"honest: as at the start", []string{"HOME=/tmp/ci-home", "CARGO_HOME=/opt/cargo", "PATH=/usr/bin"}, []string{"CARGO_HOME=/opt/cargo", "HOME=/tmp/ci-home"}, nil},
		{"HOME swapped", []string{"HOME=/tmp/fh", "CARGO_HOME=/opt/cargo", "PATH=/usr/bin"}, []string{"CARGO_HOME=/opt/cargo", "HOME=/tmp/ci-home"}, []string{"HOME"}},
		{"CARGO_HOME unset, XDG_CONFIG_HOME set", []string{"HOME=/tmp/ci-home", "XDG_CONFIG_HOME=/tmp/x", "PATH=/usr/bin"}, []string{"CARGO_HOME=/opt/cargo", "HOME=/tmp/ci-home"}, []string{"CARGO_HOME", "XDG_CONFIG_HOME"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			env, dropped := gateenv.CleanFor(c.environ, gateenv.Options{Root: "/nonexistent/w", StartVars: start})
			var got []string
			for _, kv := range env {
				for _, p := range []string{"HOME=", "CARGO_HOME=", "XDG_CONFIG_HOME=", "RUSTUP_HOME=", "GIT_CONFIG_GLOBAL=", "PIP_CONFIG_FILE="} {
					if strings.HasPrefix(kv, p) {
						got = append(got, kv)
					}
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("pinned = %q, want %q", got, c.want)
			}
			for _, n := range c.named {
				if !slices.Contains(dropped, n+" (set since the session started: the start's value is used)") {
					t.Errorf("dropped %q does not name %s", dropped, n)
				}
			}
			if c.named == nil && slices.ContainsFunc(dropped, func(d string) bool { return strings.Contains(d, "set since the session started") }) {
				t.Errorf("dropped %q names a variable as at the start", dropped)
			}
		})
	}
}
