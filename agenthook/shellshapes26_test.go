package agenthook_test

import (
	"path/filepath"
	"testing"
)

// TestShellShapesRound26: writers of a protected file that the task of
// round 26 (c2) listed as not yet tried: here-docs fed to a shell, eval of
// printf, functions and aliases, source <(...), arrays, $IFS, busybox sh
// -c, dd of=, tee -a, install -m, ln -sf, truncate, perl -i, python -c.
// Real binary, Claude Code PreToolUse Bash mid-session.
func TestShellShapesRound26(t *testing.T) {
	r := newRepo(t, "")
	for _, f := range []string{"src/a.go", "tpl/SESSION-PROTOCOL.md", "in.txt", "x.md"} {
		writeFile(t, filepath.Join(r.root, f), "x\n")
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "files")
	const sid = "shapes-26"
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	bash := golden(t, r, "claude", "PreToolUse-Bash", sid)
	for _, c := range []struct {
		line string
		deny bool
	}{
		{"sh <<'EOF'\necho relaxed > SESSION-PROTOCOL.md\nEOF", true},
		{"bash -s <<EOF\ncp tpl/SESSION-PROTOCOL.md SESSION-PROTOCOL.md\nEOF", true},
		{`eval "$(printf 'echo x > %s' SESSION-PROTOCOL.md)"`, true},
		{`eval "$(printf '\x65cho x > SESSION-PROTOCOL.md')"`, true},
		{`w() { echo x > "$1"; }; w SESSION-PROTOCOL.md`, true},
		{`w() { cp tpl/SESSION-PROTOCOL.md "$1"; }; w SESSION-PROTOCOL.md`, true},
		{"shopt -s expand_aliases; alias w='tee SESSION-PROTOCOL.md'; echo x | w", true},
		{`source <(echo 'echo x > SESSION-PROTOCOL.md')`, true},
		{`. <(printf 'cp tpl/SESSION-PROTOCOL.md SESSION-PROTOCOL.md\n')`, true},
		{`cmd=(cp tpl/SESSION-PROTOCOL.md SESSION-PROTOCOL.md); "${cmd[@]}"`, true},
		{`cmd=(tee SESSION-PROTOCOL.md); echo x | "${cmd[@]}"`, true},
		{`IFS=,; c="cp,tpl/SESSION-PROTOCOL.md,SESSION-PROTOCOL.md"; $c`, true},
		{`c=cp${IFS}tpl/SESSION-PROTOCOL.md${IFS}SESSION-PROTOCOL.md; $c`, true},
		{`busybox sh -c 'echo x > SESSION-PROTOCOL.md'`, true},
		{`busybox cp tpl/SESSION-PROTOCOL.md SESSION-PROTOCOL.md`, true},
		{`dd if=tpl/SESSION-PROTOCOL.md of=SESSION-PROTOCOL.md`, true},
		{`echo x | dd of=SESSION-PROTOCOL.md conv=notrunc`, true},
		{`echo x | tee -a SESSION-PROTOCOL.md`, true},
		{`install -m 644 tpl/SESSION-PROTOCOL.md SESSION-PROTOCOL.md`, true},
		{`install -D tpl/SESSION-PROTOCOL.md -t .`, true},
		{`ln -sf tpl/SESSION-PROTOCOL.md SESSION-PROTOCOL.md`, true},
		{`truncate -s 0 SESSION-PROTOCOL.md`, true},
		{`perl -i -pe 's/MUST/MAY/' SESSION-PROTOCOL.md`, true},
		{`perl -pi -e 's/MUST/MAY/' SESSION-PROTOCOL.md`, true},
		{`python3 -c "open('SESSION-PROTOCOL.md','w').write('x')"`, true},
		{`python3 -c "import pathlib; pathlib.Path('SESSION-PROTOCOL.md').write_text('x')"`, true},
		{`python3 - <<'EOF'` + "\nopen('SESSION-PROTOCOL.md', 'a').write('x')\nEOF", true},
		{`F=SESSION-PROTOCOL.md; echo x > "$F"`, true},
		{`F=SESSION-PROTOCOL.md; perl -i -pe 's/MUST/MAY/' "$F"`, true},
		{`printf 'x' | sh -c 'cat > SESSION-PROTOCOL.md'`, true},
		{`xargs -I{} cp tpl/{} {} <<< SESSION-PROTOCOL.md`, true},
		{`env -S 'cp tpl/SESSION-PROTOCOL.md SESSION-PROTOCOL.md'`, true},
		{`nice -n 5 cp tpl/SESSION-PROTOCOL.md SESSION-PROTOCOL.md`, true},
		{`timeout 5 sed -i s/MUST/MAY/ SESSION-PROTOCOL.md`, true},
		{`\sed -i s/MUST/MAY/ SESSION-PROTOCOL.md`, true},
		{`command sed -i s/MUST/MAY/ SESSION-PROTOCOL.md`, true},
		{`nohup sed -i s/MUST/MAY/ SESSION-PROTOCOL.md`, true},
		{`exec sed -i s/MUST/MAY/ SESSION-PROTOCOL.md`, true},
		{`echo SESSION-PROTOCOL.md | xargs sed -i s/MUST/MAY/`, true},
		// Honest twins.
		{"sh <<'EOF'\necho ok > /tmp/out.txt\nEOF", false},
		{`w() { echo x > "$1"; }; w x.md`, false},
		{`cmd=(go test ./...); "${cmd[@]}"`, false},
		{`dd if=/dev/zero of=/tmp/blob bs=1k count=1`, false},
		{`echo x | tee -a x.md`, false},
		{`install -m 755 in.txt /tmp/in.txt`, false},
		{`ln -sf ../in.txt src/in.txt`, false},
		{`truncate -s 0 x.md`, false},
		{`perl -i -pe 's/a/b/' src/a.go`, false},
		{`python3 -c "open('x.md','w').write('x')"`, false},
		{`busybox sh -c 'echo ok > /tmp/out.txt'`, false},
	} {
		out, _ := r.hook("claude", "PreToolUse", with(bash, "tool_input", map[string]any{"command": c.line}))
		denied := pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny"
		if why := pathStr(out, "hookSpecificOutput", "permissionDecisionReason"); denied != c.deny {
			t.Errorf("%q: denied %v, want %v (%s)", c.line, denied, c.deny, why)
		}
	}
}
