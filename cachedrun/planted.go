package cachedrun

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/ctime"
	"github.com/sessiongate/sessiongate/shellline"
)

// Lazy pass 26 (c1): bytecode planted for an observed QA run. StalePycs
// trusts a timestamp .pyc written after the source last changed; a .pyc
// compiled from a working copy whose mtime and size were taken from the
// broken greet.py (`touch -r`, py_compile's cfile=) is such a file, and
// pytest ran it. Only compiling the source tells: PlantedPycs has the
// interpreter the .pyc is for compile each source Python would load
// bytecode for and compare the code objects (code equality ignores the
// order of set constants, which PYTHONHASHSEED changes, and the file
// name), for the session's .py files and the modules beside them.

// comparePy compiles each source and prints the caches whose code differs.
const comparePy = `import sys, marshal, importlib.util
a = sys.argv[1:]
for pyc, src in zip(a[::2], a[1::2]):
    try:
        data = open(pyc, 'rb').read()
        if data[:4] != importlib.util.MAGIC_NUMBER:
            continue
        opt = 2 if '.opt-2.' in pyc else 1 if '.opt-1.' in pyc else 0
        want = compile(open(src, 'rb').read(), src, 'exec', dont_inherit=True, optimize=opt)
    except Exception:
        continue
    try:
        same = marshal.loads(data[16:]) == want
    except Exception:
        same = False
    if not same:
        print(pyc)
`

// maxPycs bounds the caches compared in one run (one interpreter start).
const maxPycs = 400

// PlantedPycs lists, as "SRC (PYC)", bytecode Python would load for a
// source beside it (a hash-based .pyc, or a timestamp one whose recorded
// mtime and size match) that is not compiled from that source: in the
// __pycache__ folders of the session's changed .py files, and (lazy
// pass 28, c6) any __pycache__ entry of the work tree written since
// start, where a module the session never touched can be answered for.
// A checked-hash .pyc is compared too: `--check-hash-based-pycs never`
// stops Python checking it. Bytecode for an interpreter this machine
// lacks is not judged.
func PlantedPycs(root string, changed []string, start time.Time) []string {
	dirs := map[string]bool{}
	for _, f := range changed {
		if strings.HasSuffix(f, ".py") {
			dirs[filepath.Dir(filepath.Join(root, filepath.FromSlash(f)))] = true
		}
	}
	// Bytecode made since the start anywhere else in the work tree.
	recent := map[string]bool{} // pyc paths
	if !start.IsZero() {
		for _, pyc := range pycachesSince(root, start) {
			recent[pyc] = true
			dirs[filepath.Dir(filepath.Dir(pyc))] = true
		}
	}
	byTag := map[string][]string{} // cache tag (cpython-311): pyc, src pairs
	for d := range dirs {
		pycs, _ := filepath.Glob(filepath.Join(d, "__pycache__", "*.pyc"))
		for _, pyc := range pycs {
			if !recent[pyc] && !changedDir(root, changed, d) {
				continue
			}
			base := filepath.Base(pyc)
			parts := strings.Split(base, ".")
			if len(parts) < 3 {
				continue
			}
			src := filepath.Join(d, parts[0]+".py")
			fi, err := os.Stat(src)
			if err != nil || !fi.Mode().IsRegular() || !loadable(pyc, fi) {
				continue
			}
			if n := len(byTag[parts[1]]); n < 2*maxPycs {
				byTag[parts[1]] = append(byTag[parts[1]], pyc, src)
			}
		}
	}
	var out []string
	for tag, args := range byTag {
		py := interpreterFor(root, tag)
		if py == "" {
			continue
		}
		cmd := exec.Command(py, append([]string{"-I", "-S", "-B", "-c", comparePy}, args...)...)
		cmd.Dir = root
		res, err := cmd.Output()
		if err != nil {
			continue
		}
		for _, pyc := range strings.Fields(string(res)) {
			for i := 0; i+1 < len(args); i += 2 {
				if args[i] == pyc {
					s, _ := filepath.Rel(root, args[i+1])
					p, _ := filepath.Rel(root, pyc)
					out = append(out, filepath.ToSlash(s)+" ("+filepath.ToSlash(p)+")")
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// loadable: Python would import pyc in place of the source fi: a hash
// .pyc (a checked one too: `--check-hash-based-pycs never` or
// `_imp.check_hash_based_pycs` stops the check, and comparing the code is
// the judge), or a timestamp one that matches.
func loadable(pyc string, fi os.FileInfo) bool {
	f, err := boundedread.Open(pyc)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 16)
	if n, _ := f.Read(b); n < 16 {
		return false
	}
	if flags := binary.LittleEndian.Uint32(b[4:]); flags&1 == 1 {
		return true // hash-based: unchecked, or checked unless the run said never
	}
	return binary.LittleEndian.Uint32(b[8:]) == uint32(fi.ModTime().Unix()) && binary.LittleEndian.Uint32(b[12:]) == uint32(fi.Size())
}

// interpreterFor finds the CPython a cache tag names (cpython-311:
// python3.11): the work tree's venv's, then PATH's; "" when none.
func interpreterFor(root, tag string) string {
	v, ok := strings.CutPrefix(tag, "cpython-3")
	if !ok || v == "" {
		return ""
	}
	name := "python3." + v
	for _, venv := range []string{".venv", "venv", "env"} {
		p := filepath.Join(root, venv, "bin", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	// tox's and nox's environments (an honest `tox -e py312` whose
	// python3.12 is on no PATH).
	for _, g := range []string{".tox", ".nox"} {
		if ps, _ := filepath.Glob(filepath.Join(root, g, "*", "bin", name)); len(ps) > 0 {
			return ps[0]
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	return ""
}

// BytecodeRedirected says how a command line keeps its bytecode where no
// check reads it, "" when it does not: `-X pycache_prefix=DIR` (the
// option form of PYTHONPYCACHEPREFIX, which gateenv refuses on a line), or
// a call after the tests that removes __pycache__ or .pyc files (what the
// run loaded is then gone before it is judged). Cleaning before the
// tests is honest.
func BytecodeRedirected(cmd string) string {
	calls, _, ok := shellline.Calls(shellline.Unwrap(cmd))
	if !ok {
		return ""
	}
	tested := false
	for _, c := range calls {
		w := shellline.StripWrappers(c.Words)
		for i, a := range w {
			if strings.HasPrefix(a, "-Xpycache_prefix") || a == "-X" && i+1 < len(w) && strings.HasPrefix(w[i+1], "pycache_prefix") {
				return "the run set -X pycache_prefix: Python loaded bytecode from a folder no check reads; run it without"
			}
		}
		line := strings.Join(w, " ")
		if tested && (strings.Contains(line, "__pycache__") || strings.Contains(line, ".pyc") || len(w) > 0 && (filepath.Base(w[0]) == "py3clean" || filepath.Base(w[0]) == "pyclean") ||
			len(w) > 2 && w[0] == "git" && w[1] == "clean") {
			return fmt.Sprintf("the line removes bytecode after the tests ran (%q): what they loaded is gone before it is checked; run the tests alone", truncate(line, 60))
		}
		if !tested && shellline.RunsTests(line) {
			tested = true
		}
	}
	return ""
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// pySourceDirs are the folders of the work tree's .py files git lists
// (tracked, and untracked ones not ignored), ok false outside a git work
// tree. Python loads a __pycache__ entry only for a source beside it, so
// these are the only folders whose bytecode a run reads; asking git costs
// nothing per file it does not list, where the walk below stopped at
// maxWalk entries (50,001 filler files in an ignored folder hid a planted
// .pyc: the final review of round 28).
func pySourceDirs(root string) ([]string, bool) {
	cmd := gitenv.Command(context.Background(), root, nil, "ls-files", "-z", "-co", "--exclude-standard", "--", "*.py")
	b, err := cmd.Output()
	if err != nil {
		return nil, false
	}
	seen := map[string]bool{}
	var dirs []string
	for _, f := range strings.Split(string(b), "\x00") {
		if f == "" {
			continue
		}
		d := filepath.Dir(filepath.Join(root, filepath.FromSlash(f)))
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs, true
}

// maxWalk bounds the entries pycachesSince visits outside a git work tree.
const maxWalk = 50000

// pycachesSince lists the .pyc files in __pycache__ folders of the work
// tree written at or after start. It does not descend into .git,
// node_modules or a virtual environment (a folder with pyvenv.cfg:
// venvtrust judges what is installed there).
func pycachesSince(root string, start time.Time) []string {
	if dirs, ok := pySourceDirs(root); ok {
		var out []string
		for _, d := range dirs {
			pycs, _ := filepath.Glob(filepath.Join(d, "__pycache__", "*.pyc"))
			for _, pyc := range pycs {
				if ct, err := ctime.Of(pyc); err == nil && !ct.Before(start.Truncate(time.Second)) {
					out = append(out, pyc)
				}
			}
		}
		return out
	}
	var out []string
	n := 0
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if n++; n > maxWalk {
			return filepath.SkipAll
		}
		if err != nil || !d.IsDir() {
			return nil
		}
		switch d.Name() {
		case ".git", "node_modules":
			return filepath.SkipDir
		case "__pycache__":
			pycs, _ := filepath.Glob(filepath.Join(p, "*.pyc"))
			for _, pyc := range pycs {
				// The change time: Python reads the header, not the
				// file's mtime, which `touch -d 2020-01-01` sets back
				// (review 28 c10); the change time cannot be.
				if ct, err := ctime.Of(pyc); err == nil && !ct.Before(start.Truncate(time.Second)) {
					out = append(out, pyc)
				}
			}
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(p, "pyvenv.cfg")); err == nil && p != root {
			return filepath.SkipDir
		}
		return nil
	})
	return out
}

// changedDir: d holds a .py file the session changed (all its bytecode
// is judged, whatever its age).
func changedDir(root string, changed []string, d string) bool {
	for _, f := range changed {
		if strings.HasSuffix(f, ".py") && filepath.Dir(filepath.Join(root, filepath.FromSlash(f))) == d {
			return true
		}
	}
	return false
}
