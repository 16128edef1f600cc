package testrun

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// pyPathREs read a top-level statement that puts a folder first on
// sys.path: `sys.path.insert(0, X)`, `sys.path[:0] = [X]`,
// `sys.path[0:0] = ...`, `sys.path = [X] + sys.path`; and the string
// literals of X.
var pyPathREs = sync.OnceValue(func() [2]*regexp.Regexp {
	return [2]*regexp.Regexp{
		regexp.MustCompile(`^sys\.path\s*(?:\.insert\(\s*0\s*,(.*)\)|\[\s*0?\s*:\s*0\s*\]\s*=(.*)|=(.*)\+\s*sys\.path\b.*)$`),
		regexp.MustCompile(`["']([^"'\n]*)["']`),
	}
})

// pyPathShadows says how a test file now, in a top-level statement was
// did not have, puts first on sys.path a folder holding a copy of a
// project module, "" when it does not. shadows(dir) names the modules of
// dir the session added that the project also has elsewhere. Lazy pass
// 24: greet.py broken, fixed/greet.py committed beside it and
// `sys.path.insert(0, "fixed")` in tests/__init__.py; discovery imports
// the copy, COMPLETE, clean. Putting `src` first (the src layout) is
// honest: no module there is a second copy.
func pyPathShadows(file string, was, now []byte, shadows func(dir string) []string) string {
	old := map[string]bool{}
	for _, l := range strings.Split(string(was), "\n") {
		old[strings.TrimRight(l, " \t\r")] = true
	}
	re := pyPathREs()
	lines := strings.Split(string(now), "\n")
	// Round 24 review (c8): a folder named through a top-level variable
	// (`FIX = "fixed"` then `sys.path.insert(0, FIX)`), and a statement
	// under `if`/`try`/`with` or in a pytest hook that runs before
	// collection (`def pytest_configure(config):`), put it first too.
	vars := map[string]string{}
	for _, l := range lines {
		if name, val, ok := strings.Cut(l, "="); ok && l != "" && l[0] != ' ' && l[0] != '\t' {
			if name = strings.TrimSpace(name); pyIdentRE().FindString(name) == name && !strings.HasPrefix(val, "=") {
				vars[name] = val
			}
		}
	}
	type header struct {
		indent int
		line   string
	}
	var stack []header
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		body := strings.TrimLeft(l, " \t")
		if body == "" || strings.HasPrefix(body, "#") {
			continue
		}
		indent := len(l) - len(body)
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		runs := len(stack) == 0 || pyRunsAtImport(stack[0].line)
		if strings.HasSuffix(body, ":") {
			stack = append(stack, header{indent, body})
		}
		if old[l] || !runs {
			continue
		}
		for _, st := range pySplitTop(body, ';') {
			st = strings.TrimSpace(st)
			m := re[0].FindStringSubmatch(st)
			if m == nil {
				continue
			}
			arg := m[1] + m[2] + m[3]
			for _, w := range pyIdentRE().FindAllString(arg, -1) {
				if v, ok := vars[w]; ok {
					arg += " " + v
				}
			}
			base := "." // a bare folder is read from where the run starts: the root
			if strings.Contains(arg, "__file__") {
				base = path.Dir(file)
			}
			var parts []string
			for _, p := range re[1].FindAllStringSubmatch(arg, -1) {
				parts = append(parts, p[1])
			}
			if len(parts) == 0 {
				continue
			}
			dir := path.Join(append([]string{base}, parts...)...)
			if mods := shadows(dir); len(mods) > 0 {
				return "adds " + quoteShort(st) + " at the top level: it puts " + dir + "/ first on sys.path, whose " + strings.Join(mods, ", ") +
					" the session added beside the project's own, so the tests import that copy, not the project's code"
			}
		}
	}
	return ""
}

// pyIniPathShadows is pyPathShadows for pytest's own config: a
// `pythonpath = fixed` line (pytest 7+, in pytest.ini, tox.ini's
// [pytest], setup.cfg's [tool:pytest] or pyproject.toml's
// [tool.pytest.ini_options]) puts its folders first on sys.path before
// any test is imported (round 24 review, c8: the same copy, named there,
// was clean). "" when file is no such config or adds no such folder.
func pyIniPathShadows(file string, was, now []byte, shadows func(dir string) []string) string {
	switch path.Base(file) {
	case "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml":
	default:
		return ""
	}
	old := map[string]bool{}
	for _, l := range strings.Split(string(was), "\n") {
		old[strings.TrimSpace(l)] = true
	}
	lines := strings.Split(string(now), "\n")
	for i, l := range lines {
		key, val, ok := strings.Cut(strings.TrimSpace(l), "=")
		if !ok || strings.TrimSpace(key) != "pythonpath" {
			continue
		}
		vals := []string{val}
		for _, c := range lines[i+1:] { // an ini value goes on indented lines
			if c == "" || (c[0] != ' ' && c[0] != '\t') {
				break
			}
			vals = append(vals, c)
		}
		for _, v := range vals {
			if old[strings.TrimSpace(v)] && v != val || v == val && old[strings.TrimSpace(l)] {
				continue
			}
			var dirs []string
			if q := pyPathREs()[1].FindAllStringSubmatch(v, -1); len(q) > 0 {
				for _, m := range q {
					dirs = append(dirs, m[1])
				}
			} else {
				dirs = strings.Fields(v)
			}
			for _, d := range dirs {
				dir := path.Join(path.Dir(file), d)
				if mods := shadows(dir); len(mods) > 0 {
					return "adds `pythonpath` " + d + ": pytest puts " + dir + "/ first on sys.path, whose " + strings.Join(mods, ", ") +
						" the session added beside the project's own, so the tests import that copy, not the project's code"
				}
			}
		}
	}
	return ""
}

// pyIdentRE matches a Python name.
var pyIdentRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]*\b`) })

// pyRunsAtImport says whether a block under the top-level header h runs
// before the tests are collected: an if/try/with/for block does; a
// function only when it is a pytest hook run before collection; a class
// does not (its methods run later).
func pyRunsAtImport(h string) bool {
	name, ok := strings.CutPrefix(h, "def ")
	if !ok {
		name, ok = strings.CutPrefix(h, "async def ")
	}
	if !ok {
		return !strings.HasPrefix(h, "class ") && !strings.HasPrefix(h, "@")
	}
	name, _, _ = strings.Cut(name, "(")
	switch strings.TrimSpace(name) {
	case "pytest_configure", "pytest_sessionstart", "pytest_load_initial_conftests", "pytest_cmdline_main", "pytest_collection", "pytest_plugin_registered":
		return true
	}
	return false
}

// pyShadowsIn is pyPathShadows' shadows over a list of changed .py files
// (their paths; the session added the ones in added), a lookup of a
// module at the root (nil: none), and of a folder that is a package (nil:
// none is). A module inside a package (`mypkg/utils.py`) is imported as
// `mypkg.utils`, never as `utils`: a `tests/helpers/utils.py` put first
// on sys.path shadows nothing of it (round 24 second review: an honest
// helper folder beside an edited `mypkg/utils.py` read as a copy).
func pyShadowsIn(changed []string, added map[string]bool, atRoot, inPackage func(string) bool) func(dir string) []string {
	byName := map[string][]string{} // module name: folders holding it
	for _, f := range changed {
		if name, dir, ok := pyModule(f); ok {
			byName[name] = append(byName[name], dir)
		}
	}
	return func(dir string) []string {
		var out []string
		for _, f := range changed {
			name, d, ok := pyModule(f)
			if !ok || d != dir || !added[f] {
				continue
			}
			other := atRoot != nil && dir != "." && atRoot(name)
			for _, d2 := range byName[name] {
				other = other || d2 != dir && (inPackage == nil || !inPackage(d2))
			}
			if other {
				out = append(out, path.Base(f))
			}
		}
		return out
	}
}

// pyModule is a .py file's module name and folder (a package's
// __init__.py names its folder, one level up).
func pyModule(f string) (name, dir string, ok bool) {
	if path.Ext(f) != ".py" {
		return "", "", false
	}
	name, dir = strings.TrimSuffix(path.Base(f), ".py"), path.Dir(f)
	if name == "__init__" {
		name, dir = path.Base(dir), path.Dir(dir)
		if name == "." {
			return "", "", false
		}
	}
	return name, dir, true
}

// localPyShadows is pyPathShadows' shadows for a work tree: the changed
// .py files still there, added when the start commit lacks them, and a
// module at the root read from the disk. It asks git only when a
// sys.path line is read.
func localPyShadows(ctx context.Context, repo Repo, start string, changed []string) func(dir string) []string {
	var fn func(string) []string
	return func(dir string) []string {
		if fn == nil {
			var pys []string
			added := map[string]bool{}
			for _, f := range changed {
				if path.Ext(f) != ".py" {
					continue
				}
				if _, err := os.Stat(filepath.Join(repo.Root(), filepath.FromSlash(f))); err != nil {
					continue
				}
				pys = append(pys, f)
				if ok, err := repo.ExistsAt(ctx, start, f); err == nil && !ok {
					added[f] = true
				}
			}
			fn = pyShadowsIn(pys, added, func(mod string) bool {
				for _, p := range []string{mod + ".py", filepath.Join(mod, "__init__.py")} {
					if _, err := os.Stat(filepath.Join(repo.Root(), p)); err == nil {
						return true
					}
				}
				return false
			}, func(dir string) bool {
				_, err := os.Stat(filepath.Join(repo.Root(), filepath.FromSlash(dir), "__init__.py"))
				return dir != "." && err == nil
			})
		}
		return fn(dir)
	}
}

// pyIniShadowsAt is pyIniPathShadows for a work tree's changed file f
// (read from the disk and at the start commit); "" for any other file,
// which costs no read.
func pyIniShadowsAt(ctx context.Context, repo Repo, start, f string, shadows func(dir string) []string) string {
	switch path.Base(f) {
	case "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml":
	default:
		return ""
	}
	now, err := readWork(repo.Root(), f)
	if err != nil {
		return ""
	}
	var was []byte
	if ok, err := repo.ExistsAt(ctx, start, f); err == nil && ok {
		was, _ = repo.ReadAt(ctx, start, f)
	}
	return pyIniPathShadows(f, was, now, shadows)
}

// pyShadowDirs are the folders that hold a module the session added as a
// second copy of a project module (shadows says which): a test file that
// puts one of them first on sys.path runs the copy, whoever wrote that
// line.
func pyShadowDirs(pys []string, shadows func(dir string) []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range pys {
		_, dir, ok := pyModule(f)
		if !ok || seen[dir] {
			continue
		}
		seen[dir] = true
		if len(shadows(dir)) > 0 {
			out = append(out, dir)
		}
	}
	return out
}

// pyUnchangedShadows reads test files and pytest configs the session did
// not change (files: path to content) for a sys.path line, or a
// `pythonpath`, that puts first a folder the session added a copy of a
// project module to. Lazy pass 25: the team's tests/__init__.py put
// vendor/ first for a vendored library; the agent committed a broken
// greet.py and a working vendor/greet.py, changed no test file, and ended
// COMPLETE, clean, verify passing. Vendoring a new library there is
// honest: no project module has its name.
func pyUnchangedShadows(files map[string][]byte, shadows func(dir string) []string) map[string]string {
	out := map[string]string{}
	for f, now := range files {
		why := ""
		if PyImportedByDiscovery(f) {
			why = pyPathShadows(f, nil, now, shadows)
		}
		if why == "" {
			why = pyIniPathShadows(f, nil, now, shadows)
		}
		if why != "" {
			out[f] = "unchanged, " + strings.Replace(why, "adds ", "holds ", 1)
		}
	}
	return out
}

// pyPathHolder reports whether f is a file that can put a folder first on
// sys.path before the tests import the project: a test module, conftest.py,
// a test folder's __init__.py, or a pytest config.
func pyPathHolder(f string) bool {
	switch path.Base(f) {
	case "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml":
		return true
	}
	return PyImportedByDiscovery(f)
}

// localUnchangedShadows is pyUnchangedShadows over the work tree: it walks
// it only when the session added a shadowing copy, skipping what SkippedDir skips and dot folders.
func localUnchangedShadows(root string, changed []string, shadows func(dir string) []string) []string {
	if len(pyShadowDirs(changed, shadows)) == 0 {
		return nil
	}
	skip := map[string]bool{}
	for _, f := range changed {
		skip[f] = true
	}
	files := map[string][]byte{}
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || SkippedDir(rel+"/x")) {
				return filepath.SkipDir
			}
			return nil
		}
		if skip[rel] || !pyPathHolder(rel) || !d.Type().IsRegular() {
			return nil
		}
		if b, err := boundedread.File(p, maxInput); err == nil {
			files[rel] = b
		}
		return nil
	})
	var out []string
	for f, why := range pyUnchangedShadows(files, shadows) {
		out = append(out, f+": "+why)
	}
	sort.Strings(out)
	return out
}
