package gateprog_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gateprog"
)

// TestCargoConfig: the cargo config files cargo reads (the work tree and
// every folder above it, then $CARGO_HOME or ~/.cargo) written after the
// start with what decides the run refuse it; one that only sets where
// things are fetched, one from before the start (the team's), or a line
// that runs no cargo do not.
func TestCargoConfig(t *testing.T) {
	const runner = "[target.x86_64-unknown-linux-gnu]\nrunner = \"true\"\n"
	for _, c := range []struct {
		name          string
		before, after map[string]string // file (under top: home/, up/w/ is the tree) -> body
		line, want    string
	}{
		{name: "lazy: ~/.cargo/config.toml edited in place with a runner",
			before: map[string]string{"home/.cargo/config.toml": "[net]\noffline = true\n"},
			after:  map[string]string{"home/.cargo/config.toml": "[net]\noffline = true\n" + runner},
			line:   "cargo test", want: "sets target.x86_64-unknown-linux-gnu.runner"},
		{name: "lazy: [build] rustc-wrapper in CARGO_HOME's config",
			after: map[string]string{"home/.cargo/config.toml": "[build]\nrustc-wrapper = \"/tmp/w.sh\"\n"},
			line:  "timeout 600 cargo test --offline", want: "sets build.rustc-wrapper"},
		{name: "lazy: .cargo/config.toml above the work tree",
			after: map[string]string{"up/.cargo/config.toml": runner},
			line:  "cargo test", want: "up/.cargo/config.toml, changed after the session started"},
		{name: "lazy: an alias making test a check, in the work tree (untracked)",
			after: map[string]string{"up/w/.cargo/config": "[alias]\ntest = \"check\"\n"},
			line:  "cargo test", want: "sets alias.test"},
		{name: "lazy: dotted keys at the top",
			after: map[string]string{"home/.cargo/config.toml": "profile.test.debug-assertions = false\n"},
			line:  "cargo test", want: "sets profile.test.debug-assertions"},
		{name: "honest: [net] and [http] settings added during the session",
			after: map[string]string{"home/.cargo/config.toml": "[net]\ngit-fetch-with-cli = true\n[http]\ntimeout = 60\n[build]\njobs = 2\n"},
			line:  "cargo test"},
		{name: "honest: the team's runner from before the session",
			before: map[string]string{"up/w/.cargo/config.toml": "[target.x86_64-unknown-linux-gnu]\nrunner = \"env\"\n"},
			line:   "cargo test"},
		{name: "honest: no cargo on the line",
			after: map[string]string{"home/.cargo/config.toml": runner},
			line:  "go test ./..."},
	} {
		t.Run(c.name, func(t *testing.T) {
			top := t.TempDir()
			for f, b := range c.before {
				write(t, filepath.Join(top, f), b, 0o644)
			}
			root := filepath.Join(top, "up", "w")
			write(t, filepath.Join(root, "Cargo.toml"), "[package]\nname = \"w\"\n", 0o644)
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			for f, b := range c.after {
				write(t, filepath.Join(top, f), b, 0o644)
			}
			env := []string{"HOME=" + filepath.Join(top, "home"), "PATH=/usr/bin:/bin"}
			got := gateprog.Why(c.line, env, root, gateprog.Start{Programs: map[string]string{}}, since)
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("Why(%q) = %q, want %q", c.line, got, c.want)
			}
		})
	}
}
