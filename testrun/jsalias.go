package testrun

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// The JS form of pysyspath's copy check (lazy pass 26, c1): jest's
// moduleNameMapper, vitest's resolve.alias, a tsconfig `paths` entry a
// jest config turns into a mapper, jest's modulePaths/roots. Pointed at
// a working copy the session added (fixed/greet.js beside a broken
// src/greet.js), they make every test import the copy: the real jest and
// vitest pass the broken code. The local gate read the new config lines
// as "only adds lines". A key rule would refuse honest configs (the same
// keys map CSS to a stub, `@/` to src/), so what counts is the target: a
// module the session added whose name another module the session
// changed also has.

// jsAliasKeyRE finds a config key whose value decides where an import
// resolves; the value is the bracketed block after it.
var jsAliasKeyRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`["']?\b(moduleNameMapper|alias|paths|modulePaths|moduleDirectories|roots)\b["']?\s*:`)
})

// jsStringRE is a JS/JSON string literal.
var jsStringRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("'([^'\\n]*)'|\"([^\"\\n]*)\"|`([^`$\\n]*)`")
})

// jsModuleExts are the extensions a JS runner resolves a module by.
var jsModuleExts = []string{".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"}

// jsModuleName is a JS source file's module name (index.js names its
// folder), ok false for another file, a test file, or one under
// node_modules.
func jsModuleName(f string) (string, bool) {
	ext := path.Ext(f)
	known := false
	for _, e := range jsModuleExts {
		known = known || ext == e
	}
	if !known || testNamed(f) || strings.HasPrefix(f, "node_modules/") || strings.Contains(f, "/node_modules/") {
		return "", false
	}
	name := strings.TrimSuffix(path.Base(f), ext)
	if name == "index" {
		name = path.Base(path.Dir(f))
		if name == "." {
			return "", false
		}
	}
	return name, true
}

// jsCopiesIn are the changed JS modules the session added (added says
// which) whose module name other changed modules of the work tree have:
// copy path -> those others' paths. A module name met once costs no lookup.
func jsCopiesIn(changed []string, added func(string) bool) map[string][]string {
	byName := map[string][]string{}
	for _, f := range changed {
		if n, ok := jsModuleName(f); ok {
			byName[n] = append(byName[n], f)
		}
	}
	out := map[string][]string{}
	for _, fs := range byName {
		if len(fs) < 2 {
			continue
		}
		for _, f := range fs {
			if !added(f) {
				continue
			}
			for _, g := range fs {
				if g != f {
					out[f] = append(out[f], g)
				}
			}
		}
	}
	return out
}

// jsAliasTargets are the repository paths the alias blocks of a config's
// text name, relative to the config's folder dir: a literal path, or the
// folder before a capture (`<rootDir>/vendor/$1`, `src/*`). A pattern
// (`^\./greet$`, `\.(css|svg)$`) names none.
func jsAliasTargets(dir, text string) []string {
	var out []string
	for _, loc := range jsAliasKeyRE().FindAllStringIndex(text, -1) {
		block := bracketBlock(text[loc[1]:])
		for _, m := range jsStringRE().FindAllStringSubmatch(block, -1) {
			s := m[1] + m[2] + m[3]
			if s == "" || strings.HasPrefix(s, "^") || strings.HasPrefix(s, "\\") {
				continue
			}
			s = strings.TrimPrefix(s, "<rootDir>")
			if i := strings.IndexAny(s, "$*([\\"); i >= 0 {
				s = s[:i]
				if j := strings.LastIndex(s, "/"); j >= 0 {
					s = s[:j]
				} else {
					continue
				}
			}
			s = strings.TrimLeft(strings.TrimPrefix(s, "./"), "/")
			p := path.Clean(path.Join(dir, s))
			if s == "" || p == "." || p == ".." || strings.HasPrefix(p, "../") {
				continue
			}
			out = append(out, p)
		}
	}
	return out
}

// bracketBlock is text's first bracketed value ({...} or [...]), or its
// first line when the value is not bracketed (`alias: aliases,`).
func bracketBlock(text string) string {
	start := strings.IndexAny(text, "{[\n")
	if start < 0 {
		return text
	}
	if text[start] == '\n' {
		return text[:start]
	}
	depth := 0
	var quote byte
	for i := start; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return text[start : i+1]
			}
		}
	}
	return text[start:]
}

// jsAliasCopy names the copy a target reaches (the file, the file with a
// module extension or /index, or a copy inside the folder) and the module
// it stands in for, "" when none. Through a folder, only a copy of a
// module outside that folder counts: an alias of src/ reaches
// src/a/utils.js and src/b/utils.js alike, and picks neither for the
// other.
func jsAliasCopy(target string, copies map[string][]string) (copyPath, of string) {
	for _, c := range append([]string{target}, jsWithExts(target)...) {
		if others, ok := copies[c]; ok {
			return c, others[0]
		}
	}
	var in []string
	for c := range copies {
		if strings.HasPrefix(c, target+"/") {
			in = append(in, c)
		}
	}
	sort.Strings(in)
	for _, c := range in {
		for _, g := range copies[c] {
			if !strings.HasPrefix(g, target+"/") {
				return c, g
			}
		}
	}
	return "", ""
}

// jsWithExts are the files a module path without its extension names.
func jsWithExts(p string) []string {
	var out []string
	for _, e := range jsModuleExts {
		out = append(out, p+e, p+"/index"+e)
	}
	return out
}

// jsAliasCopies reads the JS runner configs among files (and the
// tsconfig.json/jsconfig.json of dirs, whose `paths` a config can map)
// for an alias at a copy the session added; one weakening change per
// config. Nothing is read unless the session added such a copy.
func jsAliasCopies(ctx context.Context, repo Repo, start string, files []file, dirs []string) ([]InputChange, error) {
	var cfgs []file
	for _, f := range files {
		if jsConfig(f.path) || tsConfigFile(f.path) {
			cfgs = append(cfgs, f)
		}
	}
	if len(cfgs) == 0 {
		return nil, nil
	}
	changed, err := repo.ChangedFiles(ctx, start)
	if err != nil {
		return nil, fmt.Errorf("list the files changed since the start: %w", err)
	}
	var present []string
	for _, f := range changed {
		if _, ok := jsModuleName(f); !ok {
			continue
		}
		if fi, err := os.Stat(filepath.Join(repo.Root(), filepath.FromSlash(f))); err == nil && fi.Mode().IsRegular() {
			present = append(present, f)
		}
	}
	addedNow := func(f string) bool {
		ok, err := repo.ExistsAt(ctx, start, f)
		return err == nil && !ok
	}
	copies := jsCopiesIn(present, addedNow)
	var added []string
	for _, f := range present {
		if _, ok := copies[f]; !ok && addedNow(f) {
			added = append(added, f)
		}
	}
	if len(copies) == 0 && len(added) == 0 {
		return nil, nil
	}
	// A copy of a module the session left as it was (lazy pass 27, c3):
	// read only for an added module an alias reaches, by one walk.
	var unchanged map[string][]string
	twins := func() map[string][]string {
		if unchanged == nil {
			unchanged = jsUnchangedTwins(ctx, repo, start, changed, added)
		}
		return unchanged
	}
	seen := map[string]bool{}
	for _, f := range cfgs {
		seen[f.path+"#"+f.section] = true
	}
	for _, d := range dirs {
		for _, n := range []string{"tsconfig.json", "jsconfig.json"} {
			if p := path.Join(d, n); !seen[p+"#"] {
				seen[p+"#"] = true
				cfgs = append(cfgs, file{path: p})
			}
		}
	}
	var out []InputChange
	for _, f := range cfgs {
		b, err := readWork(repo.Root(), f.path)
		if err != nil {
			continue
		}
		text := string(b)
		if f.section != "" {
			text = rawSection(b, f.section)
		}
		for _, t := range jsAliasTargets(path.Dir(f.path), text) {
			c, of := jsAliasCopy(t, copies)
			if c == "" && jsAliasReaches(t, added) {
				c, of = jsAliasCopy(t, twins())
			}
			if c != "" {
				what := f.path
				if f.section != "" {
					what = fmt.Sprintf("%s's %s section", f.path, f.section)
				}
				out = append(out, InputChange{what, fmt.Sprintf("maps a module to %s, which holds %s, a copy the session added of %s: the tests import the copy, not the project's code",
					t, c, of), true})
				break
			}
		}
	}
	return out, nil
}

// tsConfigFile: p is a tsconfig or jsconfig, whose `paths` a jest config
// can turn into its moduleNameMapper.
func tsConfigFile(p string) bool {
	b := path.Base(p)
	return strings.HasSuffix(b, ".json") && (strings.HasPrefix(b, "tsconfig") || strings.HasPrefix(b, "jsconfig"))
}

// rawSection is a package.json key's JSON text as written ("" when the
// file or key is unreadable).
func rawSection(b []byte, key string) string {
	var pkg map[string]json.RawMessage
	if err := json.Unmarshal(b, &pkg); err != nil {
		return ""
	}
	return string(pkg[key])
}

// jsAliasReaches: target t is, or is a folder holding, one of files.
func jsAliasReaches(t string, files []string) bool {
	for _, f := range files {
		if f == t || strings.HasPrefix(f, t+"/") || slices.Contains(jsWithExts(t), f) {
			return true
		}
	}
	return false
}

// jsExportRE finds the names a JS module exports.
var jsExportRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bexports\.(\w+)\s*=|\bexport\s+(?:default\s+)?(?:async\s+)?(?:const|let|var|function\*?|class)\s+(\w+)|\b(?:module\.exports|export)\s*=?\s*\{([^}]*)\}|\bexport\s+(default)\b`)
})

// jsExports are the names a module's text exports.
func jsExports(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range jsExportRE().FindAllStringSubmatch(text, -1) {
		for _, n := range []string{m[1], m[2], m[4]} {
			if n != "" {
				out[n] = true
			}
		}
		for _, part := range strings.Split(m[3], ",") {
			// `a`, `a: b`, `a as b`: the exported name is the last word.
			if fs := strings.FieldsFunc(part, func(r rune) bool { return r == ':' || r == ' ' || r == '\t' || r == '\n' }); len(fs) > 0 {
				out[fs[len(fs)-1]] = true
			}
		}
	}
	return out
}

// jsUnchangedTwins maps each added module (added) to the modules of the
// work tree the session did not change that have its module name and
// export a name it exports too: what an alias at the added one stands in
// for. A new module that only shares a file name (src/format/pad.js
// beside an old lib/pad.js exporting other names) has none. One walk,
// node_modules and hidden folders left out, bounded.
func jsUnchangedTwins(ctx context.Context, repo Repo, start string, changed, added []string) map[string][]string {
	names := map[string][]string{}
	for _, f := range added {
		if n, ok := jsModuleName(f); ok {
			names[n] = append(names[n], f)
		}
	}
	isChanged := map[string]bool{}
	for _, f := range changed {
		isChanged[f] = true
	}
	out := map[string][]string{}
	seen := 0
	root := repo.Root()
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if seen++; seen > 50000 {
			return filepath.SkipAll
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		n, ok := jsModuleName(rel)
		if !ok || len(names[n]) == 0 || isChanged[rel] {
			return nil
		}
		if at, err := repo.ExistsAt(ctx, start, rel); err != nil || !at {
			return nil // ignored, not the project's
		}
		theirs, err := boundedread.File(p, maxInput)
		if err != nil {
			return nil
		}
		have := jsExports(string(theirs))
		for _, c := range names[n] {
			mine, err := readWork(root, c)
			if err != nil {
				continue
			}
			for e := range jsExports(string(mine)) {
				if have[e] {
					out[c] = append(out[c], rel)
					break
				}
			}
		}
		return nil
	})
	return out
}

// JSModule reports whether f is a JS source module (not a test, not under
// node_modules) a runner's alias can stand in for.
func JSModule(f string) bool { _, ok := jsModuleName(f); return ok }

// JSAliasConfig reports whether f is a file whose text can map a module
// elsewhere: a jest or vitest config, package.json (its "jest" key), a
// tsconfig or jsconfig (its `paths`).
func JSAliasConfig(f string) bool {
	return !strings.Contains("/"+f, "/node_modules/") && (jsConfig(f) || tsConfigFile(f))
}

// JSModuleNamed reports whether f is a JS module with the module name of
// one of mods.
func JSModuleNamed(f string, mods []string) bool {
	n, ok := jsModuleName(f)
	if !ok {
		return false
	}
	for _, m := range mods {
		if mn, ok := jsModuleName(m); ok && mn == n {
			return true
		}
	}
	return false
}

// JSAliasCopiesRange is jsAliasCopies over a range, for verify (lazy pass
// 27, c3): changed are the JS modules the range changed (RangeFile; Now
// nil when deleted), named the tip's JS modules with the name of a module
// the range added (changed or not), configs the tip's alias configs
// (JSAliasConfig). The result maps a config to why its alias stands a
// copy in for a project module.
func JSAliasCopiesRange(changed []RangeFile, named, configs map[string][]byte) map[string]string {
	var present, added []string
	isChanged := map[string]bool{}
	addedNow := map[string]bool{}
	for _, f := range changed {
		isChanged[f.Path] = true
		if f.Now != nil && JSModule(f.Path) {
			present = append(present, f.Path)
			addedNow[f.Path] = !f.Existed
		}
	}
	copies := jsCopiesIn(present, func(f string) bool { return addedNow[f] })
	for _, f := range present {
		if _, ok := copies[f]; !ok && addedNow[f] {
			added = append(added, f)
		}
	}
	if len(copies) == 0 && len(added) == 0 {
		return nil
	}
	twins := map[string][]string{}
	for _, c := range added {
		n, _ := jsModuleName(c)
		mine := jsExports(string(named[c]))
		var ps []string
		for p := range named {
			if m, ok := jsModuleName(p); ok && m == n && !isChanged[p] {
				ps = append(ps, p)
			}
		}
		sort.Strings(ps)
		for _, p := range ps {
			for e := range jsExports(string(named[p])) {
				if mine[e] {
					twins[c] = append(twins[c], p)
					break
				}
			}
		}
	}
	paths := make([]string, 0, len(configs))
	for p := range configs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	out := map[string]string{}
	for _, p := range paths {
		text := string(configs[p])
		if path.Base(p) == "package.json" {
			text = rawSection(configs[p], "jest")
		}
		for _, t := range jsAliasTargets(path.Dir(p), text) {
			c, of := jsAliasCopy(t, copies)
			if c == "" && jsAliasReaches(t, added) {
				c, of = jsAliasCopy(t, twins)
			}
			if c != "" {
				out[p] = fmt.Sprintf("maps a module to %s, which holds %s, a copy the range added of %s: the tests import the copy, not the project's code", t, c, of)
				break
			}
		}
	}
	return out
}
