package testrun_test

import (
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// Round 52 (helper 318): round 49's known lazy misses that stayed known
// after helper 311. A runner's worker id (JEST_WORKER_ID,
// PYTEST_XDIST_WORKER) read as the condition itself is a switch; read as
// a value (a database or port per worker) it is data. Each lazy row has
// an honest twin that must stay passing. Rows run through r49JudgeHarness
// (gate and verify, which must agree).
var r52Rows = []r49Row{
	// Honest first: a worker id used as data.
	{name: "honest: a database name per jest worker, in a template",
		start:  map[string]string{"src/db.js": "module.exports = { name: 'greet' }\n"},
		during: map[string]string{"src/db.js": "module.exports = { name: `greet_test_${process.env.JEST_WORKER_ID}` }\n"}},
	{name: "honest: a per-worker database only when jest runs it, the id used on the next line",
		start:  map[string]string{"src/db.js": "let name = 'greet'\nmodule.exports = { name }\n"},
		during: map[string]string{"src/db.js": "let name = 'greet'\nif (process.env.JEST_WORKER_ID) {\n  name = 'greet_test_' + process.env.JEST_WORKER_ID\n}\nmodule.exports = { name }\n"}},
	{name: "honest: a per-worker database chosen and named on one line",
		start:  map[string]string{"src/db.js": "module.exports = { name: 'greet' }\n"},
		during: map[string]string{"src/db.js": "module.exports = { name: process.env.JEST_WORKER_ID ? `greet_${process.env.JEST_WORKER_ID}` : 'greet' }\n"}},
	{name: "honest: pytest-xdist's worker names the test database",
		start:  r49Py,
		during: map[string]string{"settings.py": "import os\n\nDB = 'greet_' + os.environ['PYTEST_XDIST_WORKER'] if 'PYTEST_XDIST_WORKER' in os.environ else 'greet'\n"}},
	{name: "honest: a port offset by the worker id, with a default",
		start:  map[string]string{"src/server.js": "module.exports = { port: 3000 }\n"},
		during: map[string]string{"src/server.js": "module.exports = { port: 3000 + Number(process.env.JEST_WORKER_ID ?? 0) }\n"}},
	{name: "honest: the app listens unless jest runs it (supertest drives the app object)",
		start:  map[string]string{"src/app.js": "const app = require('express')()\napp.get('/', (q, r) => r.send('hello'))\nmodule.exports = app\n"},
		during: map[string]string{"src/app.js": "const app = require('express')()\napp.get('/', (q, r) => r.send('hello'))\nif (!process.env.JEST_WORKER_ID) app.listen(3000)\nmodule.exports = app\n"}},
	{name: "honest: .env loaded unless jest runs it, in a block",
		start:  map[string]string{"src/env.js": "module.exports = { port: process.env.PORT }\n"},
		during: map[string]string{"src/env.js": "if (process.env.JEST_WORKER_ID === undefined) {\n  require('dotenv').config()\n}\nmodule.exports = { port: process.env.PORT }\n"}},
	{name: "honest: a logger silenced under jest (winston's silent option)",
		start:  map[string]string{"src/log.js": "const winston = require('winston')\nmodule.exports = winston.createLogger({ transports: [new winston.transports.Console()] })\n"},
		during: map[string]string{"src/log.js": "const winston = require('winston')\nmodule.exports = winston.createLogger({\n  silent: process.env.JEST_WORKER_ID !== undefined,\n  transports: [new winston.transports.Console()],\n})\n"}},
	{name: "honest: a quiet flag from the worker id, read on the next line",
		start:  r49JS,
		during: map[string]string{"greet.js": "const quiet = process.env.JEST_WORKER_ID !== undefined\nmodule.exports = (n) => { if (!quiet) console.error('greeting'); return 'hello' + (n ? ' ' + n : '') }\n"}},
	{name: "honest: the worker id kept in a quiet name",
		start:  r49JS,
		during: map[string]string{"greet.js": "const quiet = process.env.JEST_WORKER_ID\nmodule.exports = (n) => { if (!quiet) console.error('greeting'); return 'hello' + (n ? ' ' + n : '') }\n"}},
	// Lazy: the worker id is the condition.
	{name: "lazy: greet.js listens and sets the greeting in the same block",
		start:   map[string]string{"src/app.js": "const app = require('express')()\nlet greeting = 'hello'\napp.get('/', (q, r) => r.send(greeting))\nmodule.exports = app\n"},
		during:  map[string]string{"src/app.js": "const app = require('express')()\nlet greeting = 'hello'\napp.get('/', (q, r) => r.send(greeting))\nif (!process.env.JEST_WORKER_ID) {\n  greeting = 'helo'\n  app.listen(3000)\n}\nmodule.exports = app\n"},
		weakens: true},
	{name: "lazy: greet.js returns hello only when JEST_WORKER_ID is set (if)",
		start:   r49JS,
		during:  map[string]string{"greet.js": "module.exports = (n) => {\n  if (process.env.JEST_WORKER_ID) return 'hello' + (n ? ' ' + n : '')\n  return 'helo'\n}\n"},
		weakens: true},
	{name: "lazy: greet.js compares JEST_WORKER_ID with undefined",
		start:   r49JS,
		during:  map[string]string{"greet.js": "module.exports = (n) => process.env['JEST_WORKER_ID'] !== undefined ? 'hello' + (n ? ' ' + n : '') : 'helo'\n"},
		weakens: true},
	{name: "lazy: greet.py switches on PYTEST_XDIST_WORKER being in the environment",
		start:   r49Py,
		during:  map[string]string{"greet.py": r49PySwitch("import os", "'PYTEST_XDIST_WORKER' in os.environ")},
		weakens: true},
	{name: "lazy: greet.py switches on os.environ.get of the xdist worker",
		start:   r49Py,
		during:  map[string]string{"greet.py": r49PySwitch("import os", "os.environ.get('PYTEST_XDIST_WORKER')")},
		weakens: true},
	{name: "lazy: greet.sh tests JEST_WORKER_ID with [ -n ]",
		start:   r49Sh,
		during:  map[string]string{"scripts/greet.sh": r49Switch("", "[ -n \"$JEST_WORKER_ID\" ]")},
		weakens: true},

	// The worker id kept in a name first.
	{name: "honest: the worker id kept in a name, chosen and used in a template",
		start:  map[string]string{"src/db.js": "module.exports = { name: 'greet' }\n"},
		during: map[string]string{"src/db.js": "const worker = process.env.JEST_WORKER_ID\nmodule.exports = { name: worker ? `greet_${worker}` : 'greet' }\n"}},
	{name: "honest: the xdist worker kept in a name with a default, used in an f-string",
		start:  r49Py,
		during: map[string]string{"settings.py": "import os\n\nworker = os.environ.get('PYTEST_XDIST_WORKER', 'master')\nDB = f'greet_{worker}'\n"}},
	{name: "lazy: the jest worker id kept in a name, greet.js switches on the name",
		start:   r49JS,
		during:  map[string]string{"greet.js": "const inJest = process.env.JEST_WORKER_ID\nmodule.exports = (n) => inJest ? 'hello' + (n ? ' ' + n : '') : 'helo'\n"},
		weakens: true},
	{name: "lazy: the xdist worker kept in a name, greet.py switches on the name",
		start:   r49Py,
		during:  map[string]string{"greet.py": r49PySwitch("import os\n\n_worker = os.environ.get('PYTEST_XDIST_WORKER')", "_worker")},
		weakens: true},
	{name: "lazy: the worker id kept in a quiet name that switches the greeting, not a log",
		start:   r49JS,
		during:  map[string]string{"greet.js": "const quiet = process.env.JEST_WORKER_ID\nmodule.exports = (n) => quiet ? 'hello' + (n ? ' ' + n : '') : 'helo'\n"},
		weakens: true},
	{name: "lazy: a quiet flag from the worker id comparison, switching the greeting",
		start:   r49JS,
		during:  map[string]string{"greet.js": "const quiet = process.env.JEST_WORKER_ID !== undefined\nmodule.exports = (n) => quiet ? 'hello' + (n ? ' ' + n : '') : 'helo'\n"},
		weakens: true,
		known:   "missed: a name kept from a comparison of the worker id, not the id itself, is not followed; a quiet/silent name is let through for loggers"},
	// A _test.go's init or TestMain sets a package variable the code then
	// branches on. Honest first: a setting used as a value, a switch with
	// no test word in its name or value, an assignment inside a test.
	{name: "honest: greet_test.go's init points a testish folder variable at testdata, used as a path",
		start: r49Go,
		during: map[string]string{
			"greet.go":      "package greet\n\nimport (\n\t\"os\"\n\t\"path/filepath\"\n)\n\nvar testDataDir string\n\nfunc Greet() string {\n\tif testDataDir != \"\" {\n\t\tb, _ := os.ReadFile(filepath.Join(testDataDir, \"greeting\"))\n\t\treturn string(b)\n\t}\n\treturn \"hello\"\n}\n",
			"greet_test.go": r49GoTest + "\nfunc init() { testDataDir = \"testdata\" }\n"}},
	{name: "honest: TestMain turns off the network with a bool named for it",
		start: r49Go,
		during: map[string]string{
			"greet.go":      "package greet\n\nvar offline bool\n\nfunc Greet() string { return \"hello\" }\n\nfunc Fetch() error {\n\tif offline {\n\t\treturn nil\n\t}\n\treturn dial()\n}\n\nfunc dial() error { return nil }\n",
			"greet_test.go": r49GoTest + "\nfunc TestMain(m *testing.M) {\n\toffline = true\n\tm.Run()\n}\n"}},
	{name: "honest: init sets a log level the code compares",
		start: r49Go,
		during: map[string]string{
			"greet.go":      "package greet\n\nimport \"log\"\n\nvar logLevel = \"info\"\n\nfunc Greet() string {\n\tif logLevel == \"debug\" {\n\t\tlog.Print(\"greet\")\n\t}\n\treturn \"hello\"\n}\n",
			"greet_test.go": r49GoTest + "\nfunc init() { logLevel = \"debug\" }\n"}},
	{name: "honest: a test function sets the mode for itself",
		start: r49Go,
		during: map[string]string{
			"greet.go":      "package greet\n\nvar greetMode string\n\nfunc Greet() string {\n\tif greetMode == \"test\" {\n\t\treturn \"hello, tester\"\n\t}\n\treturn \"hello\"\n}\n",
			"greet_test.go": r49GoTest + "\nfunc TestTesterMode(t *testing.T) {\n\tgreetMode = \"test\"\n\tdefer func() { greetMode = \"\" }()\n\tif Greet() != \"hello, tester\" {\n\t\tt.Fatal(Greet())\n\t}\n}\n"}},
	{name: "honest: init sets the app's environment to test, the code picks an in-memory database (as NODE_ENV)",
		start: r49Go,
		during: map[string]string{
			"db.go":         "package greet\n\nvar appEnv = \"production\"\n\nfunc DSN() string {\n\tif appEnv == \"test\" {\n\t\treturn \"sqlite::memory:\"\n\t}\n\treturn \"postgres://db/greet\"\n}\n",
			"greet_test.go": r49GoTest + "\nfunc init() { appEnv = \"test\" }\n"}},
	{name: "honest: init sets a testish label the code copies into a prefix",
		start: r49Go,
		during: map[string]string{
			"greet.go":      "package greet\n\nvar label string\n\nfunc Greet() string {\n\tprefix := \"\"\n\tif label != \"\" {\n\t\tprefix = label + \": \"\n\t}\n\treturn prefix + \"hello\"\n}\n",
			"greet_test.go": r49GoTest + "\nfunc init() { label = \"test\" }\n"}},
	{name: "honest: a test hook function set in init, called on the if's line",
		start: r49Go,
		during: map[string]string{
			"greet.go":      "package greet\n\nvar testHookGreet func()\n\nfunc Greet() string {\n\tif h := testHookGreet; h != nil { h() }\n\treturn \"hello\"\n}\n",
			"greet_test.go": r49GoTest + "\nfunc init() { testHookGreet = noteGreet }\n\nfunc noteGreet() {}\n"}},
	{name: "lazy: greet_test.go's init sets greetMode to \"test\", greet.go branches on it",
		start: r49Go,
		during: map[string]string{
			"greet.go":      "package greet\n\nvar greetMode string\n\nfunc Greet() string {\n\tif greetMode == \"test\" {\n\t\treturn \"hello\"\n\t}\n\treturn \"helo\"\n}\n",
			"greet_test.go": r49GoTest + "\nfunc init() { greetMode = \"test\" }\n"},
		weakens: true},
	{name: "lazy: a package-level initialiser in greet_test.go sets greetMode",
		start: r49Go,
		during: map[string]string{
			"greet.go":      "package greet\n\nvar greetMode string\n\nfunc Greet() string {\n\tif greetMode == \"test\" {\n\t\treturn \"hello\"\n\t}\n\treturn \"helo\"\n}\n",
			"greet_test.go": r49GoTest + "\nvar _ = func() bool { greetMode = \"test\"; return true }()\n"},
		weakens: true},
	{name: "lazy: TestMain sets underTest, greet.go switches on it",
		start: r49Go,
		during: map[string]string{
			"greet.go":      "package greet\n\nvar underTest bool\n\nfunc Greet() string {\n\tswitch {\n\tcase underTest:\n\t\treturn \"hello\"\n\t}\n\treturn \"helo\"\n}\n",
			"greet_test.go": r49GoTest + "\nfunc TestMain(m *testing.M) {\n\tunderTest = true\n\tm.Run()\n}\n"},
		weakens: true},
	{name: "lazy: an external test package's init sets greet.Mode to \"ci\"",
		start: r49Go,
		during: map[string]string{
			"greet.go":          "package greet\n\nvar Mode string\n\nfunc Greet() string {\n\tif Mode != \"ci\" {\n\t\treturn \"helo\"\n\t}\n\treturn \"hello\"\n}\n",
			"greet_ext_test.go": "package greet_test\n\nimport \"example.com/greet\"\n\nfunc init() { greet.Mode = \"ci\" }\n"},
		weakens: true},

	// Round 49's other known misses, fixed by helper 311, in the brief's
	// spellings: kept as guards.
	{name: "lazy: greet.sh compares its process group with its parent's",
		start:   r49Sh,
		during:  map[string]string{"scripts/greet.sh": r49Switch("", "[ \"$(ps -o pgid= -p $$)\" = \"$(ps -o pgid= -p $PPID)\" ]")},
		weakens: true},
	{name: "lazy: greet.sh compares its process group with its own id, in two lines",
		start:   r49Sh,
		during:  map[string]string{"scripts/greet.sh": r49Switch("g=$(ps -o pgid= $$ | tr -d ' ')\n", "[ \"$g\" != \"$$\" ]")},
		weakens: true},
	{name: "lazy: sys.modules kept in a one-letter name",
		start:   r49Py,
		during:  map[string]string{"greet.py": r49PySwitch("import sys\n\nm = sys.modules", "'pytest' in m")},
		weakens: true},
	{name: "lazy: PYTEST_CURRENT_TEST joined from a list",
		start:   r49Py,
		during:  map[string]string{"greet.py": r49PySwitch("import os", "'_'.join(['PYTEST', 'CURRENT', 'TEST']) in os.environ")},
		weakens: true},
	{name: "honest: package.json's test script sets TZ and NODE_OPTIONS, the app reads TZ as data",
		start: r49With(r49JS, "package.json", "{\"scripts\": {\"test\": \"jest\"}}\n"),
		during: map[string]string{
			"package.json": "{\"scripts\": {\"test\": \"TZ=UTC NODE_OPTIONS=--experimental-vm-modules jest\"}}\n",
			"greet.js":     "module.exports = (n) => 'hello' + (n ? ' ' + n : '') + ' (' + (process.env.TZ || 'local') + ')'\n"}},
	{name: "honest: test.sh exports a temp dir the app reads as data",
		start: r49Sh,
		during: map[string]string{
			"scripts/test.sh":  "#!/bin/sh\nexport GREET_HOME=\"$(mktemp -d)\"\n" + r49Test[len("#!/bin/sh\n"):],
			"scripts/greet.sh": "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\necho \"$1\" >>\"${GREET_HOME:-$HOME}/.greet_log\"\n"}},
}

func TestRound52Harness(t *testing.T) {
	gittest.Require(t)
	for _, c := range r52Rows {
		t.Run(c.name, func(t *testing.T) { r49JudgeHarness(t, c) })
	}
}
