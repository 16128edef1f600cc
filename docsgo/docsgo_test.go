package docsgo_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/sessiongate/sessiongate/docmention"
	"github.com/sessiongate/sessiongate/docsgo"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestPackageFiles: a changed Go file gets its start side (a new file
// ""), its package's unchanged files are read, and so are the packages
// importing it (by go.mod's module path); tests, changed files and other
// packages are not.
func TestPackageFiles(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":           "module example.com/m\n",
		"limits/limits.go": "package limits\n\nconst N = 5\n",
		"limits/other.go":  "package limits\n",
		"limits/x_test.go": "package limits\n",
		"cmd/app/main.go":  "package main\n\nimport \"example.com/m/limits\"\n",
		"cmd/app/flags.go": "package main\n",
		"unrelated/u.go":   "package unrelated\n",
	}
	for p, b := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	atStart := map[string]string{"limits/limits.go": "package limits\n\nconst N = 4\n"}
	readAt := func(_ context.Context, rev, p string) ([]byte, error) {
		if b, ok := atStart[p]; ok && rev == "start" {
			return []byte(b), nil
		}
		return nil, errors.New("not at start")
	}
	ch := docmention.Change{Path: "limits/limits.go", Body: files["limits/limits.go"]}
	docsgo.WholeChange(context.Background(), root, "start", readAt, &ch)
	if !ch.Whole || ch.Before != atStart["limits/limits.go"] {
		t.Fatalf("WholeChange: whole=%v before=%q", ch.Whole, ch.Before)
	}
	changed := []string{"limits/limits.go"}
	un := docsgo.UnchangedFiles(root, []docmention.Change{ch}, changed)
	docsgo.AddImporters(context.Background(), root, []string{"limits"}, un, changed)
	var got []string
	for p := range un {
		got = append(got, p)
	}
	sort.Strings(got)
	if want := []string{"cmd/app/flags.go", "cmd/app/main.go", "limits/other.go"}; !reflect.DeepEqual(got, want) {
		t.Errorf("files read %q, want %q", got, want)
	}
	// Without a start commit nothing is read: the line rule judges.
	ch2 := docmention.Change{Path: "limits/limits.go", Body: files["limits/limits.go"]}
	docsgo.WholeChange(context.Background(), root, "", readAt, &ch2)
	if ch2.Whole || ch2.Before != "" {
		t.Errorf("WholeChange without a start: whole=%v before=%q", ch2.Whole, ch2.Before)
	}
}
