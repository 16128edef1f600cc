package scriptrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadRun: a script the line runs is read when it is there; one that
// is not there is denied while a session is active (no check can read
// it), unless it is an optional makefile, a word of a script's prose, or a
// program the shell script builds. PyModuleFiles finds the repository's
// modules a Python script imports, and leaves installed ones out.
func TestReadRun(t *testing.T) {
	root := t.TempDir()
	for f, body := range map[string]string{"check.sh": "exit 0\n", "pkg/helper.py": "x = 1\n"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	places := Places{Root: root}
	for _, tt := range []struct {
		name   string
		r      Run
		active bool
		in     Within
		read   bool   // a file to judge
		why    string // a denial
	}{
		{name: "honest: the script is there", r: Run{Path: "check.sh", Via: "sh check.sh"}, active: true, read: true},
		{name: "missing script, session active", r: Run{Path: "gone.sh", Via: "sh gone.sh"}, active: true, why: "does not exist when the line is read"},
		{name: "honest: missing, no session", r: Run{Path: "gone.sh", Via: "sh gone.sh"}},
		{name: "honest: optional makefile", r: Run{Path: "GNUmakefile", Via: "make", Optional: true}, active: true},
		{name: "honest: built by the shell script", r: Run{Path: "./tool", Via: "./tool"}, active: true, in: Within{Shell: "go build -o tool . && ./tool"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, why, err := ReadRun(places, root, tt.r, tt.active, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if (f != nil) != tt.read || (why == "") != (tt.why == "") || !strings.Contains(why, tt.why) {
				t.Fatalf("ReadRun = %v, %q; want read=%v, a denial saying %q", f != nil, why, tt.read, tt.why)
			}
		})
	}
	got := PyModuleFiles(places, []string{"pkg.helper", "requests"}, root, "", "")
	if len(got) != 1 || !strings.HasSuffix(filepath.ToSlash(got[0]), "pkg/helper.py") {
		t.Errorf("PyModuleFiles = %q, want only pkg/helper.py", got)
	}
}
