package agenthook_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// needOwnAncestry skips a test that reads this process's ancestry as a
// CLI's where that cannot be: under an agent CLI every hook is nested,
// and without /proc nothing is read.
func needOwnAncestry(t *testing.T) {
	t.Helper()
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the tests run under an agent CLI (%s): every hook here is nested", p.Name)
	}
	if !ancestry.Readable() {
		t.Skip("no process ancestry here")
	}
}

// payloadFiles returns a writer of hook payloads as JSON files in dir,
// each named NAME.json, for a CLI's script to feed its hooks.
func payloadFiles(t *testing.T, dir string) func(name string, p map[string]any) string {
	return func(name string, p map[string]any) string {
		t.Helper()
		b, _ := json.Marshal(p)
		f := filepath.Join(dir, name+".json")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
}
