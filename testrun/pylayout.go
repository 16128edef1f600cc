package testrun

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// PyLayout says which top-level Python modules are the project's own, so
// that a test's top-level stub of a third-party module (`boto3.client =
// MagicMock()`, `sys.modules["requests"] = fake`, for an offline run) is
// not read as replacing the code under test (pyCodeReplaced). The local
// gate reads it from the work tree (LocalPyLayout), verify from the tip's
// tree (TreePyLayout): both ask the same questions, so they agree.
type PyLayout struct {
	// File reports whether the repository holds the file rel (a slash path).
	File func(rel string) bool
	// PyDir reports whether the folder rel holds a .py file, at any depth.
	PyDir func(rel string) bool
	// Names are the project's own names from pyproject.toml, setup.cfg
	// and setup.py, normalised (lower case, '-' and '.' as '_').
	Names map[string]bool
	// Anywhere reports whether a module or package of that name is
	// anywhere in the repository (a NAME.py, or a folder NAME holding .py
	// files), outside virtualenvs, node_modules and vendored third-party
	// folders: code put on sys.path from an odd folder (`sys.path.insert(0,
	// "pkgs")`) is the project's too. nil: not asked.
	Anywhere func(top string) bool
}

// pyLayoutRoots are the folders a project's importable code sits in
// besides the test file's own folder and its parents.
var pyLayoutRoots = []string{"", "src", "lib", "python"}

// owns reports whether the top-level module top is the project's: a
// module or package of that name at the root, under src/, lib/ or
// python/, or beside the test file or in one of its parent folders
// (pytest's rootdir-relative imports), or the project's own name. A nil
// layout (nothing known) reads every module but the clients tests
// commonly stub as the project's, as before round 24.
func (l *PyLayout) owns(top, testFile string) bool {
	if l == nil {
		return !pyClientModules[top]
	}
	if l.Names[strings.ToLower(top)] {
		return true
	}
	dirs := append([]string(nil), pyLayoutRoots...)
	for d := path.Dir(testFile); d != "." && d != "/" && d != ""; d = path.Dir(d) {
		dirs = append(dirs, d)
	}
	for _, d := range dirs {
		p := path.Join(d, top)
		if l.File(p+".py") || l.File(p+"/__init__.py") || l.PyDir(p) {
			return true
		}
	}
	return l.Anywhere != nil && l.Anywhere(top)
}

// pyModNames adds to mods the module names a .py file's path gives: its
// stem and each folder above it (a package), unless the path is under a
// folder that holds installed or vendored code.
func pyModNames(mods map[string]bool, rel string) {
	if !strings.HasSuffix(rel, ".py") {
		return
	}
	parts := strings.Split(rel, "/")
	for _, d := range parts[:len(parts)-1] {
		if pySkippedDir(d) {
			return
		}
	}
	mods[strings.TrimSuffix(parts[len(parts)-1], ".py")] = true
	for _, d := range parts[:len(parts)-1] {
		mods[d] = true
	}
}

// pyClientModules are third-party clients tests stub offline; read as
// not the project's only when the layout is unknown.
var pyClientModules = map[string]bool{"requests": true, "httpx": true, "urllib3": true, "boto3": true, "botocore": true, "aiohttp": true}

// LocalPyLayout reads the layout from the work tree at root.
func LocalPyLayout(root string) *PyLayout {
	// The whole tree is walked only when a candidate is not found in the
	// usual places, once, and to at most 50,000 entries.
	anywhere := sync.OnceValue(func() map[string]bool {
		mods := map[string]bool{}
		seen := 0
		stop := errors.New("stop")
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if seen++; seen > 50000 {
				return stop
			}
			if d.IsDir() && p != root && (pySkippedDir(d.Name()) || d.Name() == ".git") {
				return filepath.SkipDir
			}
			if rel, err := filepath.Rel(root, p); err == nil && !d.IsDir() {
				pyModNames(mods, filepath.ToSlash(rel))
			}
			return nil
		})
		return mods
	})
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	read := func(rel string) []byte {
		b, err := boundedread.File(abs(rel), 1<<20)
		if err != nil {
			return nil
		}
		return b
	}
	return &PyLayout{
		File: func(rel string) bool {
			fi, err := os.Stat(abs(rel))
			return err == nil && fi.Mode().IsRegular()
		},
		PyDir: func(rel string) bool {
			found, seen := false, 0
			stop := errors.New("stop")
			_ = filepath.WalkDir(abs(rel), func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if seen++; seen > 5000 {
					return stop // a folder this big is not a module we would miss
				}
				if d.IsDir() && pySkippedDir(d.Name()) && p != abs(rel) {
					return filepath.SkipDir
				}
				if !d.IsDir() && strings.HasSuffix(d.Name(), ".py") {
					found = true
					return stop
				}
				return nil
			})
			return found
		},
		Names:    PyProjectNames(read("pyproject.toml"), read("setup.cfg"), read("setup.py")),
		Anywhere: func(top string) bool { return anywhere()[top] },
	}
}

// TreePyLayout reads the layout from a commit's file list; meta holds
// that commit's pyproject.toml, setup.cfg and setup.py (missing: nil).
func TreePyLayout(files []string, meta map[string][]byte) *PyLayout {
	has := map[string]bool{}
	pyDirs := map[string]bool{}
	mods := map[string]bool{}
	for _, f := range files {
		has[f] = true
		pyModNames(mods, f)
		if !strings.HasSuffix(f, ".py") {
			continue
		}
		for d := path.Dir(f); d != "." && d != "/"; d = path.Dir(d) {
			if pyDirs[d] {
				break
			}
			pyDirs[d] = true
		}
	}
	return &PyLayout{
		File:     func(rel string) bool { return has[rel] },
		PyDir:    func(rel string) bool { return pyDirs[rel] },
		Names:    PyProjectNames(meta["pyproject.toml"], meta["setup.cfg"], meta["setup.py"]),
		Anywhere: func(top string) bool { return mods[top] },
	}
}

// PyLayoutFiles are the files TreePyLayout reads for the project's names.
var PyLayoutFiles = []string{"pyproject.toml", "setup.cfg", "setup.py"}

func pySkippedDir(n string) bool {
	switch n {
	case ".git", ".venv", "venv", "env", "node_modules", "site-packages", "dist-packages", "__pycache__", ".tox", ".nox",
		"vendor", "_vendor", "third_party", "thirdparty", "external", "build", "dist":
		return true
	}
	return false
}

// PyProjectNames are the project's names: [project] or [tool.poetry]
// name in pyproject.toml, [metadata] name in setup.cfg, setup(name=...)
// in setup.py; normalised as an import name.
func PyProjectNames(pyproject, setupCfg, setupPy []byte) map[string]bool {
	re := pyNameREs()
	out := map[string]bool{}
	add := func(n string) {
		n = strings.NewReplacer("-", "_", ".", "_").Replace(strings.ToLower(strings.TrimSpace(n)))
		if n != "" {
			out[n] = true
		}
	}
	section := func(b []byte, want map[string]bool, key *regexp.Regexp) {
		cur := ""
		for _, l := range strings.Split(string(b), "\n") {
			l = strings.TrimSpace(l)
			if m := re.section.FindStringSubmatch(l); m != nil {
				cur = strings.TrimSpace(m[1])
				continue
			}
			if want[cur] {
				if m := key.FindStringSubmatch(l); m != nil {
					add(m[1])
				}
			}
		}
	}
	section(pyproject, map[string]bool{"project": true, "tool.poetry": true, "tool.flit.metadata": true}, re.tomlName)
	section(setupCfg, map[string]bool{"metadata": true}, re.cfgName)
	for _, m := range re.setupPy.FindAllStringSubmatch(string(setupPy), -1) {
		add(m[1])
	}
	return out
}

type pyNameRE struct{ section, tomlName, cfgName, setupPy *regexp.Regexp }

var pyNameREs = sync.OnceValue(func() pyNameRE {
	return pyNameRE{
		section:  regexp.MustCompile(`^\[\s*([^\]]+)\]\s*$`),
		tomlName: regexp.MustCompile(`^name\s*=\s*["']([^"']+)["']`),
		cfgName:  regexp.MustCompile(`^name\s*[=:]\s*([\w.\-]+)\s*$`),
		setupPy:  regexp.MustCompile(`\bname\s*=\s*["']([\w.\-]+)["']`),
	}
})
