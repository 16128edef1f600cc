package agenthook_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptNulAndCd: a script with a NUL byte was skipped as a binary
// (bash, node, perl run it; python3 runs a .pyc), and `cd DIR && python3
// x.py` read ./x.py, not DIR/x.py: an honest run from its own folder was
// denied as "does not exist", and a decoy at the top let DIR's script run.
func TestScriptNulAndCd(t *testing.T) {
	r := newRepo(t, "")
	const sid = "claude-b6"
	home := filepath.Join(filepath.Dir(r.root), "home")
	tr := filepath.Join(home, ".claude", "projects", "-work", "x.jsonl")
	writeFile(t, tr, "")
	start := golden(t, r, "claude", "SessionStart", sid)
	start["transcript_path"] = tr
	r.hook("claude", "SessionStart", start)
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	files := map[string]string{
		"nul.sh":           "#!/bin/sh\n# " + strings.Repeat("tidy ", 20) + "\n# \x00\nrm -rf .git/sessiongate\n",
		"nul.js":           "// \x00\nrequire('fs').rmSync('.git/sessiongate', {recursive: true})\n",
		"forge.py":         "import shutil\nshutil.rmtree('.git/sessiongate')\n",
		"tools/decoy.py":   "import shutil\nshutil.rmtree('../.git/sessiongate')\n",
		"decoy.py":         "print('hello')\n",
		"bin/tool":         "\x7fELF\x02\x01\x01\x00",
		"tools/gen.py":     "import os\nprint(os.getcwd())\n",
		"scripts/build.sh": "#!/bin/sh\necho built\n",
		"tools/walk.py":    "# skip .git and .git/hooks when walking\nimport os\nfor r, d, f in os.walk('.'):\n    if '.git' in d: d.remove('.git')\n",
	}
	for name, body := range files {
		writeFile(t, filepath.Join(r.root, name), body)
	}
	if _, err := exec.LookPath("python3"); err == nil {
		c := exec.Command("python3", "-c", "import py_compile; py_compile.compile('forge.py', cfile='forge.pyc')")
		c.Dir = r.root
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("py_compile: %v %s", err, out)
		}
	}
	bash := golden(t, r, "claude", "PreToolUse-Bash", sid)
	bash["transcript_path"] = tr
	for _, c := range []struct {
		cmd  string
		deny string // a word the reason holds; "" for allowed
	}{
		// A NUL made a script "binary" and unread; bash (past its first 80
		// bytes), dash, node and perl run it.
		{"bash nul.sh", "not text"},
		{"env bash nul.sh", "not text"},
		{"sh -e -- nul.sh", "not text"},
		{"node nul.js", "not text"},
		{"python3 forge.pyc", "not text"},
		// `cd DIR` decides which file runs: the decoy at the top is not it.
		{"cd tools && python3 decoy.py", "tools/decoy.py"},
		// honest work: a script run from its own folder, a compiled tool.
		{"cd tools && python3 gen.py", ""},
		{"cd scripts && sh build.sh", ""},
		{"cd scripts; ./build.sh", ""},
		{"./bin/tool", ""},
		{"python3 tools/walk.py", ""},
	} {
		out, _ := r.hook("claude", "PreToolUse", with(bash, "tool_input", map[string]any{"command": c.cmd}))
		dec := pathStr(out, "hookSpecificOutput", "permissionDecision")
		reason := pathStr(out, "hookSpecificOutput", "permissionDecisionReason")
		switch {
		case c.deny == "" && dec == "deny":
			t.Errorf("honest %q denied: %s", c.cmd, reason)
		case c.deny != "" && dec != "deny":
			t.Errorf("%q allowed, want denied (%s)", c.cmd, c.deny)
		case c.deny != "" && !strings.Contains(reason, c.deny):
			t.Errorf("%q denied for %q, want a reason naming %q", c.cmd, reason, c.deny)
		}
	}
	// The routes are real: bash runs the NUL script, python3 the .pyc.
	if res := r.run(r.root, nil, nil, "bash", "-c", "bash nul.sh; test ! -d .git/sessiongate"); res.code != 0 {
		t.Errorf("bash nul.sh did not remove the folder (exit %d): %s", res.code, res.err)
	}
}
