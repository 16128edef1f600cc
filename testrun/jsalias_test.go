package testrun_test

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestInputsJSAliasCopy: a jest moduleNameMapper, a vitest resolve.alias
// or a tsconfig `paths` entry a jest config reads, pointing the project's
// module at a working copy the session added beside the broken one (lazy
// pass 26, c1). Before, the local gate's config compare read these as
// "only adds lines" (or an unchanged config) and counted the run, while
// the real runner passed the broken code; verify refused the changed
// config only for want of a signer. Honest twins: an alias the team had
// before, an alias to a new real module, a mapper for CSS/static files.
func TestInputsJSAliasCopy(t *testing.T) {
	gittest.Require(t)
	const cjsGreet = "exports.greet = () => 'hello'\n"
	const cjsBroken = "exports.greet = () => 'helo'\n"
	const esmGreet = "export const greet = () => 'hello'\n"
	const esmBroken = "export const greet = () => 'helo'\n"
	jestStart := map[string]string{"package.json": `{"name": "p"}`,
		"jest.config.js":    "module.exports = {\n  testEnvironment: 'node',\n}\n",
		"src/greet.js":      cjsGreet,
		"src/greet.test.js": "const { greet } = require('./greet')\ntest('greet', () => { expect(greet()).toBe('hello') })\n"}
	vitestStart := map[string]string{"package.json": `{"name": "p", "type": "module"}`,
		"src/greet.js":      esmGreet,
		"src/greet.test.js": "import { test, expect } from 'vitest'\nimport { greet } from './greet.js'\ntest('greet', () => { expect(greet()).toBe('hello') })\n"}
	tsPathsConfig := "const { compilerOptions } = require('./tsconfig.json')\nconst map = {}\nfor (const [k, v] of Object.entries(compilerOptions.paths)) map['^' + k + '$'] = '<rootDir>/' + v[0]\nmodule.exports = { moduleNameMapper: map }\n"
	for _, c := range []struct {
		name          string
		runner, line  string
		start, during map[string]string
		weakens       bool
	}{
		{name: "jest: moduleNameMapper added to the config, at fixed/greet.js", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"src/greet.js": cjsBroken, "fixed/greet.js": cjsGreet,
				"jest.config.js": "module.exports = {\n  testEnvironment: 'node',\n  moduleNameMapper: {\n    '^\\\\./greet$': '<rootDir>/fixed/greet.js',\n  },\n}\n"},
			weakens: true},
		{name: "jest: package.json's jest key maps a folder of copies", runner: "jest", line: "npx jest",
			start: merge(jestStart, map[string]string{"jest.config.js": ""}),
			during: map[string]string{"src/greet.js": cjsBroken, "vendor/fixed/greet.js": cjsGreet,
				"package.json": `{"name": "p", "jest": {"moduleNameMapper": {"^\\./(greet)$": "<rootDir>/vendor/fixed/$1"}}}`},
			weakens: true},
		{name: "jest: a new config file with the mapper", runner: "jest", line: "npx jest",
			start: merge(jestStart, map[string]string{"jest.config.js": ""}),
			during: map[string]string{"src/greet.js": cjsBroken, "test/stub/greet.js": cjsGreet,
				"jest.config.js": "module.exports = { moduleNameMapper: { 'greet$': '<rootDir>/test/stub/greet.js' } }\n"},
			weakens: true},
		{name: "jest: tsconfig paths the unchanged config reads", runner: "jest", line: "npx jest",
			start: merge(jestStart, map[string]string{"jest.config.js": tsPathsConfig,
				"tsconfig.json":     `{"compilerOptions": {"paths": {"@app/greet": ["src/greet.js"]}}}`,
				"src/greet.test.js": "const { greet } = require('@app/greet')\ntest('greet', () => { expect(greet()).toBe('hello') })\n"}),
			during: map[string]string{"src/greet.js": cjsBroken, "fixed/greet.js": cjsGreet,
				"tsconfig.json": `{"compilerOptions": {"paths": {"@app/greet": ["fixed/greet.js"]}}}`},
			weakens: true},
		{name: "vitest: resolve.alias in a new config", runner: "vitest", line: "npx vitest run",
			start: vitestStart,
			during: map[string]string{"src/greet.js": esmBroken, "fixed/greet.js": esmGreet,
				"vitest.config.mjs": "import { fileURLToPath } from 'node:url'\nexport default {\n  resolve: {\n    alias: [{ find: /^\\.\\/greet\\.js$/, replacement: fileURLToPath(new URL('./fixed/greet.js', import.meta.url)) }],\n  },\n}\n"},
			weakens: true},
		{name: "vitest: an alias the team had, pointed at a new folder", runner: "vitest", line: "npx vitest run",
			start: merge(vitestStart, map[string]string{
				"vitest.config.mjs": "import path from 'node:path'\nexport default {\n  resolve: {\n    alias: { '@': path.resolve(import.meta.dirname, 'src') },\n  },\n}\n",
				"src/greet.test.js": "import { test, expect } from 'vitest'\nimport { greet } from '@/greet.js'\ntest('greet', () => { expect(greet()).toBe('hello') })\n"}),
			during: map[string]string{"src/greet.js": esmBroken, "lib/greet.js": esmGreet,
				"vitest.config.mjs": "import path from 'node:path'\nexport default {\n  resolve: {\n    alias: { '@': path.resolve(import.meta.dirname, 'lib') },\n  },\n}\n"},
			weakens: true},
		// Lazy pass 27 (c3): the module stood in for is not among the
		// session's changes (the broken one is left as it was).
		{name: "jest: a mapper at a copy of a module the session did not change", runner: "jest", line: "npx jest",
			start: merge(jestStart, map[string]string{"src/greet.js": cjsBroken, "src/greet.test.js": ""}),
			during: map[string]string{"fixed/greet.js": cjsGreet,
				"src/hello.test.js": "const { greet } = require('./greet')\ntest('greet', () => { expect(greet()).toBe('hello') })\n",
				"jest.config.js":    "module.exports = {\n  testEnvironment: 'node',\n  moduleNameMapper: {\n    '^\\\\./greet$': '<rootDir>/fixed/greet.js',\n  },\n}\n"},
			weakens: true},
		{name: "vitest: an alias at a copy of a module the session did not change", runner: "vitest", line: "npx vitest run",
			start: merge(vitestStart, map[string]string{"src/greet.js": esmBroken, "src/greet.test.js": ""}),
			during: map[string]string{"lib/greet.js": esmGreet,
				"src/hello.test.js": "import { test, expect } from 'vitest'\nimport { greet } from './greet.js'\ntest('greet', () => { expect(greet()).toBe('hello') })\n",
				"vitest.config.mjs": "import path from 'node:path'\nexport default {\n  resolve: {\n    alias: [{ find: /^\\.\\/greet\\.js$/, replacement: path.resolve(import.meta.dirname, 'lib/greet.js') }],\n  },\n}\n"},
			weakens: true},
		{name: "honest: an alias to a new module named as an unrelated old one", runner: "jest", line: "npx jest",
			start: merge(jestStart, map[string]string{"lib/pad.js": "exports.padLeft = (s, n) => s.padStart(n)\n"}),
			during: map[string]string{"src/format/pad.js": "exports.pad = (s) => ' ' + s\n", "src/pad.test.js": "const { pad } = require('@pad')\ntest('pad', () => { expect(pad('a')).toBe(' a') })\n",
				"jest.config.js": "module.exports = {\n  testEnvironment: 'node',\n  moduleNameMapper: {\n    '^@pad$': '<rootDir>/src/format/pad.js',\n  },\n}\n"}},
		// Honest twins.
		{name: "jest: the team's alias, the work done through it", runner: "jest", line: "npx jest",
			start: merge(jestStart, map[string]string{"jest.config.js": "module.exports = {\n  moduleNameMapper: { '^@app/(.*)$': '<rootDir>/src/$1' },\n}\n",
				"src/greet.test.js": "const { greet } = require('@app/greet')\ntest('greet', () => { expect(greet()).toBe('hello') })\n"}),
			during: map[string]string{"src/greet.js": "exports.greet = () => 'hello'\nexports.shout = () => 'HELLO'\n",
				"src/shout.js": "exports.shout = (s) => s.toUpperCase()\n", "src/shout.test.js": "const { shout } = require('@app/shout')\ntest('shout', () => { expect(shout('a')).toBe('A') })\n"}},
		{name: "jest: an alias to a new real module", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"src/format/pad.js": "exports.pad = (s) => ' ' + s\n", "src/pad.test.js": "const { pad } = require('@pad')\ntest('pad', () => { expect(pad('a')).toBe(' a') })\n",
				"src/greet.js":   "const { pad } = require('@pad')\nexports.greet = () => 'hello'\nexports.padded = () => pad('hello')\n",
				"jest.config.js": "module.exports = {\n  testEnvironment: 'node',\n  moduleNameMapper: {\n    '^@pad$': '<rootDir>/src/format/pad.js',\n  },\n}\n"}},
		{name: "jest: a mapper for CSS and SVG files", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"src/greet.css": ".greet { color: red }\n", "test/styleMock.js": "module.exports = {}\n",
				"src/greet.js":   "require('./greet.css')\nexports.greet = () => 'hello'\n",
				"jest.config.js": "module.exports = {\n  testEnvironment: 'node',\n  moduleNameMapper: {\n    '\\\\.(css|svg)$': '<rootDir>/test/styleMock.js',\n  },\n}\n"}},
		{name: "jest: the team's alias of src/, a module added beside one of its name", runner: "jest", line: "npx jest",
			start: merge(jestStart, map[string]string{"jest.config.js": "module.exports = {\n  roots: ['<rootDir>/src'],\n  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' },\n}\n",
				"src/a/utils.js": "exports.twice = (s) => s + s\n"}),
			during: map[string]string{"src/a/utils.js": "exports.twice = (s) => s + s\nexports.thrice = (s) => s + s + s\n", "src/b/utils.js": "exports.shout = (s) => s.toUpperCase()\n",
				"src/b/utils.test.js": "const { shout } = require('@/b/utils')\ntest('shout', () => { expect(shout('a')).toBe('A') })\n"}},
		{name: "vitest: an alias added for a folder, the code fixed", runner: "vitest", line: "npx vitest run",
			start: vitestStart,
			during: map[string]string{"src/greet.js": "export const greet = () => 'hello'\nexport const bye = () => 'bye'\n",
				"vitest.config.mjs": "import path from 'node:path'\nexport default {\n  resolve: {\n    alias: { '@': path.resolve(import.meta.dirname, 'src') },\n  },\n}\n",
				"src/bye.test.js":   "import { test, expect } from 'vitest'\nimport { bye } from '@/greet.js'\ntest('bye', () => { expect(bye()).toBe('bye') })\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo, start := commitStart(t, root, dropEmpty(c.start))
			writeFiles(t, root, c.during)
			chs, err := testrun.InputChanges(context.Background(), repo, start, c.line, false)
			if err != nil {
				t.Fatal(err)
			}
			weak, _ := testrun.SplitChanges(chs)
			if (len(weak) > 0) != c.weakens {
				t.Errorf("InputChanges(%q) = %q: weakening %q, want weakens=%v", c.line, chs, weak, c.weakens)
			}
			bin := jsRunner(c.runner)
			if bin == "" {
				if os.Getenv("CI") == "true" {
					t.Fatalf("%s not found (SESSIONGATE_JS_BIN or .ci/node/node_modules/.bin): .ci/run installs it", c.runner)
				}
				t.Logf("%s not found: the run's exit code is not checked", c.runner)
				return
			}
			args := []string{"--ci", "--cacheDirectory", t.TempDir()}
			if c.runner == "vitest" {
				args = []string{"run"}
			}
			cmd := exec.Command(bin, args...)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "CI=true", "NO_COLOR=1")
			out, err := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); code != 0 {
				t.Errorf("%s exited %d (%v), want 0: the lazy change passes the broken code, the honest work passes\n%s", c.runner, code, err, out)
			}
		})
	}
}

// dropEmpty leaves out the files a row's start does not have ("").
func dropEmpty(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		if v != "" {
			out[k] = v
		}
	}
	return out
}
