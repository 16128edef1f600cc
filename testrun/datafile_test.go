package testrun

import (
	"fmt"
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

// BenchmarkRunnerDataFiles: a run's tree against a commit that differs in
// 5,000 data files spread over 50 folders under a root holding the test
// script (every file walks up to the root). RunnerDataFiles reads each
// folder once; RunnerDataFile per file re-parses the line and re-reads
// every folder on the way up.
func BenchmarkRunnerDataFiles(b *testing.B) {
	root := b.TempDir()
	write := func(rel string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("test.sh")
	var files []string
	for i := range 5000 {
		f := fmt.Sprintf("data/d%02d/f%04d.txt", i%50, i)
		write(f)
		files = append(files, f)
	}
	const line = "sh test.sh"
	b.Run("per-file", func(b *testing.B) {
		for b.Loop() {
			for _, f := range files {
				RunnerDataFile(line, root, f)
			}
		}
	})
	b.Run("one-run", func(b *testing.B) {
		for b.Loop() {
			is := RunnerDataFiles(line, root)
			for _, f := range files {
				is(f)
			}
		}
	})
}
