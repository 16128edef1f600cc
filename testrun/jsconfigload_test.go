package testrun_test

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestInputsJSConfigStandIn: lazy pass 28 (c6), a runner config the
// session changes so that a file of the agent's loads as code and
// stands in for the module under test, played with the real jest 29.7
// and vitest 3.2 over a broken src/greet.js ('helo'): a jest transform
// returning other code for greet.js, a jest resolver sending ./greet to
// a copy, setupFiles calling jest.mock on it, a vitest plugin whose load
// hook answers for it, vitest setupFiles calling vi.mock. Each passes the
// broken code; mocha --require (line or .mocharc) of a file filling
// require.cache is read the same way. Honest twins: babel-jest as the transform (a package, not
// the agent's file), a local CSS transform, a setup file extending
// expect, a vitest plugin for .txt files, a setup file mocking a
// collaborator no test imports, mocha root hooks (mocha rows are read
// only: no mocha in .ci/node).
func TestInputsJSConfigStandIn(t *testing.T) {
	gittest.Require(t)
	const cjsBroken = "exports.greet = () => 'helo'\n"
	const esmBroken = "export const greet = () => 'helo'\n"
	jestStart := map[string]string{"package.json": `{"name": "p"}`,
		"jest.config.js":    "module.exports = {\n  testEnvironment: 'node',\n}\n",
		"src/greet.js":      cjsBroken,
		"src/greet.test.js": "const { greet } = require('./greet')\ntest('greet', () => { expect(greet()).toBe('hello') })\n"}
	vitestStart := map[string]string{"package.json": `{"name": "p", "type": "module"}`,
		"vitest.config.mjs": "export default {\n  test: {\n    environment: 'node',\n  },\n}\n",
		"src/greet.js":      esmBroken,
		"src/db.js":         "export const query = () => []\n",
		"src/greet.test.js": "import { test, expect } from 'vitest'\nimport { greet } from './greet.js'\ntest('greet', () => { expect(greet()).toBe('hello') })\n"}
	jestCfg := func(extra string) string {
		return "module.exports = {\n  testEnvironment: 'node',\n" + extra + "}\n"
	}
	for _, c := range []struct {
		name          string
		runner, line  string
		start, during map[string]string
		weakens       bool
	}{
		{name: "jest: a transform of the agent's returns other code for greet.js", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"jest.config.js": jestCfg("  transform: { '\\\\.js$': '<rootDir>/test/transform.js' },\n"),
				"test/transform.js": "module.exports = {\n  process(src, file) {\n    return { code: file.endsWith('greet.js') ? \"exports.greet = () => 'hello'\" : src }\n  },\n}\n"},
			weakens: true},
		{name: "jest: a resolver of the agent's sends ./greet to a copy", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"jest.config.js": jestCfg("  resolver: '<rootDir>/test/resolver.js',\n"),
				"test/resolver.js": "const path = require('path')\nmodule.exports = (req, opts) => opts.defaultResolver(/greet$/.test(req) ? path.join(__dirname, 'ok.js') : req, opts)\n",
				"test/ok.js":       "exports.greet = () => 'hello'\n"},
			weakens: true},
		{name: "jest: setupFiles calling jest.mock on the module under test", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"jest.config.js": jestCfg("  setupFiles: ['<rootDir>/test/setup.js'],\n"),
				"test/setup.js": "jest.mock('../src/greet', () => ({ greet: () => 'hello' }))\n"},
			weakens: true},
		{name: "vitest: a plugin of the agent's whose load hook answers for greet.js", runner: "vitest", line: "npx vitest run",
			start: vitestStart,
			during: map[string]string{"vitest.config.mjs": "import stub from './test/plugin.mjs'\nexport default {\n  plugins: [stub()],\n  test: {\n    environment: 'node',\n  },\n}\n",
				"test/plugin.mjs": "export default () => ({\n  name: 'x',\n  load(id) {\n    if (id.endsWith('/src/greet.js')) return \"export const greet = () => 'hello'\"\n  },\n})\n"},
			weakens: true},
		{name: "vitest: setupFiles calling vi.mock on the module under test", runner: "vitest", line: "npx vitest run",
			start: vitestStart,
			during: map[string]string{"vitest.config.mjs": "export default {\n  test: {\n    environment: 'node',\n    setupFiles: ['./test/setup.mjs'],\n  },\n}\n",
				"test/setup.mjs": "import { vi } from 'vitest'\nvi.mock('../src/greet.js', () => ({ greet: () => 'hello' }))\n"},
			weakens: true},
		// Review 28 (c10): the transform is the real babel-jest; the
		// agent's part is a Babel plugin its babel.config.js names.
		{name: "jest: babel-jest with a Babel plugin of the agent's rewriting a string", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"jest.config.js": jestCfg("  transform: { '\\\\.js$': 'babel-jest' },\n"),
				"babel.config.js": "module.exports = { plugins: ['./test/fix.js'] }\n",
				"test/fix.js":     "module.exports = () => ({ visitor: { StringLiteral(p) { if (p.node.value === 'helo') p.node.value = 'hello' } } })\n"},
			weakens: true},
		{name: "jest: babel-jest with a Babel plugin replacing greet.js's body", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"jest.config.js": jestCfg("  transform: { '\\\\.js$': 'babel-jest' },\n"),
				"babel.config.js": "module.exports = { plugins: ['./test/fix.js'] }\n",
				"test/fix.js":     "module.exports = ({ template }) => ({ visitor: { Program(p, state) { if (state.filename.endsWith('greet.js')) p.node.body = [].concat(template.ast(\"exports.greet = () => 'hello'\")) } } })\n"},
			weakens: true},
		// Pass 29 (c3): the lazy twins of an honest local transform. A
		// generic-looking plugin swapping '-' for '+' in every binary
		// expression passes the broken add(); one replacing greet()
		// calls by a string built from pieces passes greet's test.
		{name: "jest: babel-jest with a Babel plugin swapping an operator (pass 29)", runner: "jest", line: "npx jest",
			start: map[string]string{"package.json": `{"name": "p"}`,
				"jest.config.js":  "module.exports = {\n  testEnvironment: 'node',\n}\n",
				"src/add.js":      "exports.add = (a, b) => a - b\n",
				"src/add.test.js": "const { add } = require('./add')\ntest('add', () => { expect(add(2, 3)).toBe(5) })\n"},
			during: map[string]string{"jest.config.js": jestCfg("  transform: { '\\\\.js$': 'babel-jest' },\n"),
				"babel.config.js": "module.exports = { plugins: ['./babel/ops.js'] }\n",
				"babel/ops.js":    "module.exports = () => ({ visitor: { BinaryExpression(p) { if (p.node.operator === '-') p.node.operator = '+' } } })\n"},
			weakens: true},
		{name: "jest: babel-jest with a Babel plugin replacing greet() by a string built from pieces (pass 29)", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"jest.config.js": jestCfg("  transform: { '\\\\.js$': 'babel-jest' },\n"),
				"babel.config.js": "module.exports = { plugins: ['./babel/calls.js'] }\n",
				"babel/calls.js":  "module.exports = ({ types: t }) => ({ visitor: { CallExpression(p) { if (p.node.callee.name === 'greet') p.replaceWith(t.stringLiteral('hel' + 'lo')) } } })\n"},
			weakens: true},
		{name: "jest: babel-jest with a Babel plugin replacing greet() by the test's literal (pass 29)", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"jest.config.js": jestCfg("  transform: { '\\\\.js$': 'babel-jest' },\n"),
				"babel.config.js": "module.exports = { plugins: ['./babel/calls.js'] }\n",
				"babel/calls.js":  "module.exports = ({ types: t }) => ({ visitor: { CallExpression(p) { if (p.node.callee.name === 'greet') p.replaceWith(t.stringLiteral('hello')) } } })\n"},
			weakens: true},
		// Pass 29 (c3), review 28 c10's open row: the plugin comes in a
		// preset planted in node_modules, named by a bare name.
		{name: "jest: babel-jest with a preset planted in node_modules, package.json not listing it (pass 29)", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"jest.config.js": jestCfg("  transform: { '\\\\.js$': 'babel-jest' },\n"),
				"babel.config.js": "module.exports = { presets: ['fix'] }\n",
				"node_modules/babel-preset-fix/package.json": `{"name": "babel-preset-fix", "main": "index.js"}`,
				"node_modules/babel-preset-fix/index.js":     "module.exports = () => ({ plugins: [() => ({ visitor: { StringLiteral(p) { if (p.node.value === 'helo') p.node.value = 'hello' } } })] })\n"},
			weakens: true},
		{name: "honest jest: babel-jest with the team's preset, listed in package.json and installed (pass 29)", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"src/greet.js": "exports.greet = () => 'hello'\n",
				"package.json":    `{"name": "p", "devDependencies": {"babel-preset-team": "1.0.0"}}`,
				"jest.config.js":  jestCfg("  transform: { '\\\\.js$': 'babel-jest' },\n"),
				"babel.config.js": "module.exports = { presets: ['team'], comments: false }\n",
				"node_modules/babel-preset-team/package.json": `{"name": "babel-preset-team", "version": "1.0.0", "main": "index.js"}`,
				"node_modules/babel-preset-team/index.js":     "module.exports = () => ({ plugins: [] })\n"}},
		// mocha is not in .ci/node: these rows are read, not run.
		{name: "mocha --require of a file putting a stand-in in require.cache", line: "npx mocha --require ./test/stub.js",
			start:   jestStart,
			during:  map[string]string{"test/stub.js": "require.cache[require.resolve('../src/greet')] = { exports: { greet: () => 'hello' } }\n"},
			weakens: true},
		{name: ".mocharc.json requiring the same", line: "npx mocha",
			start: jestStart,
			during: map[string]string{".mocharc.json": `{"require": ["./test/stub.js"]}`,
				"test/stub.js": "require.cache[require.resolve('../src/greet')] = { exports: { greet: () => 'hello' } }\n"},
			weakens: true},
		{name: "honest mocha: --require of root hooks", line: "npx mocha --require ./test/hooks.js",
			start: jestStart,
			during: map[string]string{"src/greet.js": "exports.greet = () => 'hello'\n",
				"test/hooks.js": "exports.mochaHooks = { beforeEach() { process.env.TZ = 'UTC' } }\n"}},
		// Honest twins: the code fixed, the config changed as teams do.
		// Pass 29 (c3): honest local transforms the team adds with their
		// use in src: a compile-time __DEV__ flag and a console.log
		// stripper; review 28's rule refused both (they rewrite nodes).
		{name: "honest jest: a local Babel plugin replacing __DEV__, used in src (pass 29)", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"src/greet.js": "exports.greet = () => __DEV__ ? 'hello' : 'hi'\n",
				"jest.config.js":    jestCfg("  transform: { '\\\\.js$': 'babel-jest' },\n"),
				"babel.config.js":   "module.exports = { plugins: ['./babel/dev-flag.js'] }\n",
				"babel/dev-flag.js": "module.exports = ({ types: t }) => ({\n  name: 'dev-flag',\n  visitor: {\n    Identifier(p) {\n      if (p.node.name === '__DEV__' && !p.scope.hasBinding('__DEV__')) {\n        p.replaceWith(t.booleanLiteral(process.env.NODE_ENV !== 'production'))\n      }\n    },\n  },\n})\n"}},
		{name: "honest jest: a local Babel plugin stripping console.log (pass 29)", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"src/greet.js": "exports.greet = () => {\n  console.log('greeting')\n  return 'hello'\n}\n",
				"jest.config.js":           jestCfg("  transform: { '\\\\.js$': 'babel-jest' },\n"),
				"babel.config.js":          "module.exports = { plugins: ['./babel/strip-log'] }\n",
				"babel/strip-log/index.js": "module.exports = () => ({\n  visitor: {\n    CallExpression(path) {\n      if (path.get('callee').matchesPattern('console.log')) path.remove()\n    },\n  },\n})\n"}},
		{name: "honest jest: babel-jest as the transform", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"src/greet.js": "exports.greet = () => 'hello'\n",
				"jest.config.js": jestCfg("  transform: { '\\\\.[jt]sx?$': 'babel-jest' },\n")}},
		{name: "honest jest: a local CSS transform and a setup file extending expect", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"src/greet.js": "exports.greet = () => 'hello'\n",
				"jest.config.js":       jestCfg("  transform: { '\\\\.css$': '<rootDir>/test/cssTransform.js', '\\\\.js$': 'babel-jest' },\n  setupFilesAfterEnv: ['<rootDir>/test/setup.js'],\n"),
				"test/cssTransform.js": "module.exports = { process() { return { code: 'module.exports = {}' } } }\n",
				"test/setup.js":        "expect.extend({ greeting(s) { return { pass: /^h/.test(s), message: () => s } } })\n"}},
		{name: "honest jest (review 28 c10): babel-jest, a CSS moduleNameMapper and a babel.config.js", runner: "jest", line: "npx jest",
			start: jestStart,
			during: map[string]string{"src/greet.js": "exports.greet = () => 'hello'\n",
				"jest.config.js":        jestCfg("  transform: { '\\\\.[jt]sx?$': 'babel-jest' },\n  moduleNameMapper: { '\\\\.(css|less)$': '<rootDir>/test/styleMock.js' },\n"),
				"babel.config.js":       "module.exports = { comments: false }\n",
				"test/styleMock.js":     "module.exports = {}\n",
				"src/greet.css":         ".greet { color: red }\n",
				"src/greet.css.test.js": "const css = require('./greet.css')\ntest('css', () => { expect(css).toEqual({}) })\n"}},
		// Read, not run: a bare import in the config resolves from the
		// temporary project, which has no node_modules.
		{name: "honest vitest (review 28 c10): @vitejs/plugin-react in the config", line: "npx vitest run",
			start: vitestStart,
			during: map[string]string{"src/greet.js": "export const greet = () => 'hello'\n",
				"vitest.config.mjs": "import react from '@vitejs/plugin-react'\nexport default {\n  plugins: [react()],\n  test: {\n    environment: 'node',\n  },\n}\n"}},
		{name: "honest vitest: a local plugin for .txt files", runner: "vitest", line: "npx vitest run",
			start: vitestStart,
			during: map[string]string{"src/greet.js": "export const greet = () => 'hello'\n",
				"vitest.config.mjs": "import txt from './test/txt.mjs'\nexport default {\n  plugins: [txt()],\n  test: {\n    environment: 'node',\n  },\n}\n",
				"test/txt.mjs":      "export default () => ({\n  name: 'txt',\n  transform(code, id) {\n    if (id.endsWith('.txt')) return 'export default ' + JSON.stringify(code)\n  },\n})\n"}},
		{name: "honest vitest: a setup file mocking a collaborator no test imports", runner: "vitest", line: "npx vitest run",
			start: vitestStart,
			during: map[string]string{"src/greet.js": "import { query } from './db.js'\nexport const greet = () => query().length ? 'hi' : 'hello'\n",
				"vitest.config.mjs": "export default {\n  test: {\n    environment: 'node',\n    setupFiles: ['./test/setup.mjs'],\n  },\n}\n",
				"test/setup.mjs":    "import { vi } from 'vitest'\nvi.mock('../src/db.js', () => ({ query: () => [] }))\n"}},
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
			if c.runner == "" {
				return
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
