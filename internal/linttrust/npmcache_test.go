package linttrust

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/npmtest"
)

// TestFreshInstallIsProvenByContent runs the real npm: an `npm ci` made
// after the session started (an agent's first step on a fresh clone)
// stamps every file of the linter with a fresh ctime, yet installs exactly
// the tarballs the committed package-lock.json names, so the linter is
// trusted. The same install with one file edited afterwards, a .bin stub,
// a package folder swapped for another, or an agent's own lock naming a
// tarball of its own is refused.
func TestFreshInstallIsProvenByContent(t *testing.T) {
	npm := npmtest.NPM(t)
	// The closure of markdownlint-cli2 in .ci/node's lock, whose tarballs
	// .ci/run's `npm ci` leaves in npm's cache: the install runs offline.
	lock, err := npmtest.Closure(npmtest.CINodeLock(), Name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tarball(lock.Integrity); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("npm's cache lacks markdownlint-cli2 under CI=true (.ci/run's npm ci fills it): %v", err)
		}
		t.Skipf("npm's cache lacks markdownlint-cli2 (run npm ci in .ci/node first): %v", err)
	}
	// One real npm ci; each case gets a copy made after its session
	// started, which stamps every file with a fresh ctime as npm ci does.
	tmpl := t.TempDir()
	for name, b := range map[string][]byte{"package.json": lock.PackageJSON, "package-lock.json": lock.Lock} {
		if err := os.WriteFile(filepath.Join(tmpl, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	npmtest.CI(t, npm, tmpl)
	install := func(t *testing.T) (root string, since time.Time) {
		root = t.TempDir()
		for name, b := range map[string][]byte{"package.json": lock.PackageJSON, "package-lock.json": lock.Lock} {
			if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(20 * time.Millisecond)
		since = time.Now()
		time.Sleep(20 * time.Millisecond)
		if out, err := exec.Command("cp", "-a", filepath.Join(tmpl, "node_modules"), root).CombinedOutput(); err != nil {
			t.Fatalf("copy the install: %v\n%s", err, out)
		}
		return root, since
	}
	bin := func(root string) string { return filepath.Join(root, "node_modules", ".bin", Name) }

	root, since := install(t)
	if err := Check(root, bin(root), since); err != nil {
		t.Fatalf("an honest npm ci after the session started is refused: %v", err)
	}

	cases := []struct {
		name  string
		after func(t *testing.T, root string)
		want  string
	}{
		{"a package file edited after the install", func(t *testing.T, root string) {
			p := filepath.Join(root, "node_modules", Name, "markdownlint-cli2-bin.mjs")
			if err := os.WriteFile(p, []byte("#!/usr/bin/env node\nconsole.log('Summary: 0 error(s)')\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, "is not the file of the tarball"},
		{"a dependency's file edited", func(t *testing.T, root string) {
			p := filepath.Join(root, "node_modules", "markdownlint", "package.json")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, append(b, ' '), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "is not the file of the tarball"},
		{"a file added to the package", func(t *testing.T, root string) {
			if err := os.WriteFile(filepath.Join(root, "node_modules", Name, "extra.mjs"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "is not in the tarball"},
		{"the .bin link replaced by a stub", func(t *testing.T, root string) {
			if err := os.Remove(bin(root)); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bin(root), []byte("#!/bin/sh\necho 'Summary: 0 error(s)'\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, "after the session started"},
		{"the agent's own lock, naming its own tarball", func(t *testing.T, root string) {
			p := filepath.Join(root, "package-lock.json")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(b), lock.Integrity, "sha512-"+strings.Repeat("A", 86)+"==", 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "no package-lock.json as it was when the session started"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, since := install(t)
			c.after(t, root)
			err := Check(root, bin(root), since)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}

	t.Run("the lock rewritten, as the start commit held it", func(t *testing.T) {
		root, since := install(t)
		p := filepath.Join(root, "package-lock.json")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// npm install rewrites the lock with the same content.
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := Check(root, bin(root), since); err == nil {
			t.Fatal("a lock written during the session proved the install without the start commit's hash")
		}
		if err := Check(root, bin(root), since, LockAt(func() string { return sha256hex(b) })); err != nil {
			t.Fatalf("the start commit's lock does not prove the install: %v", err)
		}
	})
	// Review c10 (round 27): `npm install is-number` during the session
	// rewrote the lock with one more package; the linter's own entry is
	// the start commit's, and its install is proven against that lock.
	t.Run("another dependency added to the lock during the session", func(t *testing.T) {
		root, since := install(t)
		p := filepath.Join(root, "package-lock.json")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var l map[string]any
		if err := json.Unmarshal(b, &l); err != nil {
			t.Fatal(err)
		}
		l["packages"].(map[string]any)["node_modules/is-number"] = map[string]any{"version": "7.0.0", "integrity": "sha512-" + strings.Repeat("B", 86) + "=="}
		nb, _ := json.Marshal(l)
		if err := os.WriteFile(p, nb, 0o644); err != nil {
			t.Fatal(err)
		}
		opts := []Option{LockAt(func() string { return sha256hex(b) }), LockBytesAt(func() []byte { return b })}
		if err := Check(root, bin(root), since, opts...); err != nil {
			t.Fatalf("an honest new dependency blocks the linter installed from the start's lock: %v", err)
		}
		// Lazy twin: the linter's program rewritten as well.
		if err := os.WriteFile(bin(root), []byte("#!/bin/sh\necho 'Summary: 0 error(s)'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := Check(root, bin(root), since, opts...); err == nil {
			t.Fatal("a rewritten linter passed against the start's lock")
		}
	})
}
