package hooks_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/hooks"
)

func TestScriptGolden(t *testing.T) {
	for _, name := range hooks.Hooks {
		t.Run(name, func(t *testing.T) {
			got := hooks.Script(name, "/opt/sessiongate's bin/sessiongate")
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("script differs from %s (go test -update rewrites it):\n%s", golden, got)
			}
			if !hooks.IsOurs(got) {
				t.Error("the script lacks the marker")
			}
			if bin, ok := hooks.ScriptBinary(got); !ok || bin != "/opt/sessiongate's bin/sessiongate" {
				t.Errorf("ScriptBinary = %q %v", bin, ok)
			}
		})
	}
}

// snapshot maps each file of a folder to its content and mode.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		st, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		out[e.Name()] = st.Mode().String() + "\n" + string(b)
	}
	return out
}

func TestInstallTwiceChangesNothing(t *testing.T) {
	r := newRepo(t)
	first := r.sg(r.root, "install", "--mcp", "claude,cursor,vscode")
	if strings.Contains(first, "unchanged") {
		t.Fatalf("first install found things installed:\n%s", first)
	}
	hooksDir := filepath.Join(r.root, ".git", "hooks")
	before := snapshot(t, hooksDir)
	mcp := readFile(t, filepath.Join(r.root, ".mcp.json"))
	second := r.sg(r.root, "install", "--mcp", "claude,cursor,vscode")
	for _, l := range strings.Split(strings.TrimSpace(second), "\n") {
		if !strings.HasPrefix(l, "unchanged") {
			t.Errorf("second install changed something: %q", l)
		}
	}
	after := snapshot(t, hooksDir)
	if len(before) != len(after) {
		t.Fatalf("files differ: %v vs %v", len(before), len(after))
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed on the second install", k)
		}
	}
	if readFile(t, filepath.Join(r.root, ".mcp.json")) != mcp {
		t.Error(".mcp.json changed on the second install")
	}
	for _, n := range hooks.Hooks {
		if !strings.HasPrefix(after[n], "-rwxr-xr-x\n") {
			t.Errorf("%s mode: %q", n, strings.SplitN(after[n], "\n", 2)[0])
		}
	}
}

const foreignPreCommit = `#!/bin/sh
echo "foreign pre-commit $*" >> "$FOREIGN_LOG"
if [ -f "$FOREIGN_FAIL" ]; then echo "foreign hook says no" >&2; exit 3; fi
`

const foreignPrePush = `#!/bin/sh
echo "foreign pre-push $*" >> "$FOREIGN_LOG"
cat >> "$FOREIGN_LOG"
`

func TestForeignHookChainedAndRestored(t *testing.T) {
	r := newRepo(t)
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.gitIn(filepath.Dir(remote), "init", "-q", "--bare", remote)
	r.git("remote", "add", "origin", remote)
	hooksDir := filepath.Join(r.root, ".git", "hooks")
	if err := os.MkdirAll(hooksDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(hooksDir, "pre-commit"), []byte(foreignPreCommit), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(hooksDir, "pre-push"), []byte(foreignPrePush), 0o700); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, hooksDir)

	out := r.sg(r.root, "install")
	if !strings.Contains(out, "pre-commit.sessiongate-orig (the existing hook, now run first)") {
		t.Errorf("install output:\n%s", out)
	}
	if again := r.sg(r.root, "install"); strings.Contains(again, "chained") {
		t.Errorf("second install chained again:\n%s", again)
	}
	logf := filepath.Join(t.TempDir(), "foreign.log")
	fail := filepath.Join(t.TempDir(), "fail")
	env := []string{"FOREIGN_LOG=" + logf, "FOREIGN_FAIL=" + fail}

	// The foreign hook runs first; ours still decides (no session yet).
	writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
	r.git("add", "a.txt")
	res := r.commit(r.root, env, "-m", "x")
	if res.code != 1 || !strings.Contains(res.err, "require_session") {
		t.Fatalf("exit %d\n%s", res.code, res.err)
	}
	if got := readFile(t, logf); got != "foreign pre-commit \n" {
		t.Errorf("foreign log %q", got)
	}
	// Its failure fails the hook, before ours runs.
	r.startWorking(r.root)
	writeFile(t, fail, "")
	res = r.commit(r.root, env, "-m", "x")
	if res.code != 1 || !strings.Contains(res.err, "foreign hook says no") || strings.Contains(res.err, "sessiongate:") {
		t.Fatalf("exit %d\n%s", res.code, res.err)
	}
	os.Remove(fail)
	if res := r.commit(r.root, env, "-m", "x"); res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.err)
	}

	// pre-push: both hooks get git's arguments and the refs on stdin. A
	// deletion-only push passes ours without QA, proving ours saw stdin too.
	if res := r.run(r.root, env, "git", "push", "-q", "--no-verify", "origin", "main:gone"); res.code != 0 {
		t.Fatal(res.err)
	}
	os.Remove(logf)
	res = r.run(r.root, env, "git", "push", "-q", "origin", ":gone")
	if res.code != 0 {
		t.Fatalf("deleting a remote branch: exit %d\n%s", res.code, res.err)
	}
	zero := strings.Repeat("0", 40)
	want := "foreign pre-push origin " + remote + "\n(delete) " + zero + " refs/heads/gone "
	if got := readFile(t, logf); !strings.HasPrefix(got, want) {
		t.Errorf("foreign pre-push log %q, want prefix %q", got, want)
	}
	res = r.run(r.root, env, "git", "push", "-q", "origin", "main")
	if res.code != 1 || !strings.Contains(res.err, "QA_VALIDATION") {
		t.Fatalf("push of main before QA: exit %d\n%s", res.code, res.err)
	}

	// Uninstall restores the originals byte for byte, with their modes.
	r.sg(r.root, "uninstall")
	after := snapshot(t, hooksDir)
	if len(after) != len(before) {
		t.Errorf("after uninstall %d files, before install %d", len(after), len(before))
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s not restored: %q, want %q", k, after[k], v)
		}
	}
}

func TestCoreHooksPath(t *testing.T) {
	t.Run("own folder", func(t *testing.T) {
		r := newRepo(t)
		r.git("config", "core.hooksPath", ".githooks")
		out := r.sg(r.root, "install")
		if !strings.Contains(out, filepath.Join(r.root, ".githooks", "pre-commit")) {
			t.Fatalf("install did not use core.hooksPath:\n%s", out)
		}
		writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
		r.git("add", "a.txt")
		if res := r.commit(r.root, nil, "-m", "x"); res.code != 1 || !strings.Contains(res.err, "require_session") {
			t.Fatalf("exit %d\n%s", res.code, res.err)
		}
		r.sg(r.root, "uninstall")
		if entries, _ := os.ReadDir(filepath.Join(r.root, ".githooks")); len(entries) != 0 {
			t.Errorf("uninstall left %v", entries)
		}
	})
	for _, tc := range []struct{ name, dir, hook string }{
		{"husky", ".husky/_", "#!/usr/bin/env sh\n. \"${0%/*}/h\"\n"},
		{"foreign hooks", "tools/hooks", "#!/bin/sh\nexit 0\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.git("config", "core.hooksPath", tc.dir)
			hook := filepath.Join(r.root, tc.dir, "pre-commit")
			writeFile(t, hook, tc.hook)
			res := r.run(r.root, nil, binary, "install")
			if res.code != 1 {
				t.Fatalf("install into a managed folder: exit %d\n%s%s", res.code, res.out, res.err)
			}
			for _, s := range []string{"core.hooksPath", "--force", "git config --unset core.hooksPath", "sessiongate hook <name>"} {
				if !strings.Contains(res.err, s) {
					t.Errorf("refusal lacks %q:\n%s", s, res.err)
				}
			}
			if readFile(t, hook) != tc.hook {
				t.Fatal("the refusal touched the hook")
			}
			r.sg(r.root, "install", "--force")
			if readFile(t, hook+".sessiongate-orig") != tc.hook {
				t.Error("--force did not chain the tool's hook")
			}
		})
	}
}

func TestMCPConfigMerge(t *testing.T) {
	r := newRepo(t)
	existing := `{
  "mcpServers": {
    "other": {"command": "/usr/bin/other", "args": ["--stdio"], "env": {"K": "V"}}
  },
  "extra": [1, 2, {"keep": true}]
}
`
	writeFile(t, filepath.Join(r.root, ".mcp.json"), existing)
	writeFile(t, filepath.Join(r.root, ".vscode", "mcp.json"), `{"inputs": [], "servers": {"db": {"type": "http", "url": "http://localhost:1"}}}`)
	r.sg(r.root, "install", "--hooks", "pre-commit", "--mcp", "claude,cursor,vscode")

	claude := readFile(t, filepath.Join(r.root, ".mcp.json"))
	for _, s := range []string{`"other": {`, `"command": "/usr/bin/other"`, `"K": "V"`, `"keep": true`, `"sessiongate": {`, `"command": "sessiongate"`, `"args": [` + "\n" + `        "mcp"`} {
		if !strings.Contains(claude, s) {
			t.Errorf(".mcp.json lacks %q:\n%s", s, claude)
		}
	}
	if strings.Index(claude, `"mcpServers"`) > strings.Index(claude, `"extra"`) || strings.Index(claude, `"other"`) > strings.Index(claude, `"sessiongate"`) {
		t.Errorf("key order not kept:\n%s", claude)
	}
	cursor := readFile(t, filepath.Join(r.root, ".cursor", "mcp.json"))
	if !strings.Contains(cursor, `"mcpServers": {`) || !strings.Contains(cursor, `"command": "sessiongate"`) {
		t.Errorf(".cursor/mcp.json:\n%s", cursor)
	}
	vscode := readFile(t, filepath.Join(r.root, ".vscode", "mcp.json"))
	for _, s := range []string{`"inputs": []`, `"db": {`, `"servers": {`, `"type": "stdio"`, `"command": "sessiongate"`} {
		if !strings.Contains(vscode, s) {
			t.Errorf(".vscode/mcp.json lacks %q:\n%s", s, vscode)
		}
	}

	// A file that is not JSON is refused and left as it was.
	bad := "{\n  \"mcpServers\": {,}\n}\n"
	writeFile(t, filepath.Join(r.root, ".cursor", "mcp.json"), bad)
	res := r.run(r.root, nil, binary, "install", "--mcp", "cursor")
	if res.code == 0 || !strings.Contains(res.err, "is not valid JSON") || !strings.Contains(res.err, "nothing was changed") {
		t.Fatalf("invalid JSON: exit %d\n%s", res.code, res.err)
	}
	if readFile(t, filepath.Join(r.root, ".cursor", "mcp.json")) != bad {
		t.Error("the invalid file was touched")
	}
}

func TestDoctor(t *testing.T) {
	r := newRepo(t)
	res := r.run(r.root, nil, binary, "doctor")
	if res.code != 1 || !strings.Contains(res.out, "FAIL  hook pre-commit") || !strings.Contains(res.out, "fix: sessiongate install") {
		t.Fatalf("doctor before install: exit %d\n%s%s", res.code, res.out, res.err)
	}
	r.sg(r.root, "install", "--mcp", "claude")
	onPath := []string{"PATH=" + filepath.Dir(binary) + string(os.PathListSeparator) + os.Getenv("PATH")}
	res = r.run(r.root, onPath, binary, "doctor")
	if res.code != 0 {
		t.Fatalf("doctor after install: exit %d\n%s%s", res.code, res.out, res.err)
	}
	for _, s := range []string{"ok    git", "ok    hook pre-commit", "runs " + binary, "ok    database", "writable", "ok    protocol", "ok    mcp claude", "warn  mcp cursor", "ok    binary"} {
		if !strings.Contains(res.out, s) {
			t.Errorf("doctor output lacks %q:\n%s", s, res.out)
		}
	}
	// A script an older sessiongate wrote (here: its v1 handoff) still works
	// but is slower: a warning that install updates it.
	hook := filepath.Join(r.root, ".git", "hooks", "commit-msg")
	cur, err := os.ReadFile(hook)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, hook, strings.ReplaceAll(string(cur), "read -r hv pid cfg;", "read -r hv pid;"))
	if res = r.run(r.root, onPath, binary, "doctor"); !strings.Contains(res.out, "warn  hook commit-msg") || !strings.Contains(res.out, "older sessiongate") {
		t.Errorf("doctor with an older commit-msg script: exit %d\n%s", res.code, res.out)
	}
	r.sg(r.root, "install")
	if res = r.run(r.root, onPath, binary, "doctor"); strings.Contains(res.out, "older sessiongate") {
		t.Errorf("doctor after install updated the script:\n%s", res.out)
	}
	// A protocol that does not parse and an unusable database are failures with fixes.
	writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), "no phases here\n")
	junk := filepath.Join(t.TempDir(), "junk.db")
	writeFile(t, junk, strings.Repeat("junk\n", 1000))
	res = r.run(r.root, []string{"SESSIONGATE_DB=" + junk}, binary, "doctor")
	if res.code != 1 || !strings.Contains(res.out, "FAIL  protocol") || !strings.Contains(res.out, "FAIL  database") {
		t.Errorf("doctor with a broken protocol and database: exit %d\n%s", res.code, res.out)
	}
}
