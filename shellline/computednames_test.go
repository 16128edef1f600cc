package shellline

import (
	"reflect"
	"testing"
)

// TestComputedNameLines: the lines FileValueLinesFrom gives for names a
// program or an expansion computes (round 23, c3): worked out exactly
// (jq paths, printf escapes, parameter expansions) or guessed from what
// the program reads (a name in Sources.Names its input spells, or a
// lister's selection), with why as a comment.
func TestComputedNameLines(t *testing.T) {
	files := map[string]string{
		"names.txt":           "SESSION-PROTOCOL.md\n",
		"sessiongate.yaml":    "protect: true\n",
		"SESSION-PROTOCOL.md": "The agent MUST test.\n",
		"upper.txt":           "SESSIONGATE.YAML\n",
		"cfg.json":            `{"f": "SESSION-PROTOCOL.md", "out": "build/out.txt", "files": ["a", "b"]}`,
		"build.json":          `{"out": "build/out.txt"}`,
		"parts.json":          `["SESSION-", "PROTOCOL.md"]`,
		"ordered.json":        `{"z": "SESSION-PROTOCOL.md", "a": "x"}`,
		"pats.txt":            "MUST\n",
		"old.txt":             "oldName\n",
	}
	src := Sources{
		Read:   func(p string) (string, bool) { s, ok := files[p]; return s, ok },
		Names:  []string{"SESSION-PROTOCOL.md", "sessiongate.yaml"},
		Exists: func(p string) bool { _, ok := files[p]; return ok },
	}
	const p = "'rm' 'SESSION-PROTOCOL.md'"
	for _, c := range []struct {
		line string
		want []string
	}{
		{`X=SESSION_PROTOCOL.md; rm "${X/_/-}"`, []string{p}},
		{`N=SESSION-PROTOCOL.md; P=N; rm "${!P}"`, []string{p}},
		{`rm $'SESSION\x2dPROTOCOL.md'`, []string{p}},
		{`X=$'SESSION\x2dPROTOCOL.md'; rm "$X"`, []string{p}},
		{`IFS=_; X=rm_SESSION-PROTOCOL.md; $X`, []string{p}},
		{`A=(x SESSION-PROTOCOL.md); rm "${A[@]:1}"`, []string{p}},
		{`jq -r .out cfg.json | xargs rm`, []string{"'rm' 'build/out.txt'"}},
		{`jq -r '.files[]' cfg.json | xargs rm`, []string{"'rm' 'a' 'b'"}},
		{`jq -r .f cfg.json | xargs rm`, []string{p}},
		{`printf 'SESSION\x2dPROTOCOL.md' | xargs rm`, []string{p}},
		{`echo -e 'SESSION\x2dPROTOCOL.md' | xargs rm`, []string{p}},
		{`sort names.txt > l; xargs rm < l`, []string{p}},
		{`jq -r '.out + .x' build.json | xargs rm`, nil},
		{`awk '{print tolower($0)}' upper.txt | xargs rm`, []string{"'rm' 'sessiongate.yaml' # a name `awk` may print; the hook cannot work it out, and the input names a protected file"}},
		{`ls | grep -i yaml | xargs rm`, []string{"'rm' 'sessiongate.yaml' # a name `ls | grep` may print; the hook cannot work it out, and the input names a protected file"}},
		{`git ls-files '*.go' | xargs rm`, nil},
		{`find . -name '*.md' | xargs rm`, []string{"'rm' 'SESSION-PROTOCOL.md' # a name `find` may print; the hook cannot work it out, and the input names a protected file"}},
		{`python3 -c "import os; os.remove(open('names.txt').read().strip())"`, []string{"rm -- 'SESSION-PROTOCOL.md' # a name python3 reads from a file, its input or its arguments; the hook cannot work it out"}},
		{`python3 -c "import os; print(open('names.txt').read())"`, nil},
		{`while read -r f; do rm "$f"; done < <(jq -r '.f|ascii_downcase' cfg.json)`, []string{"f='SESSION-PROTOCOL.md'; rm \"$f\""}},
		{`readarray -t A < <(git ls-files); rm "${A[@]}"`, []string{"'rm' 'SESSION-PROTOCOL.md' 'sessiongate.yaml'"}},
		{`xargs -a <(jq -r .f cfg.json) rm`, []string{p}},
		{`yq -r .f cfg.json | xargs rm`, []string{"'rm' 'SESSION-PROTOCOL.md' # a name `yq` may print; the hook cannot work it out, and the input names a protected file"}},
		{`grep -rl MUST . | xargs sed -i s/MUST/MAY/`, []string{"'sed' '-i' 's/MUST/MAY/' 'SESSION-PROTOCOL.md' # a name `grep` may print; the hook cannot work it out, and the input names a protected file"}},
		{`git grep -l oldName | xargs sed -i s/oldName/newName/`, nil},
		{`git diff --name-only | xargs gofmt -w`, nil},
		// Round 23 review: find's negations and alternatives. A name
		// after -not/! is left out (an honest agent excluding the
		// protocol was denied as writing it); -o selects either side.
		{`find . -name '*.md' -not -name 'SESSION-PROTOCOL.md' | xargs sed -i 's/a/b/'`, nil},
		{`find . -name '*.md' ! -name SESSION-PROTOCOL.md | xargs rm`, nil},
		{`find . -name SESSION-PROTOCOL.md -o -name zzz | xargs rm`, []string{"'rm' 'SESSION-PROTOCOL.md' # a name `find` may print; the hook cannot work it out, and the input names a protected file"}},
		{`find . \( -name '*.yaml' -or -name '*.md' \) -not -name README.md | xargs rm`, []string{"'rm' 'SESSION-PROTOCOL.md' 'sessiongate.yaml' # a name `find` may print; the hook cannot work it out, and the input names a protected file"}},
		{`X=SESSION-PROTOCOL.md; cp "$X" "${X%.md}.bak"`, []string{"'cp' 'SESSION-PROTOCOL.md' 'SESSION-PROTOCOL.bak'"}},
		// Round 24 review (c8): a program worked out wrongly, or a
		// lister's or grep's option value taken for its operand, let
		// the write through. Each lazy row is followed by its honest
		// twin.
		{`jq -j '.[]' parts.json | xargs rm`, []string{p}}, // -j joins, no newline
		{`jq -r '.[]' parts.json | xargs rm`, []string{"'rm' 'SESSION-' 'PROTOCOL.md'"}},
		{`jq -r '.[]' ordered.json | head -1 | xargs rm`, []string{p}}, // the file's key order
		{`jq -r '.[]' ordered.json | tail -1 | xargs rm`, []string{"'rm' 'x'"}},
		{`git ls-tree -r --name-only HEAD | xargs sed -i s/MUST/MAY/`, []string{"'sed' '-i' 's/MUST/MAY/' 'SESSION-PROTOCOL.md' 'sessiongate.yaml' # a name `git ls-tree` may print; the hook cannot work it out, and the input names a protected file"}},
		{`git ls-tree -r --name-only HEAD internal/ | xargs gofmt -w`, nil},
		{`git ls-files -x '*.go' | xargs sed -i s/MUST/MAY/`, []string{"'sed' '-i' 's/MUST/MAY/' 'SESSION-PROTOCOL.md' 'sessiongate.yaml' # a name `git ls-files` may print; the hook cannot work it out, and the input names a protected file"}},
		{`ls -I '*.go' | xargs sed -i s/MUST/MAY/`, []string{"'sed' '-i' 's/MUST/MAY/' 'SESSION-PROTOCOL.md' 'sessiongate.yaml' # a name `ls` may print; the hook cannot work it out, and the input names a protected file"}},
		{`ls *.go | xargs gofmt -w`, nil},
		{`fd PROTOCOL | xargs rm`, []string{"'rm' 'SESSION-PROTOCOL.md' # a name `fd` may print; the hook cannot work it out, and the input names a protected file"}},
		{`fd -e md | xargs sed -i s/MUST/MAY/`, []string{"'sed' '-i' 's/MUST/MAY/' 'SESSION-PROTOCOL.md' 'sessiongate.yaml' # a name `fd` may print; the hook cannot work it out, and the input names a protected file"}},
		{`fd '\.go$' | xargs gofmt -w`, nil},
		{`find . -type f -not \( -name '*.go' \) | xargs sed -i s/MUST/MAY/`, []string{"'sed' '-i' 's/MUST/MAY/' 'SESSION-PROTOCOL.md' 'sessiongate.yaml' # a name `find` may print; the hook cannot work it out, and the input names a protected file"}},
		{`find . -type f -not \( -name '*.md' \) -name '*.go' | xargs gofmt -w`, nil},
		{`date | sed 's/.*/SESSION-PROTOCOL.md/' | xargs rm`, []string{"'rm' 'SESSION-PROTOCOL.md' # a name `date | sed` may print; the hook cannot work it out, and the input names a protected file"}},
		{`date | sed 's/.*/build\/out.txt/' | xargs rm`, nil},
		{`compgen -f | xargs rm`, []string{"'rm' 'SESSION-PROTOCOL.md' 'sessiongate.yaml' # a name `compgen` may print; the hook cannot work it out, and the input names a protected file"}},
		{`echo *.go | xargs gofmt -w`, nil},
		{`git log --name-only --format= | sort -u | xargs sed -i s/MUST/MAY/`, []string{"'sed' '-i' 's/MUST/MAY/' 'SESSION-PROTOCOL.md' 'sessiongate.yaml' # a name `git log | sort` may print; the hook cannot work it out, and the input names a protected file"}},
		{`git diff --name-only 4b825dc642cb6eb9a060e54bf8d69288fbee4904 | xargs rm`, []string{"'rm' 'SESSION-PROTOCOL.md' 'sessiongate.yaml' # a name `git diff` may print; the hook cannot work it out, and the input names a protected file"}},
		{`git log --name-only --format= -- src | xargs gofmt -l`, nil},
		{`git diff --name-only HEAD~1 | xargs gofmt -w`, nil},
		{`locate PROTOCOL | xargs rm`, []string{"'rm' 'SESSION-PROTOCOL.md' # a name `locate` may print; the hook cannot work it out, and the input names a protected file"}},
		{`locate -i '*.go' | xargs gofmt -w`, nil},
		{`find . ! ! -name SESSION-PROTOCOL.md | xargs rm`, []string{"'rm' 'SESSION-PROTOCOL.md' # a name `find` may print; the hook cannot work it out, and the input names a protected file"}},
		{`grep -rl -f pats.txt . | xargs sed -i s/MUST/MAY/`, []string{"'sed' '-i' 's/MUST/MAY/' 'SESSION-PROTOCOL.md' # a name `grep` may print; the hook cannot work it out, and the input names a protected file"}},
		{`grep -rl -f old.txt . | xargs sed -i s/oldName/newName/`, nil},
		{`grep -rlf pats.txt . | xargs sed -i s/MUST/MAY/`, []string{"'sed' '-i' 's/MUST/MAY/' 'SESSION-PROTOCOL.md' # a name `grep` may print; the hook cannot work it out, and the input names a protected file"}},
		{`grep -rle MUST . | xargs sed -i s/MUST/MAY/`, []string{"'sed' '-i' 's/MUST/MAY/' 'SESSION-PROTOCOL.md' # a name `grep` may print; the hook cannot work it out, and the input names a protected file"}},
		{`grep -rleoldName . | xargs sed -i s/oldName/newName/`, nil},
		{`grep -rl -m 1 MUST . | xargs sed -i s/MUST/MAY/`, []string{"'sed' '-i' 's/MUST/MAY/' 'SESSION-PROTOCOL.md' # a name `grep` may print; the hook cannot work it out, and the input names a protected file"}},
		{`grep -rl -m 1 oldName . | xargs sed -i s/oldName/newName/`, nil},
		{`rg -l -t md MUST | xargs sed -i s/MUST/MAY/`, []string{"'sed' '-i' 's/MUST/MAY/' 'SESSION-PROTOCOL.md' # a name `rg` may print; the hook cannot work it out, and the input names a protected file"}},
		{`git grep -l -f pats.txt | xargs sed -i s/MUST/MAY/`, []string{"'sed' '-i' 's/MUST/MAY/' 'SESSION-PROTOCOL.md' # a name `git grep` may print; the hook cannot work it out, and the input names a protected file"}},
		{`git grep -l -f old.txt | xargs sed -i s/oldName/newName/`, nil},
	} {
		if got := FileValueLinesFrom(c.line, src); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.line, got, c.want)
		}
	}
}
