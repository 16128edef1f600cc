// Package pyharness is the run harness a gate puts in front of Python: a
// sitecustomize.py on PYTHONPATH (and the same code as the usercustomize
// of a user base, for a line that sets its own PYTHONPATH) that every
// Python process of the gate's command loads before the project's code, and that reports what the
// run did to the test framework (sitecustomize.py says how). The static
// rules (testrun/pyframework.go, pysubvert.go) read how the code is
// written; this sees what it did, however it was spelled. It needs no
// session: it prepares a folder and reads it back.
package pyharness

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

//go:embed sitecustomize.py
var siteCustomize string

// Harness is one command's harness folder.
type Harness struct {
	dir    string // holds sitecustomize.py; first on PYTHONPATH
	report string // where the processes write
}

// New writes the harness for a command run in root (the project's code
// is what lies under root outside installed packages).
func New(root string) (*Harness, error) {
	dir, err := os.MkdirTemp("", "sessiongate-pyharness-")
	if err != nil {
		return nil, fmt.Errorf("python harness: %w", err)
	}
	h := &Harness{dir: dir, report: filepath.Join(dir, "report")}
	if err := os.Mkdir(h.report, 0o700); err != nil {
		h.Close()
		return nil, fmt.Errorf("python harness: %w", err)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		h.Close()
		return nil, fmt.Errorf("python harness: %w", err)
	}
	src := strings.Replace(siteCustomize, "__SG_REPORT__", pyString(h.report), 1)
	src = strings.Replace(src, "__SG_ROOT__", pyString(abs), 1)
	if err := os.WriteFile(filepath.Join(dir, "sitecustomize.py"), []byte(strings.Replace(src, "__SG_KIND__", `"site"`, 1)), 0o600); err != nil {
		h.Close()
		return nil, fmt.Errorf("python harness: %w", err)
	}
	// The same code as the user site's usercustomize, for each Python 3
	// a run may start (3.10's orig_argv is the oldest it reports from).
	user := []byte(strings.Replace(src, "__SG_KIND__", `"user"`, 1))
	for v := 10; v <= 20; v++ {
		site := filepath.Join(dir, "user", "lib", fmt.Sprintf("python3.%d", v), "site-packages")
		if err := os.MkdirAll(site, 0o700); err != nil {
			h.Close()
			return nil, fmt.Errorf("python harness: %w", err)
		}
		if err := os.WriteFile(filepath.Join(site, "usercustomize.py"), user, 0o600); err != nil {
			h.Close()
			return nil, fmt.Errorf("python harness: %w", err)
		}
	}
	return h, nil
}

// pyString spells s as a Python string literal (JSON's escapes are
// Python's).
func pyString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Env is environ with the harness first on PYTHONPATH, and its user base
// as PYTHONUSERBASE (a line that sets its own PYTHONPATH keeps that one).
// A PYTHONPATH of environ (a gate's is already cleaned of the caller's)
// comes after it; a PYTHONUSERBASE of environ is dropped (a gate's
// environment never has one: gateenv), as is the user base on macOS and
// Windows, whose default user site is not ~/.local's.
func (h *Harness) Env(environ []string) []string {
	out := make([]string, 0, len(environ)+2)
	pp := h.dir
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "PYTHONPATH="); ok {
			if v != "" {
				pp += string(os.PathListSeparator) + v
			}
			continue
		}
		if strings.HasPrefix(kv, "PYTHONUSERBASE=") {
			continue
		}
		out = append(out, kv)
	}
	out = append(out, "PYTHONPATH="+pp)
	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" {
		out = append(out, "PYTHONUSERBASE="+filepath.Join(h.dir, "user"))
	}
	return out
}

// Close removes the harness folder.
func (h *Harness) Close() { os.RemoveAll(h.dir) }

// maxNote and maxNotes bound what Findings reads: a note is a line or a
// few, and a run starts a runner process or a few.
const (
	maxNote  = 64 << 10
	maxNotes = 10000
)

// A Finding is one thing the run did to the test framework.
type Finding struct {
	Text string // a sentence: "the test runner (...) ended with ... replaced"
	// File is the repository file (slash-separated, relative to root)
	// whose code did it, "" when the harness cannot tell (a stand-in with
	// no code, an exit no Python call made).
	File string
}

// Findings says what the run did to the test framework, in a stable
// order; nil when nothing. Call it after the command.
func (h *Harness) Findings() ([]Finding, error) {
	ents, err := os.ReadDir(h.report)
	if err != nil {
		return nil, fmt.Errorf("python harness report: %w", err)
	}
	if len(ents) > maxNotes {
		return nil, fmt.Errorf("python harness report: %d notes, more than the %d a run's processes write", len(ents), maxNotes)
	}
	type proc struct {
		argv       string
		start, end bool
		replaced   [][2]string // what, file
		exit       []string    // code, where, file
	}
	procs := map[string]*proc{}
	for _, e := range ents {
		pid, kind, ok := strings.Cut(e.Name(), ".")
		if !ok {
			continue
		}
		// The run's own code can write here: read bounded, a link or
		// FIFO refused (an error fails the gate).
		b, err := boundedread.Head(filepath.Join(h.report, e.Name()), maxNote)
		if err != nil {
			return nil, fmt.Errorf("python harness report: %w", err)
		}
		if procs[pid] == nil {
			procs[pid] = &proc{}
		}
		p := procs[pid]
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		switch kind {
		case "start":
			p.start, p.argv = true, lines[0]
		case "end":
			p.end = true
			for _, l := range lines {
				if what, file, _ := strings.Cut(l, "\t"); what != "" {
					p.replaced = append(p.replaced, [2]string{what, file})
				}
			}
		case "exit":
			if f := strings.Split(lines[0], "\t"); len(f) == 3 && p.exit == nil {
				p.exit = f
			}
		}
	}
	var out []Finding
	for _, pid := range slices.Sorted(maps.Keys(procs)) {
		p := procs[pid]
		switch {
		case !p.start:
		case !p.end && p.exit != nil:
			out = append(out, Finding{fmt.Sprintf("the test runner (%s) ended by os._exit(%s) from %s, past the runner's own exit: its exit status is not the tests'", shortArgv(p.argv), p.exit[0], p.exit[1]), filepath.ToSlash(p.exit[2])})
		case !p.end:
			out = append(out, Finding{fmt.Sprintf("the test runner (%s) ended without Python's normal exit (os._exit or exec): its exit status is not the tests'", shortArgv(p.argv)), ""})
		default:
			for _, r := range p.replaced {
				out = append(out, Finding{fmt.Sprintf("the test runner (%s) ended with %s in place of the framework's own", shortArgv(p.argv), r[0]), filepath.ToSlash(r[1])})
			}
		}
	}
	return out, nil
}

// By keeps the findings whose file is one of files (or unknown): what a
// file the session did not change did, the project did before it.
func By(found []Finding, files []string) []Finding {
	var out []Finding
	for _, f := range found {
		if f.File == "" || slices.Contains(files, f.File) {
			out = append(out, f)
		}
	}
	return out
}

// Texts joins the findings' sentences.
func Texts(found []Finding) string {
	t := make([]string, len(found))
	for i, f := range found {
		t[i] = f.Text
	}
	return strings.Join(t, "; ")
}

// shortArgv drops the interpreter's path: "python3 -m unittest discover".
func shortArgv(argv string) string {
	f := strings.Fields(argv)
	if len(f) > 0 {
		f[0] = filepath.Base(f[0])
	}
	s := strings.Join(f, " ")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}
