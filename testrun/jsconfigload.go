package testrun

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/scriptrun"
	"github.com/sessiongate/sessiongate/shellline"
)

// Lazy pass 28 (c6): a file of the agent's that a runner's config loads
// as code (jest transform, resolver, setupFiles(AfterEnv), testEnvironment,
// globalSetup; a vitest plugin, setupFiles; mocha --require) can stand in
// for the module under test: a transform returning other code for
// greet.js, a resolver sending ./greet to a copy, a setup file calling
// jest.mock/vi.mock on it, a plugin whose load hook answers for it. The
// real jest and vitest pass the broken code under each, and the config
// and the file read as "only adds lines". A key rule would refuse honest
// configs (babel-jest, a CSS transform, a setup file extending expect),
// so what counts is the file: added or changed in the session, naming a
// module a test file imports, and doing what replaces a module (a mock
// call, require.cache, a resolver's or plugin's hook, returned code).

// jsReplacesRE is what a loaded file does to replace a module.
var jsReplacesRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:jest|vi)\.(?:mock|doMock|setMock)\s*\(|\brequire\.cache\b|\b_resolveFilename\b|\bModule\._load\b|\bdefaultResolver\b|\b(?:load|resolveId|transform|process|processAsync)\s*\(|\bcode\s*:`)
})

// jsLoadedStandIns are the weakening changes for the files in files that
// a JS runner's config (or the line's mocha --require) loads as code and
// that stand in for a module under test.
func jsLoadedStandIns(ctx context.Context, repo Repo, start, line string, files []file) []InputChange {
	var loaded []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] && JSModuleFile(p) {
			seen[p] = true
			loaded = append(loaded, p)
		}
	}
	for _, f := range files {
		if f.setup {
			add(f.path)
		}
		// mocha's config is not read for setup files by InputChanges.
		if b := path.Base(f.path); strings.HasPrefix(b, ".mocharc") || b == "package.json" && f.section == "mocha" {
			now, _ := boundedread.File(filepath.Join(repo.Root(), filepath.FromSlash(f.path)), boundedread.DefaultLimit)
			for _, sp := range scriptrun.JSConfigPaths(sectionOf(now, f.section)) {
				add(path.Clean(path.Join(path.Dir(f.path), sp)))
			}
		}
	}
	for _, w := range shellline.Programs(line) {
		for i := 0; i+1 < len(w); i++ {
			if path.Base(w[0]) != "mocha" && !(len(w) > 1 && path.Base(w[1]) == "mocha") {
				break
			}
			if a := w[i]; a == "--require" || a == "-r" || a == "--file" {
				add(path.Clean(w[i+1]))
			} else if v, ok := strings.CutPrefix(a, "--require="); ok {
				add(path.Clean(v))
			}
		}
	}
	type cand struct {
		path, text string
	}
	var cands []cand
	for _, p := range loaded {
		now, err := boundedread.File(filepath.Join(repo.Root(), filepath.FromSlash(p)), boundedread.DefaultLimit)
		if err != nil || len(now) > 256<<10 || !jsReplacesRE().Match(now) {
			continue
		}
		if was, err := repo.ReadAt(ctx, start, p); err == nil && string(was) == string(now) {
			continue // the team's, as it was
		}
		cands = append(cands, cand{p, string(now)})
	}
	if len(cands) == 0 {
		return nil
	}
	under := jsModulesUnderTest(repo.Root())
	var out []InputChange
	for _, c := range cands {
		own, _ := jsModuleName(c.path)
		if under[own] == c.path {
			continue // the module's real code, which an alias may name
		}
		named := jsNamedModules(c.text, own, under)
		if len(named) == 0 {
			continue
		}
		out = append(out, InputChange{c.path, fmt.Sprintf("loaded as code by the runner's config or line, changed in this session, and it replaces %s (%s), which the tests import: the tests may run it, not the project's code",
			strings.Join(named, ", "), under[named[0]]), true})
	}
	return out
}

// jsNamedModules are the modules of under (but own) that text names as
// a word (`\bname\b`), sorted. No regexp per name (round 29, c2: one
// compiled for each loaded file and module, 300 modules against a 20 KB
// setup file took ~1 s): a substring search and RE2's ASCII \b test at
// each end.
func jsNamedModules(text, own string, under map[string]string) []string {
	var named []string
	for n := range under {
		if n != own && wordBounded(text, n) {
			named = append(named, n)
		}
	}
	sort.Strings(named)
	return named
}

// wordBounded reports whether `\b`+QuoteMeta(w)+`\b` matches s: w occurs
// with a word boundary (a change between ASCII word and non-word
// characters, the text's edges non-word) at its start and at its end.
func wordBounded(s, w string) bool {
	if w == "" {
		return false
	}
	first, last := reWordByte(w[0]), reWordByte(w[len(w)-1])
	for i := 0; i+len(w) <= len(s); {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j > 0 && reWordByte(s[j-1])
		after := j+len(w) < len(s) && reWordByte(s[j+len(w)])
		if before != first && after != last {
			return true
		}
		i = j + 1
	}
	return false
}

func reWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// JSModuleFile: p is a JS or TS source file outside node_modules.
func JSModuleFile(p string) bool {
	ext := path.Ext(p)
	for _, e := range jsModuleExts {
		if ext == e {
			return !strings.HasPrefix(p, "node_modules/") && !strings.Contains(p, "/node_modules/")
		}
	}
	return false
}

// jsModulesUnderTest are the module names the work tree's JS test files
// import by a relative path that resolves to a project file: name -> one
// such file. One walk, bounded, not into node_modules or .git.
func jsModulesUnderTest(root string) map[string]string {
	out := map[string]string{}
	walkJSTestFiles(root, func(rel string, b []byte) {
		for _, m := range jsImportRE().FindAllStringSubmatch(string(b), -1) {
			spec := m[1] + m[2]
			if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
				continue
			}
			key := jsModuleKey(path.Dir(rel), spec)
			for _, f := range jsWithExts(key) {
				if name, ok := jsModuleName(f); ok {
					if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); err == nil && fi.Mode().IsRegular() {
						out[name] = f
						break
					}
				}
			}
		}
	})
	return out
}

// walkJSTestFiles calls fn with each JS test file of the work tree and
// its text: one walk, bounded (50,000 entries), not into node_modules or
// .git; a file over 256 KiB or not regular is left out (the callers only
// widen what they ask with what they read).
func walkJSTestFiles(root string, fn func(rel string, b []byte)) {
	n := 0
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if n++; n > 50000 {
			return filepath.SkipAll
		}
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if d.Name() == "node_modules" || d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if !testNamed(rel) || !JSModuleFile(rel) {
			return nil
		}
		if b, err := boundedread.File(p, 256<<10); err == nil {
			fn(rel, b)
		}
		return nil
	})
}

// Review 28 (c10): babel-jest, the real one, compiles every source file
// with the project's Babel config; a plugin file of the agent's that the
// config names by a relative path rewrites greet.js's code (a string
// literal 'helo' made 'hello', the body replaced) and the real jest
// passes the broken module while jest.config.js "only adds" babel-jest.
// Honest configs name installed plugins and presets; a local plugin the
// session added or changed that rewrites nodes is read as a stand-in.
var babelConfigNames = []string{"babel.config.js", "babel.config.cjs", "babel.config.mjs", "babel.config.json", ".babelrc", ".babelrc.js", ".babelrc.cjs", ".babelrc.json"}

var babelLocalRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`["'](\.\.?/[^"'\s]+)["']`)
})

// babelRewritesRE: what a Babel visitor does to change the code.
var babelRewritesRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\.node\.[\w.]+\s*=[^=]|\breplaceWith\w*\s*\(|\binsert(?:Before|After)\s*\(|\bunshiftContainer\s*\(|\bpushContainer\s*\(|\btemplate\b|\.remove\s*\(\s*\)`)
})

func jsBabelPlugins(ctx context.Context, repo Repo, start string) []InputChange {
	var out []InputChange
	seen := map[string]bool{}
	testStrings := sync.OnceValue(func() map[string]bool { return jsTestStrings(repo.Root()) })
	for _, n := range babelConfigNames {
		cfg, err := boundedread.File(filepath.Join(repo.Root(), n), boundedread.DefaultLimit)
		if err != nil || len(cfg) > 256<<10 {
			continue
		}
		if pkg := babelUnlistedPackage(repo.Root(), string(cfg)); pkg != "" {
			out = append(out, InputChange{n, fmt.Sprintf("names the Babel package %s, found in node_modules but named by neither package.json nor a lockfile: babel-jest compiles the code under test through a package nothing tracks", pkg), true})
		}
		for _, m := range babelLocalRE().FindAllStringSubmatch(string(cfg), 32) {
			p := path.Clean(m[1])
			for _, cand := range []string{p, p + ".js", p + ".cjs", p + "/index.js"} {
				if seen[cand] {
					break
				}
				now, err := boundedread.File(filepath.Join(repo.Root(), filepath.FromSlash(cand)), boundedread.DefaultLimit)
				if err != nil {
					continue
				}
				seen[cand] = true
				// verify's rerun guard judges the plugin with the same
				// function, from git objects (runnerconfig.go).
				was, err := repo.ReadAt(ctx, start, cand)
				if err != nil {
					was = nil
				}
				if ch, ok := BabelPluginChange(n, cand, was, now, testStrings); ok {
					out = append(out, ch)
				}
				break
			}
		}
	}
	return out
}
