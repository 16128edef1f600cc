package testrun

import (
	"go/parser"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Verify's rerun guard judged skips with a regexp of its own: any skip
// marker a session committed failed CI unless a person signed, an honest
// `t.Skip` without a database URL in a new test included, while the local
// QA gate (SkipsAddedIn) passed it: the session ended clean and CI failed
// it (issue 25, round 19). SkipsAddedRange gives verify the local rule's
// own judgement over two commits instead of a work tree.

// RangeFile is a file as a range of commits left it: Was its content at
// the base (Existed false: the base had no such file), Now at the tip
// (nil: the range deleted it).
type RangeFile struct {
	Path    string
	Existed bool
	Was     []byte
	Now     []byte
}

// SkipsAddedRange lists, by path, the skips the range's change added to
// its test files, as SkipsAddedIn words them ("adds `line`: why"). changed
// are the files the range changed that FileKind or PyImportedByDiscovery
// reads, and its changed Go and Python source files (their skipping
// helpers count); pkg holds, at the tip, the other Go files of the
// packages of the changed Go test files. env is the environment of the
// run that matters (nil: this process's); it decides conditions only in
// tests that ran at the base, as locally. py is the tip's Python layout
// (TreePyLayout; nil: unknown), which says whose module a test file's
// top-level replacement stubs. Removed tests are not listed here (the
// caller reads them).
func SkipsAddedRange(changed []RangeFile, pkg map[string][]byte, env LookupEnv, py *PyLayout) map[string][]string {
	return SkipsAddedRangeHelpers(changed, pkg, nil, env, py)
}

// SkipsAddedRangeHelpers is SkipsAddedRange that also reads helperPkgs: the
// tip's non-test Go files of the repository's packages the changed Go
// test files import, unchanged in the range (lazy pass 27, c3: a new
// call of the team's helper that swaps the seam). They are read only for
// a seam swap, not for skipping helpers.
func SkipsAddedRangeHelpers(changed []RangeFile, pkg, helperPkgs map[string][]byte, env LookupEnv, py *PyLayout) map[string][]string {
	helperPkg := pkg
	if len(helperPkgs) > 0 {
		helperPkg = map[string][]byte{}
		for p, b := range helperPkgs {
			helperPkg[p] = b
		}
		for p, b := range pkg {
			helperPkg[p] = b
		}
	}
	helpers := map[string]map[string]bool{}
	addHelpers := func(f string, b []byte) {
		k := sourceKind(f)
		if (k != "go" && k != "py") || SkippedDir(f) || b == nil {
			return
		}
		for h := range skipHelpers(k, b) {
			if helpers[k] == nil {
				helpers[k] = map[string]bool{}
			}
			helpers[k][h] = true
		}
	}
	sets := map[string]string{}
	for _, f := range changed {
		addHelpers(f.Path, f.Now)
		if f.Now != nil && (FileKind(f.Path) != "" || PyImportedByDiscovery(f.Path)) {
			for n, v := range EnvSetsAdded(f.Was, f.Now) {
				sets[n] = v
			}
		}
	}
	paths := make([]string, 0, len(pkg))
	for p := range pkg {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if path.Ext(p) == ".go" {
			addHelpers(p, pkg[p])
		}
	}
	out := map[string][]string{}
	var pys []string
	added := map[string]bool{}
	for _, f := range changed {
		if f.Now != nil && path.Ext(f.Path) == ".py" {
			pys = append(pys, f.Path)
			added[f.Path] = !f.Existed
		}
	}
	var inPackage func(string) bool
	if py != nil && py.File != nil {
		inPackage = func(dir string) bool { return dir != "." && py.File(path.Join(dir, "__init__.py")) }
	}
	shadows := pyShadowsIn(pys, added, nil, inPackage)
	var hfiles []harnessFile
	for _, f := range changed {
		if harnessLang(f.Path) || harnessConfig(f.Path) {
			hf := harnessFile{path: f.Path, was: f.Was, now: f.Now}
			if !f.Existed {
				hf.was = nil
			}
			hfiles = append(hfiles, hf)
		}
	}
	hscan := newHarnessScan(hfiles)
	for _, f := range changed {
		if f.Now == nil {
			continue // deleted: no skip added
		}
		if why := pyRunnerShadow(f.Path); why != "" && !f.Existed {
			out[f.Path] = append(out[f.Path], why)
		} else if why := pyStdlibShadow(f.Path); why != "" && !f.Existed {
			out[f.Path] = append(out[f.Path], why)
		} else if py != nil {
			if why := pyRootdirShadow(f.Path, !f.Existed, py.File); why != "" {
				out[f.Path] = append(out[f.Path], why)
			}
		}
		if path.Ext(f.Path) == ".py" {
			was := f.Was
			if !f.Existed {
				was = nil
			}
			if why := pyRunSubverted(f.Path, was, f.Now); why != "" {
				out[f.Path] = append(out[f.Path], why)
			}
		}
		if jsSource(f.Path) {
			was := f.Was
			if !f.Existed {
				was = nil
			}
			if why := jsRunSubverted(f.Path, was, f.Now); why != "" {
				out[f.Path] = append(out[f.Path], why)
			}
		}
		if hscan.reads(f.Path) {
			was := f.Was
			if !f.Existed {
				was = nil
			}
			if why := harnessDetect(f.Path, was, f.Now, hscan); why != "" {
				out[f.Path] = append(out[f.Path], why)
			}
		}
		k := FileKind(f.Path)
		if k == "py" || k == "conftest" || k == "" && PyImportedByDiscovery(f.Path) {
			was := f.Was
			if !f.Existed {
				was = nil
			}
			if why := pyPathShadows(f.Path, was, f.Now, shadows); why != "" {
				out[f.Path] = append(out[f.Path], why)
			}
		}
		if why := pyIniPathShadows(f.Path, f.Was, f.Now, shadows); why != "" {
			out[f.Path] = append(out[f.Path], why)
		}
		if k == "" && PyImportedByDiscovery(f.Path) {
			if why := pyExitAdded(f.Was, f.Now); why != "" {
				out[f.Path] = append(out[f.Path], why)
			}
			if why := pyCodeReplaced(f.Path, f.Was, f.Now, py); why != "" {
				out[f.Path] = append(out[f.Path], why)
			}
			continue
		}
		if k == "" {
			continue
		}
		was := f.Was
		if !f.Existed {
			was = nil
		}
		out[f.Path] = append(out[f.Path], skipsIn(k, was, f.Now, f.Existed, helpers[sourceKind(f.Path)], sets, env)...)
		if k == "py" || k == "conftest" {
			if why := pyCodeReplaced(f.Path, was, f.Now, py); why != "" {
				out[f.Path] = append(out[f.Path], why)
			}
		}
		if k == "go" {
			src := func() map[string][]byte { // the package's files at the tip
				m := map[string][]byte{}
				for p, b := range pkg {
					if path.Dir(p) == path.Dir(f.Path) {
						m[p] = b
					}
				}
				for _, g := range changed {
					if path.Dir(g.Path) == path.Dir(f.Path) && g.Now != nil {
						m[g.Path] = g.Now
					}
				}
				return m
			}
			if why := goCodeReplacedWith(was, f.Now, src, rangeGoHelperSrc(changed, helperPkg)); why != "" {
				out[f.Path] = append(out[f.Path], why)
			}
		}
		if k == "js" {
			if why := jsSelfMocked(f.Path, was, f.Now); why != "" {
				out[f.Path] = append(out[f.Path], why)
			}
		}
		if len(out[f.Path]) == 0 {
			delete(out, f.Path)
		}
	}
	return out
}

// RangeReads reports whether the range judgement reads file f: a test
// file, a test folder's __init__.py, a Go or Python source file (its
// skipping helpers), or a runner's config (the variables it sets for the
// tests: harnessConfig).
func RangeReads(f string) bool {
	if FileKind(f) != "" || PyImportedByDiscovery(f) || harnessLang(f) && !SkippedDir(f) || harnessConfig(f) {
		return true
	}
	k := sourceKind(f)
	if k == "py" && !strings.HasSuffix(f, "/") && !pyInstalledDir(f) {
		// A vendored copy of a project module (vendor/greet.py) is what a
		// sys.path line can put first (lazy pass 25): read it too.
		return true
	}
	return (k == "go" || k == "py") && !SkippedDir(f) && !strings.HasSuffix(f, "/")
}

// pyInstalledDir reports whether f lies in a folder of installed packages
// (a virtualenv, site-packages, node_modules), which no session writes.
func pyInstalledDir(f string) bool {
	for _, d := range strings.Split(path.Dir(f), "/") {
		switch d {
		case "node_modules", ".venv", "venv", "site-packages", ".tox", ".git":
			return true
		}
	}
	return false
}

// RangeShadowDirs are the folders where the range added a second copy of
// a module it also changed elsewhere (read as SkipsAddedRange reads them):
// verify then reads the tip's test files and pytest configs the range did
// not change for a line that puts one first (RangeUnchangedShadows).
// py is the tip's layout, or nil.
func RangeShadowDirs(changed []RangeFile, py *PyLayout) []string {
	pys, shadows := rangeShadows(changed, py)
	return pyShadowDirs(pys, shadows)
}

// RangeUnchangedShadows judges the tip's unchanged files (path to
// content; PyPathHolder names which to read) as the local gate does: a
// sys.path line or `pythonpath` there that puts first a folder the range
// added a copy of a project module to.
func RangeUnchangedShadows(changed []RangeFile, py *PyLayout, files map[string][]byte) map[string]string {
	_, shadows := rangeShadows(changed, py)
	return pyUnchangedShadows(files, shadows)
}

// PyPathHolder reports whether f can put a folder first on sys.path before
// the tests import the project (a test module, conftest.py, a test
// folder's __init__.py, a pytest config).
func PyPathHolder(f string) bool { return pyPathHolder(f) }

func rangeShadows(changed []RangeFile, py *PyLayout) ([]string, func(string) []string) {
	var pys []string
	added := map[string]bool{}
	for _, f := range changed {
		if f.Now != nil && path.Ext(f.Path) == ".py" {
			pys = append(pys, f.Path)
			added[f.Path] = !f.Existed
		}
	}
	var inPackage func(string) bool
	if py != nil && py.File != nil {
		inPackage = func(dir string) bool { return dir != "." && py.File(path.Join(dir, "__init__.py")) }
	}
	return pys, pyShadowsIn(pys, added, nil, inPackage)
}

// GoImports lists the non-standard import paths of a Go file (its first
// element holds a dot), nil when it does not parse.
func GoImports(src []byte) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, parser.ImportsOnly)
	if err != nil {
		return nil
	}
	var out []string
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if first, _, _ := strings.Cut(p, "/"); err == nil && strings.Contains(first, ".") {
			out = append(out, p)
		}
	}
	return out
}

// GoPkgDir is the folder of the repository's package an import path
// names (the longest tail of it that isPkg accepts), "" when none.
func GoPkgDir(importPath string, isPkg func(dir string) bool) string {
	return goPkgDir(importPath, isPkg)
}

// GoHelperDepth is how many packages away a helper's seam swap is looked for.
const GoHelperDepth = goHelperDepth

// rangeGoHelperSrc is goHelperSrc over a range: the tip's files are the
// changed ones and pkg's, the base's the changed ones as they were and
// pkg's others (unchanged).
func rangeGoHelperSrc(changed []RangeFile, pkg map[string][]byte) goHelperSrc {
	return func(importPath string, atStart bool) map[string][]byte {
		dir := goPkgDir(importPath, func(d string) bool {
			for _, f := range changed {
				if path.Dir(f.Path) == d && path.Ext(f.Path) == ".go" && f.Now != nil {
					return true
				}
			}
			for p := range pkg {
				if path.Dir(p) == d && path.Ext(p) == ".go" {
					return true
				}
			}
			return false
		})
		if dir == "" {
			return nil
		}
		out := map[string][]byte{}
		for p, b := range pkg {
			if path.Dir(p) == dir {
				out[p] = b
			}
		}
		for _, f := range changed {
			if path.Dir(f.Path) != dir || path.Ext(f.Path) != ".go" {
				continue
			}
			delete(out, f.Path)
			switch {
			case !atStart && f.Now != nil:
				out[f.Path] = f.Now
			case atStart && f.Existed:
				out[f.Path] = f.Was
			}
		}
		return out
	}
}
