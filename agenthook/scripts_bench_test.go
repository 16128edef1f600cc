package agenthook_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/agenthook"
)

// BenchmarkScriptRead times the agent hook (in process, Claude Code's
// PreToolUse for Bash) on lines that run a script file, which the hook now
// reads and judges, beside its peer in the same run: the same hook on a
// line of the same shape whose code is on the line (`sh -c '...'`), so
// nothing is read. The ratio is the added time of reading a script.
func BenchmarkScriptRead(b *testing.B) {
	r := newRepo(b, "")
	const sid = "bench-scripts"
	var sh, py strings.Builder
	sh.WriteString("#!/bin/sh\nset -e\n")
	for i := range 60 {
		fmt.Fprintf(&sh, "go vet ./pkg%d/... && echo \"pkg%d ok\" >> build/log.txt\n", i, i)
	}
	py.WriteString("import os, subprocess, json\n")
	for i := range 200 {
		fmt.Fprintf(&py, "def step%d(path):\n    with open(os.path.join('build', path), 'w') as f:\n        f.write(json.dumps({'n': %d}))\n", i, i)
	}
	var big strings.Builder
	for big.Len() < 150<<10 {
		big.WriteString("const x = require('path').join('src', 'file.js'); // filler line of a bundled file\n")
	}
	// A project's make, imports and pytest layout: a Makefile whose test
	// target reaches two more, a package of 12 modules a line imports, and
	// 40 test folders (one conftest.py each) pytest walks.
	writeFile(b, filepath.Join(r.root, "Makefile"), "PY ?= python3\n.PHONY: test lint build hooks\ntest: lint build\n\t$(PY) -m unittest discover -s tests\nlint:\n\t$(PY) -m py_compile app/*.py\nbuild:\n\tmkdir -p build\nhooks:\n\tgit config core.hooksPath .githooks\n")
	var imp strings.Builder
	for i := range 12 {
		fmt.Fprintf(&imp, "from . import m%d\n", i)
		writeFile(b, filepath.Join(r.root, "app", fmt.Sprintf("m%d.py", i)), strings.Repeat(fmt.Sprintf("def f%d(x):\n    return x + %d\n", i, i), 40))
	}
	writeFile(b, filepath.Join(r.root, "app", "__init__.py"), imp.String())
	for i := range 40 {
		writeFile(b, filepath.Join(r.root, "tests", fmt.Sprintf("t%d", i), "conftest.py"), "import pytest\n\n@pytest.fixture\ndef n():\n    return 1\n")
		writeFile(b, filepath.Join(r.root, "tests", fmt.Sprintf("t%d", i), "test_x.py"), "def test_x(n):\n    assert n == 1\n")
	}
	// A Go module of 10 packages (a file and a test file each) `go test
	// ./...` builds, and a JS package whose `npm test` runs jest over a
	// config, a setup file and 20 test files.
	writeFile(b, filepath.Join(r.root, "gomod", "go.mod"), "module example.com/m\n\ngo 1.22\n")
	for i := range 10 {
		writeFile(b, filepath.Join(r.root, "gomod", fmt.Sprintf("p%d", i), "p.go"), fmt.Sprintf("package p%d\n\n", i)+strings.Repeat(fmt.Sprintf("func F%d(x int) int { return x + %d }\n", i, i), 1)+strings.Repeat("// filler\n", 40))
		writeFile(b, filepath.Join(r.root, "gomod", fmt.Sprintf("p%d", i), "p_test.go"), fmt.Sprintf("package p%d\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {\n\tif F%d(1) != %d {\n\t\tt.Fatal(\"f\")\n\t}\n}\n", i, i, i+1))
	}
	writeFile(b, filepath.Join(r.root, "web", "package.json"), `{"scripts": {"test": "jest"}}`)
	writeFile(b, filepath.Join(r.root, "web", "jest.config.js"), "module.exports = { setupFiles: ['./jest.setup.js'] }\n")
	writeFile(b, filepath.Join(r.root, "web", "jest.setup.js"), "process.env.TZ = 'UTC'\n")
	for i := range 20 {
		writeFile(b, filepath.Join(r.root, "web", "src", fmt.Sprintf("m%d.test.js", i)), strings.Repeat(fmt.Sprintf("test('m%d', () => expect(%d + 1).toBe(%d))\n", i, i, i+1), 20))
	}
	writeFile(b, filepath.Join(r.root, "scripts", "test.sh"), sh.String())
	writeFile(b, filepath.Join(r.root, "tools", "gen.py"), py.String())
	writeFile(b, filepath.Join(r.root, "dist", "bundle.js"), big.String())
	env := map[string]string{}
	for _, kv := range r.env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	run := func(b *testing.B, event string, in []byte) {
		var out bytes.Buffer
		rn := &agenthook.Runner{Dir: r.root, Getenv: func(k string) string { return env[k] }, Stdin: bytes.NewReader(in), Stdout: &out, Stderr: io.Discard, LeaveOpen: true}
		if code := rn.Run(context.Background(), "claude", event); code != 0 || out.Len() == 0 || bytes.Contains(out.Bytes(), []byte("deny")) {
			b.Fatalf("exit %d, answer %q", code, out.String())
		}
	}
	run(b, "SessionStart", []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, sid, r.root)))
	pre := func(cmd string) []byte {
		return []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%q},"tool_use_id":"b"}`, sid, r.root, cmd))
	}
	for _, c := range []struct{ name, cmd string }{
		{"peer-code-on-line", `sh -c 'go vet ./... && echo ok'`},
		{"sh-test.sh-2-lines", "sh test.sh"},
		{"sh-scripts-test.sh-62-lines", "sh scripts/test.sh"},
		{"python3-gen.py-601-lines", "python3 tools/gen.py"},
		{"node-bundle.js-150KiB", "node dist/bundle.js"},
		{"make-test-default-Makefile", "make test"},
		{"python3-c-import-app-13-modules", "python3 -c 'import app'"},
		{"pytest-40-conftest", "python3 -m pytest -q"},
		{"go-test-10-packages", "cd gomod && go test ./..."},
		{"npm-test-jest-20-files", "npm --prefix web test"},
	} {
		in := pre(c.cmd)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				run(b, "PreToolUse", in)
			}
		})
	}
}
