package figures

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// requireGo skips without the go command, and fails under CI=true.
func requireGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("go is required under CI=true but was not found")
		}
		t.Skip("go not found: the code under a figure is read with go list")
	}
}

// tinyModule is a module whose program cmd/tool imports engine, which
// imports dep; other is a package nothing under the figure imports.
func tinyModule() map[string]string {
	return map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.21\n",
		"go.sum":           "v1\n",
		"cmd/tool/main.go": "package main\n\nimport \"example.com/m/engine\"\n\nfunc main() { engine.Run() }\n",
		"engine/e.go":      "package engine\n\nimport \"example.com/m/dep\"\n\nfunc Run() { dep.Do() }\n",
		"dep/d.go":         "package dep\n\nfunc Do() {}\n",
		"other/o.go":       "package other\n\nfunc X() {}\n",
		"bench/run.sh":     "echo run\n",
		"docs/x.md":        "x\n",
	}
}

// TestStaleFromDeps: a figure's code is what go list -deps says its
// program depends on, so a change in a dependency nobody listed makes it
// stale, and so does a package newly put on its path; a change to a
// package it does not import leaves it current. The hand-kept lists this
// replaces named neither dep nor newdep.
func TestStaleFromDeps(t *testing.T) {
	gittest.Require(t)
	requireGo(t)
	ctx := context.Background()
	f := Figure{Name: "tool", Programs: []string{"./cmd/tool"}, Paths: []string{"bench/run.sh", "go.sum"}}
	cases := []struct {
		name       string
		change     map[string]string
		withCommit bool // the result names the commit it measured
		stale      []string
	}{
		{"nothing changed", nil, false, nil},
		{"an unrelated package changed", map[string]string{"other/o.go": "package other\n\nfunc Y() {}\n"}, false, nil},
		{"docs changed", map[string]string{"docs/x.md": "y\n"}, false, nil},
		{"a dependency two imports down changed", map[string]string{"dep/d.go": "package dep\n\nfunc Do() { println() }\n"}, false, []string{"dep"}},
		// A dependency is compiled without its tests: a change to them
		// alone leaves what the figure ran as it was.
		{"a test file of a dependency changed", map[string]string{"dep/d_test.go": "package dep\n"}, false, nil},
		{"a dependency's test and code changed", map[string]string{"dep/d_test.go": "package dep\n", "dep/d.go": "package dep\n\nfunc Do() { println() }\n"}, false, []string{"dep"}},
		{"the script changed", map[string]string{"bench/run.sh": "echo other\n"}, false, []string{"bench/run.sh"}},
		{"a new package put on the path", map[string]string{
			"newdep/n.go": "package newdep\n\nfunc N() {}\n",
			"dep/d.go":    "package dep\n\nimport \"example.com/m/newdep\"\n\nfunc Do() { newdep.N() }\n",
		}, false, []string{"dep", "1 paths not recorded when measured (newdep)"}},
		{"a new package put on the path, result with its commit", map[string]string{
			"newdep/n.go": "package newdep\n\nfunc N() {}\n",
			"dep/d.go":    "package dep\n\nimport \"example.com/m/newdep\"\n\nfunc Do() { newdep.N() }\n",
		}, true, []string{"dep", "newdep"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := gittest.New(t, tinyModule())
			trees, dirty, commit, err := NewCode(root).At(ctx, f, "HEAD")
			if err != nil {
				t.Fatal(err)
			}
			r := Result{Trees: trees, Dirty: dirty}
			if c.withCommit {
				r.Commit = commit
			}
			if c.change != nil {
				gittest.Commit(t, root, "change", c.change)
			}
			got, err := NewCode(root).Stale(ctx, f, r)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "|") != strings.Join(c.stale, "|") {
				t.Errorf("stale %q, want %q", got, c.stale)
			}
		})
	}
}

// TestStaleBenchOwnTests: a benchmark's own test files are the
// benchmark, so a change to them alone makes its figure stale, while a
// change to the tests of a package it imports does not.
func TestStaleBenchOwnTests(t *testing.T) {
	gittest.Require(t)
	requireGo(t)
	ctx := context.Background()
	f := Figure{Name: "b", Benchmarks: []string{"./engine"}, Paths: []string{"go.sum"}}
	files := tinyModule()
	files["engine/e_test.go"] = "package engine\n\nimport \"testing\"\n\nfunc BenchmarkRun(b *testing.B) { Run() }\n"
	for _, c := range []struct {
		name   string
		change map[string]string
		stale  []string
	}{
		{"the benchmark's test file changed", map[string]string{"engine/e_test.go": "package engine\n\nimport \"testing\"\n\nfunc BenchmarkRun(b *testing.B) { for b.Loop() { Run() } }\n"}, []string{"engine"}},
		{"an imported package's tests changed", map[string]string{"dep/d_test.go": "package dep\n"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := gittest.New(t, files)
			trees, dirty, _, err := NewCode(root).At(ctx, f, "HEAD")
			if err != nil {
				t.Fatal(err)
			}
			gittest.Commit(t, root, "change", c.change)
			got, err := NewCode(root).Stale(ctx, f, Result{Trees: trees, Dirty: dirty})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "|") != strings.Join(c.stale, "|") {
				t.Errorf("stale %q, want %q", got, c.stale)
			}
		})
	}
}

// TestStaleWithCommitGrownList: a result that names its commit stays
// current when the figure's code grows by paths that have not changed
// since that commit (the code set is a rule, not a list frozen at
// measurement), and goes stale when one of them has.
func TestStaleWithCommitGrownList(t *testing.T) {
	gittest.Require(t)
	requireGo(t)
	ctx := context.Background()
	root := gittest.New(t, tinyModule())
	small := Figure{Name: "tool", Programs: []string{"./cmd/tool"}}
	trees, dirty, commit, err := NewCode(root).At(ctx, small, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	r := Result{Trees: trees, Dirty: dirty, Commit: commit}
	grown := Figure{Name: "tool", Programs: []string{"./cmd/tool"}, Paths: []string{"bench/run.sh"}}
	gittest.Commit(t, root, "docs", map[string]string{"docs/x.md": "z\n"})
	if got, err := NewCode(root).Stale(ctx, grown, r); err != nil || got != nil {
		t.Fatalf("unchanged paths added to the figure: stale %q, %v; want current", got, err)
	}
	gittest.Commit(t, root, "script", map[string]string{"bench/run.sh": "echo 2\n"})
	if got, err := NewCode(root).Stale(ctx, grown, r); err != nil || !slices.Equal(got, []string{"bench/run.sh"}) {
		t.Fatalf("a path added to the figure changed since its commit: stale %q, %v; want [bench/run.sh]", got, err)
	}
}

// TestFigureCode: every figure's code, read from this checkout, holds the
// packages its entry points import (those the hand-kept lists missed:
// testrun, gateenv, testcounts, judgedinput, outsidelink, outsideconfig
// on the hook path), no package they do not, no whole folder for a
// program named by its file, and is the same on a second reading.
func TestFigureCode(t *testing.T) {
	requireGo(t)
	ctx := context.Background()
	code := NewCode("../..")
	want := map[string][]string{
		"hooks-5k":            {"cmd/sessiongate", "testrun", "gateenv", "testcounts", "judgedinput", "outsidelink", "outsideconfig", "session", "hooks", "store", "bench/hooks.sh", "bench/seed.go", "go.sum"},
		"dashboard-sqlite-1m": {"cmd/sessiongate", "server", "web", "store", "bench/dashboard.sh", "bench/dashseed.go"},
		"dashboard-pg-1m":     {"postgres", "server"},
		"mcp-stdio":           {"bench/mcppeer", "server/mcpserver", "session", "internal/proccpu", "go.sum"},
		"mcp-http":            {"bench/mcppeer", "server", "server/mcpserver"},
		"records":             {"recordref", "go.sum"},
		"parser":              {"protocolspec", "go.sum"},
	}
	notWant := map[string][]string{
		"records":  {"session", "cmd/sessiongate"},
		"parser":   {"session", "recordref"},
		"hooks-5k": {"bench", "bench/compliance", "bench/figures", "internal/gittest", "internal/agenttest"},
	}
	for _, f := range All {
		paths, err := code.Paths(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range want[f.Name] {
			if !slices.Contains(paths, p) {
				t.Errorf("%s: %s is not under it: %v", f.Name, p, paths)
			}
		}
		for _, p := range notWant[f.Name] {
			if slices.Contains(paths, p) {
				t.Errorf("%s: %s is under it", f.Name, p)
			}
		}
		again, err := NewCode("../..").Paths(ctx, f)
		if err != nil || !slices.Equal(paths, again) || !slices.IsSorted(paths) {
			t.Errorf("%s: a second reading gave %v (%v), the first %v", f.Name, again, err, paths)
		}
	}
	// One go list per distinct entry list for the whole run: the four
	// program figures share cmd/sessiongate's, the MCP ones mcppeer's;
	// seed.go, dashseed.go, protocolspec, recordref and gitrepo have their
	// own.
	if n := len(code.lists); n != 7 {
		t.Errorf("%d go list runs for %d figures, want 7 (one per distinct entry list)", n, len(All))
	}
}
