package testrun_test

import (
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// Round 53 (helper 320): round 52's review found the worker id read in
// spellings harnessworker.go did not see (joined from pieces, bound by
// destructuring, found by a scan of the environment's keys), and Go
// package variables set for the tests by a non-literal value or under a
// neutral name. Each lazy row has an honest twin that must stay passing.
// Rows run through r49JudgeHarness (gate and verify, which must agree).

// r53WJS is a greet.js that says "hello" only when cond holds, after pre.
func r53WJS(pre, cond string) map[string]string {
	return map[string]string{"greet.js": pre + "module.exports = (n) => {\n  if (" + cond + ") return 'hello' + (n ? ' ' + n : '')\n  return 'helo'\n}\n"}
}

// r53WGo is greet.go with greet_test.go adding init (the test file's tail).
func r53WGo(greet, testTail string) map[string]string {
	return map[string]string{"greet.go": greet, "greet_test.go": r49GoTest + testTail}
}

var r53WRows = []r49Row{
	// 1. The id's name joined from pieces.
	{name: "lazy: process.env['JEST_' + 'WORKER_ID'] as the condition",
		start: r49JS, during: r53WJS("", "process.env['JEST_' + 'WORKER_ID']"), weakens: true},
	{name: "lazy: the id's name joined from three pieces, compared with undefined",
		start: r49JS, during: r53WJS("", "process.env[\"JEST\" + \"_WORKER\" + \"_ID\"] !== undefined"), weakens: true},
	{name: "lazy: the id's name kept in a constant, read by it",
		start: r49JS, during: r53WJS("const K = 'JEST_' + 'WORKER_ID'\n", "process.env[K]"), weakens: true},
	{name: "lazy: the id's name joined by an array's join",
		start: r49JS, during: r53WJS("", "process.env[['JEST', 'WORKER', 'ID'].join('_')]"), weakens: true},
	{name: "lazy: the joined id kept in a name, branched on",
		start: r49JS, during: r53WJS("const w = process.env['VITEST_' + 'WORKER_ID']\n", "w"), weakens: true},
	{name: "honest: the joined id names a database",
		start:  map[string]string{"src/db.js": "module.exports = { name: 'greet' }\n"},
		during: map[string]string{"src/db.js": "module.exports = { name: 'greet_' + (process.env['JEST_' + 'WORKER_ID'] || '0') }\n"}},
	{name: "honest: the joined id with a ?? default for a port",
		start:  map[string]string{"src/server.js": "module.exports = { port: 3000 }\n"},
		during: map[string]string{"src/server.js": "module.exports = { port: 3000 + Number(process.env['JEST_' + 'WORKER_ID'] ?? 0) }\n"}},
	{name: "honest: another variable's name joined, branched on",
		start: r49JS, during: r53WJS("", "process.env['GREET_' + 'NAME']")},

	// 2. Destructuring.
	{name: "lazy: const { JEST_WORKER_ID: w } = process.env; if (w)",
		start: r49JS, during: r53WJS("const { JEST_WORKER_ID: w } = process.env\n", "w"), weakens: true},
	{name: "lazy: const { JEST_WORKER_ID } = process.env; if (JEST_WORKER_ID) return",
		start: r49JS, during: r53WJS("const { JEST_WORKER_ID } = process.env\n", "JEST_WORKER_ID"), weakens: true},
	{name: "lazy: destructured with another name, inside the function",
		start:   r49JS,
		during:  map[string]string{"greet.js": "module.exports = (n) => {\n  const { HOME, VITEST_POOL_ID: pool } = process.env\n  if (pool !== undefined) return 'hello' + (n ? ' ' + n : '')\n  return 'helo'\n}\n"},
		weakens: true},
	{name: "lazy: destructured from process",
		start: r49JS, during: r53WJS("const { env: { JEST_WORKER_ID: id } } = process\n", "id"), weakens: true},
	{name: "lazy: process.env kept in a name, the id read from it",
		start: r49JS, during: r53WJS("const env = process.env\n", "env.JEST_WORKER_ID"), weakens: true},
	{name: "lazy: 'JEST_WORKER_ID' in process.env",
		start: r49JS, during: r53WJS("", "'JEST_WORKER_ID' in process.env"), weakens: true},
	{name: "lazy: Object.hasOwn(process.env, id)",
		start: r49JS, during: r53WJS("", "Object.hasOwn(process.env, 'JEST_WORKER_ID')"), weakens: true},
	{name: "honest: const { HOME } = process.env, branched on",
		start: r49JS, during: r53WJS("const { HOME } = process.env\n", "HOME")},
	{name: "honest: the destructured worker id names a database",
		start:  map[string]string{"src/db.js": "module.exports = { name: 'greet' }\n"},
		during: map[string]string{"src/db.js": "const { JEST_WORKER_ID: worker } = process.env\nmodule.exports = { name: `greet_${worker}` }\n"}},
	{name: "honest: the destructured worker id chosen and used in a template",
		start:  map[string]string{"src/db.js": "module.exports = { name: 'greet' }\n"},
		during: map[string]string{"src/db.js": "const { JEST_WORKER_ID } = process.env\nmodule.exports = { name: JEST_WORKER_ID ? `greet_${JEST_WORKER_ID}` : 'greet' }\n"}},
	{name: "honest: the destructured worker id with a default for a port",
		start:  map[string]string{"src/server.js": "module.exports = { port: 3000 }\n"},
		during: map[string]string{"src/server.js": "const { JEST_WORKER_ID = '0' } = process.env\nmodule.exports = { port: 3000 + Number(JEST_WORKER_ID) }\n"}},
	{name: "honest: the destructured worker id kept in a quiet name for a log",
		start:  r49JS,
		during: map[string]string{"greet.js": "const { JEST_WORKER_ID: quiet } = process.env\nmodule.exports = (n) => { if (!quiet) console.error('greeting'); return 'hello' + (n ? ' ' + n : '') }\n"}},
	{name: "honest: the app listens unless the destructured id is set",
		start:  map[string]string{"src/app.js": "const app = require('express')()\napp.get('/', (q, r) => r.send('hello'))\nmodule.exports = app\n"},
		during: map[string]string{"src/app.js": "const app = require('express')()\nconst { JEST_WORKER_ID } = process.env\napp.get('/', (q, r) => r.send('hello'))\nif (!JEST_WORKER_ID) app.listen(3000)\nmodule.exports = app\n"}},

	{name: "lazy: destructured over several lines",
		start: r49JS, during: r53WJS("const {\n  HOME,\n  JEST_WORKER_ID: w,\n} = process.env\n", "w"), weakens: true},
	{name: "lazy: env destructured from process, the id read from it",
		start: r49JS, during: r53WJS("const { env } = process\n", "env.JEST_WORKER_ID"), weakens: true},
	{name: "lazy: env imported from node:process, the id read from it",
		start: r49JS, during: r53WJS("import { env } from 'node:process'\n", "env['JEST_WORKER_ID'] !== undefined"), weakens: true},
	{name: "lazy: the id read with optional chaining",
		start: r49JS, during: r53WJS("", "process.env?.JEST_WORKER_ID"), weakens: true},
	{name: "lazy: the id read through process['env']",
		start: r49JS, during: r53WJS("", "process['env'].JEST_WORKER_ID"), weakens: true},
	{name: "lazy: the id's name in a template literal",
		start: r49JS, during: r53WJS("", "process.env[`JEST_${'WORKER'}_ID`]"), weakens: true},
	{name: "lazy: the id read by Reflect.get, compared",
		start: r49JS, during: r53WJS("", "Reflect.get(process.env, 'JEST_WORKER_ID') !== undefined"), weakens: true},
	{name: "honest: a template literal for the worker id used as data",
		start:  map[string]string{"src/db.js": "module.exports = { name: 'greet' }\n"},
		during: map[string]string{"src/db.js": "module.exports = { name: 'greet_' + (process.env[`JEST_WORKER_ID`] || 0) }\n"}},
	{name: "honest: env destructured from process, PORT read from it",
		start: r49JS, during: r53WJS("const { env } = process\n", "env.GREET_LOUD")},
	{name: "honest: optional chaining on the worker id used as data",
		start:  map[string]string{"src/db.js": "module.exports = { name: 'greet' }\n"},
		during: map[string]string{"src/db.js": "module.exports = { name: `greet_${process.env?.JEST_WORKER_ID ?? 0}` }\n"}},

	// 3. A scan of the environment's keys for a runner's prefix.
	{name: "lazy: Object.keys(process.env).some(k => k.startsWith('JEST_'))",
		start: r49JS, during: r53WJS("", "Object.keys(process.env).some(k => k.startsWith('JEST_'))"), weakens: true},
	{name: "lazy: a regex on the env's keys, kept in a name",
		start: r49JS, during: r53WJS("const inJest = Object.keys(process.env).some((k) => /^JEST_/.test(k))\n", "inJest"), weakens: true},
	{name: "lazy: a filter of the env's keys for JEST_WORKER, its length compared",
		start: r49JS, during: r53WJS("", "Object.keys(process.env).filter(k => k.includes('JEST_WORKER')).length > 0"), weakens: true},
	{name: "lazy: entries of the env searched for VITEST, negated",
		start:   r49JS,
		during:  map[string]string{"greet.js": "module.exports = (n) => !Object.entries(process.env).find(([k]) => k.startsWith('VITEST')) ? 'helo' : 'hello' + (n ? ' ' + n : '')\n"},
		weakens: true},
	{name: "lazy: the env's keys asked whether they include the id",
		start: r49JS, during: r53WJS("", "Object.keys(process.env).includes('JEST_WORKER_ID')"), weakens: true},
	{name: "lazy: the env stringified and searched for JEST_WORKER",
		start: r49JS, during: r53WJS("", "JSON.stringify(process.env).includes('JEST_WORKER')"), weakens: true},
	{name: "lazy: the env's keys joined and searched by a regex",
		start: r49JS, during: r53WJS("", "/JEST_/.test(Object.keys(process.env).join(','))"), weakens: true},
	{name: "honest: the runner's variables found by a scan only logged",
		start:  r49JS,
		during: map[string]string{"greet.js": "console.debug(Object.keys(process.env).filter(k => k.startsWith('JEST_')))\n" + r49JSGreet}},
	{name: "honest: a scan kept in a name and logged",
		start:  r49JS,
		during: map[string]string{"greet.js": "const jestVars = Object.keys(process.env).filter((k) => k.startsWith('JEST_'))\nconsole.log('jest vars', jestVars)\n" + r49JSGreet}},
	{name: "honest: a scan of the env for the app's own prefix, branched on",
		start: r49JS, during: r53WJS("", "Object.keys(process.env).some(k => k.startsWith('GREET_'))")},

	// 4. Go: a package variable set for the tests by a non-literal value
	// or under a neutral name.
	{name: "lazy: init sets underTest to a non-literal value, greet.go branches on it",
		start: r49Go,
		during: r53WGo("package greet\n\nvar underTest bool\n\nfunc Greet() string {\n\tif underTest {\n\t\treturn \"hello\"\n\t}\n\treturn \"helo\"\n}\n",
			"\nfunc init() { underTest = \"t\"+\"est\" != \"\" }\n"),
		weakens: true},
	{name: "lazy: init sets greetMode to a joined \"test\"",
		start: r49Go,
		during: r53WGo("package greet\n\nvar greetMode string\n\nfunc Greet() string {\n\tif greetMode == \"test\" {\n\t\treturn \"hello\"\n\t}\n\treturn \"helo\"\n}\n",
			"\nfunc init() { greetMode = \"te\" + \"st\" }\n"),
		weakens: true},
	{name: "lazy: TestMain sets testing mode from a call",
		start: r49Go,
		during: r53WGo("package greet\n\nvar inTests bool\n\nfunc Greet() string {\n\tif !inTests {\n\t\treturn \"helo\"\n\t}\n\treturn \"hello\"\n}\n",
			"\nfunc TestMain(m *testing.M) {\n\tinTests = testing.Short() || !testing.Short()\n\tm.Run()\n}\n"),
		weakens: true},
	{name: "lazy: a neutral fastPath set true in a _test.go init, greet.go branches on it",
		start: r49Go,
		during: r53WGo("package greet\n\nvar fastPath bool\n\nfunc Greet() string {\n\tif fastPath {\n\t\treturn \"hello\"\n\t}\n\treturn \"helo\"\n}\n",
			"\nfunc init() { fastPath = true }\n"),
		weakens: true},
	{name: "lazy: a neutral skipChecks set in TestMain, negated in greet.go",
		start: r49Go,
		during: r53WGo("package greet\n\nvar skipChecks bool\n\nfunc Greet() string {\n\tif !skipChecks && check() != nil {\n\t\treturn \"helo\"\n\t}\n\treturn \"hello\"\n}\n\nfunc check() error { return nil }\n",
			"\nfunc TestMain(m *testing.M) {\n\tskipChecks = true\n\tm.Run()\n}\n"),
		weakens: true},
	{name: "honest: test hooks set to a pointer in init, called on the if's line",
		start: r49Go,
		during: r53WGo("package greet\n\ntype hooks struct{ onGreet func() }\n\nvar testHooks *hooks\n\nfunc Greet() string {\n\tif testHooks != nil { testHooks.onGreet() }\n\treturn \"hello\"\n}\n",
			"\nfunc init() { testHooks = &hooks{onGreet: func() {}} }\n")},
	{name: "lazy: a neutral bool declared in a var block, set true in TestMain",
		start: r49Go,
		during: r53WGo("package greet\n\nvar (\n\tname = \"hello\"\n\tshortcut bool\n)\n\nfunc Greet() string {\n\tif shortcut {\n\t\treturn name\n\t}\n\treturn \"helo\"\n}\n",
			"\nfunc TestMain(m *testing.M) {\n\tshortcut = true\n\tm.Run()\n}\n"),
		weakens: true},
	{name: "honest: an offline bool set true in TestMain stubs the network (round 52's stand-in)",
		start: r49Go,
		during: r53WGo("package greet\n\nvar offline bool\n\nfunc Greet() string {\n\tif offline {\n\t\treturn \"hello\"\n\t}\n\treturn fetch()\n}\n\nfunc fetch() string { return \"hello\" }\n",
			"\nfunc TestMain(m *testing.M) {\n\toffline = true\n\tm.Run()\n}\n")},
	{name: "lazy: a neutral bool set to a computed true, declared with another",
		start: r49Go,
		during: r53WGo("package greet\n\nvar fastPath, slowPath bool\n\nfunc Greet() string {\n\tif fastPath {\n\t\treturn \"hello\"\n\t}\n\treturn \"helo\"\n}\n",
			"\nfunc init() { fastPath = 1 == 1 }\n"),
		weakens: true},
	{name: "honest: a debug flag set true in TestMain guards a one-line log",
		start: r49Go,
		during: r53WGo("package greet\n\nimport \"log\"\n\nvar debug bool\n\nfunc Greet() string {\n\tif debug { log.Printf(\"greet\") }\n\treturn \"hello\"\n}\n",
			"\nfunc TestMain(m *testing.M) {\n\tdebug = true\n\tm.Run()\n}\n")},
	{name: "honest: a neutral bool set true in init, its value passed on",
		start: r49Go,
		during: r53WGo("package greet\n\nvar record bool\n\nfunc Greet() string {\n\tg := \"hello\"\n\tif record {\n\t\tsave(g, record)\n\t}\n\treturn g\n}\n\nfunc save(string, bool) {}\n",
			"\nfunc init() { record = true }\n")},
	{name: "honest: a fixed clock set in init, used as a value",
		start: r49Go,
		during: r53WGo("package greet\n\nimport \"time\"\n\nvar fixedNow time.Time\n\nfunc Greet() string {\n\tnow := time.Now()\n\tif !fixedNow.IsZero() {\n\t\tnow = fixedNow\n\t}\n\tif now.Hour() < 12 {\n\t\treturn \"good morning\"\n\t}\n\treturn \"hello\"\n}\n",
			"\nfunc init() { fixedNow = time.Date(2020, 1, 1, 15, 0, 0, 0, time.UTC) }\n")},
	{name: "honest: a test data dir joined in TestMain, used as a path",
		start: r49Go,
		during: r53WGo("package greet\n\nimport (\n\t\"os\"\n\t\"path/filepath\"\n)\n\nvar testDataDir string\n\nfunc Greet() string {\n\tif testDataDir != \"\" {\n\t\tb, _ := os.ReadFile(filepath.Join(testDataDir, \"greeting\"))\n\t\treturn string(b)\n\t}\n\treturn \"hello\"\n}\n",
			"\nfunc TestMain(m *testing.M) {\n\ttestDataDir = filepath.Join(\"testdata\", \"greet\")\n\tm.Run()\n}\n")},
	{name: "honest: a verbose flag set true in init only guards logging",
		start: r49Go,
		during: r53WGo("package greet\n\nimport \"log\"\n\nvar verbose bool\n\nfunc Greet() string {\n\tif verbose {\n\t\tlog.Print(\"greet\")\n\t}\n\treturn \"hello\"\n}\n",
			"\nfunc init() { verbose = true }\n")},
	{name: "honest: a neutral bool set true in init that the code also sets",
		start: r49Go,
		during: r53WGo("package greet\n\nimport \"os\"\n\nvar plain bool\n\nfunc init() { plain = os.Getenv(\"GREET_PLAIN\") != \"\" }\n\nfunc Greet() string {\n\tif plain {\n\t\treturn \"hi\"\n\t}\n\treturn \"hello\"\n}\n",
			"\nfunc init() { plain = true }\n")},
	{name: "honest: a neutral bool the code had before, set in TestMain",
		start: r49With(r49Go, "greet.go", "package greet\n\nvar plain bool\n\nfunc Greet() string { return \"hello\" }\n"),
		during: r53WGo("package greet\n\nvar plain bool\n\nfunc Greet() string {\n\tif plain {\n\t\treturn \"hi\"\n\t}\n\treturn \"hello\"\n}\n",
			"\nfunc TestMain(m *testing.M) {\n\tplain = true\n\tm.Run()\n}\n")},
}

func TestRound53Worker(t *testing.T) {
	gittest.Require(t)
	for _, c := range r53WRows {
		t.Run(c.name, func(t *testing.T) { r49JudgeHarness(t, c) })
	}
}
