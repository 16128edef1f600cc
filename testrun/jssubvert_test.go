package testrun

import "testing"

func TestJSRunSubverted(t *testing.T) {
	const greet = "'use strict'\nfunction greet(name) { return 'hello' }\nmodule.exports = { greet }\n"
	for _, tc := range []struct {
		name, file, was, now string
		lazy                 bool
	}{
		{"assert patched in the code under test", "greet.js", greet, greet + "require('node:assert').strictEqual = function () {}\n", true},
		{"through a bound name", "test/setup.mjs", "", "import assert from 'node:assert/strict'\nassert.deepStrictEqual = () => {}\n", true},
		{"Object.assign over it", "greet.js", greet, greet + "const assert = require('assert')\nObject.assign(assert, { equal() {} })\n", true},
		// Honest.
		{"a test using assert", "test/greet.test.js", "", "const assert = require('node:assert')\nconst { test } = require('node:test')\ntest('a', () => { assert.strictEqual(1, 1) })\n", false},
		{"a local named assert, no assert module", "lib/check.js", "", "const assert = {}\nassert.ok = true\n", false},
		{"a comparison", "greet.js", greet, greet + "const assert = require('assert')\nif (assert.strictEqual == null) throw new Error('x')\n", false},
		{"kept from the start", "test/setup.js", "const assert = require('assert')\nassert.equal = assert.strictEqual\n", "const assert = require('assert')\nassert.equal = assert.strictEqual\n// more\n", false},
	} {
		if got := jsRunSubverted(tc.file, []byte(tc.was), []byte(tc.now)); (got != "") != tc.lazy {
			t.Errorf("%s: jsRunSubverted = %q, want lazy %v", tc.name, got, tc.lazy)
		}
	}
}
