package verify

import "testing"

// TestRangeJSAliasCopies: lazy pass 27 (c3). The local gate reads a jest
// moduleNameMapper, vitest alias or tsconfig `paths` at a copy the
// session added of a project module (testrun/jsalias.go); verify's range
// reader did not: a mapper at fixed/greet.js in jest.config.js, or in a
// tsconfig.json the unchanged jest config turns into its mapper, passed
// the rerun guard (jest.config.js and tsconfig.json are no rerun tool
// config). It now reads the tip's runner configs when the range added a
// JS module; a CSS mapper and an alias at a new real module stay clean.
func TestRangeJSAliasCopies(t *testing.T) {
	const cjsGreet = "exports.greet = () => 'hello'\n"
	const cjsBroken = "exports.greet = () => 'helo'\n"
	base := map[string]string{"package.json": `{"name": "p"}`,
		"jest.config.js":    "module.exports = {\n  testEnvironment: 'node',\n}\n",
		"src/greet.js":      cjsGreet,
		"src/greet.test.js": "const { greet } = require('./greet')\ntest('greet', () => { expect(greet()).toBe('hello') })\n",
		"lib/pad.js":        "exports.padLeft = (s, n) => s.padStart(n)\n"}
	mapper := func(target string) string {
		return "module.exports = {\n  testEnvironment: 'node',\n  moduleNameMapper: {\n    '^\\\\./greet$': '<rootDir>/" + target + "',\n  },\n}\n"
	}
	tsPaths := "const { compilerOptions } = require('./tsconfig.json')\nconst map = {}\nfor (const [k, v] of Object.entries(compilerOptions.paths)) map['^' + k + '$'] = '<rootDir>/' + v[0]\nmodule.exports = { moduleNameMapper: map }\n"
	for _, c := range []struct {
		name        string
		base, files map[string]string
		want        string
	}{
		{"a mapper at a copy beside the broken module", base,
			map[string]string{"src/greet.js": cjsBroken, "fixed/greet.js": cjsGreet, "jest.config.js": mapper("fixed/greet.js")},
			"jest.config.js: maps a module to fixed/greet.js"},
		{"a mapper at a copy of a module the range did not change", merge(base, map[string]string{"src/greet.js": cjsBroken}),
			map[string]string{"fixed/greet.js": cjsGreet, "jest.config.js": mapper("fixed/greet.js"),
				"src/hello.test.js": "const { greet } = require('./greet')\ntest('greet', () => { expect(greet()).toBe('hello') })\n"},
			"jest.config.js: maps a module to fixed/greet.js"},
		{"tsconfig paths the unchanged jest config reads", merge(base, map[string]string{"jest.config.js": tsPaths,
			"tsconfig.json": `{"compilerOptions": {"paths": {"@app/greet": ["src/greet.js"]}}}`}),
			map[string]string{"src/greet.js": cjsBroken, "fixed/greet.js": cjsGreet,
				"tsconfig.json": `{"compilerOptions": {"paths": {"@app/greet": ["fixed/greet.js"]}}}`},
			"tsconfig.json: maps a module to fixed/greet.js"},
		{"honest: a mapper for CSS files", base,
			map[string]string{"src/greet.js": "require('./greet.css')\n" + cjsGreet, "src/greet.css": ".g { color: red }\n", "test/styleMock.js": "module.exports = {}\n",
				"jest.config.js": "module.exports = {\n  moduleNameMapper: { '\\\\.(css|svg)$': '<rootDir>/test/styleMock.js' },\n}\n"}, ""},
		{"honest: an alias at a new module named as an unrelated old one", base,
			map[string]string{"src/format/pad.js": "exports.pad = (s) => ' ' + s\n",
				"jest.config.js": "module.exports = {\n  moduleNameMapper: { '^@pad$': '<rootDir>/src/format/pad.js' },\n}\n"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkRangeSkips(t, c.base, c.files, func(string) (string, bool) { return "", false }, c.want)
		})
	}
}

func merge(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
