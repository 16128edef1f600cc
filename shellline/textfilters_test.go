package shellline

import (
	"slices"
	"strings"
	"testing"
)

// TestFilterText: the output the hook works out for each filter a line
// passes a file's names through (round 22), against what the real tool
// prints for the same input (the rows with files were run with GNU
// coreutils, sed and the system's awk, LC_ALL=C for sort's byte order).
// "!" is a form it does not read (no text).
func TestFilterText(t *testing.T) {
	files := map[string]string{
		"names.txt": "b.md\nSESSION-PROTOCOL.md\na.md\nb.md\n",
		"lower.txt": "session-protocol.md\n",
		"csv.txt":   "1,SESSION-PROTOCOL.md,x\n",
		"b64.txt":   "U0VTU0lPTi1QUk9UT0NPTC5tZAo=\n",
	}
	read := func(p string) (string, bool) { s, ok := files[p]; return s, ok }
	for _, c := range []struct {
		words, in, want string
	}{
		{"cat names.txt", "", "b.md\nSESSION-PROTOCOL.md\na.md\nb.md\n"},
		{"sort names.txt", "", "SESSION-PROTOCOL.md\na.md\nb.md\nb.md\n"},
		{"sort -u names.txt", "", "SESSION-PROTOCOL.md\na.md\nb.md\n"},
		{"sort -r names.txt", "", "b.md\nb.md\na.md\nSESSION-PROTOCOL.md\n"},
		{"uniq names.txt", "", "b.md\nSESSION-PROTOCOL.md\na.md\nb.md\n"},
		{"tac names.txt", "", "b.md\na.md\nSESSION-PROTOCOL.md\nb.md\n"},
		{"head -n 2 names.txt", "", "b.md\nSESSION-PROTOCOL.md\n"},
		{"head -1 names.txt", "", "b.md\n"},
		{"tail -n +2 names.txt", "", "SESSION-PROTOCOL.md\na.md\nb.md\n"},
		{"tail -n1 names.txt", "", "b.md\n"},
		{"grep -m1 . names.txt", "", "b.md\n"},
		{"grep -v ^b names.txt", "", "SESSION-PROTOCOL.md\na.md\n"},
		{"grep -i session names.txt", "", "SESSION-PROTOCOL.md\n"},
		{"grep -E ^(a|S) names.txt", "", "SESSION-PROTOCOL.md\na.md\n"},
		{"grep -F .md -x names.txt", "", ""},
		{"grep -c . names.txt", "", "!"},
		{"tr a-z A-Z", "session-protocol.md\n", "SESSION-PROTOCOL.MD\n"},
		{"tr [:lower:] [:upper:]", "ab\n", "AB\n"},
		{"tr -d x", "SESSIxON-PROTOCOL.md\n", "SESSION-PROTOCOL.md\n"},
		{"tr -s -", "a--b\n", "a-b\n"},
		{"tr -c a b", "x\n", "!"},
		{`tr -d \r`, "a.md\r\n", "a.md\n"},
		{"head -c 19 names.txt", "", "b.md\nSESSION-PROTOC"},
		{"cut -d , -f 2 csv.txt", "", "SESSION-PROTOCOL.md\n"},
		{"cut -d, -f1,3 csv.txt", "", "1,x\n"},
		{"sed -n 2p names.txt", "", "SESSION-PROTOCOL.md\n"},
		{"sed 1d names.txt", "", "SESSION-PROTOCOL.md\na.md\nb.md\n"},
		{"sed 2q names.txt", "", "b.md\nSESSION-PROTOCOL.md\n"},
		{"sed s/^/rm\\ / lower.txt", "", "rm session-protocol.md\n"},
		{"sed -e s/session/SESSION/ -e s/protocol/PROTOCOL/ lower.txt", "", "SESSION-PROTOCOL.md\n"},
		{"sed -E s/(s+)/X\\1/g lower.txt", "", "XseXssion-protocol.md\n"},
		{"sed -n /PROTO/p names.txt", "", "SESSION-PROTOCOL.md\n"},
		{"sed y/abc/xyz/ names.txt", "", "!"},
		{"sed -i s/a/b/ names.txt", "", "!"},
		{"awk NR==2 names.txt", "", "SESSION-PROTOCOL.md\n"},
		{"awk NR==1{print} names.txt", "", "b.md\n"},
		{"awk /PROTO/ names.txt", "", "SESSION-PROTOCOL.md\n"},
		{`awk {print\ "rm\ "\ $0} lower.txt`, "", "rm session-protocol.md\n"},
		{"awk -F, {print\\ $2} csv.txt", "", "SESSION-PROTOCOL.md\n"},
		{"awk {print;exit} names.txt", "", "b.md\n"},
		{`awk {system("rm\ "$0)} names.txt`, "", "!"},
		{"base64 -d b64.txt", "", "SESSION-PROTOCOL.md\n"},
		{"printf rm\\ %s\\n a b", "", "rm a\nrm b\n"},
		{"echo SESSION-PROTOCOL.md", "", "SESSION-PROTOCOL.md\n"},
		{"rev", "dm.LOCOTORP-NOISSES\n", "SESSION-PROTOCOL.md\n"},
		{"python3 -c print(1)", "", "!"},
	} {
		ws := splitWords(c.words)
		got, ok := filterText(ws, c.in, c.in != "", read)
		if !ok {
			got = "!"
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.words, got, c.want)
		}
	}
}

// splitWords splits on unescaped spaces ("a\ b" is one word).
func splitWords(s string) []string {
	var out []string
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == ' ':
			b.WriteByte(' ')
			i++
		case s[i] == ' ':
			out = append(out, b.String())
			b.Reset()
		default:
			b.WriteByte(s[i])
		}
	}
	return append(out, b.String())
}

// TestFileValueFilters: the lines FileValueLines gives back for the
// shapes round 22 reads (mapfile, a braced read, filters into xargs, a
// shell or a path, process substitutions), each naming the file the
// agent's line writes.
func TestFileValueFilters(t *testing.T) {
	files := map[string]string{"names.txt": "x.md\nSESSION-PROTOCOL.md\n", "one.txt": "SESSION-PROTOCOL.md\n", "up.txt": "session-protocol.md\n"}
	read := func(p string) (string, bool) { s, ok := files[p]; return s, ok }
	for _, c := range []struct {
		line string
		want string // a line of the output that holds it; "" for none
	}{
		{`mapfile -t A < one.txt; sed -i s/a/b/ "${A[0]}"`, "'sed' '-i' 's/a/b/' 'SESSION-PROTOCOL.md'"},
		{`readarray -t A < names.txt; rm "${A[@]}"`, "'rm' 'x.md' 'SESSION-PROTOCOL.md'"},
		{`mapfile < names.txt; rm "${MAPFILE[1]}"`, "'rm' 'SESSION-PROTOCOL.md'"},
		{`{ read X; read Y; } < names.txt; rm "$Y"`, "'rm' 'SESSION-PROTOCOL.md'"},
		{`( read -r X; rm "$X" ) < one.txt`, "'rm' 'SESSION-PROTOCOL.md'"},
		{`read -r X < <(sort -r names.txt); rm "$X"`, "'rm' 'x.md'"},
		{`rm "$(sed -n 2p names.txt)"`, "'rm' 'SESSION-PROTOCOL.md'"},
		{`rm $(cat names.txt)`, "'rm' 'x.md' 'SESSION-PROTOCOL.md'"},
		{`rm $(sort names.txt)`, "'rm' 'SESSION-PROTOCOL.md' 'x.md'"},
		{`sort names.txt | xargs rm`, "'rm' 'SESSION-PROTOCOL.md' 'x.md'"},
		{`xargs rm < <(grep PROTO names.txt)`, "'rm' 'SESSION-PROTOCOL.md'"},
		{`tr a-z A-Z < up.txt | sed s/.MD/.md/ | xargs rm`, "'rm' 'SESSION-PROTOCOL.md'"},
		{`while read f; do rm "$f"; done < <(tail -1 names.txt)`, "f='SESSION-PROTOCOL.md'; rm \"$f\""},
		{`awk '{print "rm " $0}' one.txt | sh`, "rm SESSION-PROTOCOL.md\n"},
		{`printf 'rm %s\n' SESSION-PROTOCOL.md | bash -s`, "rm SESSION-PROTOCOL.md\n"},
		{`readarray -t A < names.txt; for f in "${A[@]}"; do rm "$f"; done`, "f='SESSION-PROTOCOL.md'; rm \"$f\""},
		{`for f in $(grep -v x names.txt); do rm "$f"; done`, "f='SESSION-PROTOCOL.md'; rm \"$f\""},
		{`rm "$(cat names.txt | tail -1)"`, "'rm' 'SESSION-PROTOCOL.md'"},
		{`base64 -d one.b64 | xargs rm`, ""},
		{`git ls-files | xargs rm`, ""},
		{`sort names.txt | python3 -c 'import sys'`, ""},
		{`grep -l TODO -r . | xargs sed -i s/a/b/`, ""},
	} {
		got := FileValueLines(c.line, read)
		if c.want == "" {
			if len(got) != 0 {
				t.Errorf("%s: got %q, want none", c.line, got)
			}
			continue
		}
		if !slices.Contains(got, c.want) {
			t.Errorf("%s: got %q, want a line %q", c.line, got, c.want)
		}
	}
}

// TestSetsStartupVar: BASH_ENV, ENV (a file) and PROMPT_COMMAND set by
// the line, in each way the shell takes an assignment; reads, unsets and
// a stage named ENV are not.
func TestSetsStartupVar(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`export BASH_ENV=tools/env.sh`, true},
		{`BASH_ENV=./rc make test`, true},
		{`env -i BASH_ENV=rc bash -c true`, true},
		{`declare -x BASH_ENV=/tmp/rc`, true},
		{`export PROMPT_COMMAND='rm -f x'`, true},
		{`PROMPT_COMMAND="$X"; export PROMPT_COMMAND`, true},
		{`export ENV=$HOME/.shrc`, true},
		{`ENV=~/.kshrc sh -i`, true},
		{`ENV=production npm start`, false},
		{`export ENV=test`, false},
		{`ENV=config/dev.env node app.js`, false},
		{`export ENV=/etc/app/env`, false},
		{`BASH_ENV= bash x.sh`, false},
		{`unset BASH_ENV`, false},
		{`echo BASH_ENV=x`, false},
		{`echo "$PROMPT_COMMAND"`, false},
		{`env GOFLAGS=-mod=mod go test ./...`, false},
	} {
		if got := SetsStartupVar(c.line) != ""; got != c.want {
			t.Errorf("%s: %v, want %v", c.line, got, c.want)
		}
	}
}
