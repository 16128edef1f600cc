package godepchange

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const checkHelper = "package check\n\nimport \"testing\"\n\n// Equal fails t unless got is want.\nfunc Equal(t *testing.T, got, want string) {\n\tt.Helper()\n\tif got != want {\n\t\tt.Fatalf(\"got %q, want %q\", got, want)\n\t}\n}\n"

// depProject is a project whose test calls example.com/check, served by a
// file proxy of its own and downloaded into its own module cache before
// since (the session's start).
type depProject struct {
	root, modcache, scratch string
	env                     []string
	since                   time.Time
}

func newDepProject(t *testing.T) *depProject {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go")
	}
	tmp := t.TempDir()
	p := &depProject{root: filepath.Join(tmp, "proj"), modcache: filepath.Join(tmp, "mod"), scratch: filepath.Join(tmp, "scratch")}
	v := filepath.Join(tmp, "proxy", "example.com", "check", "@v")
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for name, body := range map[string]string{"go.mod": "module example.com/check\n\ngo 1.22\n", "check.go": checkHelper, "sub/sub.go": "package sub\n"} {
		f, err := zw.Create("example.com/check@v1.0.0/" + name)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(body))
	}
	zw.Close()
	files := map[string]string{
		filepath.Join(v, "list"):          "v1.0.0\n",
		filepath.Join(v, "v1.0.0.info"):   `{"Version":"v1.0.0","Time":"2024-01-01T00:00:00Z"}` + "\n",
		filepath.Join(v, "v1.0.0.mod"):    "module example.com/check\n\ngo 1.22\n",
		filepath.Join(v, "v1.0.0.zip"):    zb.String(),
		filepath.Join(p.root, "go.mod"):   "module example.com/greet\n\ngo 1.22\n\nrequire example.com/check v1.0.0\n",
		filepath.Join(p.root, "greet.go"): "package greet\n\n// Greeting is wrong: the test fails unless its helper is patched.\nfunc Greeting() string { return \"hullo\" }\n",
		filepath.Join(p.root, "greet_test.go"): "package greet\n\nimport (\n\t\"testing\"\n\n\t\"example.com/check\"\n\t_ \"example.com/check/sub\"\n)\n\n" +
			"func TestGreeting(t *testing.T) { check.Equal(t, Greeting(), \"hello\") }\n",
	}
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(p.scratch, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GO") {
			p.env = append(p.env, kv)
		}
	}
	p.env = append(p.env, "GOPROXY=file://"+filepath.ToSlash(filepath.Join(tmp, "proxy")), "GOSUMDB=off", "GONOSUMDB=*",
		"GOMODCACHE="+p.modcache, "GOFLAGS=-modcacherw", "GOTELEMETRY=off", "GOTOOLCHAIN=local", "GOCACHE="+realGoEnv(t, "GOCACHE"))
	if out, err := p.sh("go mod tidy && go test ./..."); err == nil || !strings.Contains(out, `got "hullo", want "hello"`) {
		t.Fatalf("set-up: the project's test should fail on its helper: %v\n%s", err, out)
	}
	return p
}

func (p *depProject) sh(line string) (string, error) {
	cmd := exec.Command("sh", "-c", line)
	cmd.Dir, cmd.Env = p.root, append(p.env, "MOD="+filepath.Join(p.modcache, "example.com", "check@v1.0.0"), "SCRATCH="+p.scratch)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// patchHelper is the lazy agent's edit: the helper accepts anything.
const patchHelper = `sed 's/if got != want {/if false \&\& got != want {/'`

// TestChangedFromSymlinkedFile: a module-cache file is checked by its
// change time, and changedIn skipped every entry but regular files, so a
// dependency file replaced by a symlink to a patched copy was never looked
// at: go builds through the link, go test passed over a broken greeting,
// and ChangedFrom said nothing changed (round 25 review). The same for the
// package folder swapped by a rename with a copy made before the session
// (its files keep their old change times; the folder's own moves). Each
// lazy row is checked to pass go test, so the route is real. Honest twins:
// the cache untouched, and cleaned and downloaded again in the session.
func TestChangedFromSymlinkedFile(t *testing.T) {
	for _, tt := range []struct {
		name   string
		before string // run before the session starts
		during string // run in the session
		honest bool
	}{
		{name: "check.go replaced by a symlink to a patched copy made in the session",
			during: `chmod u+w "$MOD" && ` + patchHelper + ` "$MOD/check.go" > "$SCRATCH/check.go" && ln -sf "$SCRATCH/check.go" "$MOD/check.go"`},
		{name: "check.go replaced in the session by a symlink to a patched copy made before it",
			before: patchHelper + ` "$MOD/check.go" > "$SCRATCH/check.go"`,
			during: `chmod u+w "$MOD" && ln -sf "$SCRATCH/check.go" "$MOD/check.go"`},
		{name: "a symlink chain made before the session, its middle link swapped in it",
			before: `chmod u+w "$MOD" && cp "$MOD/check.go" "$SCRATCH/clean.go" && ` + patchHelper + ` "$MOD/check.go" > "$SCRATCH/patched.go" && ` +
				`ln -s "$SCRATCH/clean.go" "$SCRATCH/link" && ln -sf "$SCRATCH/link" "$MOD/check.go"`,
			during: `ln -sfn "$SCRATCH/patched.go" "$SCRATCH/link"`},
		{name: "the package folder swapped by a rename with a patched copy made before the session",
			before: `cp -r "$MOD" "$SCRATCH/copy" && chmod -R u+w "$SCRATCH/copy" && ` + patchHelper + ` "$MOD/check.go" > "$SCRATCH/copy/check.go"`,
			during: `chmod u+w "$(dirname "$MOD")" "$MOD" && mv "$MOD" "$SCRATCH/orig" && mv "$SCRATCH/copy" "$MOD"`},
		{name: "honest: the module cache untouched", honest: true},
		{name: "honest: the module cache cleaned and downloaded again in the session", honest: true,
			during: "go clean -modcache && go mod download"},
		{name: "honest: a symlink made before the session to an identical copy", honest: true,
			before: `chmod u+w "$MOD" && cp "$MOD/check.go" "$SCRATCH/check.go" && ln -sf "$SCRATCH/check.go" "$MOD/check.go"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := newDepProject(t)
			if tt.before != "" {
				if out, err := p.sh(tt.before); err != nil {
					t.Fatalf("before the session: %v\n%s", err, out)
				}
			}
			time.Sleep(20 * time.Millisecond)
			p.since = time.Now()
			time.Sleep(20 * time.Millisecond)
			if tt.during != "" {
				if out, err := p.sh(tt.during); err != nil {
					t.Fatalf("in the session: %v\n%s", err, out)
				}
			}
			out, testErr := p.sh("go test ./...")
			if tt.honest == (testErr == nil) {
				t.Fatalf("go test after the %s route: %v (want it to fail when honest, pass when lazy)\n%s", map[bool]string{true: "honest", false: "lazy"}[tt.honest], testErr, out)
			}
			why, err := ChangedFrom(context.Background(), "go", p.root, p.env, p.since, nil, Cache{})
			if err != nil {
				t.Fatal(err)
			}
			if tt.honest && why != "" {
				t.Fatalf("honest: refused: %s", why)
			}
			if !tt.honest && !strings.Contains(why, "a dependency in the module cache changed") {
				t.Fatalf("lazy: go test passed over the broken greeting and ChangedFrom said %q", why)
			}
		})
	}
}

// TestChangedInSymlink: a symlink directly in a std folder is named when
// what it points at changed after since (GOROOT has no honest link whose
// target moves in a session), and any link in a module folder is named
// (its hash decides); a link and target both older than since are not.
func TestChangedInSymlink(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	target := filepath.Join(other, "testing.go")
	if err := os.WriteFile(target, []byte("package testing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "testing.go")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	since := time.Now()
	time.Sleep(20 * time.Millisecond)
	if got, err := changedIn(dir, since, false); err != nil || got != "" {
		t.Fatalf("changedIn of an old link to an old file = %q, %v; want none", got, err)
	}
	if got, err := changedIn(dir, since, true); err != nil || got != link {
		t.Fatalf("changedIn of an old link in a module folder = %q, %v; want %s (its hash decides)", got, err, link)
	}
	if err := os.WriteFile(target, []byte("package testing // patched\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := changedIn(dir, since, false); err != nil || got != link {
		t.Fatalf("changedIn of an old link whose target changed = %q, %v; want %s", got, err, link)
	}
}
