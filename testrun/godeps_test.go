package testrun

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGoDataFile: the files a go test may read at run time, beside the
// ones go reads by name.
func TestGoDataFile(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"greet.go", "greeting.txt", "static/index.html", ".gitignore", ".github/workflows/ci.yml",
		"cmd/tool/main.go", "cmd/tool/conf.yaml", "configs/app.yaml", "docs/x.txt"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	nested := t.TempDir() // no Go source at its root
	for _, f := range []string{"cmd/tool/main.go", "cmd/tool/conf.yaml", "configs/app.yaml"} {
		p := filepath.Join(nested, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		root, rel string
		want      bool
	}{
		{root, "greeting.txt", true},      // beside greet.go
		{root, "static/index.html", true}, // below a package (embed)
		{root, "configs/app.yaml", true},  // below the root package
		{root, ".gitignore", false},       // a dot file
		{root, ".github/workflows/ci.yml", false},
		{nested, "cmd/tool/conf.yaml", true}, // beside main.go
		{nested, "configs/app.yaml", false},  // no Go source above it
		{nested, "gone/deleted.txt", false},  // nowhere
	} {
		if got := GoDataFile(tt.root, tt.rel); got != tt.want {
			t.Errorf("GoDataFile(%s) = %v, want %v", tt.rel, got, tt.want)
		}
	}
}

func TestRunsGoTest(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"go test ./...", true},
		{"cd sub && go test -count=1 ./...", true},
		{"go vet ./...", false},
		{"pytest -q", false},
	} {
		if got := RunsGoTest(tt.line); got != tt.want {
			t.Errorf("RunsGoTest(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}
