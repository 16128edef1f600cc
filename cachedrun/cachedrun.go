// Package cachedrun says why an observed test or lint run's pass may be
// an earlier run's. An observed run (the agent's own `go test`, `pytest`,
// `npx eslint`) ran in the agent's environment, where caches keyed by a
// file's mtime answer for files whose mtime the agent set back (`touch
// -r`): a gate's command is protected (GOFLAGS=-count=1,
// PYTHONPYCACHEPREFIX, the session's files set to now), an observed run is
// not. Why says why such a run's pass may be an earlier run's, "" when
// nothing shows it. The output is read here and not kept. It needs no
// session: the engine (session/observed.go) passes the work tree and the
// files the session changed.
package cachedrun

import (
	"encoding/binary"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/ctime"
	"github.com/sessiongate/sessiongate/scriptrun"
	"github.com/sessiongate/sessiongate/shellline"
)

// goCachedRe is a go test package line answered from the test cache, in
// plain output or -json (where the tab is written \t).
var goCachedRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(^|")ok(\s|\\t)+[^\s\\]+(\s|\\t)+\(cached\)`)
})

// Why: root is the work tree, changed the files the session changed,
// start the session's start (zero: no bytecode is judged by its age).
func Why(root string, changed []string, cmd string, out []byte, start time.Time) string {
	if goCachedRe().Match(out) {
		return "go test answered from its cache ((cached)): a cached result is an earlier run's, which a data file with its mtime set back also gets; run `go test -count=1`"
	}
	if why := LintCached(root, cmd, 0); why != "" {
		return why
	}
	if why := BuiltCopyTested(root, changed, cmd); why != "" {
		return why
	}
	if py := StalePycs(root, changed); len(py) > 0 {
		return fmt.Sprintf("Python may have run bytecode compiled before %s last changed (%s): remove __pycache__ and run again, or run it through `sessiongate run`", py[0], strings.Join(py, ", "))
	}
	if why := BytecodeRedirected(cmd); why != "" {
		return why
	}
	if py := PlantedPycs(root, changed, start); len(py) > 0 {
		return fmt.Sprintf("Python may have run bytecode not compiled from the source beside it: %s is not compiled from %s as it is; remove __pycache__ and run again, or run it through `sessiongate run`", strings.Join(py, ", "), strings.SplitN(py[0], " ", 2)[0])
	}
	return ""
}

// LintCached: eslint --cache and ruff (which caches unless told not to)
// skip a file whose cache entry matches its mtime and size (eslint's
// default strategy, ruff's key), and the cache file is in the work tree,
// where the agent can write one. Also behind `npm run lint` (yarn, pnpm,
// npm test and their pre/post scripts): the script, read from the work
// tree's package.json, adds --cache where the line shows none.
func LintCached(root, cmd string, depth int) string {
	if depth < 3 {
		for _, r := range scriptrun.Find(cmd) {
			if r.NpmScript == "" {
				continue
			}
			b, err := boundedread.File(filepath.Join(root, filepath.FromSlash(r.Path)), boundedread.LargeLimit)
			if err != nil || len(b) > scriptrun.MaxRead {
				continue
			}
			if why := LintCached(root, scriptrun.NpmScript(string(b), r.NpmScript), depth+1); why != "" {
				return fmt.Sprintf("%s (its %q script runs it): %s", strings.TrimSpace(r.Via), r.NpmScript, why)
			}
		}
	}
	for _, words := range shellline.Programs(cmd) {
		for i, w := range words {
			switch filepath.Base(w) {
			case "eslint":
				for _, a := range words[i+1:] {
					if a == "--cache" || strings.HasPrefix(a, "--cache=") && a != "--cache=false" {
						return "eslint ran with --cache: a file whose cache entry matches is not linted again; run it without --cache"
					}
				}
			case "ruff":
				rest := words[i+1:]
				if len(rest) == 0 || rest[0] != "check" && rest[0] != "format" {
					break // ruff version, ruff rule ...: no files linted
				}
				no := false
				for _, a := range rest {
					no = no || a == "--no-cache" || a == "-n"
				}
				if !no {
					return "ruff ran with its cache: a file whose cache entry matches its mtime is not checked again; run `ruff check --no-cache`"
				}
			}
		}
	}
	return ""
}

// StalePycs lists the session's .py files whose __pycache__ bytecode
// Python would load though it may predate them: one that checks nothing
// (an unchecked-hash .pyc), or one whose recorded mtime and size match
// the source while the bytecode was written before the source last
// changed. The change time (ctime) is the kernel's, which `touch -r`
// cannot set back; Python, seeing a source newer than what it recorded,
// writes fresh bytecode, so an honest run leaves none older than it.
func StalePycs(root string, changed []string) []string {
	var out []string
	for _, f := range changed {
		if !strings.HasSuffix(f, ".py") {
			continue
		}
		src := filepath.Join(root, filepath.FromSlash(f))
		fi, err := os.Stat(src)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		changedAt, err := ctime.Of(src)
		if err != nil {
			continue
		}
		stem := strings.TrimSuffix(filepath.Base(src), ".py")
		pycs, _ := filepath.Glob(filepath.Join(filepath.Dir(src), "__pycache__", globEscape(stem)+".*.pyc"))
		for _, pyc := range pycs {
			b := make([]byte, 16)
			pf, err := boundedread.Open(pyc)
			if err != nil {
				continue
			}
			n, _ := pf.Read(b)
			pi, serr := pf.Stat()
			pf.Close()
			if n < 16 || serr != nil {
				continue
			}
			flags := binary.LittleEndian.Uint32(b[4:])
			stale := false
			switch {
			case flags&1 == 1: // hash-based
				stale = flags&2 == 0 // unchecked: Python never looks at the source
			default: // timestamp-based: what Python compares
				same := binary.LittleEndian.Uint32(b[8:]) == uint32(fi.ModTime().Unix()) && binary.LittleEndian.Uint32(b[12:]) == uint32(fi.Size())
				stale = same && pi.ModTime().Before(changedAt)
			}
			if stale {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// PythonShadows lists the session's changed .py files Python does not
// import from their source: a package folder of the same name beside it
// (greet/__init__.py: Python looks for a package before a module, so
// one hidden in an ignored folder or a nested repository answered for a
// broken greet.py), an extension module beside it (greet.so,
// greet.cpython-311-x86_64-linux-gnu.so, greet.pyd) is imported first,
// and a deleted one still imports from a legacy greet.pyc beside it. A
// test of greet then tests the other file, built from whatever source.
func PythonShadows(root string, changed []string) []string {
	var out []string
	for _, f := range changed {
		if !strings.HasSuffix(f, ".py") {
			continue
		}
		dir := path.Dir(f)
		stem := strings.TrimSuffix(path.Base(f), ".py")
		abs := filepath.Join(root, filepath.FromSlash(dir))
		pats := []string{stem + ".so", stem + ".*.so", stem + ".pyd", stem + ".*.pyd"}
		_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f)))
		if err == nil {
			// A deleted greet.py beside a new greet/ package is a module
			// turned into a package, not a shadow.
			pats = append([]string{stem + "/__init__.py", stem + "/__init__.pyc", stem + "/__init__.so", stem + "/__init__.*.so"}, pats...)
		}
		var found []string
		for _, pat := range pats {
			m, _ := filepath.Glob(filepath.Join(abs, globEscape(pat[:len(stem)])+pat[len(stem):]))
			found = append(found, m...)
		}
		if os.IsNotExist(err) {
			if _, err := os.Lstat(filepath.Join(abs, stem+".pyc")); err == nil {
				found = append(found, filepath.Join(abs, stem+".pyc"))
			}
		}
		for _, m := range found {
			rel, _ := filepath.Rel(root, m)
			out = append(out, fmt.Sprintf("%s imports %s, not its source", f, filepath.ToSlash(rel)))
		}
	}
	return out
}

// globEscape quotes the glob metacharacters of a file name.
func globEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`)
	return r.Replace(s)
}

// builtDirs are the folders a JS build writes its output to.
var builtDirs = map[string]bool{"dist": true, "build": true, "out": true}

// Bounds of the walk for test files that import a build's output.
const (
	maxBuiltDirs  = 4000
	maxBuiltTests = 2000
)

// BuiltCopyTested: a test that requires '../dist/calc' tests the build
// output committed earlier, not the source the session changed
// (src/calc.js): the run passes whatever the change does. It counts when
// the session also rebuilt the output it imports. "" when no test of the
// work tree imports an output the session left as it was, or the session
// changed no JS source.
func BuiltCopyTested(root string, changed []string, cmd string) string {
	if !shellline.RunsTests(cmd) {
		return ""
	}
	changedSet := map[string]bool{}
	var src string
	for _, f := range changed {
		changedSet[f] = true
		if scriptrun.SuiteLang(f) == scriptrun.Node && !inBuilt(f) && src == "" && !isJSTest(f) {
			src = f
		}
	}
	if src == "" {
		return ""
	}
	var found string
	dirs, tests := 0, 0
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || found != "" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			dirs++
			n := d.Name()
			if p != root && (strings.HasPrefix(n, ".") || n == "node_modules" || builtDirs[n]) || dirs > maxBuiltDirs {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if !isJSTest(rel) || !d.Type().IsRegular() {
			return nil
		}
		if tests++; tests > maxBuiltTests {
			return filepath.SkipAll
		}
		b, err := boundedread.File(p, boundedread.DefaultLimit)
		if err != nil || len(b) > scriptrun.MaxRead {
			return nil
		}
		for _, spec := range scriptrun.NodeRequires(string(b)) {
			for _, c := range scriptrun.NodeFiles(spec) {
				t := path.Join(path.Dir(rel), c)
				if strings.HasPrefix(t, "../") || !inBuilt(t) {
					continue
				}
				if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(t))); err != nil || !st.Mode().IsRegular() {
					continue
				}
				if !changedSet[t] {
					found = fmt.Sprintf("%s imports %s, a build output the session did not rebuild, not the source it changed (%s): the test ran the earlier build; rebuild it in the command, or import the source", rel, t, src)
				}
				break
			}
		}
		return nil
	})
	return found
}

// inBuilt reports whether a slash path lies in a build output folder.
func inBuilt(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if builtDirs[part] {
			return true
		}
	}
	return false
}

// isJSTest reports whether a slash path is a JS test file by the runners'
// default patterns (x.test.js, x.spec.ts, __tests__/, test/).
func isJSTest(p string) bool {
	if scriptrun.SuiteLang(p) != scriptrun.Node {
		return false
	}
	base := strings.TrimSuffix(path.Base(p), path.Ext(p))
	return strings.HasSuffix(base, ".test") || strings.HasSuffix(base, ".spec") || strings.Contains("/"+p, "/__tests__/") || strings.HasPrefix(p, "test/") || strings.Contains(p, "/test/")
}
