package docsaffected

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeRepo serves the start commit's files from a map and the work tree
// from disk under root.
type fakeRepo struct {
	root  string
	start map[string]string
}

func (r fakeRepo) Root() string { return r.root }
func (r fakeRepo) ReadAt(_ context.Context, _, p string) ([]byte, error) {
	b, ok := r.start[p]
	if !ok {
		return nil, os.ErrNotExist
	}
	return []byte(b), nil
}
func (r fakeRepo) DiffLines(_ context.Context, _, p string) ([]string, []string, []int, error) {
	now, _ := os.ReadFile(filepath.Join(r.root, p))
	was := strings.Split(r.start[p], "\n")
	var added, removed []string
	have := map[string]bool{}
	for _, l := range was {
		have[l] = true
	}
	for _, l := range strings.Split(string(now), "\n") {
		if !have[l] {
			added = append(added, l)
		}
		have[l] = false
	}
	for l, left := range have {
		if left && l != "" && !strings.Contains(string(now), l) {
			removed = append(removed, l)
		}
	}
	return added, removed, nil, nil
}
func (r fakeRepo) HiddenFiles(context.Context) (map[string]string, error) { return nil, nil }
func (r fakeRepo) TreeFiles(context.Context, string) ([]string, error) {
	var l []string
	for p := range r.start {
		l = append(l, p)
	}
	return l, nil
}

var readme = "# greet\n\nRun `greet.sh --shout` to print in capitals.\n" + strings.Repeat("\nMore about greeting.\n", 20)

const script = "#!/bin/sh\ncase \"$1\" in\n  --shout) echo HELLO ;;\n  *) echo hello ;;\nesac\n"

// TestAffectedAndAddressed: a change to what the documented --shout flag
// does binds the docs check, and only a README change where it names
// --shout answers it; a change no doc names does not bind.
func TestAffectedAndAddressed(t *testing.T) {
	for _, tc := range []struct {
		name          string
		script, docs  string
		holds, passes bool
	}{
		{"flag changed, README updated there", strings.Replace(script, "--shout", "--loud", 1), strings.Replace(readme, "--shout", "--loud", 1), true, true},
		{"flag changed, README untouched", strings.Replace(script, "--shout", "--loud", 1), readme, true, false},
		{"flag changed, README edited far from it", strings.Replace(script, "--shout", "--loud", 1), readme + "\nSee also the wiki.\n", true, false},
		{"no documented name changed", strings.Replace(script, "echo hello", "echo 'hello'", 1), readme, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write := func(p, s string) {
				if err := os.WriteFile(filepath.Join(root, p), []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("greet.sh", tc.script)
			write("README.md", tc.docs)
			files := []string{"greet.sh"}
			if tc.docs != readme {
				files = append(files, "README.md")
			}
			ch := Change{Repo: fakeRepo{root: root, start: map[string]string{"greet.sh": script, "README.md": readme}}, Start: "c0", Files: files}
			why, hits, holds, err := Affected(context.Background(), ch, "*.md")
			if err != nil || holds != tc.holds {
				t.Fatalf("Affected = %q, %v, %v; want holds=%v", why, holds, err, tc.holds)
			}
			if !holds {
				return
			}
			pass, msg, ev := Addressed(context.Background(), ch, "*.md", hits)
			if pass != tc.passes || pass && ev != "README.md" {
				t.Errorf("Addressed = %v, %q, %q; want pass=%v", pass, msg, ev, tc.passes)
			}
		})
	}
}
