package testrun_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestInputsJSTestEnvironment: pass 29 (c3), review 28 (c10)'s open
// false block. Adding @vitejs/plugin-react, a team turns vitest's
// `environment: 'node'` into 'jsdom' (jest: testEnvironment) and
// installs the package: the generic config compare read the changed
// line as "removes or changes lines" and refused the QA run. A value
// naming a package the project lists and has installed is a choice of
// DOM, no weakening. Lazy twins stay judged: an environment that is a
// file of the work tree (its setup can rewrite what tests see), a
// package in node_modules that package.json does not list (planted
// beside the install), a name nothing installs.
func TestInputsJSTestEnvironment(t *testing.T) {
	gittest.Require(t)
	vitestStart := map[string]string{"package.json": `{"name": "p", "type": "module", "devDependencies": {"vitest": "^3.2.0"}}`,
		"vitest.config.mjs": "export default {\n  test: {\n    environment: 'node',\n  },\n}\n",
		"src/greet.js":      "export const greet = () => 'helo'\n",
		"src/greet.test.js": "import { test, expect } from 'vitest'\nimport { greet } from './greet.js'\ntest('greet', () => { expect(greet()).toBe('hello') })\n"}
	jestStart := map[string]string{"package.json": `{"name": "p", "devDependencies": {"jest": "^29.7.0"}}`,
		"jest.config.js":    "module.exports = {\n  testEnvironment: 'node',\n}\n",
		"src/greet.js":      "exports.greet = () => 'helo'\n",
		"src/greet.test.js": "const { greet } = require('./greet')\ntest('greet', () => { expect(greet()).toBe('hello') })\n"}
	const fixed = "export const greet = () => 'hello'\n"
	vitestCfg := func(env string) string {
		return "import react from '@vitejs/plugin-react'\nexport default {\n  plugins: [react()],\n  test: {\n    environment: " + env + ",\n  },\n}\n"
	}
	withDeps := func(deps string) string {
		return `{"name": "p", "type": "module", "devDependencies": {"vitest": "^3.2.0", "@vitejs/plugin-react": "^4.3.0"` + deps + `}}`
	}
	for _, c := range []struct {
		name    string
		line    string
		start   map[string]string
		during  map[string]string
		weakens bool
	}{
		{name: "honest vitest: node -> jsdom with jsdom listed and installed", line: "npx vitest run", start: vitestStart,
			during: map[string]string{"src/greet.js": fixed, "vitest.config.mjs": vitestCfg("'jsdom'"),
				"package.json":                    withDeps(`, "jsdom": "^25.0.0"`),
				"node_modules/jsdom/package.json": `{"name": "jsdom", "version": "25.0.1"}`}},
		{name: "honest vitest: node -> happy-dom, double quotes", line: "npx vitest run", start: vitestStart,
			during: map[string]string{"src/greet.js": fixed, "vitest.config.mjs": vitestCfg(`"happy-dom"`),
				"package.json":                        withDeps(`, "happy-dom": "^15.0.0"`),
				"node_modules/happy-dom/package.json": `{"name": "happy-dom", "version": "15.11.0"}`}},
		{name: "honest jest: testEnvironment node -> jsdom (jest-environment-jsdom)", line: "npx jest", start: jestStart,
			during: map[string]string{"src/greet.js": "exports.greet = () => 'hello'\n",
				"jest.config.js": "module.exports = {\n  testEnvironment: 'jsdom',\n}\n",
				"package.json":   `{"name": "p", "devDependencies": {"jest": "^29.7.0", "jest-environment-jsdom": "^29.7.0"}}`,
				"node_modules/jest-environment-jsdom/package.json": `{"name": "jest-environment-jsdom", "version": "29.7.0"}`}},
		// Lazy twins.
		{name: "vitest: the environment is a file of the work tree", line: "npx vitest run", start: vitestStart,
			during: map[string]string{"vitest.config.mjs": vitestCfg("'./test/env.mjs'"),
				"package.json": withDeps(""),
				"test/env.mjs": "export default { name: 'x', transformMode: 'ssr', setup() { globalThis.greet = () => 'hello'; return { teardown() {} } } }\n"},
			weakens: true},
		{name: "jest: the environment is a package planted in node_modules, listed nowhere", line: "npx jest", start: jestStart,
			during: map[string]string{"jest.config.js": "module.exports = {\n  testEnvironment: 'quiet',\n}\n",
				"node_modules/jest-environment-quiet/package.json": `{"name": "jest-environment-quiet", "main": "index.js"}`,
				"node_modules/jest-environment-quiet/index.js":     "module.exports = require('jest-environment-node').TestEnvironment\n"},
			weakens: true},
		{name: "vitest: jsdom listed but not installed", line: "npx vitest run", start: vitestStart,
			during:  map[string]string{"vitest.config.mjs": vitestCfg("'jsdom'"), "package.json": withDeps(`, "jsdom": "^25.0.0"`)},
			weakens: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo, start := commitStart(t, root, c.start)
			writeFiles(t, root, c.during)
			chs, err := testrun.InputChanges(context.Background(), repo, start, c.line, false)
			if err != nil {
				t.Fatal(err)
			}
			weak, _ := testrun.SplitChanges(chs)
			if (len(weak) > 0) != c.weakens {
				t.Errorf("InputChanges(%q) = %q: weakening %q, want weakens=%v", c.line, chs, weak, c.weakens)
			}
		})
	}
}
