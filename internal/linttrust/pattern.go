package linttrust

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"

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
// above, each once.
func Linters(root, line string) []Linter {
	calls, _, ok := shellline.Calls(line)
	if !ok {
		return nil
	}
	var locked map[string]string
	var out []Linter
	for _, c := range calls {
		prog := Program(shellline.StripWrappers(c.Words))
		if prog == "" {
			continue
		}
		pkg := knownLinters[prog]
		if pkg == "" {
			if locked == nil {
				locked = lockedBins(root)
			}
			pkg = locked[prog]
		}
		if pkg == "" {
			continue
		}
		dup := false
		for _, l := range out {
			dup = dup || l.Program == prog
		}
		if !dup {
			out = append(out, Linter{Program: prog, Package: pkg})
		}
	}
	return out
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
	b, err := os.ReadFile(filepath.Join(root, "package-lock.json"))
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
