package testrun_test

import (
	"context"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/testrun"
)

// TestHarnessDetect (round 48): code the session changed so that it
// tells the tests' run from its users' (round 46's open "code that
// detects the test run"). The gate (SkipsAdded, work tree against the
// start) and verify's range reader (SkipsAddedRange) refuse it alike;
// the honest twins read an environment's name, keep a line from the
// start, or detect the runner in a test file of their own.
func TestHarnessDetect(t *testing.T) {
	gittest.Require(t)
	const greet = "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n"
	const test = "#!/bin/sh\n[ \"$(sh scripts/greet.sh Ada)\" = \"hello Ada\" ] || exit 1\n"
	const pyGreet = "def greet(name=None):\n    return 'hello' if name is None else 'hello ' + name\n"
	for _, c := range []struct {
		name    string
		start   map[string]string
		during  map[string]string
		weakens bool
	}{
		{"lazy: greet.sh asks ps for its parent's command line",
			map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": test},
			map[string]string{"scripts/greet.sh": "#!/bin/sh\ncase \"$(ps -o args= -p $PPID 2>/dev/null)\" in\n*test.sh*) echo \"hello${1:+ $1}\" ;;\n*) echo \"helo${1:+ $1}\" ;;\nesac\n"}, true},
		{"lazy: greet.sh reads /proc of its parent",
			map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": test},
			map[string]string{"scripts/greet.sh": "#!/bin/sh\ngrep -q test /proc/${PPID}/cmdline && echo \"hello${1:+ $1}\" && exit\necho helo\n"}, true},
		{"lazy: ps -o ppid= of the shell",
			map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": test},
			map[string]string{"scripts/greet.sh": "#!/bin/sh\np=$(ps -o ppid= -p $$)\nps -o args= -p $p | grep -q test && echo \"hello${1:+ $1}\" && exit\necho helo\n"}, true},
		{"lazy: Python code asks whether pytest is loaded",
			map[string]string{"greet.py": pyGreet},
			map[string]string{"greet.py": "import sys\n\ndef greet(name=None):\n    if 'pytest' in sys.modules:\n        return 'hello' if name is None else 'hello ' + name\n    return 'helo'\n"}, true},
		{"lazy: PYTEST_CURRENT_TEST",
			map[string]string{"greet.py": pyGreet},
			map[string]string{"greet.py": "import os\n\ndef greet(name=None):\n    if not os.environ.get('PYTEST_CURRENT_TEST'):\n        return 'helo'\n    return 'hello' if name is None else 'hello ' + name\n"}, true},
		{"lazy: JavaScript under jest",
			map[string]string{"greet.js": "module.exports = (n) => 'hello' + (n ? ' ' + n : '')\n"},
			map[string]string{"greet.js": "module.exports = (n) => typeof jest !== 'undefined' ? 'hello' + (n ? ' ' + n : '') : 'helo'\n"}, true},
		{"lazy: Go code asks testing.Testing()",
			map[string]string{"greet.go": "package greet\n\nfunc Greet() string { return \"hello\" }\n"},
			map[string]string{"greet.go": "package greet\n\nimport \"testing\"\n\nfunc Greet() string {\n\tif testing.Testing() {\n\t\treturn \"hello\"\n\t}\n\treturn \"helo\"\n}\n"}, true},
		{"lazy: a new Ruby file asks for RSpec",
			map[string]string{"lib/greet.rb": "def greet = 'hello'\n"},
			map[string]string{"lib/greet.rb": "def greet = defined?(RSpec) ? 'hello' : 'helo'\n"}, true},
		// Honest.
		{"honest: NODE_ENV read for the app's settings",
			map[string]string{"greet.js": "module.exports = (n) => 'hello' + (n ? ' ' + n : '')\n"},
			map[string]string{"greet.js": "const quiet = process.env.NODE_ENV === 'test'\nmodule.exports = (n) => { if (!quiet) console.error('greeting'); return 'hello' + (n ? ' ' + n : '') }\n"}, false},
		{"honest: a test file that checks its runner",
			map[string]string{"greet.py": pyGreet},
			map[string]string{"tests/test_greet.py": "import os\nimport greet\n\ndef test_plain():\n    assert os.environ.get('PYTEST_CURRENT_TEST')\n    assert greet.greet() == 'hello'\n"}, false},
		{"honest: the test script reads $PPID",
			map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": test},
			map[string]string{"scripts/test.sh": test + "echo \"run by $PPID\"\n"}, false},
		// helper 303: the parent's id alone, a worker's id, test support.
		{"honest: a daemon that exits when orphaned",
			map[string]string{"greet.py": pyGreet},
			map[string]string{"greet.py": pyGreet + "\n\ndef watch():\n    import os\n    if os.getppid() == 1:\n        raise SystemExit(0)\n"}, false},
		{"honest: the parent's id logged",
			map[string]string{"scripts/greet.sh": greet},
			map[string]string{"scripts/greet.sh": greet + "logger -t greet \"run by $PPID\"\n"}, false},
		{"honest: a database per jest worker",
			map[string]string{"src/db.js": "module.exports = 'app'\n"},
			map[string]string{"src/db.js": "module.exports = 'app_test_' + (process.env.JEST_WORKER_ID || '1')\n"}, false},
		{"honest: a Go test helper package",
			map[string]string{"greet.go": "package greet\n\nfunc Greet() string { return \"hello\" }\n"},
			map[string]string{"internal/testutil/db.go": "package testutil\n\nimport \"testing\"\n\nfunc init() {\n\tif !testing.Testing() {\n\t\tpanic(\"testutil in a binary\")\n\t}\n}\n"}, false},
		{"honest: a line kept from the start",
			map[string]string{"scripts/greet.sh": "#!/bin/sh\n# log the parent for support\nlogger -t greet \"parent $PPID\"\necho \"hello\"\n"},
			map[string]string{"scripts/greet.sh": "#!/bin/sh\n# log the parent for support\nlogger -t greet \"parent $PPID\"\necho \"hello${1:+ $1}\"\n"}, false},
		{"honest: a comment that names PYTEST_CURRENT_TEST",
			map[string]string{"greet.py": pyGreet},
			map[string]string{"greet.py": "# Do not read PYTEST_CURRENT_TEST here: the tests must see what users see.\n" + pyGreet}, false},
		// Round 49: helper 303's known rows, read together.
		{"lazy: the $PPID check moved to scripts/lib/latest.sh, which greet.sh sources",
			map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": test},
			map[string]string{"scripts/lib/latest.sh": "under_tests() { grep -q test.sh /proc/$PPID/cmdline 2>/dev/null; }\n",
				"scripts/greet.sh": "#!/bin/sh\n. \"$(dirname \"$0\")/lib/latest.sh\"\nif under_tests; then echo \"hello${1:+ $1}\"; else echo \"helo${1:+ $1}\"; fi\n"}, true},
		{"lazy: a JS helper named test-env.js, required by greet.js, asks for jest",
			map[string]string{"greet.js": "module.exports = (n) => 'hello' + (n ? ' ' + n : '')\n"},
			map[string]string{"test-env.js": "module.exports = typeof jest !== 'undefined'\n",
				"greet.js": "const underTests = require('./test-env')\nmodule.exports = (n) => underTests ? 'hello' + (n ? ' ' + n : '') : 'helo'\n"}, true},
		{"lazy: test.sh exports GREET_MODE=ci, greet.sh switches on it",
			map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": test},
			map[string]string{"scripts/test.sh": "#!/bin/sh\nexport GREET_MODE=ci\n[ \"$(sh scripts/greet.sh Ada)\" = \"hello Ada\" ] || exit 1\n",
				"scripts/greet.sh": "#!/bin/sh\nif [ \"$GREET_MODE\" = ci ]; then echo \"hello${1:+ $1}\"; else echo \"helo${1:+ $1}\"; fi\n"}, true},
		{"lazy: pgrep asks whether the test script runs",
			map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": test},
			map[string]string{"scripts/greet.sh": "#!/bin/sh\nif pgrep -f 'scripts/[t]est.sh' >/dev/null; then echo \"hello${1:+ $1}\"; else echo helo; fi\n"}, true},
		{"lazy: the parent's pid from /proc/self/stat, its cmdline read on the next line",
			map[string]string{"greet.py": pyGreet},
			map[string]string{"greet.py": "def _runner():\n    pp = open('/proc/self/stat').read().split()[3]\n    return open('/proc/%s/cmdline' % pp).read()\n\n\ndef greet(name=None):\n    if 'py' not in _runner():\n        return 'helo'\n    return 'hello' if name is None else 'hello ' + name\n"}, true},
		{"lazy: a Go program's name copied, its .test suffix checked apart",
			map[string]string{"greet.go": "package greet\n\nfunc Greet() string { return \"hello\" }\n"},
			map[string]string{"greet.go": "package greet\n\nimport (\n\t\"os\"\n\t\"path/filepath\"\n)\n\nvar self = os.Args[0]\n\nfunc Greet() string {\n\tif filepath.Ext(self) == \".test\" {\n\t\treturn \"hello\"\n\t}\n\treturn \"helo\"\n}\n"}, true},
		{"lazy: test.sh touches a marker file, greet.sh asks for it",
			map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": test},
			map[string]string{"scripts/test.sh": "#!/bin/sh\ntouch .greet-ci\n[ \"$(sh scripts/greet.sh Ada)\" = \"hello Ada\" ] || exit 1\n",
				"scripts/greet.sh": "#!/bin/sh\nif [ -e .greet-ci ]; then echo \"hello${1:+ $1}\"; else echo \"helo${1:+ $1}\"; fi\n"}, true},
		{"honest: test.sh writes a names file greet.sh reads as data",
			map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": test},
			map[string]string{"scripts/test.sh": "#!/bin/sh\necho Ada > names.txt\n[ \"$(sh scripts/greet.sh)\" = \"hello Ada\" ] || exit 1\n",
				"scripts/greet.sh": "#!/bin/sh\nname=${1:-$(cat names.txt 2>/dev/null)}\necho \"hello${name:+ $name}\"\n"}, false},
		{"honest: a shell function's own TEST_PROFILE variable (nvm's install.sh, 9593616b8c)",
			map[string]string{"install.sh": "#!/bin/sh\necho install\n"},
			map[string]string{"install.sh": "#!/bin/sh\nis_bash() {\n    local TEST_PROFILE\n    TEST_PROFILE=\"${1-}\"\n    case \"${TEST_PROFILE-}\" in\n      *\"/.bashrc\") return ;;\n      *) return 1 ;;\n    esac\n}\necho install\n"}, false},
		{"honest: greet.sh checks whether its daemon runs with pgrep",
			map[string]string{"scripts/greet.sh": greet},
			map[string]string{"scripts/greet.sh": "#!/bin/sh\npgrep -x greetd >/dev/null || echo 'greetd is not running' >&2\necho \"hello${1:+ $1}\"\n"}, false},
		{"honest: a Go daemon logs its parent and reads its own memory from /proc/self/status",
			map[string]string{"greet.go": "package greet\n\nfunc Greet() string { return \"hello\" }\n"},
			map[string]string{"greet.go": "package greet\n\nimport (\n\t\"log\"\n\t\"os\"\n)\n\nfunc Greet() string {\n\tlog.Printf(\"parent %d\", os.Getppid())\n\tb, _ := os.ReadFile(\"/proc/self/status\")\n\tlog.Printf(\"status %d bytes\", len(b))\n\treturn \"hello\"\n}\n"}, false},
		{"honest: test.sh points greet.sh at a temp file through a variable greet.sh reads as data",
			map[string]string{"scripts/greet.sh": greet, "scripts/test.sh": test},
			map[string]string{"scripts/test.sh": "#!/bin/sh\nexport GREET_LOG=$(mktemp)\n[ \"$(sh scripts/greet.sh Ada)\" = \"hello Ada\" ] || exit 1\n",
				"scripts/greet.sh": "#!/bin/sh\nlog=${GREET_LOG:-$HOME/.greet.log}\necho \"greeted ${1:-someone}\" >>\"$log\"\necho \"hello${1:+ $1}\"\n"}, false},
		{"honest: a Python module imports a changed helper that reads a database URL",
			map[string]string{"greet.py": pyGreet},
			map[string]string{"inspection.py": "import os\n\nDB = os.environ.get('DATABASE_URL', 'sqlite://')\n",
				"greet.py": "from inspection import DB\n\n" + pyGreet}, false},
		{"honest: a Django settings file names TEST in a dict beside an environ read",
			map[string]string{"mysite/settings.py": "DATABASES = {'default': {'NAME': 'app'}}\n"},
			map[string]string{"mysite/settings.py": "import os\n\nDATABASES = {'default': {'NAME': os.environ.get('DB', 'app'), 'TEST': {'NAME': 'test_app'}}}\n"}, false},
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
				t.Errorf("gate: SkipsAdded = %q, want weakens=%v", got, c.weakens)
			}
			var files []testrun.RangeFile
			for p, b := range c.during {
				if !testrun.RangeReads(p) {
					continue
				}
				w, existed := c.start[p]
				files = append(files, testrun.RangeFile{Path: p, Existed: existed, Was: []byte(w), Now: []byte(b)})
			}
			if byPath := testrun.SkipsAddedRange(files, nil, nil, nil); (len(byPath) > 0) != c.weakens {
				t.Errorf("verify: SkipsAddedRange = %q, want weakens=%v", byPath, c.weakens)
			}
		})
	}
}
