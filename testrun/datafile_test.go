package testrun

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestRunnerDataFile: the files a run may read at run time though no
// runner loads them by name, by the line's runners (lazy-agent pass 30).
func TestRunnerDataFile(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"scripts/greet.sh", "scripts/greeting.txt", "greet/__init__.py", "greet/data/greetings.json",
		"notes/names.txt", ".agents/sessions/s.json", "web/app.js", "web/strings.yaml", "README.md"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "bin", "greet"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "bin", "names"), []byte("Ada\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		line, rel string
		want      bool
	}{
		{"sh scripts/test.sh", "scripts/greeting.txt", true},      // beside the script
		{"sh scripts/test.sh", "greet/data/greetings.json", true}, // below a Python package: a script may run anything
		{"sh scripts/test.sh", "notes/names.txt", false},          // a folder of no source
		{"sh scripts/test.sh", ".agents/sessions/s.json", false},
		{"pytest -q", "greet/data/greetings.json", true}, // package data
		{"pytest -q", "scripts/greeting.txt", false},     // beside a shell script pytest does not run
		{"pytest -q", "web/strings.yaml", false},
		{"npm test", "web/strings.yaml", true},
		{"go test ./...", "scripts/greeting.txt", false}, // GoDataFile's
		{"sh scripts/test.sh", "README.md", false},       // the root holds no source
		{"sh scripts/test.sh", "gone/deleted.txt", false},
		{"sh scripts/test.sh", "bin/names", false},
	} {
		if got := RunnerDataFile(tt.line, root, tt.rel); got != tt.want {
			t.Errorf("RunnerDataFile(%q, %s) = %v, want %v", tt.line, tt.rel, got, tt.want)
		}
	}
	if runtime.GOOS == "windows" {
		return // no executable bit
	}
	for _, line := range []string{"sh scripts/test.sh", "pytest -q"} {
		// An executable, in a folder of no source.
		if got, want := RunnerDataFile(line, root, "bin/greet"), true; got != want {
			t.Errorf("RunnerDataFile(%q, bin/greet) = %v, want %v", line, got, want)
		}
	}
}
