package linttrust

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/shellline"
)

// The pattern a gate command matches to have its linter checked: a call
// that runs an npm package's program from the project's install, as
//
//	npx [OPTIONS] PROGRAM[@VERSION] ...
//	npm exec [OPTIONS] [--] PROGRAM ...   (pnpm exec, yarn exec too)
//	[./]node_modules/.bin/PROGRAM ...
//
// where PROGRAM is a known npm linter (knownLinters) or any program the
// project's package-lock.json gives to a top-level package (a lock entry
// "node_modules/<pkg>" whose "bin" names it). Those are the programs an
// agent can replace with a stub under the gitignored node_modules; a
// program on PATH outside the project is not matched (the agent's shell
// could replace it too, but that is the machine, not the project).

// knownLinters maps a linter's program to its npm package, for projects
// whose package-lock.json does not say (or that have none).
var knownLinters = map[string]string{
	"markdownlint-cli2": "markdownlint-cli2",
	"markdownlint":      "markdownlint-cli",
	"eslint":            "eslint",
	"prettier":          "prettier",
	"stylelint":         "stylelint",
	"biome":             "@biomejs/biome",
	"tsc":               "typescript",
	"oxlint":            "oxlint",
	"cspell":            "cspell",
	"textlint":          "textlint",
}

// Linter is one npm program a gate command runs from the project.
type Linter struct {
	Program string // as in node_modules/.bin
	Package string // the npm package that provides it
}

// Linters lists the npm programs a command line runs by the pattern
// above, each once. A package script run by npm, pnpm or yarn (`npm test`,
// `npm run NAME`: what init picks for a project whose package.json has a
// test script) counts by what its package.json script runs, with its pre-
// and post- scripts: npm puts node_modules/.bin first on PATH there, so a
// bare `jest` or `checkit` is the project's install, and a stub written
// into it made `npm test` pass a broken change.
func Linters(root, line string) []Linter {
	var (
		locked map[string]string
		out    []Linter
		pkg    *packageScripts
	)
	add := func(prog string) {
		name := knownLinters[prog]
		if name == "" {
			if locked == nil {
				locked = lockedBins(root)
			}
			name = locked[prog]
		}
		if name == "" {
			return
		}
		for _, l := range out {
			if l.Program == prog {
				return
			}
		}
		out = append(out, Linter{Program: prog, Package: name})
	}
	var walk func(line string, inScript bool, depth int)
	walk = func(line string, inScript bool, depth int) {
		calls, _, ok := shellline.Calls(line)
		if !ok {
			return
		}
		for _, c := range calls {
			w := shellline.StripWrappers(c.Words)
			if prog := Program(w); prog != "" {
				add(prog)
				continue
			}
			if len(w) == 0 {
				continue
			}
			if inScript && !strings.Contains(w[0], "/") {
				add(w[0]) // npm's PATH: node_modules/.bin comes first
			}
			name := scriptName(w)
			if name == "" || depth >= maxScriptDepth {
				continue
			}
			if pkg == nil {
				pkg = readScripts(root)
			}
			for _, n := range []string{"pre" + name, name, "post" + name} {
				if body := pkg.Scripts[n]; body != "" {
					walk(body, true, depth+1)
				}
			}
		}
	}
	walk(line, false, 0)
	return out
}

// maxScriptDepth bounds scripts that run scripts (`"test": "npm run unit"`).
const maxScriptDepth = 4

// packageScripts is package.json's scripts.
type packageScripts struct {
	Scripts map[string]string `json:"scripts"`
}

// readScripts reads the project's package.json scripts (none when it has
// no readable one).
func readScripts(root string) *packageScripts {
	var p packageScripts
	if b, err := boundedread.File(filepath.Join(root, "package.json"), boundedread.DefaultLimit); err == nil {
		_ = json.Unmarshal(b, &p) // not JSON: no scripts, nothing to judge
	}
	return &p
}

// scriptName is the package.json script a package manager call runs, ""
// when it runs none: `npm test` (t, tst), `npm start|stop|restart`, `npm
// run|run-script NAME` (and npm's aliases), the same under pnpm and yarn,
// and yarn's or pnpm's `yarn NAME` for a name that is no command of theirs.
func scriptName(w []string) string {
	if len(w) < 2 {
		return ""
	}
	pm := path.Base(w[0])
	if pm != "npm" && pm != "pnpm" && pm != "yarn" {
		return ""
	}
	args := make([]string, 0, len(w)-1)
	for _, a := range w[1:] {
		if !strings.HasPrefix(a, "-") {
			args = append(args, a)
		}
	}
	if len(args) == 0 {
		return ""
	}
	switch args[0] {
	case "test", "t", "tst":
		return "test"
	case "start", "stop", "restart":
		return args[0]
	case "run", "run-script", "rum", "urn":
		if len(args) > 1 {
			return args[1]
		}
		return ""
	}
	if pm != "npm" && !pmCommands[args[0]] {
		return args[0] // yarn lint, pnpm lint
	}
	return ""
}

// pmCommands are pnpm's and yarn's own commands, which `yarn NAME` runs
// before a script of that name.
var pmCommands = map[string]bool{
	"add": true, "install": true, "i": true, "remove": true, "upgrade": true, "up": true, "update": true,
	"exec": true, "dlx": true, "init": true, "create": true, "link": true, "unlink": true, "pack": true,
	"publish": true, "why": true, "list": true, "ls": true, "outdated": true, "audit": true, "config": true,
	"cache": true, "bin": true, "info": true, "version": true, "workspace": true, "workspaces": true, "import": true,
}

// Program is the npm program a call's words (wrappers stripped) run by
// the pattern, "" when they run none.
func Program(w []string) string {
	if len(w) == 0 {
		return ""
	}
	switch first := w[0]; {
	case path.Base(first) == "npx":
		return firstWord(w[1:])
	case (first == "npm" || first == "pnpm" || first == "yarn") && len(w) > 1 && w[1] == "exec":
		return firstWord(w[2:])
	case strings.HasPrefix(path.Clean(first), "node_modules/.bin/"):
		return path.Base(first)
	}
	return ""
}

// firstWord is the program an npx or npm exec call names: its first word
// that is not an option (options that take a value are skipped with it).
func firstWord(w []string) string {
	for i := 0; i < len(w); i++ {
		switch a := w[i]; {
		case a == "--":
			continue
		case a == "-p" || a == "--package" || a == "-c" || a == "--call" || a == "-w" || a == "--workspace":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			// npx markdownlint-cli2@0.24.1: the program is before the version.
			if at := strings.LastIndex(a, "@"); at > 0 {
				a = a[:at]
			}
			return path.Base(a)
		}
	}
	return ""
}

// lockedBins maps each program of a top-level package of the project's
// package-lock.json (v2 and v3 list "bin" per package) to its package.
func lockedBins(root string) map[string]string {
	out := map[string]string{}
	b, err := boundedread.File(filepath.Join(root, "package-lock.json"), boundedread.LargeLimit)
	if err != nil {
		return out
	}
	var lock struct {
		Packages map[string]struct {
			Bin json.RawMessage `json:"bin"`
		} `json:"packages"`
	}
	if json.Unmarshal(b, &lock) != nil {
		return out
	}
	for k, p := range lock.Packages {
		name, ok := strings.CutPrefix(k, "node_modules/")
		if !ok || strings.Contains(name, "/node_modules/") || len(p.Bin) == 0 {
			continue
		}
		var bins map[string]string
		if json.Unmarshal(p.Bin, &bins) == nil {
			for prog := range bins {
				out[prog] = name
			}
		}
	}
	return out
}

// Bin is where the project's install puts a program (node_modules/.bin),
// "" when it is not there.
func Bin(root, program string) string {
	p := filepath.Join(root, "node_modules", ".bin", program)
	if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
		return p
	}
	return ""
}
