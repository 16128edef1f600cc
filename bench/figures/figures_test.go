package figures

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestStale: a figure goes stale when a path under it changes (committed
// or not committed when it was measured), and stays current when anything
// else changes. No timing.
func TestStale(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	cases := []struct {
		name   string
		bench  []string          // the figure's benchmark packages
		change map[string]string // files written and committed after measuring
		dirty  map[string]string // files left uncommitted when measuring
		stale  []string
	}{
		{"nothing changed", nil, nil, nil, nil},
		{"another folder changed", nil, map[string]string{"docs/x.md": "y\n"}, nil, nil},
		{"a file under the figure changed", nil, map[string]string{"engine/a.go": "package b\n"}, nil, []string{"engine"}},
		{"a file added under the figure", nil, map[string]string{"engine/new.go": "package a\n"}, nil, []string{"engine"}},
		// A folder the figure names counts whole (TestStaleFromDeps has
		// a dependency's tests).
		{"a test file in a folder the figure names", nil, map[string]string{"engine/a_test.go": "package a\n// more\n"}, nil, []string{"engine"}},
		{"a dependency changed", nil, map[string]string{"go.sum": "v2\n"}, nil, []string{"go.sum"}},
		{"measured with an uncommitted change", nil, nil, map[string]string{"engine/a.go": "package dirty\n"}, []string{"engine/a.go (uncommitted when measured)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Figure{Name: "x", Paths: []string{"engine", "go.sum"}, Benchmarks: c.bench}
			root := gittest.New(t, map[string]string{"engine/a.go": "package a\n", "engine/a_test.go": "package a\n", "go.sum": "v1\n", "docs/x.md": "x\n"})
			for p, body := range c.dirty {
				os.WriteFile(filepath.Join(root, p), []byte(body), 0o644)
			}
			trees, dirty, err := Trees(ctx, root, f.Paths)
			if err != nil {
				t.Fatal(err)
			}
			r := Result{Trees: trees, Dirty: dirty}
			for p, body := range c.change {
				os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
				os.WriteFile(filepath.Join(root, p), []byte(body), 0o644)
			}
			if c.change != nil {
				gittest.Git(t, root, "add", "-A")
				gittest.Git(t, root, "commit", "-q", "-m", "change")
			}
			got, err := Stale(ctx, root, f, r)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, ",") != strings.Join(c.stale, ",") {
				t.Errorf("stale %v, want %v", got, c.stale)
			}
		})
	}
}

func TestParse(t *testing.T) {
	out := `goos: linux
BenchmarkStdioVsPeer-2   	       4	16923134340 ns/op	       568.5 peer_ping-calls/s	       0.2509 validate_gate/peer_ping-cpu-x
BenchmarkHTTPVsPeer/clients=8-2         	       2	11544475904 ns/op	      2061 peer_ping-calls/s
PASS`
	m := ParseGoBench(out)
	if m["BenchmarkStdioVsPeer"]["validate_gate/peer_ping-cpu-x"] != 0.2509 || m["BenchmarkStdioVsPeer"]["peer_ping-calls/s"] != 568.5 ||
		m["BenchmarkHTTPVsPeer/clients=8"]["peer_ping-calls/s"] != 2061 {
		t.Errorf("go bench parsed as %v", m)
	}
	h := ParseHooks("none\t644.1\t663.6\t182.1\t1727.7\t75.0\t+0.0\nsg-all\t1940.2\t2110.9\t867.5\t4860.0\t251.0\t+1320.6\n")
	d := ParseDashboard("sqlite 1000000\t/\tmedian 3.10 ms\tp90 4.00 ms\t12.5 KB\t1.20x /sessions\n== versions\npostgres 1000000\t/team\tmedian 41.20 ms\tp90 60.00 ms\t24.2 KB\t9.50x /sessions\n")
	if d["sqlite 1000000 /"]["median-ms"] != 3.1 || d["sqlite 1000000 /"]["x"] != 1.2 || d["postgres 1000000 /team"]["kb"] != 24.2 || d["postgres 1000000 /team"]["p90-ms"] != 60 {
		t.Errorf("dashboard parsed as %v", d)
	}
	if h["sg-all"]["added-ms"] != 1320.6 || h["none"]["cpu-ms"] != 75 || h["sg-all"]["median-ms"] != 1940.2 {
		t.Errorf("hooks parsed as %v", h)
	}
	a := ParseAgentHooks("| SessionStart | 9.16 (8.42-12.28) | 87.85 |\n\nagenthook\tSessionStart\t9.16\t87.85\t9.6x\t10.00\t87.00\t0.92\nagenthook\tStop-edited\t17.81\t86.42\t4.9x\t20.00\t86.00\n")
	if len(a) != 2 || a["SessionStart"]["sg-ms"] != 9.16 || a["SessionStart"]["x"] != 9.6 || a["Stop-edited"]["python-cpu-ms"] != 86 {
		t.Errorf("agent hooks parsed as %v", a)
	}
	if got := agentHooksSummary(a); got != "SessionStart 9.2 ms, 9.6x; Stop-edited 17.8 ms, 4.9x (python no-op / sessiongate, paired run by run); /bin/true 0.9 ms (the spawn floor)" {
		t.Errorf("agent hooks summary %q", got)
	}
}

// TestDocsMarkStaleFigures: docs/benchmarks.md never shows a figure as
// current whose code changed since it was measured. When this fails, run
// `go run ./bench/figures/run render` (no timing: it marks the figure
// stale) or measure the figure again.
func TestDocsMarkStaleFigures(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git not installed")
		}
		t.Skip("git not installed")
	}
	ctx := context.Background()
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not in a git checkout")
	}
	root := strings.TrimSpace(string(out))
	res, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, DocsPath))
	if err != nil {
		t.Fatal(err)
	}
	section, ok := Section(string(doc))
	if !ok {
		t.Fatalf("%s has no generated figures section", DocsPath)
	}
	code := NewCode(root)
	for _, f := range All {
		r, ok := res.Figures[f.Name]
		if !ok {
			continue
		}
		// A path that joined the figure's code after it was measured has
		// no tree yet: that makes the figure stale (Stale), not malformed;
		// nor is one that left it (its importer changed, so it is stale).
		if r.Command == "" || r.MeasuredAt == "" || r.Machine.Nproc == 0 || r.Machine.LoadBefore == "" || len(r.Trees) == 0 || r.Peer == "" {
			t.Errorf("%s: the result lacks its command, date, machine, load, peer or trees: %+v", f.Name, r)
		}
		stale, err := code.Stale(ctx, f, r)
		if err != nil {
			t.Fatal(err)
		}
		var row string
		for _, line := range strings.Split(section, "\n") {
			if strings.HasPrefix(line, "| "+f.Title+" |") {
				row = line
			}
		}
		if row == "" {
			t.Errorf("%s: no row in %s", f.Name, DocsPath)
			continue
		}
		if len(stale) > 0 && !strings.Contains(row, "**stale**") {
			t.Errorf("%s is stale since %s (%s) but %s shows it current: run `go run ./bench/figures/run render` or measure it again",
				f.Name, r.MeasuredAt, strings.Join(stale, "; "), DocsPath)
		}
	}
}
