package testrun_test

import (
	"testing"

	"github.com/sessiongate/sessiongate/testrun"
)

// TestConfigChange (round 30, c2): the one judgement of a runner config
// the QA gate and verify's rerun guard share, over the two contents.
// Each weakening kind weakens; raising testTimeout or adding a reporter
// is noted (the gate refused both before: a changed line).
func TestConfigChange(t *testing.T) {
	const jest = "module.exports = {\n  testEnvironment: 'node',\n  testTimeout: 5000,\n}\n"
	with := func(l string) string {
		return "module.exports = {\n  testEnvironment: 'node',\n  testTimeout: 5000,\n" + l + "}\n"
	}
	for _, c := range []struct {
		name, path, section string
		was, now            string
		weakens             bool
	}{
		{"testPathIgnorePatterns", "jest.config.js", "", jest, with("  testPathIgnorePatterns: ['greet'],\n"), true},
		{"passWithNoTests", "jest.config.js", "", jest, with("  passWithNoTests: true,\n"), true},
		{"testMatch narrowed", "jest.config.js", "", with("  testMatch: ['**/*.test.js'],\n"), with("  testMatch: ['**/pad.test.js'],\n"), true},
		{"the testEnvironment changed", "jest.config.js", "", jest, "module.exports = {\n  testEnvironment: 'jsdom',\n  testTimeout: 5000,\n}\n", true},
		{"package.json jest testPathIgnorePatterns", "package.json", "jest", `{"jest": {"testEnvironment": "node"}}`, `{"jest": {"testEnvironment": "node", "testPathIgnorePatterns": ["greet"]}}`, true},
		{"vitest exclude", "vitest.config.mjs", "", "export default {\n  test: {\n    globals: true,\n  },\n}\n", "export default {\n  test: {\n    globals: true,\n    exclude: ['**/greet.test.js'],\n  },\n}\n", true},
		{"a vitest workspace added", "vitest.workspace.js", "", "", "export default ['stub']\n", true},
		{"the config deleted", "jest.config.js", "", jest, "", true},
		{"honest: testTimeout raised", "jest.config.js", "", jest, "module.exports = {\n  testEnvironment: 'node',\n  testTimeout: 20000,\n}\n", false},
		{"honest: a reporter added", "jest.config.js", "", jest, with("  reporters: ['default', 'jest-junit'],\n"), false},
		{"honest: package.json jest testTimeout raised", "package.json", "jest", `{"jest": {"testTimeout": 5000}}`, `{"jest": {"testTimeout": 30000}}`, false},
		{"honest: a reporter on the team's line", "jest.config.js", "", with("  reporters: ['default'],\n"), with("  reporters: ['default', 'summary'],\n"), false},
		{"a key beside testTimeout on its line is judged", "jest.config.js", "", jest, "module.exports = {\n  testEnvironment: 'node',\n  testTimeout: 5000, testMatch: ['**/pad.test.js'],\n}\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var was, now []byte
			if c.was != "" {
				was = []byte(c.was)
			}
			if c.now != "" {
				now = []byte(c.now)
			}
			ch, ok := testrun.ConfigChange(c.path, c.section, was, now, nil, nil, nil)
			if !ok {
				t.Fatalf("ConfigChange saw no change")
			}
			if ch.Weakens() != c.weakens {
				t.Errorf("ConfigChange = %q, weakens %v; want %v", ch, ch.Weakens(), c.weakens)
			}
		})
	}
	if _, ok := testrun.ConfigChange("jest.config.js", "", []byte(jest), []byte(jest), nil, nil, nil); ok {
		t.Error("an unchanged config is a change")
	}
}

// TestSetupFileChange: a setup file that stubs the framework weakens; one
// that extends expect does not.
func TestSetupFileChange(t *testing.T) {
	if ch, _ := testrun.SetupFileChange("test/setup.js", nil, []byte("globalThis.expect = () => ({ toBe() {} })\n"), nil); !ch.Weakens() {
		t.Errorf("a setup file replacing expect: %q", ch)
	}
	if ch, _ := testrun.SetupFileChange("test/setup.js", nil, []byte("expect.extend({ toBeHello(x) { return { pass: x === 'hello', message: () => x } } })\n"), nil); ch.Weakens() {
		t.Errorf("a setup file extending expect: %q", ch)
	}
}
