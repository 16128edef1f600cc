package compliance_test

import "testing"

// Field pass, round 17 (t7): JavaScript project shapes under the package
// managers people use besides npm, each run with the real tool.

const (
	field17PnpmRoot  = `{"name": "mono", "private": true}` + "\n"
	field17PnpmPkg   = `{"name": "@mono/greet", "version": "1.0.0", "scripts": {"test": "node --test"}}` + "\n"
	field17YarnPkg   = `{"name": "greet", "version": "1.0.0", "scripts": {"test": "node --test"}}` + "\n"
	field17DenoGreet = "export function hello(name: string): string {\n  return `hello ${name}`;\n}\n"
	field17DenoTest  = "import { hello } from \"./greet.ts\";\n\nDeno.test(\"hello\", () => {\n  if (hello(\"Ada\") !== \"hello Ada\") throw new Error(\"hello\");\n});\n"
	field17BunPkg    = `{"name": "greet", "version": "1.0.0", "scripts": {"test": "bun test"}}` + "\n"
	field17BunLock   = "{\n  \"lockfileVersion\": 1,\n  \"workspaces\": {\n    \"\": {\n      \"name\": \"greet\",\n    },\n  },\n  \"packages\": {},\n}\n"
	field17BunTest   = "import { expect, test } from \"bun:test\";\nimport { hello } from \"./greet\";\n\ntest(\"hello\", () => {\n  expect(hello(\"Ada\")).toBe(\"hello Ada\");\n});\n"
)

var field17JSCases = []fieldCase{
	{
		name: "pnpm workspace",
		files: map[string]string{"pnpm-workspace.yaml": "packages:\n  - packages/*\n", "package.json": field17PnpmRoot, "pnpm-lock.yaml": "lockfileVersion: '9.0'\n\nimporters:\n\n  .: {}\n\n  packages/greet: {}\n",
			// pnpm writes its task-run state into node_modules/ at each run,
			// installed or not: a project that does not ignore it is refused
			// QA (untracked files the run reads), as it should be.
			".gitignore": "node_modules/\n", "packages/greet/package.json": field17PnpmPkg, "packages/greet/greet.js": fieldNodeGreet, "packages/greet/test/greet.test.js": fieldNodeGreetTest},
		wantCmd: "pnpm -r test",
		needs:   []string{"pnpm", "node"},
		work:    func(w *world) { w.write("packages/greet/greet.js", "// hello greets name.\n"+fieldNodeGreet) },
		msg:     "docs(greet): comment hello",
	},
	{
		name: "yarn berry",
		files: map[string]string{".yarnrc.yml": "nodeLinker: node-modules\nenableTelemetry: false\n", "package.json": field17YarnPkg,
			"greet.js": fieldNodeGreet, "test/greet.test.js": fieldNodeGreetTest, ".gitignore": "node_modules/\n.yarn/\n"},
		wantCmd: "yarn test",
		needs:   []string{"yarn", "node"},
		// The lockfile is the installed yarn's own (its format version
		// moves with yarn's); CI=true makes yarn refuse to write one.
		setup: func(w *world) { w.exec(w.root, "", "env", "YARN_ENABLE_IMMUTABLE_INSTALLS=false", "yarn", "install") },
		work:  func(w *world) { w.write("greet.js", "// hello greets name.\n"+fieldNodeGreet) },
		msg:   "docs: comment hello",
	},
	{
		name:    "deno",
		files:   map[string]string{"deno.json": "{\n  \"tasks\": {}\n}\n", "greet.ts": field17DenoGreet, "greet_test.ts": field17DenoTest},
		wantCmd: "deno test",
		needs:   []string{"deno"},
		work:    func(w *world) { w.write("greet.ts", "// hello greets name.\n"+field17DenoGreet) },
		msg:     "docs: comment hello",
	},
	{
		name:    "bun",
		files:   map[string]string{"package.json": field17BunPkg, "bun.lock": field17BunLock, "greet.ts": field17DenoGreet, "greet.test.ts": field17BunTest},
		wantCmd: "bun run test",
		needs:   []string{"bun"},
		work:    func(w *world) { w.write("greet.ts", "// hello greets name.\n"+field17DenoGreet) },
		msg:     "docs: comment hello",
	},
}

// TestFieldHonestShapes17JS runs each JavaScript shape as one honest
// session, then verify as CI runs it.
func TestFieldHonestShapes17JS(t *testing.T) {
	t.Parallel()
	runHonestFieldCases(t, field17JSCases)
}
