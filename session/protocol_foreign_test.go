package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestStartRefusesForeignProtocol: with protection on, a session starts
// only under the repository's own protocol. --protocol and
// SESSIONGATE_PROTOCOL naming another document (a one-phase OPTIONAL
// protocol the agent wrote in /tmp) would let the policed agent choose its
// own gates; the start is refused and recorded. The same bytes under any
// name, a repository with no protocol of its own and protect: false start.
func TestStartRefusesForeignProtocol(t *testing.T) {
	requireGit(t)
	const foreign = "# P\n\n## Session Start\n\n### Phase 1: Nothing (OPTIONAL)\n\nThe agent MAY look.\n"
	cases := []struct {
		name     string
		protect  bool
		cfgPath  string            // config protocol:
		files    map[string]string // repository files; "SPEC" is the session's protocol
		refused  bool
		mentions string
	}{
		{"own protocol", true, "", map[string]string{"SESSION-PROTOCOL.md": "SPEC"}, false, ""},
		{"another protocol", true, "", map[string]string{"SESSION-PROTOCOL.md": foreign}, true, "SESSION-PROTOCOL.md"},
		{"another than .agents", true, "", map[string]string{".agents/SESSION-PROTOCOL.md": foreign}, true, ".agents/SESSION-PROTOCOL.md"},
		{"one default location matches", true, "", map[string]string{"SESSION-PROTOCOL.md": foreign, ".agents/SESSION-PROTOCOL.md": "SPEC"}, false, ""},
		{"configured protocol", true, "docs/P.md", map[string]string{"docs/P.md": "SPEC", "SESSION-PROTOCOL.md": foreign}, false, ""},
		{"another than configured", true, "docs/P.md", map[string]string{"docs/P.md": foreign, "SESSION-PROTOCOL.md": "SPEC"}, true, "docs/P.md"},
		{"no protocol of its own", true, "", nil, false, ""},
		{"protect off", false, "", map[string]string{"SESSION-PROTOCOL.md": foreign}, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, flowProtocol)
			e.engine.Config.Protect = c.protect
			e.engine.Config.ProtocolPath = c.cfgPath
			for rel, body := range c.files {
				if body == "SPEC" {
					body = flowProtocol
				}
				p := filepath.Join(e.root, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ctx := context.Background()
			_, err := e.engine.Start(ctx, session.StartRequest{Repo: e.repo, Spec: e.spec, Objective: "x"})
			if !c.refused {
				if err != nil {
					t.Fatalf("start refused: %v", err)
				}
				return
			}
			if !errors.Is(err, session.ErrProtectedChanged) || !strings.Contains(err.Error(), "is not the repository's protocol "+c.mentions) {
				t.Fatalf("start: got %v, want a refusal naming %s", err, c.mentions)
			}
			if _, err := e.engine.Store.ActiveSession(ctx, 1, e.root); !errors.Is(err, session.ErrNotFound) {
				t.Fatalf("a session was started: %v", err)
			}
			vs, err := e.db.ListViolations(ctx, session.ViolationFilter{Code: session.CodeProtectedChange})
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != 1 || !strings.Contains(vs[0].Message, "is not the repository's protocol") {
				t.Fatalf("violations: %+v", vs)
			}
		})
	}
}
