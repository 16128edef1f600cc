package gateenv

import (
	"path/filepath"
	"strings"
)

// Cargo reads its whole configuration from CARGO_* variables, and they
// win over every config file: CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=true
// on the `session end` line made `cargo test` run each test binary through
// `true` and print "test result: ok. 0 passed" over a failing test (round
// 26 c11, played with cargo 1.x). So do a linker that writes a binary
// exiting 0 (CARGO_TARGET_*_LINKER), debug assertions turned off
// (CARGO_PROFILE_TEST_DEBUG_ASSERTIONS=false), rustc replaced
// (CARGO_BUILD_RUSTC), an alias... A gate's command keeps only the
// variables that say where things are fetched or kept and how the output
// looks (cargoKept); the rest is dropped and named.
var cargoKept = []string{
	"CARGO_HOME", "CARGO_TARGET_DIR", "CARGO_BUILD_TARGET_DIR", "CARGO_BUILD_JOBS", "CARGO_INCREMENTAL",
	"CARGO_NET_", "CARGO_HTTP_", "CARGO_REGISTRIES_", "CARGO_REGISTRY_", "CARGO_TERM_", "CARGO_LOG", "CARGO_CACHE_",
}

// cargoRedirects reports a CARGO_* variable that changes what cargo
// builds or runs.
func cargoRedirects(up string) bool {
	if !strings.HasPrefix(up, "CARGO_") {
		return false
	}
	for _, k := range cargoKept {
		if up == k || strings.HasSuffix(k, "_") && strings.HasPrefix(up, k) {
			return false
		}
	}
	return true
}

// homeInTemp: CARGO_HOME or RUSTUP_HOME in a temporary folder or inside
// the work tree is one the agent made: `CARGO_HOME=/tmp/ch sessiongate
// session end` with a config.toml there setting `runner = "true"` passed a
// failing cargo test as CARGO_TARGET_*_RUNNER did. Without it cargo reads
// ~/.cargo.
func homeInTemp(val string, o Options, temps []string) bool {
	if !filepath.IsAbs(val) {
		return true
	}
	p := filepath.Clean(val)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	if o.Root != "" {
		root := o.Root
		if r, err := filepath.EvalSymlinks(root); err == nil {
			root = r
		}
		if inside(root, p) || p == root {
			return true
		}
	}
	for _, t := range temps {
		if rt, err := filepath.EvalSymlinks(t); err == nil {
			t = rt
		}
		if p == t || inside(t, p) {
			return true
		}
	}
	return false
}
