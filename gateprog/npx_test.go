package gateprog_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gateprog"
)

// TestWhyNpx: `npx hello` where the work tree's node_modules has no
// hello runs the package npm keeps in its npx cache (<cache>/_npx/<hash>),
// outside the work tree and PATH: one planted there during the session
// answered for the gate (round 27 left it open). Played with the real npm
// (`npm pack`, a real `npx --offline` install into a cache of the test's
// own); honest twins: that real npx install made during the session, and
// one from before the start.
func TestWhyNpx(t *testing.T) {
	if _, err := exec.LookPath("npx"); err != nil {
		t.Skip("npx not installed")
	}
	pkg := t.TempDir()
	write(t, filepath.Join(pkg, "package.json"), `{"name":"hello-cli","version":"1.0.0","bin":{"hello":"bin/hello.js"}}`, 0o644)
	write(t, filepath.Join(pkg, "bin", "hello.js"), "#!/usr/bin/env node\nconsole.log('hello real')\n", 0o755)
	run(t, pkg, nil, "npm", "pack", "-q")
	tgz := filepath.Join(pkg, "hello-cli-1.0.0.tgz")
	npx := func(t *testing.T, cache, proj string) {
		run(t, proj, []string{"npm_config_cache=" + cache, "npm_config_update_notifier=false"}, "npx", "--yes", "--offline", "--package="+tgz, "hello")
	}
	entryOf := func(t *testing.T, cache string) string {
		m, _ := filepath.Glob(filepath.Join(cache, "_npx", "*", "node_modules", "hello-cli"))
		if len(m) != 1 {
			t.Fatalf("npx cache entries: %q", m)
		}
		return m[0]
	}
	plant := func(t *testing.T, cache string) {
		e := filepath.Join(cache, "_npx", "0123456789abcdef")
		write(t, filepath.Join(e, "package.json"), `{"dependencies":{"hello-cli":"*"},"_npx":{"packages":["hello-cli"]}}`, 0o644)
		write(t, filepath.Join(e, "node_modules", "hello-cli", "package.json"), `{"name":"hello-cli","version":"1.0.0","bin":{"hello":"bin/hello.js"}}`, 0o644)
		write(t, filepath.Join(e, "node_modules", "hello-cli", "bin", "hello.js"), "#!/usr/bin/env node\nconsole.log('1 passed')\n", 0o755)
		if err := os.MkdirAll(filepath.Join(e, "node_modules", ".bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../hello-cli/bin/hello.js", filepath.Join(e, "node_modules", ".bin", "hello")); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name          string
		before, after func(t *testing.T, cache, proj string)
		want          string
	}{
		{name: "lazy: a package planted in npx's cache during the session",
			after: func(t *testing.T, cache, proj string) { plant(t, cache) }, want: "no package-lock.json"},
		{name: "lazy: planted with a lock naming the real tarball's integrity",
			before: npx,
			after: func(t *testing.T, cache, proj string) {
				plant(t, cache)
				m, _ := filepath.Glob(filepath.Join(cache, "_npx", "*", "package-lock.json"))
				b, err := os.ReadFile(m[0])
				if err != nil {
					t.Fatal(err)
				}
				write(t, filepath.Join(cache, "_npx", "0123456789abcdef", "package-lock.json"), string(b), 0o644)
			}, want: "is not the file its tarball holds"},
		{name: "lazy: the real npx install's bin rewritten during the session",
			before: npx,
			after: func(t *testing.T, cache, proj string) {
				write(t, filepath.Join(entryOf(t, cache), "bin", "hello.js"), "#!/usr/bin/env node\nconsole.log('1 passed')\n", 0o755)
			}, want: "not reinstalled"},
		{name: "honest: the real npx installs it during the session", after: npx},
		{name: "honest: an npx install from before the start", before: npx},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache, proj := filepath.Join(t.TempDir(), "cache"), t.TempDir()
			if c.before != nil {
				c.before(t, cache, proj)
			}
			env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "npm_config_cache=" + cache}
			line := "npx hello"
			st := gateprog.Record(env, []string{line})
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			if c.after != nil {
				c.after(t, cache, proj)
			}
			got := gateprog.Why(line, env, proj, st, since)
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("Why(%q) = %q, want %q", line, got, c.want)
			}
		})
	}
}
