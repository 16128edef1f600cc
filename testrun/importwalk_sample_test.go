package testrun

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/goinitexit"
)

// TestImportWalkSample reads, for every package of every module in the
// Go module cache (and this repository), the init exits it links through
// the module's own imports (importexitdeep.go) beside those of its own
// files (round 20's one level), and logs the counts and the time: the
// false-flag and cost measure of round 21 c1, run by hand:
//
//	SESSIONGATE_IMPORT_SAMPLE=1 go test ./testrun -run TestImportWalkSample -v
func TestImportWalkSample(t *testing.T) {
	if os.Getenv("SESSIONGATE_IMPORT_SAMPLE") == "" {
		t.Skip("SESSIONGATE_IMPORT_SAMPLE=1 runs the module-cache sample (a minute)")
	}
	var roots []string
	if b, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		cache := strings.TrimSpace(string(b))
		filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && (d.Name() == "cache" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if d.Name() == "go.mod" {
				roots = append(roots, filepath.Dir(p))
			}
			return nil
		})
	}
	if wd, err := filepath.Abs(".."); err == nil {
		roots = append(roots, wd)
	}
	look := goinitexit.Env(func(string) (string, bool) { return "", false })
	var pkgs, own, linked int
	var took time.Duration
	for _, root := range roots {
		mod := modulePath(root)
		if mod == "" {
			continue
		}
		var dirs []string
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && p != root {
				if n := d.Name(); n == "testdata" || n == "vendor" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir // a module of its own
				}
			}
			if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				rel, _ := filepath.Rel(root, filepath.Dir(p))
				if len(dirs) == 0 || dirs[len(dirs)-1] != filepath.ToSlash(rel) {
					dirs = append(dirs, filepath.ToSlash(rel))
				}
			}
			return nil
		})
		w := newImportWalk(root, mod, look)
		for _, d := range dirs {
			pkgs++
			start := time.Now()
			e, err := w.exitLinked(d)
			took += time.Since(start)
			if err != nil {
				t.Errorf("%s %s: %v", mod, d, err)
				continue
			}
			o := w.exit[d]
			if o != "" {
				own++
			}
			if e != "" {
				linked++
				if o == "" {
					t.Logf("linked only: %s/%s: %s", mod, d, e)
				}
			}
		}
	}
	// The cost of one check: a fresh walk from each package of this
	// repository (the walk is per check), the slowest logged.
	root, _ := filepath.Abs("..")
	var worst time.Duration
	var worstDir string
	var n int
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" {
			if err == nil && d.IsDir() && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		start := time.Now()
		w := newImportWalk(root, modulePath(root), look)
		if _, err := w.exitLinked(filepath.ToSlash(rel)); err == nil {
			if d := time.Since(start); d > worst {
				worst, worstDir, n = d, rel, w.read
			}
		}
		return nil
	})
	t.Logf("slowest single check in this repository: %s, %d packages read, %s", worstDir, n, worst.Round(time.Millisecond))
	t.Logf("%d modules, %d packages: %d with an init exit of their own, %d linking one; %s reading them", len(roots), pkgs, own, linked, took.Round(time.Millisecond))
}
