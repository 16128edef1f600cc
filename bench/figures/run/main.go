// Command run measures, records and checks the figures bench/figures owns
// (docs/benchmarks.md, the section between the figures markers):
//
//	go run ./bench/figures/run measure [NAME...]   # run each figure's command (all by default), record it, render the docs
//	go run ./bench/figures/run record NAME FILE|DIR -load-before L -load-after L -at TIME
//	                                               # record a saved run of the same command
//	go run ./bench/figures/run render              # regenerate the docs section (staleness included)
//	go run ./bench/figures/run check               # list stale figures; exit 1 if any
//
// Each figure is one run of a command that puts the figure beside its peer
// (interleaved inside the run); the result keeps the date, the machine
// (nproc, CPU model, load average before and after), the versions and the
// git object ids of the paths under it. Exit codes: 0 ok, 1 stale figures
// (check) or a failed run, 2 usage.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/bench/figures"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	ctx := context.Background()
	root, err := repoRoot(ctx)
	if err != nil {
		fail(2, err)
	}
	res, err := figures.Load(root)
	if err != nil {
		fail(2, err)
	}
	switch os.Args[1] {
	case "measure":
		names := os.Args[2:]
		if len(names) == 0 {
			for _, f := range figures.All {
				names = append(names, f.Name)
			}
		}
		for _, n := range names {
			f, ok := figures.ByName(n)
			if !ok {
				fail(2, fmt.Errorf("no figure %q", n))
			}
			r, err := measure(ctx, root, f)
			if err != nil {
				fail(1, fmt.Errorf("%s: %w", n, err))
			}
			res.Figures[n] = r
			if err := res.Save(root); err != nil { // after each: a long run keeps what it measured
				fail(1, err)
			}
			fmt.Printf("%s: %s\n", n, r.Summary)
		}
		render(ctx, root, res)
	case "record":
		fs := flag.NewFlagSet("record", flag.ExitOnError)
		before := fs.String("load-before", "", "load average when the run started")
		after := fs.String("load-after", "", "load average when it ended")
		at := fs.String("at", "", "when it ran (RFC 3339)")
		commit := fs.String("commit", "HEAD", "the commit the run measured")
		dirtyFlag := fs.String("dirty", "", "comma-separated paths that had uncommitted changes in that run")
		if len(os.Args) < 4 {
			usage()
		}
		n, from := os.Args[2], os.Args[3]
		fs.Parse(os.Args[4:])
		f, ok := figures.ByName(n)
		if !ok {
			fail(2, fmt.Errorf("no figure %q", n))
		}
		out, versions, err := readSaved(from)
		if err != nil {
			fail(2, err)
		}
		r, err := result(ctx, root, f, out, versions, *before, *after)
		if err != nil {
			fail(1, err)
		}
		if r.Trees, r.Dirty, r.Commit, err = figures.NewCode(root).At(ctx, f, *commit); err != nil {
			fail(1, err)
		}
		if *commit != "HEAD" {
			r.Dirty = nil // the work tree now says nothing of that run
		}
		if *dirtyFlag != "" {
			r.Dirty = append(r.Dirty, strings.Split(*dirtyFlag, ",")...)
		}
		if *at != "" {
			r.MeasuredAt = *at
		}
		res.Figures[n] = r
		if err := res.Save(root); err != nil {
			fail(1, err)
		}
		fmt.Printf("%s: %s\n", n, r.Summary)
		render(ctx, root, res)
	case "render":
		render(ctx, root, res)
	case "check":
		code := figures.NewCode(root) // one go list per distinct entry list
		stale := 0
		for _, f := range figures.All {
			r, ok := res.Figures[f.Name]
			if !ok {
				fmt.Printf("%s: not measured\n", f.Name)
				stale++
				continue
			}
			changed, err := code.Stale(ctx, f, r)
			if err != nil {
				fail(2, err)
			}
			if len(changed) > 0 {
				stale++
				fmt.Printf("%s: stale since %s: %s\n", f.Name, r.MeasuredAt, strings.Join(changed, "; "))
			} else {
				fmt.Printf("%s: current (%s)\n", f.Name, r.MeasuredAt)
			}
		}
		if stale > 0 {
			os.Exit(1)
		}
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: go run ./bench/figures/run measure [NAME...] | record NAME FILE|DIR [-load-before L -load-after L -at TIME] | render | check")
	os.Exit(2)
}

func fail(code int, err error) {
	fmt.Fprintln(os.Stderr, "figures:", err)
	os.Exit(code)
}

func repoRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", errors.New("run inside the sessiongate repository")
	}
	return strings.TrimSpace(string(out)), nil
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

// measure runs a figure's command once. The hook figures run bench/hooks.sh
// with OUT= a temporary folder and PEERS= from the environment.
func measure(ctx context.Context, root string, f figures.Figure) (figures.Result, error) {
	before := loadavg()
	command := f.Command
	var outDir string
	if strings.Contains(command, "bench/hooks.sh") {
		d, err := os.MkdirTemp("", "figures-hooks-")
		if err != nil {
			return figures.Result{}, err
		}
		defer os.RemoveAll(d)
		outDir = d
		command = strings.Replace(command, "OUT=DIR", "OUT="+d, 1)
		command = strings.Replace(command, "PEERS=DIR", "PEERS="+os.Getenv("PEERS"), 1)
	}
	// The code measured is the code when the run starts.
	trees, dirty, commit, err := figures.NewCode(root).At(ctx, f, "HEAD")
	if err != nil {
		return figures.Result{}, err
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return figures.Result{}, fmt.Errorf("%s: %w", command, err)
	}
	text, versions := out.String(), map[string]string{}
	if outDir != "" {
		var err error
		if text, versions, err = readSaved(outDir); err != nil {
			return figures.Result{}, err
		}
	}
	r, err := result(ctx, root, f, text, versions, before, loadavg())
	r.Trees, r.Dirty, r.Commit = trees, dirty, commit
	return r, err
}

// readSaved reads a saved run: a go test output file, or a bench/hooks.sh
// OUT folder (results.tsv and versions.env).
func readSaved(from string) (string, map[string]string, error) {
	versions := map[string]string{}
	st, err := os.Stat(from)
	if err != nil {
		return "", nil, err
	}
	if !st.IsDir() {
		b, err := os.ReadFile(from)
		return string(b), versions, err
	}
	b, err := os.ReadFile(filepath.Join(from, "results.tsv"))
	if err != nil {
		return "", nil, err
	}
	if env, err := os.ReadFile(filepath.Join(from, "versions.env")); err == nil {
		for _, line := range strings.Split(string(env), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				versions[k] = v
			}
		}
	}
	return "hooks\n" + string(b), versions, nil
}

func result(ctx context.Context, root string, f figures.Figure, out string, versions map[string]string, before, after string) (figures.Result, error) {
	var m figures.Metrics
	if strings.HasPrefix(out, "hooks\n") {
		m = figures.ParseHooks(strings.TrimPrefix(out, "hooks\n"))
	} else if strings.Contains(out, "\nagenthook\t") {
		m = figures.ParseAgentHooks(out)
	} else if strings.Contains(out, "x /sessions\n") {
		m = figures.ParseDashboard(out)
	} else {
		m = figures.ParseGoBench(out)
	}
	if len(m) == 0 {
		return figures.Result{}, errors.New("no figures in the output")
	}
	// The caller fills in the code measured (Trees, Dirty, Commit).
	if v, err := exec.CommandContext(ctx, "go", "env", "GOVERSION").Output(); err == nil {
		versions["go"] = strings.TrimSpace(string(v))
	}
	if v, err := exec.CommandContext(ctx, "git", "--version").Output(); err == nil && versions["git"] == "" {
		versions["git"] = strings.TrimPrefix(strings.TrimSpace(string(v)), "git version ")
	}
	if strings.HasPrefix(f.Name, "mcp") {
		if v, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Version}}", "github.com/modelcontextprotocol/go-sdk").Output(); err == nil {
			versions["go-sdk"] = strings.TrimSpace(string(v))
		}
	}
	if f.Name == "parser" {
		if v, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Version}}", "github.com/yuin/goldmark").Output(); err == nil {
			versions["goldmark"] = strings.TrimSpace(string(v))
		}
	}
	return figures.Result{
		Command: f.Command, Peer: f.Peer, Goal: f.Goal,
		MeasuredAt: time.Now().UTC().Format(time.RFC3339),
		Machine:    figures.Machine{Nproc: runtime.NumCPU(), CPU: cpuModel(), LoadBefore: before, LoadAfter: after},
		Versions:   versions, Metrics: m, Summary: f.Summary(m),
	}, nil
}

func render(ctx context.Context, root string, res *figures.Results) {
	section, err := figures.Render(ctx, root, figures.All, res)
	if err != nil {
		fail(1, err)
	}
	path := filepath.Join(root, figures.DocsPath)
	doc, err := os.ReadFile(path)
	if err != nil {
		fail(1, err)
	}
	updated, err := figures.Replace(string(doc), section)
	if err != nil {
		fail(1, err)
	}
	if err := os.WriteFile(path, []byte(updated), 0o644); err != nil {
		fail(1, err)
	}
}
