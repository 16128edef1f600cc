package gateenv_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gateenv"
)

// TestCargoEnvRealCargo: round 26 c11's lazy pass. Cargo's variables win
// over its config files, so a runner of `true` given on the `session end`
// line (CARGO_TARGET_<triple>_RUNNER), debug assertions turned off for
// tests, or a CARGO_HOME of the agent's in /tmp whose config.toml sets the
// runner, made the real `cargo test` pass a failing test. Each lazy row
// passed before (dropped nothing); the honest rows (offline, colours, a
// target folder of the person's) keep their variables and still run the
// tests.
func TestCargoEnvRealCargo(t *testing.T) {
	cargo, err := exec.LookPath("cargo")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("cargo not on PATH")
		}
		t.Skip("cargo not on PATH: the real cargo is needed")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the runner variable below names x86_64-unknown-linux-gnu")
	}
	agentHome := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(agentHome, "config.toml"), "[target.x86_64-unknown-linux-gnu]\nrunner = \"true\"\n")
	target := t.TempDir()
	for _, c := range []struct {
		name    string
		vars    []string
		broken  bool // the test fails when run
		pass    bool
		dropped string
	}{
		{"runner true", []string{"CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=true"}, true, false, "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER"},
		{"debug assertions off", []string{"CARGO_PROFILE_TEST_DEBUG_ASSERTIONS=false", "CARGO_PROFILE_DEV_DEBUG_ASSERTIONS=false"}, true, false, "CARGO_PROFILE_DEV_DEBUG_ASSERTIONS"},
		{"agent's CARGO_HOME in /tmp", []string{"CARGO_HOME=" + agentHome}, true, false, "CARGO_HOME in a temporary folder or the work tree"},
		{"honest: offline, colours, target folder", []string{"CARGO_NET_OFFLINE=true", "CARGO_TERM_COLOR=never", "CARGO_TARGET_DIR=" + target}, false, true, ""},
		{"honest twin fails when broken", []string{"CARGO_NET_OFFLINE=true", "CARGO_TARGET_DIR=" + target}, true, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(filepath.Join(dir, "Cargo.toml"), "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
			want := `"hello"`
			if c.broken {
				want = `"helo"`
			}
			write(filepath.Join(dir, "src", "lib.rs"), "pub fn greet() -> &'static str { "+want+" }\n"+
				"#[cfg(test)]\nmod tests {\n    #[test]\n    fn greets() { debug_assert_eq!(super::greet(), \"hello\"); }\n}\n")
			environ := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "CARGO_") })
			environ = append(environ, c.vars...)
			env, dropped := gateenv.Clean(environ, dir, false)
			if c.dropped != "" && !slices.Contains(dropped, c.dropped) {
				t.Errorf("dropped %q, want %q among them", dropped, c.dropped)
			}
			for _, v := range c.vars {
				if c.dropped == "" && !slices.Contains(env, v) {
					t.Errorf("%s not kept", v)
				}
			}
			cmd := exec.Command(cargo, "test", "--offline", "-q")
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.CombinedOutput()
			if (err == nil) != c.pass {
				t.Fatalf("cargo test passed=%v, want %v:\n%s", err == nil, c.pass, out)
			}
		})
	}
}
