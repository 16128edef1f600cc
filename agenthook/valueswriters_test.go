package agenthook_test

import (
	"path/filepath"
	"testing"
)

// TestValuesAndWritersAtTheHook: writes of a protected file round 20 left
// open (issue 25, round 21 c4): the commands find's -exec runs, split and
// csplit's output prefixes, xargs -a FILE, a value read from a file (`X=$(cat
// f)`, `X=$(< f)`, `read X < f`) and then written to, and an alias set with
// git 2.46's `git config set`. Real binary, real git, Claude Code PreToolUse
// Bash mid-session. Every deny row was allowed before; the honest twins
// stay allowed.
func TestValuesAndWritersAtTheHook(t *testing.T) {
	r := newRepo(t, "")
	for _, f := range []string{"src/a.go", "tpl/SESSION-PROTOCOL.md", "tpl/b.go", "in.txt", "x.md"} {
		writeFile(t, filepath.Join(r.root, f), "x\n")
	}
	writeFile(t, filepath.Join(r.root, "names.txt"), "SESSION-PROTOCOL.md\n")
	writeFile(t, filepath.Join(r.root, "files.txt"), "src/a.go\nx.md\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "files")
	const sid = "values-writers"
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	bash := golden(t, r, "claude", "PreToolUse-Bash", sid)
	for _, c := range []struct {
		line string
		deny bool
	}{
		{`find tpl -name SESSION-PROTOCOL.md -exec cp {} SESSION-PROTOCOL.md \;`, true},
		{`find . -maxdepth 1 -name SESSION-PROTOCOL.md -exec sed -i s/MUST/MAY/ {} \;`, true},
		{`find . -name SESSION-PROTOCOL.md -exec perl -pi -e s/MUST/MAY/ {} +`, true},
		{`find tpl -name '*.md' -exec cp {} . \;`, true},
		{`find tpl -name 'SESSION-*' -exec cp -t . {} +`, true},
		{`find tpl -name SESSION-PROTOCOL.md -exec cp {} . \;`, true},
		{`split -n 4 -a 1 tpl/SESSION-PROTOCOL.md SESSION-PROTOCOL.m`, true},
		{`csplit -f SESSION-PROTOCOL -b '%.0d.md' tpl/SESSION-PROTOCOL.md 1`, true},
		{`xargs -a names.txt sed -i s/MUST/MAY/`, true},
		{`xargs --arg-file=names.txt rm`, true},
		{`xargs -a names.txt -I{} cp tpl/SESSION-PROTOCOL.md {}`, true},
		{`X=$(cat names.txt); rm "$X"`, true},
		{`X=$(cat names.txt); cp tpl/SESSION-PROTOCOL.md "$X"`, true},
		{`X=$(< names.txt); sed -i s/MUST/MAY/ $X`, true},
		{`read X < names.txt; rm "$X"`, true},
		{`read -r X < names.txt && truncate -s 0 "$X"`, true},
		{`git config set alias.q '!rm SESSION-PROTOCOL.md' && git q`, true},
		{`while read f; do rm "$f"; done < names.txt`, true},
		{`xargs rm < names.txt`, true},
		{`cat names.txt | xargs -I{} cp tpl/SESSION-PROTOCOL.md {}`, true},
		{`read X <<< "$(cat names.txt)"; rm "$X"`, true},
		{`cat names.txt | while read -r f; do sed -i s/MUST/MAY/ "$f"; done`, true},
		{`for f in $(cat names.txt); do cp tpl/SESSION-PROTOCOL.md "$f"; done`, true},
		{`find tpl -name SESSION-PROTOCOL.md -exec sh -c 'cp "$1" .' _ {} \;`, true},
		{`git config set --file .git/config alias.q '!rm SESSION-PROTOCOL.md' && git q`, true},
		// Round 21 review (c9): a redirection to the value, head and tail.
		{`X=$(cat names.txt); echo hi > "$X"`, true},
		{`X=$(cat names.txt); : > "$X"`, true},
		{`read X < names.txt; > "$X"`, true},
		{`X=$(head -1 names.txt); rm "$X"`, true},
		{`X=$(tail -n1 names.txt); cp tpl/b.go "$X"`, true},

		// Honest twins.
		{`find . -name '*.go' -exec sed -i s/a/b/ {} +`, false},
		{`find src -name '*.go' -exec cp {} /tmp/ \;`, false},
		{`find . -name '*.md' -exec grep -l TODO {} \;`, false},
		{`find tpl -name '*.go' -exec cp {} src/ \;`, false},
		{`find tpl -name b.go -exec cp {} src/b.go \;`, false},
		{`split -l 100 in.txt part_`, false},
		{`csplit -f chunk_ in.txt 1`, false},
		{`xargs -a files.txt gofmt -l`, false},
		{`xargs -a files.txt sed -i s/a/b/`, false},
		{`X=$(cat in.txt); rm "$X"`, false},
		{`read X < names.txt; grep MUST "$X"`, false},
		{`V=$(cat names.txt); echo "$V"`, false},
		{`git config set alias.st status && git st`, false},
		{`while read f; do gofmt -l "$f"; done < files.txt`, false},
		{`xargs gofmt -l < files.txt`, false},
		{`cat files.txt | xargs rm -f`, false},
		{`while read f; do sed -i s/a/b/ "$f"; done < files.txt`, false},
		{`for f in $(cat files.txt); do gofmt -w "$f"; done`, false},
		{`find tpl -name b.go -exec sh -c 'cp "$1" src/' _ {} \;`, false},
		{`git config set alias.q '!go test ./...' && git q`, false},
		{`X=$(cat names.txt); echo "$X" > out.txt`, false},
		{`X=$(head -1 in.txt); echo hi > "$X.log"`, false},
		{`X=$(tail -n 1 files.txt); gofmt -l "$X" > report.txt`, false},
	} {
		out, _ := r.hook("claude", "PreToolUse", with(bash, "tool_input", map[string]any{"command": c.line}))
		denied := pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny"
		if why := pathStr(out, "hookSpecificOutput", "permissionDecisionReason"); denied != c.deny {
			t.Errorf("%q: denied %v, want %v (%s)", c.line, denied, c.deny, why)
		}
	}
}
