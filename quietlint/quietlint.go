// Package quietlint says when an observed run of a linter that exited 0
// checked nothing: it was given only paths and globs that match no file
// (`eslint --no-error-on-unmatched-pattern 'nomatch/**'` prints nothing and
// exits 0, as a clean run of real files does), or its own summary says so
// (markdownlint-cli2's "Linting: 0 file(s)", ruff's "No Python files
// found", eslint's "File ignored" for every file; cmdoutput reads those).
// Such a run is no evidence for "lint the changed files" (issue 25, round
// 19 t8). It reads the work tree only for the programs it knows, and
// spawns nothing.
package quietlint

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/sessiongate/sessiongate/cmdoutput"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/shellline"
)

// valued are the options of each linter that take the next word as their
// value (not a path to lint).
var valued = map[string]map[string]bool{
	"eslint": set("-c", "--config", "--ext", "--rule", "-f", "--format", "-o", "--output-file", "--ignore-pattern", "--plugin",
		"--parser", "--parser-options", "--rulesdir", "--max-warnings", "--resolve-plugins-relative-to", "--cache-location",
		"--cache-strategy", "--env", "--global", "--report-unused-disable-directives-severity", "--ignore-path", "--flag", "--stdin-filename", "--concurrency"),
	"markdownlint":      set("-c", "--config", "-i", "--ignore", "-r", "--rules", "-o", "--output", "-p", "--ignore-path", "--configPointer", "--enable", "--disable"),
	"markdownlint-cli2": set("--config", "--format"),
	"ruff": set("--config", "--select", "--ignore", "--extend-select", "--extend-ignore", "--exclude", "--extend-exclude", "--target-version",
		"--line-length", "--output-format", "-o", "--output-file", "--fixable", "--unfixable", "--per-file-ignores", "--cache-dir", "--stdin-filename"),
}

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// Why returns why a run of line in dir that exited 0 with out checked
// nothing, or "" when it may have checked something.
func Why(dir, line string, out []byte) string {
	if why := CannotFail(line); why != "" {
		return why // told never to fail (neverfail.go)
	}
	for _, words := range shellline.Programs(line) {
		prog, args := linter(words)
		if prog == "" {
			continue
		}
		if reason, tool := cmdoutput.NothingChecked(protocolspec.Check{Arg: line}, out); reason != "" && tool != "go test" && tool != cmdoutput.TestFilter {
			return reason
		}
		if paths := pathArgs(prog, args); len(paths) > 0 && !anyMatch(dir, paths) {
			return prog + " was given only paths that match no file (" + clip(strings.Join(paths, " ")) + "): it linted nothing"
		}
	}
	return ""
}

// linter returns the linter a command runs (through npx, pnpm exec, yarn
// or bunx too) and its arguments, or "".
func linter(words []string) (string, []string) {
	for len(words) > 0 {
		switch name := filepath.Base(words[0]); name {
		case "npx", "bunx", "pnpx":
			words = dropFlags(words[1:])
		case "pnpm", "yarn":
			words = words[1:]
			if len(words) > 0 && (words[0] == "exec" || words[0] == "dlx" || words[0] == "run") {
				words = words[1:]
			}
		case "ruff":
			if len(words) > 1 && (words[1] == "check" || words[1] == "format") {
				return name, words[2:]
			}
			return "", nil
		case "eslint", "markdownlint", "markdownlint-cli", "markdownlint-cli2":
			if name == "markdownlint-cli" {
				name = "markdownlint"
			}
			return name, words[1:]
		default:
			return "", nil
		}
	}
	return "", nil
}

func dropFlags(ws []string) []string {
	for len(ws) > 0 && strings.HasPrefix(ws[0], "-") {
		ws = ws[1:]
	}
	return ws
}

// pathArgs are the words of args that name paths or globs to lint.
func pathArgs(prog string, args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			continue
		}
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") && valued[prog][a] {
				i++
			}
			if a == "--stdin" {
				return nil // lints standard input, not files
			}
			continue
		}
		if prog == "markdownlint-cli2" && strings.HasPrefix(a, "#") {
			continue // a negated glob: excludes, names nothing to lint
		}
		out = append(out, a)
	}
	return out
}

// errFound stops a walk at the first match.
var errFound = errors.New("found")

// anyMatch reports whether any of paths (relative to dir, or absolute)
// names an existing file or directory, or is a glob matching one.
func anyMatch(dir string, paths []string) bool {
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if !strings.ContainsAny(p, "*?[{") {
			if _, err := os.Stat(p); err == nil {
				return true
			}
			continue
		}
		base, pattern := doublestar.SplitPattern(filepath.ToSlash(p))
		if _, err := os.Stat(base); err != nil {
			continue
		}
		err := doublestar.GlobWalk(os.DirFS(base), pattern, func(string, fs.DirEntry) error { return errFound }, doublestar.WithFailOnIOErrors())
		if errors.Is(err, errFound) || (err != nil && !errors.Is(err, doublestar.ErrBadPattern)) {
			return true // a match, or an error: never call a run empty on doubt
		}
		if errors.Is(err, doublestar.ErrBadPattern) {
			return true
		}
	}
	return false
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}
