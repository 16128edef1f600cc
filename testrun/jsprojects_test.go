package testrun_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// jsRunner finds a real jest or vitest: SESSIONGATE_JS_BIN (a
// node_modules/.bin folder), else .ci/node's. "" when neither has it.
func jsRunner(name string) string {
	for _, d := range []string{os.Getenv("SESSIONGATE_JS_BIN"), filepath.Join("..", ".ci", "node", "node_modules", ".bin")} {
		if d == "" {
			continue
		}
		if p, err := filepath.Abs(filepath.Join(d, name)); err == nil {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	return ""
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for n, b := range files {
		p := filepath.Join(root, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestInputsJSProjects: jest `projects`, vitest workspace files and setup
// files decide what a passing `jest`/`vitest run` ran (issue 25, the
// closing note). Each lazy row passed InputChanges before (no change read
// as weakening) while the real runner exits 0 on a project whose own test
// fails; each honest twin (projects and workspaces kept or widened, a
// setup file that extends expect) still counts. With the real runner
// present the exit codes are checked too: the lazy rows pass only because
// of the change.
func TestInputsJSProjects(t *testing.T) {
	gittest.Require(t)
	const failing = "test('greet', () => { expect('hi').toBe('hello') })\n"
	const passing = "test('ok', () => { expect(1).toBe(1) })\n"
	const vFailing = "import { test, expect } from 'vitest'\n" + failing
	const vPassing = "import { test, expect } from 'vitest'\n" + passing
	twoProjects := map[string]string{"package.json": `{"name": "p"}`,
		"jest.config.js":     "module.exports = {\n  projects: [\n    '<rootDir>/app',\n    '<rootDir>/lib',\n  ],\n}\n",
		"app/jest.config.js": "module.exports = { displayName: 'app' }\n", "app/a.test.js": passing,
		"lib/jest.config.js": "module.exports = { displayName: 'lib' }\n", "lib/l.test.js": passing}
	for _, c := range []struct {
		name          string
		runner, line  string
		start, during map[string]string // "" during: deleted
		weakens       bool
		exit          int // the real runner's exit code on the work tree
	}{
		{name: "jest: projects name a stub", runner: "jest", line: "npx jest",
			start:   map[string]string{"package.json": `{"name": "p"}`, "src/greet.test.js": failing},
			during:  map[string]string{"jest.config.js": "module.exports = {\n  projects: [\n    '<rootDir>/stub',\n  ],\n}\n", "stub/jest.config.js": "module.exports = {}\n", "stub/ok.test.js": passing},
			weakens: true},
		{name: "jest: a project's own config ignores its failing test", runner: "jest", line: "npx jest",
			start:   merge(twoProjects, map[string]string{"app/greet.test.js": failing}),
			during:  map[string]string{"app/jest.config.js": "module.exports = {\n  displayName: 'app',\n  testPathIgnorePatterns: ['greet'],\n}\n"},
			weakens: true},
		{name: "jest: the setup file replaces expect", runner: "jest", line: "npx jest",
			start:   map[string]string{"package.json": `{"name": "p"}`, "jest.config.js": "module.exports = {\n  setupFilesAfterEnv: ['<rootDir>/jest.setup.js'],\n}\n", "jest.setup.js": "// shared setup\n", "src/greet.test.js": passing},
			during:  map[string]string{"src/greet.test.js": failing, "jest.setup.js": "// shared setup\nglobalThis.expect = () => new Proxy({}, { get: () => () => {} })\n"},
			weakens: true},
		{name: "vitest: a workspace file names a stub", runner: "vitest", line: "npx vitest run",
			start:   map[string]string{"package.json": `{"name": "p", "type": "module"}`, "src/greet.test.js": vFailing},
			during:  map[string]string{"vitest.workspace.mjs": "export default ['stub']\n", "stub/ok.test.js": vPassing},
			weakens: true},
		// Honest twins: the same configs, used for the work.
		{name: "jest: a project added on its own line, a test added", runner: "jest", line: "npx jest",
			start: twoProjects,
			during: map[string]string{"jest.config.js": "module.exports = {\n  projects: [\n    '<rootDir>/app',\n    '<rootDir>/lib',\n    '<rootDir>/cli',\n  ],\n}\n",
				"cli/jest.config.js": "module.exports = { displayName: 'cli' }\n", "cli/c.test.js": passing, "app/b.test.js": passing}},
		{name: "jest: a setup file added that extends expect", runner: "jest", line: "npx jest",
			start: map[string]string{"package.json": `{"name": "p"}`, "src/greet.test.js": passing},
			during: map[string]string{"jest.config.js": "module.exports = {\n  setupFilesAfterEnv: ['<rootDir>/jest.setup.js'],\n}\n",
				"jest.setup.js": "expect.extend({\n  toBeGreeting(s) { return { pass: s.startsWith('hello'), message: () => s } },\n})\n",
				"src/h.test.js": "test('h', () => { expect('hello x').toBeGreeting() })\n"}},
		{name: "vitest: a workspace of the start gains a project", runner: "vitest", line: "npx vitest run",
			start:  map[string]string{"package.json": `{"name": "p", "type": "module"}`, "vitest.workspace.mjs": "export default [\n  'app',\n]\n", "app/a.test.js": vPassing},
			during: map[string]string{"vitest.workspace.mjs": "export default [\n  'app',\n  'lib',\n]\n", "lib/l.test.js": vPassing}},
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
			bin := jsRunner(c.runner)
			if bin == "" {
				// The reader rows above ran; the real runner's exit code is
				// what shows the route is real. .ci/run installs jest and
				// vitest (.ci/node/package.json), so CI must have them.
				if os.Getenv("CI") == "true" {
					t.Fatalf("%s not found (SESSIONGATE_JS_BIN or .ci/node/node_modules/.bin): .ci/run installs it; run `npm ci` in .ci/node", c.runner)
				}
				t.Logf("%s not found (SESSIONGATE_JS_BIN or .ci/node/node_modules/.bin; `npm ci` in .ci/node installs it): the run's exit code is not checked", c.runner)
				return
			}
			// jest keeps its transform cache in $TMPDIR/jest_<uid> unless
			// told otherwise; the test's own folder keeps TMPDIR clean.
			args := []string{"--ci", "--cacheDirectory", t.TempDir()}
			if c.runner == "vitest" {
				args = []string{"run"}
			}
			cmd := exec.Command(bin, args...)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "CI=true", "NO_COLOR=1")
			out, err := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); code != 0 {
				t.Errorf("%s exited %d (%v), want 0: the lazy change passes, the honest work passes\n%s", c.runner, code, err, out)
			}
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

// commitStart makes root a repository whose one commit, "start", holds
// files, and opens it: the start of the InputChanges tests.
func commitStart(t *testing.T, root string, files map[string]string) (*gitrepo.Repo, string) {
	t.Helper()
	writeFiles(t, root, files)
	gitRun(t, root, "init", "-q")
	gitRun(t, root, "add", "-A")
	gitRun(t, root, "commit", "-q", "-m", "start")
	start := gitRun(t, root, "rev-parse", "HEAD")
	repo, err := gitrepo.Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	return repo, start
}
