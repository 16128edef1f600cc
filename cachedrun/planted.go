package cachedrun

import (
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

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

// PlantedPycs lists, as "SRC (PYC)", the bytecode in the __pycache__
// folders of the session's changed .py files that Python would load for
// a source beside it (an unchecked-hash .pyc, or a timestamp one whose
// recorded mtime and size match) but that is not compiled from that
// source. Bytecode for an interpreter this machine lacks is not judged.
func PlantedPycs(root string, changed []string) []string {
	dirs := map[string]bool{}
	for _, f := range changed {
		if strings.HasSuffix(f, ".py") {
			dirs[filepath.Dir(filepath.Join(root, filepath.FromSlash(f)))] = true
		}
	}
	byTag := map[string][]string{} // cache tag (cpython-311): pyc, src pairs
	for d := range dirs {
		pycs, _ := filepath.Glob(filepath.Join(d, "__pycache__", "*.pyc"))
		for _, pyc := range pycs {
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
// .pyc that checks nothing, or a timestamp one that matches. A checked
// hash .pyc is verified by Python itself.
func loadable(pyc string, fi os.FileInfo) bool {
	f, err := os.Open(pyc)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 16)
	if n, _ := f.Read(b); n < 16 {
		return false
	}
	flags := binary.LittleEndian.Uint32(b[4:])
	if flags&1 == 1 {
		return flags&2 == 0
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
