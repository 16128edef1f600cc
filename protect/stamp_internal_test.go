//go:build linux

package protect

import (
	"github.com/sessiongate/sessiongate/repopath"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// refState is State without the stamp cache: what every call
// computed before stamp.go.
func refState(root string, patterns []string) map[string]string {
	state := map[string]string{}
	for _, p := range patterns {
		if !repopath.HasMeta(p) {
			state[p] = Hash(root, p)
			continue
		}
		ms, err := repopath.Glob(root, p)
		if err != nil {
			continue
		}
		for _, m := range ms {
			state[m] = Hash(root, m)
		}
	}
	return state
}

// oldStamps makes every stamp count as older than the racy window, as it
// is two seconds after a file was written, without sleeping.
func oldStamps(t *testing.T) {
	t.Helper()
	stampNow = func() time.Time { return time.Now().Add(time.Minute) }
	t.Cleanup(func() { stampNow = time.Now })
}

// tick waits past the file system's timestamp granularity so that a change
// made next cannot share the cached stamp's ctime (what racyWindow covers
// outside tests).
func tick() { time.Sleep(20 * time.Millisecond) }

func write(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStampCacheSeesEveryChange: with the cache filled (stamps old), each
// way a lazy agent with a shell could change a protected file between two
// gate calls still gives the answer the uncached check gives, and differs
// from the answer before the change. The honest case (nothing changed) is
// answered from the cache.
func TestStampCacheSeesEveryChange(t *testing.T) {
	const protocol = "# Protocol v1\n"
	patterns := Paths("", "", nil)
	cases := []struct {
		name   string
		change func(t *testing.T, root, outside string)
		path   string // the path whose answer must change ("" : nothing changes)
	}{
		{"honest: nothing changed", func(*testing.T, string, string) {}, ""},
		{"rewritten in place, same size, mtime put back", func(t *testing.T, root, _ string) {
			p := filepath.Join(root, "SESSION-PROTOCOL.md")
			st, _ := os.Stat(p)
			write(t, root, "SESSION-PROTOCOL.md", "# Protocol v2\n")
			if err := os.Chtimes(p, st.ModTime(), st.ModTime()); err != nil {
				t.Fatal(err)
			}
		}, "SESSION-PROTOCOL.md"},
		{"replaced by rename", func(t *testing.T, root, _ string) {
			write(t, root, "new.md", "# weak\n")
			if err := os.Rename(filepath.Join(root, "new.md"), filepath.Join(root, "SESSION-PROTOCOL.md")); err != nil {
				t.Fatal(err)
			}
		}, "SESSION-PROTOCOL.md"},
		{"deleted", func(t *testing.T, root, _ string) {
			os.Remove(filepath.Join(root, "sessiongate.yaml"))
		}, "sessiongate.yaml"},
		{"an absent root-level file created", func(t *testing.T, root, _ string) { write(t, root, ".mcp.json", "{}\n") }, ".mcp.json"},
		{"an absent file created with its folder", func(t *testing.T, root, _ string) {
			write(t, root, ".claude/settings.json", "{}\n")
		}, ".claude/settings.json"},
		{"a file created in an existing folder", func(t *testing.T, root, _ string) {
			write(t, root, ".codex/config.toml", "x = 1\n")
		}, ".codex/config.toml"},
		{"a glob's folder created with a match", func(t *testing.T, root, _ string) {
			write(t, root, ".github/hooks/a.json", "{}\n")
		}, ".github/hooks/a.json"},
		{"replaced by a link out of the repository, same bytes", func(t *testing.T, root, outside string) {
			write(t, outside, "p.md", protocol)
			os.Remove(filepath.Join(root, "SESSION-PROTOCOL.md"))
			if err := os.Symlink(filepath.Join(outside, "p.md"), filepath.Join(root, "SESSION-PROTOCOL.md")); err != nil {
				t.Fatal(err)
			}
		}, "SESSION-PROTOCOL.md"},
		{"a folder swapped for a link out of the repository, same bytes", func(t *testing.T, root, outside string) {
			write(t, outside, "codex/hooks.json", "{}\n")
			if err := os.Rename(filepath.Join(root, ".codex"), filepath.Join(root, ".codex-old")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(outside, "codex"), filepath.Join(root, ".codex")); err != nil {
				t.Fatal(err)
			}
		}, ".codex/hooks.json"},
		{"chmod 000", func(t *testing.T, root, _ string) {
			if os.Getuid() == 0 {
				t.Skip("root reads a mode-000 file")
			}
			os.Chmod(filepath.Join(root, "SESSION-PROTOCOL.md"), 0)
		}, "SESSION-PROTOCOL.md"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			oldStamps(t)
			root, outside := t.TempDir(), t.TempDir()
			write(t, root, "SESSION-PROTOCOL.md", protocol)
			write(t, root, "sessiongate.yaml", "protect: true\n")
			write(t, root, ".codex/hooks.json", "{}\n")
			before := State(root, patterns, nil)
			if again := State(root, patterns, nil); !equalState(again, before) {
				t.Fatalf("second call differs: %v vs %v", again, before)
			}
			if n := cached(root); n < len(patterns) { // every path and the glob
				t.Fatalf("%d cache entries for %d patterns: the cache is not used", n, len(patterns))
			}
			tick()
			c.change(t, root, outside)
			got, want := State(root, patterns, nil), refState(root, patterns)
			if !equalState(got, want) {
				t.Fatalf("cached answer %v, uncached %v", got, want)
			}
			if c.path == "" {
				if !equalState(got, before) {
					t.Fatalf("honest call changed: %v -> %v", before, got)
				}
				return
			}
			if got[c.path] == before[c.path] {
				t.Fatalf("%s: %q before and after the change", c.path, got[c.path])
			}
		})
	}
}

// TestStampCacheRacyStamps: a stamp younger than the racy window is never
// stored, so a change in the same timestamp tick cannot be missed.
func TestStampCacheRacyStamps(t *testing.T) {
	root := t.TempDir()
	write(t, root, "SESSION-PROTOCOL.md", "# v1\n")
	patterns := Paths("", "", nil)
	State(root, patterns, nil)
	if n := cached(root); n != 0 {
		t.Fatalf("%d entries stored from stamps younger than %s", n, racyWindow)
	}
	write(t, root, "SESSION-PROTOCOL.md", "# v2\n")
	if got, want := State(root, patterns, nil), refState(root, patterns); !equalState(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func equalState(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func cached(root string) int {
	protectStamps.Lock()
	defer protectStamps.Unlock()
	n := 0
	for k := range protectStamps.m {
		if len(k) > len(root) && k[:len(root)+1] == root+"\x00" {
			n++
		}
	}
	return n
}
