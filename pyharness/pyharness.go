// Package pyharness is the run harness a gate puts in front of Python: a
// sitecustomize.py on PYTHONPATH (and the same code as the usercustomize
// of a user base, for a line that sets its own PYTHONPATH) that every
// Python process of the gate's command loads before the project's code, and that reports what the
// run did to the test framework, and what pytest did with each test, by
// node id (sitecustomize.py says how). The static
// rules (testrun/pyframework.go, pysubvert.go) read how the code is
// written; this sees what it did, however it was spelled. It needs no
// session: it prepares a folder and reads it back.
package pyharness

import (
	"crypto/rand"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/filelock"
)

//go:embed sitecustomize.py
var siteCustomize string

// Harness is one command's harness folder.
type Harness struct {
	dir    string   // holds sitecustomize.py; first on PYTHONPATH
	report string   // where the processes write
	held   *os.File // locked while the harness is in use (sweep)
}

// A harness folder is named prefix+random once its "held" file is
// locked; it is made under "."+prefix, so that sweep never takes a
// folder whose owner has not locked it yet.
const (
	prefix   = "sessiongate-pyharness-"
	heldName = "held"
)

var sweepOnce sync.Once

// New writes the harness for a command run in root (the project's code
// is what lies under root outside installed packages).
func New(root string) (*Harness, error) {
	sweepOnce.Do(func() { sweep(os.TempDir()) })
	made, err := os.MkdirTemp("", "."+prefix)
	if err != nil {
		return nil, fmt.Errorf("python harness: %w", err)
	}
	held, err := os.OpenFile(filepath.Join(made, heldName), os.O_CREATE|os.O_RDWR|os.O_EXCL, 0o600)
	if err == nil {
		var ok bool
		if ok, err = filelock.TryLock(held); err == nil && !ok {
			err = errors.New("the harness folder's new lock is held")
		}
		if err != nil {
			held.Close()
		}
	}
	if err != nil {
		os.RemoveAll(made)
		return nil, fmt.Errorf("python harness: lock %s: %w", made, err)
	}
	dir := filepath.Join(filepath.Dir(made), strings.TrimPrefix(filepath.Base(made), "."))
	if err := os.Rename(made, dir); err != nil {
		held.Close()
		os.RemoveAll(made)
		return nil, fmt.Errorf("python harness: %w", err)
	}
	// The report folder's name is not one the project's code can spell.
	h := &Harness{dir: dir, report: filepath.Join(dir, "r"+rand.Text()), held: held}
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

// Close removes the harness folder. (The lock goes first: Windows
// removes no file that is open.)
func (h *Harness) Close() {
	h.held.Close()
	os.RemoveAll(h.dir)
}

// sweep removes the harness folders in tmp whose process ended without
// Close: a hook killed by SIGKILL mid-gate, or ended by its time budget,
// runs no deferred call, and each such run would leave a folder in TMPDIR
// for good. A folder is its owner's while its "held" file is locked; the
// kernel drops that lock when the owner ends, however it ends. Folders of
// other users (0700) and anything that is not a plain folder of ours
// holding a lock file are left alone. A kill can also come before the
// rename (halfMade).
func sweep(tmp string) {
	dirs, err := filepath.Glob(filepath.Join(tmp, prefix+"*"))
	if err != nil {
		return
	}
	for _, d := range dirs {
		if fi, err := os.Lstat(d); err != nil || !fi.IsDir() {
			continue
		}
		if unheld(d) {
			if err := os.RemoveAll(d); err != nil {
				slog.Debug("python harness: sweep a stale folder", "dir", d, "err", err)
			}
		}
	}
	half, _ := filepath.Glob(filepath.Join(tmp, "."+prefix+"*"))
	for _, d := range half {
		if halfMade(d) {
			if err := os.RemoveAll(d); err != nil {
				slog.Debug("python harness: sweep a half-made folder", "dir", d, "err", err)
			}
		}
	}
}

// unheld reports whether d's "held" file exists and no process locks it.
func unheld(d string) bool {
	f, err := os.OpenFile(filepath.Join(d, heldName), os.O_RDWR, 0)
	if err != nil {
		return false
	}
	ok, err := filelock.TryLock(f)
	f.Close()
	return err == nil && ok
}

// halfMade reports whether d is a "."+prefix folder whose New was killed
// before the rename (TestKill9Commit kills hooks at random moments): a
// plain folder holding nothing but an unlocked (or not yet made) "held",
// untouched for a minute; New's own window between making the folder and
// locking is microseconds, not a minute.
func halfMade(d string) bool {
	fi, err := os.Lstat(d)
	if err != nil || !fi.IsDir() || time.Since(fi.ModTime()) < time.Minute {
		return false
	}
	entries, err := os.ReadDir(d)
	if err != nil || len(entries) > 1 {
		return false
	}
	if len(entries) == 0 {
		return true
	}
	return entries[0].Name() == heldName && entries[0].Type().IsRegular() && unheld(d)
}

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
		if !ok || kind == "pytest" {
			continue // PID.pytest: Tests reads it
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
	runs, err := h.pytestRuns()
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, pid := range slices.Sorted(maps.Keys(procs)) {
		p := procs[pid]
		switch {
		case !p.start:
		case runs[pid] != nil && runs[pid].unobserved && p.end:
			out = append(out, Finding{fmt.Sprintf("the test runner (%s) ran with sessiongate's observer of its tests unloaded or cut short (-p no:sessiongate-observer, an unregister): what its tests did cannot be told", shortArgv(p.argv)), ""})
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

// maxTestsNote bounds a pytest process's note: a line per test and
// report (a suite of 100,000 tests writes about 10 MB).
const maxTestsNote = 32 << 20

// A TestState is what a run's pytest processes did with one test,
// ordered so the better verdict wins where two processes ran it.
type TestState uint8

const (
	// Collected: collected, then neither run nor deselected: dropped
	// from the run's items (a conftest's items[:] = ...).
	Collected TestState = iota
	// NotRun: skipped, expected to fail, deselected.
	NotRun
	Passed
	Failed
)

// pytestRun is one pytest process's note.
type pytestRun struct {
	tests      map[string]TestState
	unobserved bool // no session end seen: "u"
}

func (h *Harness) pytestRuns() (map[string]*pytestRun, error) {
	ents, err := os.ReadDir(h.report)
	if err != nil {
		return nil, fmt.Errorf("python harness report: %w", err)
	}
	runs := map[string]*pytestRun{}
	for _, e := range ents {
		pid, kind, _ := strings.Cut(e.Name(), ".")
		if kind != "pytest" {
			continue
		}
		// A note of a process that never started as a runner is no run's.
		if _, err := os.Lstat(filepath.Join(h.report, pid+".start")); err != nil {
			continue
		}
		b, err := boundedread.Head(filepath.Join(h.report, e.Name()), maxTestsNote)
		if err != nil {
			return nil, fmt.Errorf("python harness report: %w", err)
		}
		r := &pytestRun{tests: map[string]TestState{}}
		for _, l := range strings.Split(string(b), "\n") {
			f := strings.SplitN(l, "\t", 3)
			switch {
			case f[0] == "u":
				r.unobserved = true
			case f[0] == "c" && len(f) == 2:
				if _, ok := r.tests[f[1]]; !ok {
					r.tests[f[1]] = Collected
				}
			case f[0] == "d" && len(f) == 2:
				r.tests[f[1]] = max(r.tests[f[1]], NotRun)
			case f[0] == "r" && len(f) == 3:
				st := map[string]TestState{"passed": Passed, "failed": Failed, "notrun": NotRun}[f[1]]
				if f[1] == "failed" || f[1] == "notrun" {
					// A test's worst phase is its verdict: a teardown
					// error fails a passed call, a skip in setup stands.
					if cur, ok := r.tests[f[2]]; !ok || cur != Failed {
						r.tests[f[2]] = st
					}
					continue
				}
				if cur := r.tests[f[2]]; cur == Collected {
					r.tests[f[2]] = st
				}
			}
		}
		runs[pid] = r
	}
	return runs, nil
}

// Tests says what the run's pytest processes did with each test, by
// node id ("tests/test_a.py::test_b[1]"), the processes merged (the
// better verdict); nil when no pytest process of the run reported.
func (h *Harness) Tests() (map[string]TestState, error) {
	runs, err := h.pytestRuns()
	if err != nil {
		return nil, err
	}
	var out map[string]TestState
	for _, r := range runs {
		if out == nil {
			out = map[string]TestState{}
		}
		for id, st := range r.tests {
			if cur, ok := out[id]; !ok || st > cur {
				out[id] = st
			}
		}
	}
	return out, nil
}

// IDHash is how a test's node id is kept in sessiongate's records: a
// hash (the records hold no names of the project's).
func IDHash(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:6])
}

// PassedHashes is the hashes (IDHash) of the tests that passed, and of
// the functions (FuncID) of the parametrized ones among them.
func PassedHashes(tests map[string]TestState) []string {
	var out []string
	for id, st := range tests {
		if st == Passed {
			out = append(out, IDHash(id))
			if f := FuncID(id); f != id {
				out = append(out, IDHash(f))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// FuncID is a node id without its parameters ("t.py::test_a[1-x]" is
// "t.py::test_a"): the test function whose instances the ids are. (A
// parameter may hold "::" or "[", a path "[": the parameters are what
// follows the first "[" after the first "::".)
func FuncID(id string) string {
	k := strings.Index(id, "::")
	if k < 0 || !strings.HasSuffix(id, "]") {
		return id
	}
	if i := strings.IndexByte(id[k:], '['); i > 0 {
		return id[:k+i]
	}
	return id
}

// TurnedOff lists the tests that passed at an earlier run (their
// hashes, PassedHashes) and that the run of tests collected and did not
// run to a verdict: skipped, expected to fail, deselected, or dropped
// from the items. A function that passed then, and whose instances the
// run collects under other ids (a conftest's parametrize renames
// test_a to test_a[v1]), is one when none of them passes. A test the run
// no longer collects (deleted, renamed) is not one. Sorted.
func TurnedOff(passedBefore []string, tests map[string]TestState) []string {
	was := make(map[string]bool, len(passedBefore))
	for _, h := range passedBefore {
		was[h] = true
	}
	var out []string
	// The functions that passed then, their instances now, and whether
	// one of those passes.
	idle := map[string][]string{}
	passes := map[string]bool{}
	for id, st := range tests {
		off := st == Collected || st == NotRun
		if off && was[IDHash(id)] {
			out = append(out, id)
			continue
		}
		f := FuncID(id)
		if f == id || !was[IDHash(f)] {
			continue
		}
		if st == Passed || st == Failed {
			passes[f] = true
		} else if off {
			idle[f] = append(idle[f], id)
		}
	}
	for f, ids := range idle {
		if !passes[f] {
			out = append(out, ids...)
		}
	}
	slices.Sort(out)
	return out
}

// ListIDs joins the first n of ids, "and k more" after.
func ListIDs(ids []string, n int) string {
	if len(ids) <= n {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:n], ", "), len(ids)-n)
}
