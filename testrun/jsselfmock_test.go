package testrun_test

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestJSSelfMock: a JS test that mocks the module it tests (lazy pass
// 27, c3). `jest.mock('./greet', () => ...)` or `vi.mock` is hoisted
// above the imports by the real jest and vitest: over a broken greet.js
// (`helo`) the new test passes, and its expect on a call read as a real
// check, so SkipsAdded and verify's SkipsAddedRange said nothing. Honest
// twins: a mock of a collaborator beside the module under test, a partial
// mock keeping the module's own code, an automock of a collaborator the
// test reads, a test helper imported beside the mocks.
func TestJSSelfMock(t *testing.T) {
	gittest.Require(t)
	const broken = "exports.greet = (n) => 'helo, ' + n\n"
	const fixed = "exports.greet = (n) => 'hello, ' + n\n"
	const esmBroken = "export const greet = (n) => 'helo, ' + n\n"
	start := map[string]string{"package.json": `{"name": "p"}`, "src/greet.js": fixed,
		"src/api.js": "exports.name = () => { throw new Error('network') }\n"}
	esmStart := map[string]string{"package.json": `{"name": "p", "type": "module"}`, "src/greet.js": "export const greet = (n) => 'hello, ' + n\n"}
	for _, c := range []struct {
		name          string
		runner        string
		start, during map[string]string
		weakens       bool
	}{
		{name: "jest.mock of the test's namesake with a factory", runner: "jest", start: start,
			during: map[string]string{"src/greet.js": broken,
				"src/greet.test.js": "jest.mock('./greet', () => ({ greet: (n) => 'hello, ' + n }))\nconst { greet } = require('./greet')\ntest('greet', () => { expect(greet('bob')).toBe('hello, bob') })\n"},
			weakens: true},
		{name: "vi.mock of the module, the test named otherwise", runner: "vitest", start: esmStart,
			during: map[string]string{"src/greet.js": esmBroken,
				"test/welcome.test.js": "import { test, expect, vi } from 'vitest'\nimport { greet } from '../src/greet.js'\nvi.mock('../src/greet.js', () => ({ greet: (n) => 'hello, ' + n }))\ntest('welcome', () => { expect(greet('bob')).toBe('hello, bob') })\n"},
			weakens: true},
		{name: "jest.doMock then a require in the test", runner: "jest", start: start,
			during: map[string]string{"src/greet.js": broken,
				"src/__tests__/hello.js": "test('greet', () => {\n  jest.doMock('../greet', () => ({ greet: (n) => 'hello, ' + n }))\n  const { greet } = require('../greet')\n  expect(greet('bob')).toBe('hello, bob')\n})\n"},
			weakens: true},
		// Honest twins: the code fixed, mocks of what it calls.
		{name: "honest: a collaborator mocked, the module under test real", runner: "jest", start: start,
			during: map[string]string{"src/greet.js": "const api = require('./api')\nexports.greet = (n) => 'hello, ' + n\nexports.greetUser = () => exports.greet(api.name())\n",
				"src/greet.test.js": "jest.mock('./api', () => ({ name: () => 'ann' }))\nconst { greetUser } = require('./greet')\ntest('greetUser', () => { expect(greetUser()).toBe('hello, ann') })\n"}},
		{name: "honest: an automocked collaborator the test reads", runner: "jest", start: start,
			during: map[string]string{"src/greet.js": "const api = require('./api')\nexports.greet = (n) => 'hello, ' + n\nexports.greetUser = () => exports.greet(api.name())\n",
				"src/greet.test.js": "jest.mock('./api')\nconst api = require('./api')\nconst { greetUser } = require('./greet')\ntest('greetUser', () => { api.name.mockReturnValue('ann'); expect(greetUser()).toBe('hello, ann') })\n"}},
		{name: "honest: a partial mock keeping the module's code", runner: "jest", start: start,
			during: map[string]string{"src/greet.js": "exports.greet = (n) => 'hello, ' + n\nexports.shout = (n) => exports.greet(n).toUpperCase()\n",
				"src/greet.test.js": "jest.mock('./greet', () => ({ ...jest.requireActual('./greet'), extra: () => 1 }))\nconst { greet } = require('./greet')\ntest('greet', () => { expect(greet('bob')).toBe('hello, bob') })\n"}},
		{name: "honest: vi.mock of a collaborator, a test helper imported", runner: "vitest", start: merge(esmStart, map[string]string{"src/api.js": "export const name = () => { throw new Error('network') }\n"}),
			during: map[string]string{"src/greet.js": "import { name } from './api.js'\nexport const greet = (n) => 'hello, ' + n\nexport const greetUser = () => greet(name())\n",
				"test/helpers/names.js": "export const ann = 'ann'\n",
				"test/greet.test.js":    "import { test, expect, vi } from 'vitest'\nimport { ann } from './helpers/names.js'\nimport { greetUser } from '../src/greet.js'\nvi.mock('../src/api.js', () => ({ name: () => ann }))\ntest('greetUser', () => { expect(greetUser()).toBe('hello, ann') })\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			repo, start := commitStart(t, root, c.start)
			writeFiles(t, root, c.during)
			got, err := testrun.SkipsAdded(context.Background(), repo, start)
			if err != nil {
				t.Fatal(err)
			}
			if (len(got) > 0) != c.weakens {
				t.Errorf("SkipsAdded = %q, want weakens=%v", got, c.weakens)
			}
			var files []testrun.RangeFile
			for p, b := range c.during {
				w, existed := c.start[p]
				files = append(files, testrun.RangeFile{Path: p, Existed: existed, Was: []byte(w), Now: []byte(b)})
			}
			if byPath := testrun.SkipsAddedRange(files, nil, nil, nil); (len(byPath) > 0) != c.weakens {
				t.Errorf("SkipsAddedRange = %q, want weakens=%v", byPath, c.weakens)
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
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s: %v, want a pass: the lazy change passes the broken code, the honest work passes\n%s", c.runner, err, out)
			}
		})
	}
}
