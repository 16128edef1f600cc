package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

// filterT is testscript's T with a -run filter: Run calls only the
// scripts match accepts, as `go test -run 'TestScripts/NAME'` does.
type filterT struct {
	*testing.T
	match func(name string) bool
}

func (f filterT) Run(name string, body func(testscript.T)) {
	f.T.Run(name, func(t *testing.T) {
		if !f.match(name) {
			return // as a -run filter that does not name this script
		}
		body(filterT{t, f.match})
	})
}

func (f filterT) Verbose() bool { return testing.Verbose() }

// TestScriptsSubsetLeavesNoWorkdir: `go test -run 'TestScripts/one'`
// left testscript's go-test-script* folder in TMPDIR (it removes it
// when the last script ends, counting scripts the filter skipped too),
// which failed the package under CI=true (tmpleak). The honest rows run
// every script, or one of two: nothing is left either way.
func TestScriptsSubsetLeavesNoWorkdir(t *testing.T) {
	scripts := t.TempDir()
	for _, name := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(scripts, name), []byte("exists $WORK\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name  string
		match func(string) bool
	}{
		{"a -run filter that matches no script", func(string) bool { return false }},
		{"a -run filter that matches one of two scripts", func(n string) bool { return n == "a" }},
		{"every script runs (the honest full run)", func(string) bool { return true }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			t.Run("scripts", func(t *testing.T) {
				testscript.RunT(filterT{t, tt.match}, scriptParams(t, filepath.Join(tmp, "bin", "sessiongate"), scripts))
			})
			if left, err := tmpleak.Left(tmp); err != nil || len(left) > 0 {
				t.Errorf("TMPDIR after the scripts: %v %v, want it empty", left, err)
			}
		})
	}
}
