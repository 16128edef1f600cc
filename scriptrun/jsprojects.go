package scriptrun

import (
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// What a JS runner's config points at besides test patterns (issue 25,
// the routes left open): jest's `projects` and vitest's `workspace` /
// `projects` (or a vitest.workspace.* file) run the tests of other
// folders, each with its own config, and a setup file or runner named by
// a computed value (`setupFiles: [\x60./setup/${env}.js\x60]`) runs code
// whose name the config text does not hold.

var (
	jsProjectsKey = lazyregexp.New(`(?:^|[\s{,"'])(?:projects|workspace)["']?\s*:\s*`)
	// jsRunKey names a file the runner loads and runs before or instead
	// of the tests.
	jsRunKey = lazyregexp.New(`(?:^|[\s{,"'])(?:setupFiles|setupFilesAfterEnv|setupFilesAfterEach|globalSetup|globalTeardown|require|file|runner|testRunner|testEnvironment|snapshotResolver|resolver|preset)["']?\s*:\s*`)
	jsIdent  = lazyregexp.New(`[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*`)
	jsString = lazyregexp.New(`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\x60[^\x60]*\x60`)
)

// jsValue is the value that starts at text[i:]: a bracketed list or
// object (nesting and strings skipped), else up to the next , } ] or line.
func jsValue(text string, i int) string {
	if i >= len(text) {
		return ""
	}
	if c := text[i]; c == '[' || c == '{' {
		depth := 0
		for j := i; j < len(text); j++ {
			switch text[j] {
			case '[', '{', '(':
				depth++
			case ']', '}', ')':
				depth--
				if depth == 0 {
					return text[i : j+1]
				}
			case '"', '\'', '`':
				if k := strings.IndexByte(text[j+1:], text[j]); k >= 0 {
					j += k + 1
				}
			}
		}
		return text[i:]
	}
	end := len(text)
	for _, s := range []string{",", "}", "]", "\n"} {
		if k := strings.Index(text[i:], s); k >= 0 && i+k < end {
			end = i + k
		}
	}
	return text[i:end]
}

// jsComputed reports whether a config value names something the text
// does not hold: a template with ${...}, or a name that is not a path
// call's (path.join(__dirname, 'x')), an object key or a literal word.
func jsComputed(v string) bool {
	for _, s := range jsString.FindAllString(v, -1) {
		if strings.Contains(s, "${") {
			return true
		}
	}
	rest := jsString.ReplaceAllString(v, `""`)
	for _, loc := range jsIdent.FindAllStringIndex(rest, -1) {
		w := strings.Join(strings.Fields(rest[loc[0]:loc[1]]), "")
		if after := strings.TrimLeft(rest[loc[1]:], " \t\r\n"); strings.HasPrefix(after, ":") {
			continue // an object key: { name: 'unit', ... }
		}
		switch w {
		case "path.join", "path.resolve", "join", "resolve", "require.resolve", "__dirname", "process.cwd",
			"import.meta.dirname", "true", "false", "null", "undefined", "defineProject", "defineConfig":
			continue
		}
		return true
	}
	return false
}

// JSProjects are the folders a JS runner config's projects name
// (relative to the config's folder; globs kept as written), and whether
// some entry is computed. whole: the text is a vitest.workspace file,
// whose default export is the list.
func JSProjects(text string, whole bool) (dirs []string, computed bool) {
	var values []string
	if whole {
		if i := strings.Index(text, "["); i >= 0 {
			values = append(values, jsValue(text, i))
		} else if strings.TrimSpace(text) != "" {
			computed = true
		}
	}
	for _, loc := range jsProjectsKey.FindAllStringIndex(text, -1) {
		values = append(values, jsValue(text, loc[1]))
	}
	for _, v := range values {
		if jsComputed(v) {
			computed = true
		}
		if strings.Contains(strings.TrimPrefix(v, "["), "{") || strings.Contains(v, "defineProject") {
			dirs = append(dirs, ".") // an inline project runs from the config's folder
		}
		for _, s := range jsString.FindAllString(v, -1) {
			p := strings.TrimPrefix(s[1:len(s)-1], "<rootDir>")
			p = strings.TrimPrefix(p, "/")
			if p == "" || p == "." || p == "./" {
				dirs = append(dirs, ".")
				continue
			}
			if strings.Contains(p, "${") || jsExt(p) || path.Ext(p) == ".json" && !strings.HasSuffix(p, "/") {
				continue // a config file of a project is read by its folder
			}
			if strings.ContainsAny(p, " :") {
				continue // a project's display name, not a path
			}
			dirs = append(dirs, path.Clean(p))
		}
	}
	return dirs, computed
}

// JSComputedRun reports whether a config names a setup file, runner or
// environment by a computed value, whose file is then unknown.
func JSComputedRun(text string) bool {
	for _, loc := range jsRunKey.FindAllStringIndex(text, -1) {
		if jsComputed(jsValue(text, loc[1])) {
			return true
		}
	}
	return false
}

// maxJSProjects bounds the project folders whose configs are read (the
// run's own folder included); the tests of the rest are still walked.
const maxJSProjects = 32

// relTo is abs relative to base, slash-separated ("../other" when
// outside it).
func relTo(base, abs string) string {
	r, err := filepath.Rel(base, abs)
	if err != nil {
		return abs
	}
	return filepath.ToSlash(r)
}

// projectDirs are the folders a projects entry names from cdir (a glob
// expanded), inside the places.
func (pl Places) projectDirs(cdir, entry string) []string {
	p := filepath.Join(cdir, filepath.FromSlash(entry))
	if !strings.ContainsAny(entry, "*?[{") {
		if st, err := os.Stat(p); err == nil && st.IsDir() && pl.inside(p) {
			return []string{p}
		}
		return nil
	}
	ms, _ := filepath.Glob(p)
	var out []string
	for _, m := range ms {
		if st, err := os.Stat(m); err == nil && st.IsDir() && pl.inside(m) && len(out) < maxJSProjects {
			out = append(out, m)
		}
	}
	return out
}

// inside reports whether abs (a folder too) is inside the places.
func (pl Places) inside(abs string) bool {
	_, _, ok := pl.where(abs)
	return ok
}
