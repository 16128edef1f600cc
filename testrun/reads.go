package testrun

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
)

// Runner families and the files each reads on its own.
var (
	goReads = func(f string) bool {
		b := path.Base(f)
		return strings.HasSuffix(b, ".go") || b == "go.mod" || b == "go.sum" || strings.HasPrefix(b, "go.work") ||
			strings.Contains("/"+f, "/testdata/")
	}
	pyReads = func(f string) bool {
		b := path.Base(f)
		switch b {
		case "pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml", "setup.py", "noxfile.py":
			return true
		}
		return strings.HasSuffix(b, ".py") || strings.HasSuffix(b, ".pth") || strings.HasSuffix(b, ".pyi")
	}
	jsReads = func(f string) bool {
		b := path.Base(f)
		for _, ext := range []string{".js", ".cjs", ".mjs", ".ts", ".cts", ".mts", ".jsx", ".tsx", ".json", ".snap"} {
			if strings.HasSuffix(b, ext) {
				return true
			}
		}
		return b == ".npmrc" || strings.HasPrefix(b, ".mocharc") || strings.HasPrefix(b, ".babelrc") || b == ".yarnrc" || b == ".yarnrc.yml"
	}
	otherReads = func(f string) bool {
		b := path.Base(f)
		for _, ext := range []string{".sh", ".bash", ".rb", ".rs", ".java", ".kt", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".php", ".mk", ".bats"} {
			if strings.HasSuffix(b, ext) {
				return true
			}
		}
		return b == "Makefile" || b == "GNUmakefile" || b == "makefile" || b == "Cargo.toml" || b == "Gemfile" || b == "Rakefile"
	}
)

// RunnerReads returns the predicate of the files a command line's runners
// read: by its programs (go; pytest and python; npm, node and their test
// runners), else every family (make, a script, an unknown program).
func RunnerReads(line string) func(string) bool {
	var fams []func(string) bool
	known := true
	for _, k := range shellline.Keys(line) {
		prog, _, _ := strings.Cut(k, " ")
		switch path.Base(prog) {
		case "go", "gotestsum":
			fams = append(fams, goReads)
		case "pytest", "python", "python3", "py.test", "tox", "nox", "uv", "poetry", "hatch", "pdm":
			fams = append(fams, pyReads)
		case "npm", "npx", "node", "yarn", "pnpm", "bun", "deno", "jest", "vitest", "mocha", "tsx", "ts-node":
			fams = append(fams, jsReads)
		case "cd", "echo", "true", "set", "export":
		default:
			known = false
		}
	}
	if !known || len(fams) == 0 {
		fams = []func(string) bool{goReads, pyReads, jsReads, otherReads}
	}
	return func(f string) bool {
		for _, r := range fams {
			if r(f) {
				return true
			}
		}
		return false
	}
}

// runnerSources returns the predicate of the source files a command
// line's runners load (a module, a script, a test file), by the same
// families as RunnerReads but without their configuration names
// (pyproject.toml, package.json): a folder of source is one these name.
func runnerSources(line string) func(string) bool {
	srcExt := func(exts ...string) func(string) bool {
		return func(f string) bool {
			b := path.Base(f)
			for _, e := range exts {
				if strings.HasSuffix(b, e) {
					return true
				}
			}
			return false
		}
	}
	var (
		goSrc    = srcExt(".go")
		pySrc    = srcExt(".py")
		jsSrc    = srcExt(".js", ".cjs", ".mjs", ".ts", ".cts", ".mts", ".jsx", ".tsx")
		otherSrc = srcExt(".sh", ".bash", ".rb", ".rs", ".java", ".kt", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".php", ".bats")
	)
	var fams []func(string) bool
	known := true
	for _, k := range shellline.Keys(line) {
		prog, _, _ := strings.Cut(k, " ")
		switch path.Base(prog) {
		case "go", "gotestsum":
			// GoDataFile is go's rule (a folder of .go source).
		case "pytest", "python", "python3", "py.test", "tox", "nox", "uv", "poetry", "hatch", "pdm":
			fams = append(fams, pySrc)
		case "npm", "npx", "node", "yarn", "pnpm", "bun", "deno", "jest", "vitest", "mocha", "tsx", "ts-node":
			fams = append(fams, jsSrc)
		case "cd", "echo", "true", "set", "export":
		default:
			known = false
		}
	}
	if !known {
		fams = []func(string) bool{goSrc, pySrc, jsSrc, otherSrc}
	}
	return func(f string) bool {
		for _, r := range fams {
			if r(f) {
				return true
			}
		}
		return false
	}
}

// RunnerDataFile reports whether a run of line may read rel at run time
// though no runner loads it by name (RunnerReads): data in a folder that
// holds source the line's runners load, or below one (a Python package's
// greetings.json, the greeting.txt a script cats, a fixture beside a
// test), that no path element hides (a dot file or folder: .agents/,
// .github/), and an executable file anywhere but a dot path (a program
// named bin/greet). GoDataFile is go test's own rule. Lazy-agent pass 30: with
// QA proven by the agent's own run (no QA command to run again at the
// end), the data greet.sh prints, changed and committed after the passing
// run, was compared on the runners' file names only, so the run still
// counted (TestAdvLazy30DataAfterQA).
func RunnerDataFile(line, root, rel string) bool { return RunnerDataFiles(line, root)(rel) }

// RunnerDataFiles is RunnerDataFile for many files of one run: the line is
// parsed once and each folder read once (a run's tree compared with the
// commit may differ in thousands of files, each walking up to the root).
func RunnerDataFiles(line, root string) func(rel string) bool {
	src := runnerSources(line)
	holds := map[string]bool{} // folder -> holds a runner's source
	dirHolds := func(dir string) bool {
		if h, ok := holds[dir]; ok {
			return h
		}
		h := false
		if ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir))); err == nil {
			h = slices.ContainsFunc(ents, func(e os.DirEntry) bool { return !e.IsDir() && src(e.Name()) })
		}
		holds[dir] = h
		return h
	}
	return func(rel string) bool {
		for _, el := range strings.Split(rel, "/") {
			if strings.HasPrefix(el, ".") {
				return false
			}
		}
		// A program the tests may run by its path (bin/greet, no suffix):
		// the executable bit says it runs, wherever it lies.
		if fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel))); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return true
		}
		for dir := path.Dir(rel); ; dir = path.Dir(dir) {
			if dirHolds(dir) {
				return true
			}
			if dir == "." || dir == "/" {
				return false
			}
		}
	}
}
