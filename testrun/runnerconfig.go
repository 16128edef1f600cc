package testrun

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/scriptrun"
	"github.com/sessiongate/sessiongate/shellline"
)

// One judgement of a test runner's config for the QA gate and verify
// (round 30, c2; issue 25, "one judgement for gate and verify"). The gate
// reads the start commit and the work tree (InputChanges), verify's rerun
// guard the base and the tip of the pushed range, from git objects only;
// both hand the two contents to the functions below. Before, verify had
// no rule for jest/vitest/mocha configs, their setup files or a Babel
// plugin babel-jest compiles through: a weakened jest.config.js that
// reached the remote with hooks off, or from a session whose database was
// deleted, passed CI.

// RunnerFamilies names the runner families (pytest, jest, vitest, mocha)
// the words of a command line or of a script body run.
func RunnerFamilies(words []string) []string { return familiesOf(words) }

// RecipeFamilies names the runner families the recipe of target t (and
// of the targets it depends on) in file runs: `test: ; pytest -q`,
// `"test": "jest --ci"`.
func RecipeFamilies(t shellline.ScriptTarget, file []byte) []string {
	var words []string
	for _, n := range RecipeClosure(t, file) {
		sub := t
		sub.Name = n
		body, ok := ScriptBody(sub, file)
		if !ok {
			continue
		}
		for _, l := range strings.Split(body, "\n") {
			if t.Tool != "npm" && strings.HasPrefix(l, n+":") || strings.HasPrefix(l, settingMark) {
				continue
			}
			words = append(words, LineWords(l)...)
		}
	}
	return familiesOf(words)
}

// RunnerConfig is one config file (or a section of one: package.json's
// "jest") a runner family reads its test selection from.
type RunnerConfig struct{ Path, Section string }

// RunnerConfigs lists the configs the families read in each folder dirs
// names ("" the repository's root).
func RunnerConfigs(fams, dirs []string) []RunnerConfig {
	var out []RunnerConfig
	for _, f := range fams {
		for _, d := range dirs {
			for _, c := range runnerConfigs[f] {
				name, section, _ := strings.Cut(c, "#")
				rc := RunnerConfig{path.Join(d, name), section}
				if !slices.Contains(out, rc) {
					out = append(out, rc)
				}
			}
		}
	}
	return out
}

// ConfigChange judges a runner config (a whole file, or the section of
// one) from its contents at the start (was; nil: none) and now (nil:
// deleted): a vitest.workspace file added, a removed or changed line, or
// an added line that weakens (testPathIgnorePatterns, passWithNoTests,
// testMatch, ...) make the run prove less. Lines that only say how
// results are reported or how long a test may take (reporters, verbose,
// coverage output, testTimeout, maxWorkers) are no part of the judgement.
// ok is false when nothing changed. dead, isCode and read are
// compareInput's (nil: none).
func ConfigChange(p, section string, was, now []byte, dead, isCode func(string) bool, read func(string) (string, bool)) (InputChange, bool) {
	if was == nil && now == nil {
		return InputChange{}, false
	}
	a, b := sectionOf(was, section), sectionOf(now, section)
	if a == b {
		return InputChange{}, false
	}
	if section == "jest" || section == "mocha" || section == "" && (jsConfig(p) || strings.HasPrefix(path.Base(p), ".mocharc")) {
		a, b = dropReportingLines(a), dropReportingLines(b)
		if a == b {
			return InputChange{p, "only how results are reported or how long a test may take changed (reporters, verbose, coverage output, testTimeout)", false}, true
		}
	}
	if section != "" {
		return SectionChange(p, section, a, b, now == nil, false, dead, isCode, read)
	}
	if was == nil && isWorkspaceFile(p) {
		// Without one vitest runs the folder's own tests; with one,
		// only the projects it lists (a stub folder instead).
		return InputChange{p, "added in this session: vitest then runs only the projects it lists", true}, true
	}
	return compareInput(p, a, b, false, now == nil, false, dead, isCode, read), true
}

// reportingKeyRE: a config line setting one key to a plain value (a
// number, a word, a quoted string, a flat list of quoted strings), as a JS
// config or package.json's flattened section writes it.
var reportingKeyRE = lazyregexp.New(`^\s*["']?([A-Za-z]+)["']?\s*:\s*([0-9_]+|true|false|"[^"]*"|'[^']*'|\[\s*(?:(?:"[^"]*"|'[^']*')\s*,?\s*)*\])\s*,?\s*$`)

// reportingKeys say how results are reported or how long a test may take,
// never which tests run or whether a failure fails: a timeout only turns
// a slow test into a failure (jest's and vitest's testTimeout,
// hookTimeout; mocha's timeout, slow).
var reportingKeys = map[string]bool{
	"reporters": true, "reporter": true, "coverageReporters": true, "coverageDirectory": true, "collectCoverage": true,
	"verbose": true, "maxWorkers": true, "maxConcurrency": true, "displayName": true, "slowTestThreshold": true,
	"testTimeout": true, "hookTimeout": true, "teardownTimeout": true, "timeout": true, "slow": true, "outputFile": true,
	"notify": true, "errorOnDeprecated": true, "color": true, "diff": true,
}

// dropReportingLines leaves out the lines of text that set a reporting
// key to a plain value (reportingKeyRE).
func dropReportingLines(text string) string {
	if !strings.Contains(text, ":") {
		return text
	}
	var kept []string
	for _, l := range strings.Split(text, "\n") {
		if m := reportingKeyRE.FindStringSubmatch(l); m != nil && reportingKeys[m[1]] {
			continue
		}
		kept = append(kept, l)
	}
	return strings.Join(kept, "\n")
}

// JSConfigSetupCandidates are every path JSConfigSetupFiles may try for
// a config's text in folder dir (to read them in one batch).
func JSConfigSetupCandidates(dir, text string) []string {
	var out []string
	JSConfigSetupFiles(dir, text, func(p string) bool {
		out = append(out, p)
		return false
	})
	return out
}

// JSConfigSetupFiles are the repository files a jest or vitest config's
// text (in folder dir) may name as local setup files or plugins, each
// path a candidate with the extensions node tries, in order; exists says
// which one is a file (at either end).
func JSConfigSetupFiles(dir, text string, exists func(string) bool) []string {
	var out []string
	for _, sp := range scriptrun.JSConfigPaths(text) {
		for _, cand := range scriptrun.NodeFiles(sp) {
			p := path.Clean(path.Join(dir, cand))
			if strings.HasPrefix(p, "../") || p == "." || p == ".." {
				break
			}
			if exists(p) {
				if !slices.Contains(out, p) {
					out = append(out, p)
				}
				break
			}
		}
	}
	return out
}

// SetupFileChange judges a file a JS runner's config names (a setup file,
// globalSetup) that runs before every test, from its two contents: an
// added line that weakens (`globalThis.expect = () => ...`, `test =
// test.skip`), a removed check beyond the lines added, or the file
// deleted. A new setup file is judged by its lines, as an honest project
// adds one.
func SetupFileChange(p string, was, now []byte, read func(string) (string, bool)) (InputChange, bool) {
	if string(was) == string(now) || was == nil && now == nil {
		return InputChange{}, false
	}
	return compareInput(p, string(was), string(now), false, now == nil, true, nil, nil, read), true
}

// BabelConfigNames are the Babel configs babel-jest reads at a project's
// root.
func BabelConfigNames() []string { return slices.Clone(babelConfigNames) }

// BabelLocalCandidates are every path BabelLocalFiles may try for cfg.
func BabelLocalCandidates(cfg string) []string {
	var out []string
	BabelLocalFiles(cfg, func(p string) bool {
		out = append(out, p)
		return false
	})
	return out
}

// BabelLocalFiles are the repository files a Babel config names by a
// relative path, each the first of node's candidates exists says is a
// file.
func BabelLocalFiles(cfg string, exists func(string) bool) []string {
	var out []string
	for _, m := range babelLocalRE().FindAllStringSubmatch(cfg, 32) {
		p := path.Clean(m[1])
		for _, cand := range []string{p, p + ".js", p + ".cjs", p + "/index.js"} {
			if exists(cand) {
				if !slices.Contains(out, cand) {
					out = append(out, cand)
				}
				break
			}
		}
	}
	return out
}

// BabelPluginChange judges a local file Babel config cfgName names, from
// its two contents (was nil: new): a plugin the session added or changed
// that rewrites what code computes stands in for the code under test
// (babelPluginStandIn); the team's plugin as it was, or one that only
// respells syntax, is none. testStrings gives the quoted strings of the
// JS test files (read only when asked).
func BabelPluginChange(cfgName, p string, was, now []byte, testStrings func() map[string]bool) (InputChange, bool) {
	if now == nil || len(now) > 256<<10 || !babelRewritesRE().Match(now) {
		return InputChange{}, false
	}
	if was != nil && string(was) == string(now) {
		return InputChange{}, false // the team's plugin, as it was
	}
	why := babelPluginStandIn(string(now), testStrings)
	if why == "" {
		return InputChange{}, false // it respells syntax, not answers (babelplugin.go)
	}
	return InputChange{p, fmt.Sprintf("a Babel plugin %s names, changed in this session, that rewrites code (%s): babel-jest compiles the code under test through it, so the tests may run its output, not the project's code", cfgName, why), true}, true
}

// JSTestStrings are the quoted strings of the JS test files in files
// (path -> text): what BabelPluginChange asks of a plugin.
func JSTestStrings(files map[string][]byte) map[string]bool {
	out := map[string]bool{}
	for p, b := range files {
		if !JSTestFile(p) {
			continue
		}
		for _, m := range jsQuotedRE().FindAllStringSubmatch(string(b), -1) {
			out[m[1]+m[2]+m[3]] = true
		}
	}
	return out
}

// JSTestFile: p is a JS test file by its name (greet.test.js,
// greet.spec.ts).
func JSTestFile(p string) bool { return testNamed(p) && JSModuleFile(p) }
