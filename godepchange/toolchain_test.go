package godepchange

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// switchVersion is the toolchain the tests switch to. The module proxy
// served it (`GOTOOLCHAIN=go1.26.0 go version` once fills the module
// cache); the tests then download it again from that cache, offline,
// into their own module cache, with the signed lookup and tiles go saved.
const switchVersion = "go1.26.0"

// toolchainSetup is a project whose `go test` runs under GOTOOLCHAIN=
// switchVersion, downloaded after since into a module cache of its own.
type toolchainSetup struct {
	root, modcache, gopath, dir string
	env                         []string
	since                       time.Time
}

func realGoEnv(t *testing.T, name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

func copyTree(t *testing.T, from, to string) {
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func newToolchainSetup(t *testing.T) *toolchainSetup {
	t.Helper()
	if testing.Short() {
		t.Skip("extracts a Go toolchain (~250 MB)")
	}
	realCache, realPath := realGoEnv(t, "GOMODCACHE"), filepath.SplitList(realGoEnv(t, "GOPATH"))[0]
	ver := "v0.0.1-" + switchVersion + "." + runtime.GOOS + "-" + runtime.GOARCH
	zip := filepath.Join(realCache, "cache", "download", "golang.org", "toolchain", "@v", ver+".zip")
	lookup := filepath.Join(realCache, "cache", "download", "sumdb", "sum.golang.org", "lookup", "golang.org", "toolchain@"+ver)
	for _, p := range []string{zip, lookup} {
		if _, err := os.Stat(p); err != nil {
			msg := fmt.Sprintf("%s is not in the module cache: run `GOTOOLCHAIN=%s go version` once, online", p, switchVersion)
			if os.Getenv("CI") == "true" {
				t.Fatal(msg) // CI fetches it (.ci/run): a skip there would count a missing test as passing
			}
			t.Skip(msg)
		}
	}
	tmp := t.TempDir()
	s := &toolchainSetup{root: filepath.Join(tmp, "proj"), modcache: filepath.Join(tmp, "mod"), gopath: filepath.Join(tmp, "gopath")}
	t.Cleanup(func() { // go leaves the module cache read-only
		filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
	})
	copyTree(t, filepath.Join(realCache, "cache", "download", "sumdb"), filepath.Join(s.modcache, "cache", "download", "sumdb"))
	if _, err := os.Stat(filepath.Join(realPath, "pkg", "sumdb")); err == nil {
		copyTree(t, filepath.Join(realPath, "pkg", "sumdb"), filepath.Join(s.gopath, "pkg", "sumdb"))
	}
	files := map[string]string{
		"go.mod":    "module example.com/p\n\ngo 1.26\n",
		"p.go":      "package p\n\nfunc Two() int { return 2 }\n",
		"p_test.go": "package p\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tif Two() != 2 {\n\t\tt.Fatal(Two())\n\t}\n}\n",
	}
	for name, body := range files {
		p := filepath.Join(s.root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GO") {
			s.env = append(s.env, kv)
		}
	}
	s.env = append(s.env, "GOMODCACHE="+s.modcache, "GOPATH="+s.gopath, "GOPROXY=file://"+filepath.ToSlash(filepath.Join(realCache, "cache", "download")),
		"GOSUMDB=sum.golang.org", "GOTOOLCHAIN="+switchVersion, "GOFLAGS=-modcacherw", "GOTELEMETRY=off", "GOCACHE="+realGoEnv(t, "GOCACHE"))
	time.Sleep(10 * time.Millisecond)
	s.since = time.Now()
	time.Sleep(10 * time.Millisecond)
	cmd := exec.Command("go", "version")
	cmd.Dir, cmd.Env = s.root, s.env
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), switchVersion) {
		t.Fatalf("GOTOOLCHAIN=%s go version: %v\n%s", switchVersion, err, out)
	}
	s.dir = filepath.Join(s.modcache, "golang.org", "toolchain@"+ver)
	return s
}

func (s *toolchainSetup) changed(t *testing.T, cache Cache) string {
	t.Helper()
	why, err := ChangedFrom(context.Background(), "go", s.root, s.env, s.since, nil, cache)
	if err != nil {
		t.Fatal(err)
	}
	return why
}

func (s *toolchainSetup) lookupPath() string {
	return filepath.Join(s.modcache, "cache", "download", "sumdb", "sum.golang.org", "lookup", "golang.org", filepath.Base(s.dir))
}

func testCache(dir string) Cache {
	return Cache{Path: filepath.Join(dir, "toolchains"), MAC: func(text string) (string, error) {
		m := hmac.New(sha256.New, []byte("test key"))
		m.Write([]byte(text))
		return hex.EncodeToString(m.Sum(nil)), nil
	}}
}

// TestToolchainSwitch: `go test` under GOTOOLCHAIN=go1.26.0, the toolchain
// downloaded in the session, is not a patched standard library (round 23:
// a false FAIL). Each row is a lazy twin that stays refused: a std file
// edited after go extracted it, the signed lookup gone (GOSUMDB=off), a
// lookup the agent wrote with its own hash under a real signed tree head,
// a go.mod copy that differs from its _go.mod.
func TestToolchainSwitch(t *testing.T) {
	s := newToolchainSetup(t)
	if why := s.changed(t, Cache{}); why != "" {
		t.Fatalf("honest toolchain switch refused: %s", why)
	}
	for _, tt := range []struct {
		name   string
		lazy   func(t *testing.T) (undo func())
		reason string
		env    string // the agent's go runs with it (GOSUMDB=off: go itself checks no lookup)
	}{
		{"std file patched in place", func(t *testing.T) func() {
			p := filepath.Join(s.dir, "src", "testing", "testing.go")
			return patch(t, p, func(b []byte) []byte { return append(b, "\n// patched\n"...) })
		}, "a file was changed after go extracted it", ""},
		{"no signed lookup", func(t *testing.T) func() {
			return patch(t, s.lookupPath(), nil)
		}, "no checksum database record", "GOSUMDB=off"},
		{"forged lookup", func(t *testing.T) func() {
			undoStd := patch(t, filepath.Join(s.dir, "src", "testing", "testing.go"), func(b []byte) []byte { return append(b, "\n// patched\n"...) })
			h, err := hashToolchain(s.dir, "golang.org/toolchain@"+strings.TrimPrefix(filepath.Base(s.dir), "toolchain@"))
			if err != nil {
				t.Fatal(err)
			}
			undoLookup := patch(t, s.lookupPath(), func(b []byte) []byte {
				lines := strings.SplitN(string(b), "\n", 3)
				f := strings.Fields(lines[1])
				return []byte(lines[0] + "\n" + fmt.Sprintf("%s %s %s", f[0], f[1], h) + "\n" + lines[2])
			})
			return func() { undoLookup(); undoStd() }
		}, "does not check out", "GOSUMDB=off"},
		{"std file replaced by a symlink to an identical copy", func(t *testing.T) func() {
			// Proven, it would be cached; the link's target swapped later
			// moves no change time in the folder.
			p := filepath.Join(s.dir, "src", "testing", "testing.go")
			cp := filepath.Join(t.TempDir(), "testing.go")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(cp, b, 0o644); err != nil {
				t.Fatal(err)
			}
			os.Chmod(filepath.Dir(p), 0o755)
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(cp, p); err != nil {
				t.Fatal(err)
			}
			return func() {
				os.Remove(p)
				if err := os.WriteFile(p, b, 0o444); err != nil {
					t.Fatal(err)
				}
			}
		}, "is not a regular file", ""},
		{"go.mod copy differs", func(t *testing.T) func() {
			return patch(t, filepath.Join(s.dir, "src", "go.mod"), func(b []byte) []byte { return append(b, "\n// x\n"...) })
		}, "a file was changed after go extracted it", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			undo := tt.lazy(t)
			env := s.env
			if tt.env != "" {
				s.env = append(append([]string(nil), env...), tt.env)
			}
			why := s.changed(t, Cache{})
			s.env = env
			undo()
			if !strings.Contains(why, "the Go toolchain's own source changed") || !strings.Contains(why, tt.reason) {
				t.Fatalf("lazy twin: got %q, want a refusal saying %q", why, tt.reason)
			}
		})
	}
	if why := s.changed(t, Cache{}); why != "" {
		t.Fatalf("restored toolchain refused: %s", why)
	}
}

// TestToolchainVerdictCache: a proven toolchain is not hashed again while
// nothing in it changed; a file patched after the verdict moves the
// folder's newest ctime, so it is hashed and refused; an entry written
// without the key is not read.
func TestToolchainVerdictCache(t *testing.T) {
	s := newToolchainSetup(t)
	cache := testCache(t.TempDir())
	start := time.Now()
	if why := s.changed(t, cache); why != "" {
		t.Fatalf("honest: %s", why)
	}
	first := time.Since(start)
	start = time.Now()
	if why := s.changed(t, cache); why != "" {
		t.Fatalf("honest, cached: %s", why)
	}
	t.Logf("first call %v, cached call %v", first, time.Since(start))
	newest, n, err := newestIn(s.dir)
	if err != nil || !cache.has(cacheKey(s.dir, newest, n)) {
		t.Fatalf("no cache entry for the proven toolchain (%v)", err)
	}
	undo := patch(t, filepath.Join(s.dir, "src", "testing", "testing.go"), func(b []byte) []byte { return append(b, "\n// patched\n"...) })
	defer undo()
	if why := s.changed(t, cache); !strings.Contains(why, "a file was changed after go extracted it") {
		t.Fatalf("patched after the cached verdict: got %q", why)
	}
	// The agent appends an entry for the patched state, without the key.
	newest, n, _ = newestIn(s.dir)
	forged := Cache{Path: cache.Path, MAC: func(text string) (string, error) { return text, nil }}
	forged.put(cacheKey(s.dir, newest, n))
	if why := s.changed(t, cache); why == "" {
		t.Fatal("an unsealed cache entry was read as a proven toolchain")
	}
}

// patch rewrites p with edit (nil: removes it) and returns what restores it.
func patch(t *testing.T, p string, edit func([]byte) []byte) func() {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(p)
	os.Chmod(filepath.Dir(p), 0o755)
	if edit == nil {
		err = os.Remove(p)
	} else {
		os.Chmod(p, 0o644)
		err = os.WriteFile(p, edit(b), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	return func() {
		os.Chmod(p, 0o644)
		if err := os.WriteFile(p, b, info.Mode().Perm()|0o200); err != nil {
			t.Fatal(err)
		}
	}
}
