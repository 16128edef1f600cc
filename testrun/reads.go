package testrun

import (
	"path"
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
