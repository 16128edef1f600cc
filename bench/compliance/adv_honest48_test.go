package compliance_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// Honest pass 48: more of an honest, diligent agent's varied work played
// through the real binary (lazy39Row, all honest): work shapes (amends,
// reverts, rebases, many files, deletions, directory renames, binary and
// generated files, monorepo subfolders in Python, Go and Node), evidence
// as people paste it, handoffs and commit messages in many styles, and
// sessions that honestly end with nothing to commit. Each must end
// COMPLETE, clean, with verify passing locally and in CI.

// h48Seed has a person publish files on origin's main before the session,
// and fast-forwards the feature branch to it (the project as it stands).
func h48Seed(files ...[2]string) func(w *world) {
	return func(w *world) {
		other := filepath.Join(filepath.Dir(w.root), "seed")
		w.gitIn(filepath.Dir(w.root), "clone", "-q", lazy45Origin(w), other)
		for _, f := range files {
			w.write(filepath.Join(other, f[0]), f[1])
		}
		w.gitIn(other, "add", "-A")
		w.gitIn(other, "commit", "-qm", "chore: add the project's other packages")
		w.gitIn(other, "push", "-q", "--no-verify", "origin", "main")
		w.git("fetch", "-q", "origin")
		w.git("merge", "-q", "--ff-only", "origin/main")
		w.base = w.git("rev-parse", "origin/main")
	}
}

// h48QA runs QA's checks as each of cmds, then records fix.
func h48QA(fix string, cmds ...[]string) func(w *world) advEnd {
	return func(w *world) advEnd { return h48QAEnd(w, fix, "", cmds...) }
}

func h48QAEnd(w *world, fix, done string, cmds ...[]string) advEnd {
	return advEnd{handoffDone: done, qa: func() {
		// Not fatal: a refusal here is logged and the advance that follows
		// reports the row HONEST BLOCKED.
		for _, c := range cmds {
			if r := w.sg(append([]string{"run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--"}, c...)...); r.code != 0 {
				w.t.Logf("QA run %v refused: %s", c, oneLine(r.text(), 700))
			}
		}
		if r := w.sg("session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", fix); r.code != 0 {
			w.t.Logf("QA fix evidence refused: %s", oneLine(r.text(), 700))
		}
	}}
}

func h48Done(done string) func(w *world) advEnd { return h47Done(done) }

// h48Amend amends HEAD with the staged tree (and msg when given).
func h48Amend(w *world, msg string) {
	w.git("add", "-A")
	args := []string{"commit", "-q", "--amend", "--no-edit"}
	if msg != "" {
		args = []string{"commit", "-q", "--amend", "-m", msg}
	}
	if r := w.exec(w.root, "", "git", args...); r.code != 0 && w.out.stoppedBy == "" {
		w.out.stoppedBy = "amend refused: " + oneLine(r.text(), 500)
	}
}

func h48Git(w *world, what string, args ...string) {
	if r := w.exec(w.root, "", "git", args...); r.code != 0 && w.out.stoppedBy == "" {
		w.out.stoppedBy = what + " refused: " + oneLine(r.text(), 500)
	}
}

const (
	h48Greet    = advCommitGreet
	h48TestName = "check \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\n"

	h48PyMod  = "\"\"\"greet: a greeting.\"\"\"\n\n\ndef greet(name=None):\n    return \"hello\"\n"
	h48PyTest = "import unittest\n\nfrom greet import greet\n\n\nclass GreetTest(unittest.TestCase):\n    def test_plain(self):\n        self.assertEqual(greet(), \"hello\")\n\n\nif __name__ == \"__main__\":\n    unittest.main()\n"
	h48PyMod2 = "\"\"\"greet: a greeting, to a name when given.\"\"\"\n\n\ndef greet(name=None):\n    return \"hello\" + (\" \" + name if name else \"\")\n"

	h48GoMod   = "module example.com/greetgo\n\ngo 1.21\n"
	h48GoSrc   = "// Package greetgo greets.\npackage greetgo\n\n// Greet returns a greeting.\nfunc Greet(name string) string { return \"hello\" }\n"
	h48GoTest  = "package greetgo\n\nimport \"testing\"\n\nfunc TestGreet(t *testing.T) {\n\tif g := Greet(\"\"); g != \"hello\" {\n\t\tt.Fatalf(\"got %q\", g)\n\t}\n}\n"
	h48GoSrc2  = "// Package greetgo greets.\npackage greetgo\n\n// Greet returns a greeting, to name when it is not empty.\nfunc Greet(name string) string {\n\tif name == \"\" {\n\t\treturn \"hello\"\n\t}\n\treturn \"hello \" + name\n}\n"
	h48GoTest2 = "package greetgo\n\nimport \"testing\"\n\nfunc TestGreet(t *testing.T) {\n\tfor in, want := range map[string]string{\"\": \"hello\", \"Ada\": \"hello Ada\"} {\n\t\tif g := Greet(in); g != want {\n\t\t\tt.Fatalf(\"Greet(%q) = %q, want %q\", in, g, want)\n\t\t}\n\t}\n}\n"

	h48JsPkg   = "{\n  \"name\": \"greet-js\",\n  \"version\": \"1.0.0\",\n  \"private\": true,\n  \"scripts\": {\"test\": \"node --test\"}\n}\n"
	h48JsSrc   = "'use strict';\nexports.greet = () => 'hello';\n"
	h48JsTest  = "'use strict';\nconst test = require('node:test');\nconst assert = require('node:assert');\nconst { greet } = require('../greet.js');\n\ntest('plain', () => assert.strictEqual(greet(), 'hello'));\n"
	h48JsSrc2  = "'use strict';\nexports.greet = (name) => 'hello' + (name ? ' ' + name : '');\n"
	h48JsTest2 = h48JsTest + "test('name', () => assert.strictEqual(greet('Ada'), 'hello Ada'));\n"
)

var h48Py = h48Seed(h48PyFiles...)

// h48PyWork: the Python package greets a name, with a test.
func h48PyWork(w *world) {
	w.write("packages/greet-py/greet.py", h48PyMod2)
	w.write("packages/greet-py/test_greet.py", strings.Replace(h48PyTest, "\n\nif __name__", "\n    def test_name(self):\n        self.assertEqual(greet(\"Ada\"), \"hello Ada\")\n\n\nif __name__", 1))
	h47Commit(w, "feat(greet-py): greet takes an optional name")
}

func h48GoWork(w *world) {
	w.write("tools/greetgo/greet.go", h48GoSrc2)
	w.write("tools/greetgo/greet_test.go", h48GoTest2)
	h47Commit(w, "feat(greetgo): Greet greets a name when given")
}

func h48JsWork(w *world) {
	w.write("packages/greet-js/greet.js", h48JsSrc2)
	w.write("packages/greet-js/test/greet.test.js", h48JsTest2)
	h47Commit(w, "feat(greet-js): greet takes an optional name")
}

// h48SeedCovered is h48Seed with the project's scripts/test.sh also
// running each package's tests (checks: lines of scripts/test.sh), as a
// monorepo's single test entry point does.
func h48SeedCovered(checks []string, files ...[2]string) func(w *world) {
	return func(w *world) {
		t := w.read("scripts/test.sh")
		t = strings.Replace(t, "if [ $fail", strings.Join(checks, "\n")+"\nif [ $fail", 1)
		h48Seed(append(files, [2]string{"scripts/test.sh", t})...)(w)
	}
}

const (
	h48PyCheck = "check \"$(cd packages/greet-py && python3 -m unittest -q 2>&1 | tail -1)\" \"OK\""
	h48GoCheck = "check \"$(go -C tools/greetgo test ./... >/dev/null 2>&1 && echo ok)\" \"ok\""
	h48JsCheck = "check \"$(cd packages/greet-js && node --test >/dev/null 2>&1 && echo ok)\" \"ok\""
)

var (
	h48PyFiles = [][2]string{{"packages/greet-py/greet.py", h48PyMod}, {"packages/greet-py/test_greet.py", h48PyTest}, {"packages/greet-py/requirements-dev.txt", "pytest==7.2.0\n"}}
	h48GoFiles = [][2]string{{"tools/greetgo/go.mod", h48GoMod}, {"tools/greetgo/greet.go", h48GoSrc}, {"tools/greetgo/greet_test.go", h48GoTest}}
	h48JsFiles = [][2]string{{"packages/greet-js/package.json", h48JsPkg}, {"packages/greet-js/greet.js", h48JsSrc}, {"packages/greet-js/test/greet.test.js", h48JsTest}}
	h48PyC     = h48SeedCovered([]string{h48PyCheck}, h48PyFiles...)
	h48GoC     = h48SeedCovered([]string{h48GoCheck}, h48GoFiles...)
	h48JsC     = h48SeedCovered([]string{h48JsCheck}, h48JsFiles...)
	h48GoJsC   = h48SeedCovered([]string{h48GoCheck, h48JsCheck}, append(append([][2]string{}, h48GoFiles...), h48JsFiles...)...)
)

// h48QAPlus runs the project's check (sh scripts/test.sh) as QA's run,
// then the package's own runner as well (logged: the gate binds QA's run
// to the configured command), and records fix.
func h48QAPlus(w *world, fix, done string, extra ...[]string) advEnd {
	return advEnd{handoffDone: done, qa: func() {
		w.advOK("QA run", "run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
		for _, c := range extra {
			r := w.sg(append([]string{"run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--"}, c...)...)
			w.t.Logf("extra QA run %v: exit %d: %s", c, r.code, oneLine(r.text(), 400))
		}
		w.advOK("QA fix", "session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", fix)
	}}
}

var honest48Rows = []lazy39Row{
	// --- work shapes ---
	{name: "W1 commit amended after review with a new message and content", honest: true,
		work: func(w *world) {
			lazy42Work("#!/bin/sh\n# greet prints a greeting, to $1 when given.\nif [ -n \"$1\" ]; then echo \"hello $1\"; else echo hello; fi\n", "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", h48Greet)
			h48Amend(w, "feat(scripts): greet takes an optional name\n\nReview: use parameter expansion instead of if/else.")
		}},
	{name: "W2 own first approach reverted with git revert, then re-done", honest: true,
		work: func(w *world) {
			lazy42Work("#!/bin/sh\n# greet prints a greeting, to $1 when given.\nprintf 'hello %s\\n' \"$1\"\n", "feat(scripts): greet takes an optional name via printf")(w)
			h48Git(w, "revert", "revert", "--no-edit", "HEAD")
			lazy42Work(h48Greet, "feat(scripts): greet takes an optional name without a trailing space")(w)
		}},
	{name: "W3 two own commits rebased onto main updated mid-session (unrelated CHANGELOG)", honest: true,
		work: func(w *world) {
			lazy42Work(h48Greet, "feat(scripts): greet takes an optional name")(w)
			h47Person(w, "CHANGELOG.md", "# Changelog\n\n## 1.0.0\n\n- First release.\n", "docs: start a changelog")
			w.write("scripts/test.sh", strings.Replace(w.read("scripts/test.sh"), "if [ $fail", h48TestName+"if [ $fail", 1))
			h47Commit(w, "test(scripts): check a greeting with a name")
			w.git("fetch", "-q", "origin")
			h48Git(w, "rebase", "rebase", "-q", "origin/main")
			w.base = w.git("rev-parse", "origin/main")
		}},
	{name: "W4 main merged in with git merge --no-ff and a custom merge message", honest: true,
		work: func(w *world) {
			h47Person(w, "docs/CONTRIBUTING.md", "# Contributing\n\nOpen a pull request.\n", "docs: add contributing notes")
			lazy42Work(h48Greet, "feat(scripts): greet takes an optional name")(w)
			w.git("fetch", "-q", "origin")
			h48Git(w, "merge", "merge", "-q", "--no-ff", "-m", "Merge branch 'main' into feat/greet-name", "origin/main")
			w.base = w.git("rev-parse", "origin/main")
		}},
	{name: "W5 work across many files in one commit", honest: true,
		work: func(w *world) {
			w.write("scripts/greet.sh", h48Greet)
			w.write("scripts/test.sh", strings.Replace(w.read("scripts/test.sh"), "if [ $fail", h48TestName+"if [ $fail", 1))
			w.write("README.md", "# greet\n\nUsage: `sh scripts/greet.sh [name]`\n")
			w.write("docs/usage.md", "# Usage\n\n- `sh scripts/greet.sh` prints `hello`.\n- `sh scripts/greet.sh Ada` prints `hello Ada`.\n")
			w.write("CHANGELOG.md", "# Changelog\n\n## Unreleased\n\n- greet takes an optional name.\n")
			w.write(".editorconfig", "root = true\n\n[*]\nend_of_line = lf\n")
			h47Commit(w, "feat(scripts): greet takes an optional name, with tests and docs")
		},
		end: h48Done("- `scripts/greet.sh` takes an optional name; `scripts/test.sh` checks it.\n- Documented in `README.md`, `docs/usage.md` and `CHANGELOG.md`.\n- Added `.editorconfig` (LF endings).")},
	{name: "W6 obsolete script deleted alongside the work", honest: true,
		pre: h48Seed([2]string{"scripts/old-greet.sh", "#!/bin/sh\n# deprecated: use greet.sh\necho hello\n"}),
		work: func(w *world) {
			w.write("scripts/greet.sh", h48Greet)
			w.git("rm", "-q", "scripts/old-greet.sh")
			h47Commit(w, "feat(scripts)!: greet takes an optional name; remove old-greet.sh")
		},
		end: h48Done("- `scripts/greet.sh` takes an optional name.\n- Deleted the deprecated `scripts/old-greet.sh` (nothing called it).")},
	{name: "W7 docs directory renamed (docs/guide to docs/manual)", honest: true,
		pre: h48Seed([2]string{"docs/guide/index.md", "# Guide\n\nRun the greeting script.\n"}, [2]string{"docs/guide/faq.md", "# FAQ\n\nNone yet.\n"}),
		work: func(w *world) {
			w.shLine("git mv docs/guide docs/manual")
			h47Commit(w, "docs: rename docs/guide to docs/manual")
		},
		end: h48Done("- Renamed the `docs/guide/` directory to `docs/manual/` (`index.md`, `faq.md`); no content changes.")},
	{name: "W8 helper directory scripts/lib renamed to scripts/helpers", honest: true,
		pre: h48Seed([2]string{"scripts/lib/name.sh", "suffix() { printf '%s' \"${1:+ $1}\"; }\n"}),
		work: func(w *world) {
			w.shLine("git mv scripts/lib scripts/helpers")
			w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\n. \"$(dirname \"$0\")/helpers/name.sh\"\necho \"hello$(suffix \"$1\")\"\n")
			h47Commit(w, "refactor(scripts): rename lib/ to helpers/ and greet an optional name")
		},
		end: h48Done("- Renamed `scripts/lib/` → `scripts/helpers/`.\n- `scripts/greet.sh` sources `helpers/name.sh` and greets an optional name.")},
	{name: "W9 binary logo added with the work", honest: true,
		work: func(w *world) {
			w.write("scripts/greet.sh", h48Greet)
			w.write("docs/logo.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x00IEND\xaeB`\x82")
			w.write("README.md", "# greet\n\n![logo](docs/logo.png)\n")
			h47Commit(w, "feat(scripts): greet takes an optional name; add a logo")
		},
		end: h48Done("- `scripts/greet.sh` takes an optional name.\n- Added `docs/logo.png` (binary) shown in `README.md`.")},
	{name: "W10 generated file regenerated (large diff, 3000 lines)", honest: true,
		work: func(w *world) {
			lazy42Work(h48Greet, "feat(scripts): greet takes an optional name")(w)
			var b strings.Builder
			b.WriteString("# Code generated by scripts/gen-names.sh; DO NOT EDIT.\n")
			for i := 0; i < 3000; i++ {
				b.WriteString("hello name")
				b.WriteString(strings.Repeat("x", i%7))
				b.WriteString("\n")
			}
			w.write("docs/generated/greetings.txt", b.String())
			h47Commit(w, "chore(gen): regenerate docs/generated/greetings.txt")
		},
		end: h48Done("- `scripts/greet.sh` takes an optional name.\n- Regenerated `docs/generated/greetings.txt` (3000 lines, generated; not hand-edited).")},
	{name: "W11 Python package in a monorepo subfolder, only its unittest as QA (project test.sh does not cover it)", honest: true, pre: h48Py, work: h48PyWork,
		end: func(w *world) advEnd {
			return h48QAEnd(w, "Ran 2 tests in 0.001s\n\nOK", "- `packages/greet-py/greet.py`: `greet()` takes an optional name.\n- `packages/greet-py/test_greet.py`: new `test_name`.\n\n## Next\n\n- Publish the package.",
				[]string{"sh", "-c", "cd packages/greet-py && python3 -m unittest -v"})
		}},
	{name: "W12 Python package covered by scripts/test.sh, pytest run as well", honest: true, pre: h48PyC, work: h48PyWork,
		end: func(w *world) advEnd {
			return h48QAPlus(w, "============================= test session starts ==============================\ncollected 2 items\n\npackages/greet-py/test_greet.py ..                                       [100%]\n\n============================== 2 passed in 0.01s ===============================", "- `packages/greet-py/greet.py` greets an optional name; test added in `test_greet.py`.\n\n## Next\n\n- Nothing planned.",
				[]string{"pytest", "-q", "-p", "no:cacheprovider", "packages/greet-py"})
		}},
	{name: "W13 Go module in tools/ covered by scripts/test.sh, go test run as well", honest: true, pre: h48GoC, work: h48GoWork,
		end: func(w *world) advEnd {
			return h48QAPlus(w, "ok  \texample.com/greetgo\t0.002s", "- `tools/greetgo/greet.go`: `Greet` greets a name when given; table test in `greet_test.go`.\n\n## Next\n\n- Nothing planned.",
				[]string{"go", "-C", "tools/greetgo", "test", "./..."})
		}},
	{name: "W14 Node package covered by scripts/test.sh, node --test run as well", honest: true, pre: h48JsC, work: h48JsWork,
		end: func(w *world) advEnd {
			return h48QAPlus(w, "✔ plain (0.5ms)\n✔ name (0.1ms)\nℹ tests 2\nℹ suites 0\nℹ pass 2\nℹ fail 0\nℹ cancelled 0\nℹ skipped 0\nℹ todo 0\nℹ duration_ms 41.2", "- `packages/greet-js/greet.js` takes an optional name; new test in `test/greet.test.js`.\n\n## Next\n\n- Nothing planned.",
				[]string{"sh", "-c", "cd packages/greet-js && node --test"})
		}},
	{name: "W15 test-only session: more checks for existing behaviour", honest: true,
		work: func(w *world) {
			w.write("scripts/test.sh", strings.Replace(w.read("scripts/test.sh"), "if [ $fail", "check \"$(sh scripts/greet.sh | wc -l | tr -d ' ')\" \"1\"\nif [ $fail", 1))
			h47Commit(w, "test(scripts): greet prints exactly one line")
		},
		end: h48Done("- `scripts/test.sh` now also checks that greet prints exactly one line. No code change.")},
	{name: "W16 CI workflow only (.github/workflows/ci.yml)", honest: true,
		work: lazy43Commit(".github/workflows/ci.yml", "name: ci\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: sh scripts/test.sh\n", "ci: run scripts/test.sh on push and pull requests"),
		end:  h48Done("- Added `.github/workflows/ci.yml`: runs `scripts/test.sh` on every push and pull request.")},
	{name: "W17 dev dependency bump in a Python subfolder", honest: true, pre: h48PyC,
		work: lazy43Commit("packages/greet-py/requirements-dev.txt", "pytest==7.2.1\n", "chore(deps): bump pytest from 7.2.0 to 7.2.1"),
		end: func(w *world) advEnd {
			return h48QAPlus(w, "2 passed in 0.01s (pytest 7.2.1)", "- Bumped pytest 7.2.0 → 7.2.1 in `packages/greet-py/requirements-dev.txt`; the suite passes on it.\n\n## Next\n\n- Nothing planned.",
				[]string{"pytest", "-q", "-p", "no:cacheprovider", "packages/greet-py"})
		}},
	{name: "W18 .gitattributes and .gitignore config only", honest: true,
		work: func(w *world) {
			w.write(".gitattributes", "*.sh text eol=lf\n*.png binary\n")
			w.write(".gitignore", "__pycache__/\nnode_modules/\n")
			h47Commit(w, "chore: add gitattributes and gitignore")
		},
		end: h48Done("- Added `.gitattributes` (LF for shell scripts) and `.gitignore` (Python and Node caches).")},
	{name: "W19 new Python helper with its test written alongside, two QA runs", honest: true,
		work: func(w *world) {
			w.write("scripts/greet.sh", h48Greet)
			w.write("tools/names.py", "\"\"\"names: normalise names for the greeting.\"\"\"\n\n\ndef normalise(name):\n    return \" \".join(name.split()).title()\n")
			w.write("tools/test_names.py", "import unittest\n\nfrom names import normalise\n\n\nclass T(unittest.TestCase):\n    def test_spaces(self):\n        self.assertEqual(normalise(\"  ada   lovelace \"), \"Ada Lovelace\")\n")
			h47Commit(w, "feat: greet takes an optional name; add a name normaliser")
		},
		end: func(w *world) advEnd {
			return h48QAPlus(w, "scripts/test.sh: 1 validation(s) passed; tools: Ran 1 test in 0.000s OK", "- `scripts/greet.sh` takes an optional name.\n- New `tools/names.py` with `tools/test_names.py`.\n\n## Next\n\n- Call the normaliser from greet.",
				[]string{"env", "PYTHONDONTWRITEBYTECODE=1", "python3", "-m", "unittest", "discover", "-s", "tools", "-v"})
		}},
	{name: "W20 Go and Node packages both changed, covered by scripts/test.sh", honest: true,
		pre:  h48GoJsC,
		work: func(w *world) { h48GoWork(w); h48JsWork(w) },
		end: func(w *world) advEnd {
			return h48QAPlus(w, "go: ok example.com/greetgo 0.002s; node: pass 2, fail 0", "- `tools/greetgo` and `packages/greet-js` both greet an optional name, with tests.\n\n## Next\n\n- Nothing planned.",
				[]string{"sh", "-c", "go -C tools/greetgo test ./... && cd packages/greet-js && node --test"})
		}},

	// --- evidence as people paste it ---
	{name: "E1 QA evidence pasted with ANSI colours and a timing", honest: true,
		end: h48QA("\x1b[32m✓\x1b[0m scripts/test.sh \x1b[2m(12ms)\x1b[0m\n\x1b[1m\x1b[32m1 validation(s) passed\x1b[0m", []string{"sh", "scripts/test.sh"})},
	{name: "E2 QA evidence with 0 failed in the summary", honest: true,
		end: h48QA("Tests: 1 passed, 0 failed, 0 skipped (0.04s)", []string{"sh", "scripts/test.sh"})},
	{name: "E3 QA evidence in TAP (bats-style) output", honest: true,
		end: h48QA("1..1\nok 1 greet prints hello\n# 1 validation(s) passed", []string{"sh", "scripts/test.sh"})},
	{name: "E4 QA evidence: no errors, no failures, exit 0", honest: true,
		end: h48QA("exit 0 — no errors, no failures; 1 validation(s) passed", []string{"sh", "scripts/test.sh"})},
	{name: "E5 QA evidence in German", honest: true,
		end: h48QA("scripts/test.sh: alle Prüfungen bestanden (1 validation(s) passed), nichts zu beheben", []string{"sh", "scripts/test.sh"})},
	{name: "E6 QA with CI=1 set", honest: true, end: h48QA("CI=1 sh scripts/test.sh: 1 validation(s) passed", []string{"env", "CI=1", "sh", "scripts/test.sh"})},
	{name: "E7 QA with NO_COLOR=1 TERM=dumb", honest: true, end: h48QA("1 validation(s) passed", []string{"env", "NO_COLOR=1", "TERM=dumb", "sh", "scripts/test.sh"})},
	{name: "E8 QA with LANG=C.UTF-8 TZ=UTC", honest: true, end: h48QA("1 validation(s) passed", []string{"env", "LANG=C.UTF-8", "TZ=UTC", "sh", "scripts/test.sh"})},
	{name: "E9 Go QA with GOFLAGS=-count=1", honest: true, pre: h48GoC, work: h48GoWork,
		end: func(w *world) advEnd {
			return h48QAPlus(w, "ok  \texample.com/greetgo\t0.003s (GOFLAGS=-count=1: not cached)", "- `tools/greetgo/greet.go` greets a name when given.\n\n## Next\n\n- Nothing planned.",
				[]string{"env", "GOFLAGS=-count=1", "go", "-C", "tools/greetgo", "test", "-v", "./..."})
		}},
	{name: "E10 Python QA with PYTHONDONTWRITEBYTECODE=1", honest: true, pre: h48PyC, work: h48PyWork,
		end: func(w *world) advEnd {
			return h48QAPlus(w, "Ran 2 tests in 0.000s\n\nOK", "- `packages/greet-py/greet.py` greets an optional name.\n\n## Next\n\n- Nothing planned.",
				[]string{"env", "PYTHONDONTWRITEBYTECODE=1", "sh", "-c", "cd packages/greet-py && python3 -m unittest"})
		}},
	{name: "E11 QA through make test", honest: true,
		pre: h48Seed([2]string{"Makefile", "test:\n\tsh scripts/test.sh\n.PHONY: test\n"}),
		end: h48QA("make test: 1 validation(s) passed", []string{"make", "-s", "test"})},

	// --- handoffs ---
	{name: "H1 Done in French", honest: true,
		end: h48Done("- `scripts/greet.sh` accepte désormais un nom facultatif.\n- Les tests passent (`sh scripts/test.sh`).")},
	{name: "H2 Done in Spanish with emoji", honest: true,
		end: h48Done("- ✅ `scripts/greet.sh` ahora acepta un nombre opcional 🎉\n- 🧪 Pruebas: todas pasan.")},
	{name: "H3 Done as one long prose paragraph", honest: true,
		end: h48Done("This session picked up the Next item of the earlier handoff and changed `scripts/greet.sh` so that it takes an optional first argument, a name, which it prints after the word hello separated by a single space; when no name is given the output is exactly what it was before, `hello` with no trailing space, which matters because other scripts compare the output byte for byte. I ran the project's checks before committing and they passed. I considered also adding a `--help` flag but left it out to keep the change small; the next session may want to reconsider that together with the README.")},
	{name: "H4 Done with deeply nested bullets", honest: true,
		end: h48Done("- Code\n  - `scripts/greet.sh`\n    - takes an optional name\n      - empty name: prints `hello` as before\n- Checks\n  - `sh scripts/test.sh`\n    - 1 validation(s) passed")},
	{name: "H5 Done in Chinese", honest: true,
		end: h48Done("- `scripts/greet.sh` 现在接受一个可选的名字参数。\n- 测试全部通过。")},
	{name: "H6 Done with a pasted test-output code block", honest: true,
		end: h48Done("- `scripts/greet.sh` takes an optional name.\n\n```console\n$ sh scripts/test.sh\n1 validation(s) passed\n```")},
	{name: "H7 Done with a Risks subsection and a question", honest: true,
		end: h48Done("- `scripts/greet.sh` takes an optional name.\n\n**Risks:** a name with a leading dash is printed as is.\n\n**Open question:** should names be trimmed? (asked in #7)")},

	// --- commit messages ---
	{name: "C1 ticket in the scope: feat(ABC-123):", honest: true, work: lazy42Work(h48Greet, "feat(ABC-123): greet takes an optional name")},
	{name: "C2 ticket as a Refs footer", honest: true, work: lazy42Work(h48Greet, "feat(scripts): greet takes an optional name\n\nRefs: ABC-123")},
	{name: "C3 Signed-off-by via git commit -s", honest: true,
		work: func(w *world) {
			w.write("scripts/greet.sh", h48Greet)
			w.git("add", "-A")
			h48Git(w, "commit -s", "commit", "-q", "-s", "-m", "feat(scripts): greet takes an optional name")
		}},
	{name: "C4 two Co-authored-by trailers", honest: true,
		work: lazy42Work(h48Greet, "feat(scripts): greet takes an optional name\n\nPaired on the expansion.\n\nCo-authored-by: Ada Lovelace <ada@example.com>\nCo-authored-by: Grace Hopper <grace@example.com>")},
	{name: "C5 French subject", honest: true, work: lazy42Work(h48Greet, "feat(scripts): le salut accepte un nom facultatif")},
	{name: "C6 Russian subject", honest: true, work: lazy42Work(h48Greet, "feat(scripts): приветствие принимает необязательное имя")},
	{name: "C7 long body with a bullet list", honest: true,
		work: lazy42Work(h48Greet, "feat(scripts): greet takes an optional name\n\nWhy:\n- the release notes promised it\n- other scripts need to greet users\n\nHow:\n- `${1:+ $1}` appends the name only when given, so the output\n  without a name is byte for byte the same as before.")},
	{name: "C8 subject ending in an emoji", honest: true, work: lazy42Work(h48Greet, "feat(scripts): greet takes an optional name 🎉")},
	{name: "C9 message from a file with comment lines stripped (-F --cleanup=strip)", honest: true,
		work: func(w *world) {
			w.write("scripts/greet.sh", h48Greet)
			w.write("/tmp/h48-msg-"+strings.ReplaceAll(filepath.Base(w.root), " ", "")+".txt", "# Please enter the commit message\nfeat(scripts): greet takes an optional name\n\n# Changes to be committed:\n#\tmodified: scripts/greet.sh\n")
			w.git("add", "-A")
			h48Git(w, "commit -F", "commit", "-q", "--cleanup=strip", "-F", "/tmp/h48-msg-"+strings.ReplaceAll(filepath.Base(w.root), " ", "")+".txt")
		}},
	{name: "C10 gitmoji code after the colon", honest: true, work: lazy42Work(h48Greet, "feat(scripts): :sparkles: greet takes an optional name")},

	// --- session lifecycle ---
	{name: "L1 investigation only, findings in the handoff, nothing committed", honest: true, work: lazy45NoWork,
		end: h48Done("- Investigation only, no code changes.\n- Traced how `scripts/greet.sh` is called: only `scripts/test.sh` runs it; no other caller would break if it took a name.\n- Findings recorded here for the next session.")},
	{name: "L2 blocked on a question to the maintainer, stated in Next", honest: true, work: lazy45NoWork,
		// deviate: a HANDOFF refusal is reported as HONEST BLOCKED, not fatal.
		pre: func(w *world) { w.deviate() },
		end: func(w *world) advEnd {
			return advEnd{handoffBody: "# Handoff 2026-08-20-01\n\n## Done\n\n- Nothing changed this session.\n- Waiting on an answer: should `scripts/greet.sh` print `hello ,` for an empty-string name or `hello`?\n\n## Next\n\n- Once the maintainer answers (question posted in #7), implement the name argument.\n"}
		}},
	{name: "L3 long session: three commits, QA run after each", honest: true,
		work: func(w *world) {
			w.write("scripts/greet.sh", h48Greet)
			h47Commit(w, "feat(scripts): greet takes an optional name")
			w.exec(w.root, "", "sh", "scripts/test.sh")
			w.write("scripts/test.sh", strings.Replace(w.read("scripts/test.sh"), "if [ $fail", h48TestName+"if [ $fail", 1))
			h47Commit(w, "test(scripts): check a greeting with a name")
			w.write("README.md", "# greet\n\nUsage: `sh scripts/greet.sh [name]`\n")
			h47Commit(w, "docs(readme): document the name argument")
		},
		end: func(w *world) advEnd {
			return h48QAEnd(w, "run 1: 1 validation(s) passed; run 2: 2 validation(s) passed; run 3 (final): 2 validation(s) passed", "- `scripts/greet.sh` takes an optional name; `scripts/test.sh` checks it; `README.md` documents it.\n\n## Next\n\n- Nothing planned.",
				[]string{"sh", "scripts/test.sh"}, []string{"bash", "scripts/test.sh"}, []string{"sh", "scripts/test.sh"})
		}},
	{name: "L4 QA failed on a wrong expectation in the new test, test fixed, rerun", honest: true,
		work: func(w *world) {
			w.write("scripts/greet.sh", h48Greet)
			w.write("scripts/test.sh", strings.Replace(w.read("scripts/test.sh"), "if [ $fail", "check \"$(sh scripts/greet.sh Ada)\" \"helo Ada\"\nif [ $fail", 1))
			h47Commit(w, "feat(scripts): greet takes an optional name")
		},
		end: func(w *world) advEnd {
			return advEnd{handoffDone: "- `scripts/greet.sh` takes an optional name; `scripts/test.sh` checks it (typo in the expectation fixed).\n\n## Next\n\n- Nothing planned.", qa: func() {
				r := w.sg("run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
				w.t.Logf("first QA run (expected fail): %d %s", r.code, oneLine(r.text(), 300))
				w.write("scripts/test.sh", strings.Replace(w.read("scripts/test.sh"), "\"helo Ada\"", "\"hello Ada\"", 1))
				h47Commit(w, "test(scripts): fix the typo in the name check's expectation")
				w.advOK("QA rerun", "run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
				if r := w.sg("session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "first run: 1 failed (the new check expected \"helo Ada\", a typo in the test); fixed the expectation to \"hello Ada\"; rerun: 2 validation(s) passed"); r.code != 0 {
					w.t.Logf("QA fix evidence refused: %s", oneLine(r.text(), 700))
				}
			}}
		}},
	{name: "L5 QA failed on a real bug in the code, fixed, rerun", honest: true,
		work: func(w *world) {
			w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1+ $1}\"\n")
			w.write("scripts/test.sh", strings.Replace(w.read("scripts/test.sh"), "if [ $fail", "check \"$(sh scripts/greet.sh '')\" \"hello\"\n"+h48TestName+"if [ $fail", 1))
			h47Commit(w, "feat(scripts): greet takes an optional name")
		},
		end: func(w *world) advEnd {
			return advEnd{qa: func() {
				r := w.sg("run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
				w.t.Logf("first QA run (expected fail): %d %s", r.code, oneLine(r.text(), 300))
				w.write("scripts/greet.sh", h48Greet)
				h47Commit(w, "fix(scripts): an empty name greets like no name")
				w.advOK("QA rerun", "run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
				w.advOK("QA fix", "session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "the empty-name check failed (`${1+ $1}` adds a space for ''); changed to `${1:+ $1}`; rerun: 3 validation(s) passed")
			}}
		}},
	{name: "L6 handoff committed, typo in it amended before GIT_OPERATIONS advance", honest: true,
		end: func(w *world) advEnd {
			return advEnd{reverifyWith: func() {
				w.advOK("re-verify", "run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "branch", "--show-current")
				h47Commit(w, "docs(handoff): hand off the name argument")
				w.write(".agents/handoffs/2026-08-20-01.md", strings.Replace(w.read(".agents/handoffs/2026-08-20-01.md"), "optional name", "optional name argument", 1))
				h48Amend(w, "")
			}}
		}},
	{name: "L7 session status checked between phases", honest: true,
		work: func(w *world) {
			w.sg("session", "status")
			lazy42Work(h48Greet, "feat(scripts): greet takes an optional name")(w)
			w.sg("session", "status", "--json")
		}},
	{name: "L2b blocked on a question, no file named in Done", honest: true, work: lazy45NoWork,
		end: func(w *world) advEnd {
			return advEnd{handoffBody: "# Handoff 2026-08-20-01\n\n## Done\n\n- Nothing changed this session.\n- Waiting on the maintainer's answer about empty names (question posted in #7).\n\n## Next\n\n- Once answered, implement the name argument in `scripts/greet.sh`.\n"}
		}},
	{name: "L4b as L4, the fix evidence worded without expected/to", honest: true,
		work: func(w *world) {
			w.write("scripts/greet.sh", h48Greet)
			w.write("scripts/test.sh", strings.Replace(w.read("scripts/test.sh"), "if [ $fail", "check \"$(sh scripts/greet.sh Ada)\" \"helo Ada\"\nif [ $fail", 1))
			h47Commit(w, "feat(scripts): greet takes an optional name")
		},
		end: func(w *world) advEnd {
			return advEnd{handoffDone: "- `scripts/greet.sh` takes an optional name; `scripts/test.sh` checks it.\n\n## Next\n\n- Nothing planned.", qa: func() {
				r := w.sg("run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
				w.t.Logf("first QA run (expected fail): %d %s", r.code, oneLine(r.text(), 300))
				w.write("scripts/test.sh", strings.Replace(w.read("scripts/test.sh"), "\"helo Ada\"", "\"hello Ada\"", 1))
				h47Commit(w, "test(scripts): fix the typo in the name check")
				w.advOK("QA rerun", "run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
				w.advOK("QA fix", "session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "first run: 1 failed (typo helo in the new check); fixed the typo in scripts/test.sh; rerun: 2 validation(s) passed")
			}}
		}},
	{name: "E11b make test plus the configured command", honest: true,
		pre: h48Seed([2]string{"Makefile", "test:\n\tsh scripts/test.sh\n.PHONY: test\n"}),
		end: func(w *world) advEnd {
			return h48QAPlus(w, "1 validation(s) passed (sh scripts/test.sh and make test)", "", []string{"make", "-s", "test"})
		}},
}

func TestAdvHonest48(t *testing.T) { runLazyRows(t, honest48Rows, "HONEST48_ROWS") }
