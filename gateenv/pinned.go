package gateenv

import (
	"strings"
)

// pinnedVars say where runners read per-user configuration: cargo reads
// $CARGO_HOME/config.toml (else $HOME/.cargo), Go, pip and git read
// $XDG_CONFIG_HOME (else $HOME/.config), git $GIT_CONFIG_GLOBAL. Given
// anew on the `session end` line (`HOME=/tmp/fh` holding a
// `.cargo/config.toml` with `runner = "true"`), they made the gate's
// cargo test pass a failing test (round 26 c11 left it open: replacing a
// temporary HOME with the account's broke the tests and CI images that
// run with HOME=/tmp). Now a gate's command has the values the session
// started with, whatever they were: a HOME in /tmp set before the start
// stays.
var pinnedVars = []string{"HOME", "CARGO_HOME", "RUSTUP_HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "PIP_CONFIG_FILE"}

// PinnedVars are environ's values of pinnedVars (a name missing: unset),
// as a session's start keeps them.
func PinnedVars(environ []string) map[string]string {
	out := map[string]string{}
	for _, kv := range environ {
		name, val, _ := strings.Cut(kv, "=")
		for _, p := range pinnedVars {
			if name == p {
				out[name] = val
			}
		}
	}
	return out
}

// pinned returns environ with pinnedVars as start has them, and the
// names it put back.
func pinned(environ []string, start map[string]string) (env, why []string) {
	now := PinnedVars(environ)
	for _, p := range pinnedVars {
		sv, had := start[p]
		nv, has := now[p]
		if had != has || sv != nv {
			why = append(why, p+" (set since the session started: the start's value is used)")
		}
	}
	if len(why) == 0 {
		return environ, nil
	}
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := now[name]; ok {
			continue
		}
		env = append(env, kv)
	}
	for _, p := range pinnedVars {
		if v, ok := start[p]; ok {
			env = append(env, p+"="+v)
		}
	}
	return env, why
}

// pinnedSet lists the pinnedVars a line's assignments name: an observed
// `CARGO_HOME=/tmp/x cargo test` reads another cargo config than a gate.
func pinnedSet(name string) bool {
	for _, p := range pinnedVars {
		if name == p {
			return true
		}
	}
	return false
}
