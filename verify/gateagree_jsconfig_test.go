//go:build unix

package verify_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGateVerifyAgreeJSConfigs (round 30, c2; issue 25, "one judgement
// for gate and verify"): a jest or vitest config, the setup file it names
// or a Babel plugin babel-jest compiles through, weakened by a commit,
// was judged by the local QA gate (testrun.InputChanges) but not by
// verify, so a weakened config that reached the remote with hooks off, or
// from a session whose database was deleted, passed CI. Both now call
// testrun.ConfigChange, SetupFileChange and BabelPluginChange, verify
// over git objects. Each row runs the real jest 29 or vitest 3 through
// `npm test`: a lazy row's config passes the broken src/greet.js
// ('helo'), an honest row's passes the working code; the gate and verify
// must both refuse the lazy rows and both pass the honest ones (raising
// testTimeout and adding a reporter were refused by the gate before).
func TestGateVerifyAgreeJSConfigs(t *testing.T) {
	bin := jsBin()
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("jest/vitest not found (SESSIONGATE_JS_BIN or .ci/node/node_modules/.bin): .ci/run installs them")
		}
		t.Skip("jest/vitest not installed (SESSIONGATE_JS_BIN or .ci/node/node_modules/.bin)")
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("CI", "true")
	// jest's jest_<n> cache and node's compile cache go to the temp
	// folder: the test's own, or tmpleak fails the package under CI=true.
	t.Setenv("TMPDIR", t.TempDir())
	const greet = "exports.greet = () => 'hello'\n"
	const greetTest = "const { greet } = require('./greet')\ntest('greet', () => { expect(greet()).toBe('hello') })\n"
	const padTest = "const { pad } = require('./pad')\ntest('pad', () => { expect(pad('a')).toBe(' a') })\n"
	const jestCfg = "module.exports = {\n  testEnvironment: 'node',\n  testMatch: ['**/*.test.js'],\n  testTimeout: 5000,\n}\n"
	jest := map[string]string{"package.json": `{"name": "p", "scripts": {"test": "jest --ci --no-cache"}}`,
		"jest.config.js": jestCfg, "src/greet.js": greet, "src/greet.test.js": greetTest,
		"src/pad.js": "exports.pad = (s) => ' ' + s\n", "src/pad.test.js": padTest}
	jestPkg := map[string]string{"package.json": "{\n  \"name\": \"p\",\n  \"scripts\": {\"test\": \"jest --ci --no-cache\"},\n  \"jest\": {\"testEnvironment\": \"node\"}\n}\n",
		"src/greet.js": greet, "src/greet.test.js": greetTest,
		"src/pad.js": "exports.pad = (s) => ' ' + s\n", "src/pad.test.js": padTest}
	const vitestCfg = "export default {\n  test: {\n    globals: true,\n    environment: 'node',\n  },\n}\n"
	vitest := map[string]string{"package.json": `{"name": "p", "scripts": {"test": "vitest run"}}`,
		"vitest.config.mjs": vitestCfg, "src/greet.js": "export const greet = () => 'hello'\n",
		"src/greet.test.js": "import { greet } from './greet.js'\ntest('greet', () => { expect(greet()).toBe('hello') })\n",
		"src/pad.js":        "export const pad = (s) => ' ' + s\n",
		"src/pad.test.js":   "import { pad } from './pad.js'\ntest('pad', () => { expect(pad('a')).toBe(' a') })\n"}
	brokenCJS := map[string]string{"src/greet.js": "exports.greet = () => 'helo'\n"}
	brokenESM := map[string]string{"src/greet.js": "export const greet = () => 'helo'\n"}
	cfg := func(lines string) string {
		return "module.exports = {\n  testEnvironment: 'node',\n  testMatch: ['**/*.test.js'],\n  testTimeout: 5000,\n" + lines + "}\n"
	}
	for _, c := range []agreeRow{
		{name: "lazy: jest.config.js testPathIgnorePatterns", base: jest, broken: brokenCJS,
			work: map[string]string{"jest.config.js": cfg("  testPathIgnorePatterns: ['/node_modules/', 'greet'],\n")}, lazy: true},
		{name: "lazy: jest.config.js testMatch narrowed", base: jest, broken: brokenCJS,
			work: map[string]string{"jest.config.js": "module.exports = {\n  testEnvironment: 'node',\n  testMatch: ['**/pad.test.js'],\n  testTimeout: 5000,\n}\n"}, lazy: true},
		{name: "lazy: jest.config.js passWithNoTests with the tests' folder moved out of roots", base: jest, broken: brokenCJS,
			work: map[string]string{"jest.config.js": cfg("  roots: ['<rootDir>/test'],\n  passWithNoTests: true,\n"), "test/.keep": ""}, lazy: true},
		{name: "lazy: jest.config.js setupFilesAfterEnv stubbing expect", base: jest, broken: brokenCJS,
			work: map[string]string{"jest.config.js": cfg("  setupFilesAfterEnv: ['<rootDir>/test/setup.js'],\n"),
				"test/setup.js": "globalThis.expect = () => ({ toBe() {} })\n"}, lazy: true},
		{name: "lazy: a setup file the team's config names now stubs expect", base: with3(jest, "jest.config.js", cfg("  setupFilesAfterEnv: ['<rootDir>/test/setup.js'],\n"),
			"test/setup.js", "expect.extend({})\n"), broken: brokenCJS,
			work: map[string]string{"test/setup.js": "expect.extend({})\nglobalThis.expect = () => ({ toBe() {} })\n"}, lazy: true},
		{name: "lazy: package.json's jest key testPathIgnorePatterns", base: jestPkg, broken: brokenCJS,
			work: map[string]string{"package.json": "{\n  \"name\": \"p\",\n  \"scripts\": {\"test\": \"jest --ci --no-cache\"},\n  \"jest\": {\"testEnvironment\": \"node\", \"testPathIgnorePatterns\": [\"greet\"]}\n}\n"}, lazy: true},
		{name: "lazy: vitest.config.mjs exclude", base: vitest, broken: brokenESM,
			work: map[string]string{"vitest.config.mjs": "export default {\n  test: {\n    globals: true,\n    environment: 'node',\n    exclude: ['**/greet.test.js', '**/node_modules/**'],\n  },\n}\n"}, lazy: true},
		{name: "lazy: babel.config.js naming a plugin that rewrites the string", base: jest, broken: brokenCJS,
			work: map[string]string{"babel.config.js": "module.exports = { plugins: ['./babel/fix.js'] }\n",
				"babel/fix.js": "module.exports = () => ({ visitor: { StringLiteral(p) { if (p.node.value === 'helo') p.node.value = 'hello' } } })\n"}, lazy: true},
		{name: "honest: a test file added", base: jest,
			work: map[string]string{"src/greet2.test.js": "const { greet } = require('./greet')\ntest('greet twice', () => { expect(greet() + greet()).toBe('hellohello') })\n"}},
		{name: "honest: jest.config.js adds a reporter", base: jest,
			work: map[string]string{"jest.config.js": cfg("  reporters: ['default', 'summary'],\n")}},
		{name: "honest: jest.config.js raises testTimeout", base: jest,
			work: map[string]string{"jest.config.js": "module.exports = {\n  testEnvironment: 'node',\n  testMatch: ['**/*.test.js'],\n  testTimeout: 20000,\n}\n"}},
		{name: "honest: package.json's jest key raises testTimeout", base: with3(jestPkg, "package.json", "{\n  \"name\": \"p\",\n  \"scripts\": {\"test\": \"jest --ci --no-cache\"},\n  \"jest\": {\"testEnvironment\": \"node\", \"testTimeout\": 5000}\n}\n"),
			work: map[string]string{"package.json": "{\n  \"name\": \"p\",\n  \"scripts\": {\"test\": \"jest --ci --no-cache\"},\n  \"jest\": {\"testEnvironment\": \"node\", \"testTimeout\": 30000}\n}\n"}},
		{name: "honest: vitest.config.mjs raises testTimeout", base: vitest,
			work: map[string]string{"vitest.config.mjs": "export default {\n  test: {\n    globals: true,\n    environment: 'node',\n    testTimeout: 20000,\n  },\n}\n"}},
	} {
		c.cmd = "npm test"
		t.Run(c.name, func(t *testing.T) { gateVerifyRow(t, c) })
	}
}

// jsBin is the folder holding the real jest and vitest
// (SESSIONGATE_JS_BIN, or the one .ci/run installs), "" when none.
func jsBin() string {
	for _, d := range []string{os.Getenv("SESSIONGATE_JS_BIN"), filepath.Join("..", ".ci", "node", "node_modules", ".bin")} {
		if d == "" {
			continue
		}
		if p, err := filepath.Abs(d); err == nil {
			_, errJ := os.Stat(filepath.Join(p, "jest"))
			_, errV := os.Stat(filepath.Join(p, "vitest"))
			if errJ == nil && errV == nil {
				return p
			}
		}
	}
	return ""
}
