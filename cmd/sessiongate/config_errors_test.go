package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigErrorsAreErrors: a phase id typo, an unknown key and bytes that
// are not YAML are reported with file:line:col by session start, doctor
// and protocol lint, and no session starts.
func TestConfigErrorsAreErrors(t *testing.T) {
	cases := []struct {
		name, config string
		want         string // after "sessiongate.yaml:"
	}{
		{"phase id typo in commands", "commands:\n  NOPHASE: \"true\"\n", `2:3: commands.NOPHASE names phase "NOPHASE"`},
		{"phase id typo in hooks", "hooks:\n  pre-push: [QA_VALIDATON]\n", `2:14: hooks.pre-push[0] names phase "QA_VALIDATON", which the protocol does not have (did you mean QA_VALIDATION?)`},
		{"unknown key", "requires_session: true\n", "1:1: unknown key requires_session (did you mean require_session?)"},
		{"UTF-16 file", "\xff\xfer\x00:\x00", "1:1: the file is UTF-16 text"},
		{"tab indentation", "hooks:\n\tpre-push: []\n", "2:1: YAML syntax"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := repoDir(t)
			if code, _, stderr := sg(t, "", "init"); code != 0 {
				t.Fatalf("init: %s", stderr)
			}
			if err := os.WriteFile(filepath.Join(dir, "sessiongate.yaml"), []byte(tc.config), 0o644); err != nil {
				t.Fatal(err)
			}
			want := "sessiongate.yaml:" + tc.want
			code, _, stderr := sg(t, "", "session", "start", "--objective", "x")
			if code != exitUsage || !strings.Contains(stderr, want) {
				t.Errorf("session start: exit %d, want 2 with %q\n%s", code, want, stderr)
			}
			code, _, stderr = sg(t, "", "protocol", "lint")
			if code == 0 || !strings.Contains(stderr, want) {
				t.Errorf("protocol lint: exit %d, want nonzero with %q\n%s", code, want, stderr)
			}
			code, out, stderr := sg(t, "", "doctor")
			if code != exitBlocked || !strings.Contains(out+stderr, want) {
				t.Errorf("doctor: exit %d, want 1 with %q\n%s%s", code, want, out, stderr)
			}
			if code, out, _ := sg(t, "", "session", "list", "--json"); code == 0 && strings.Contains(out, `"id"`) {
				t.Errorf("a session started: %s", out)
			}
		})
	}
}
