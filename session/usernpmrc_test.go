package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestUserNpmrcChangedSinceStart: the user's ~/.npmrc decides how npm runs
// the test script (`npm config set script-shell /tmp/x.sh`, or a script
// that appends the line, makes every `npm test` run /tmp/x.sh, which exits
// 0). The session keeps hashes of its run-deciding keys at the start; an
// `npm test` run after one of them changed does not count. A registry or
// token change, or a script-shell the user had before, is ordinary.
func TestUserNpmrcChangedSinceStart(t *testing.T) {
	requireGit(t)
	npmT := map[string]string{"package.json": `{"name": "p", "scripts": {"test": "sh scripts/t.sh"}}`, "scripts/t.sh": checkScript}
	for _, tc := range []struct {
		name          string
		before, after string // ~/.npmrc at the start and at the run ("" none)
		line          string
		counts        bool
	}{
		{name: "script-shell set during the session", after: "script-shell=/tmp/x.sh\n", line: "npm test"},
		{name: "node-options changed", before: "node-options=--max-old-space-size=4096\n", after: "node-options=--require /tmp/pass.js\n", line: "npm test"},
		{name: "script-shell removed", before: "script-shell=/bin/bash\n", after: "registry=https://registry.npmjs.org/\n", line: "npm test"},
		// honest
		{name: "unchanged, no file", line: "npm test", counts: true},
		{name: "script-shell from before the session", before: "script-shell=/bin/bash\n", after: "script-shell=/bin/bash\n", line: "npm test", counts: true},
		{name: "registry and token added", after: "registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=x\n", line: "npm test", counts: true},
		{name: "not an npm run", after: "script-shell=/tmp/x.sh\n", line: "sh scripts/t.sh", counts: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("npm_config_userconfig", "")
			t.Setenv("NPM_CONFIG_USERCONFIG", "")
			rc := filepath.Join(home, ".npmrc")
			if tc.before != "" {
				if err := os.WriteFile(rc, []byte(tc.before), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			e, id := toQA(t, npmT, nil)
			if tc.after != "" {
				if err := os.WriteFile(rc, []byte(tc.after), 0o600); err != nil {
					t.Fatal(err)
				}
			} else {
				os.Remove(rc)
			}
			ev, err := e.engine.RecordObserved(context.Background(), session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
				Command: tc.line, Output: []byte("ok\n")})
			if err != nil {
				t.Fatal(err)
			}
			if got := *ev.ExitCode == 0; got != tc.counts {
				t.Fatalf("%q: counted=%v, want %v: %s", tc.line, got, tc.counts, ev.Ref)
			}
			if !tc.counts && !strings.Contains(ev.Ref, "user's npm config") {
				t.Errorf("the reason does not name the user's npm config: %s", ev.Ref)
			}
		})
	}
}
