package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse: any bytes give a config or an error that names the file; never
// a panic, and a returned config always passed validation.
func FuzzParse(f *testing.F) {
	for _, p := range []string{"../cmd/sessiongate/starter/sessiongate.yaml"} {
		if b, err := os.ReadFile(filepath.FromSlash(p)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("require_session: true\ncommands: {QA: \"npm test\"}\nhooks: {pre-commit: [QA]}\n"))
	f.Add([]byte("idle_timeout: 5m\nfail_mode: open\nsequence_policy: {rules: [{name: a, pattern: [x, '*'], window: 3, action: warn}]}\n"))
	f.Add([]byte("\t: [\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse("sessiongate.yaml", b)
		if err != nil {
			if !strings.Contains(err.Error(), "sessiongate.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if c == nil {
			t.Fatal("nil config without error")
		}
		if err := c.validate(); err != nil {
			t.Fatalf("returned config fails validation: %v", err)
		}
	})
}
