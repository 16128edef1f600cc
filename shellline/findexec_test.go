package shellline

import (
	"slices"
	"strings"
	"testing"
)

// TestFindExecWrites: the files find's -exec commands write, read by Writes
// (literal -name) and WriteTargets (a -name pattern copied into a folder);
// split/csplit prefixes read as PREFIX<?>SUFFIX.
func TestFindExecWrites(t *testing.T) {
	for _, c := range []struct {
		line string
		want string // a path Writes lists, or one a WriteTargets target matches; "" neither for P.md
	}{
		{`find . -name P.md -exec sed -i s/a/b/ {} \;`, "P.md"},
		{`find tpl -name P.md -exec cp {} P.md \;`, "P.md"},
		{`find tpl -name P.md -exec cp {} . \;`, "P.md"},
		{`find tpl -name '*.md' -exec cp {} . \;`, "P.md"},
		{`find tpl -name '*.md' -exec cp -t . {} +`, "P.md"},
		{`find tpl -name 'P*' -exec install -m 644 {} . \;`, "P.md"},
		{`split -n 4 -a 1 evil P.m`, "P.md"},
		{`split -n 4 -a 1 --additional-suffix=.md evil P`, "P.md"},
		{`csplit -f P -b '%.0d.md' evil 1`, "P.md"},
		{`csplit --prefix=P evil 1`, "P.md"},
		{`find tpl -name P.md -exec sh -c 'cp "$1" .' _ {} \;`, "P.md"},
		// Honest.
		{`find . -name P.md -exec grep x {} \;`, ""},
		{`find . -name '*.go' -exec cp {} /tmp/ \;`, ""},
		{`find tpl -name '*.go' -exec cp {} . \;`, ""},
		{`find . -name '*.md' -print`, ""},
		{`split -l 10 in.txt part_`, ""},
		{`split -l 10 in.txt`, ""},
		{`csplit in.txt 1`, ""},
	} {
		got := false
		ws, ok := Writes(c.line)
		if !ok {
			t.Fatalf("%q: does not parse", c.line)
		}
		for _, w := range ws {
			got = got || strings.TrimPrefix(w, "./") == "P.md"
		}
		ts, _, _ := WriteTargets(c.line)
		for _, tg := range ts {
			got = got || !tg.Abs && tg.Match("P.md")
		}
		if got != (c.want != "") {
			t.Errorf("%q: writes P.md %v, want %v (Writes %q)", c.line, got, c.want != "", ws)
		}
	}
}

// TestFileValueLines: commands whose words a file gives, with the values
// put in, so the hook judges them as literal lines.
func TestFileValueLines(t *testing.T) {
	files := map[string]string{"names.txt": "P.md\n", "two.txt": "a.go\nb.go\n", "sub/n": "Q.md\n"}
	read := func(p string) (string, bool) { s, ok := files[p]; return s, ok }
	for _, c := range []struct {
		line string
		want []string
	}{
		{`X=$(cat names.txt); rm "$X"`, []string{"rm P.md"}},
		{`X="$(< names.txt)"; cp evil "$X"`, []string{"cp evil P.md"}},
		{`export X=$(cat names.txt) && sed -i s/a/b/ $X`, []string{"sed -i s/a/b/ P.md"}},
		{`read X < names.txt; rm "$X"`, []string{"rm P.md"}},
		{`read -r X < names.txt && rm "$X.bak"`, []string{"rm P.md.bak"}},
		{`cd sub && X=$(cat n) && rm "$X"`, []string{"rm Q.md"}},
		{`rm "$(cat names.txt)"`, []string{"rm P.md"}},
		{`xargs -a names.txt rm`, []string{"rm P.md"}},
		{`xargs -a two.txt -I{} cp evil {}`, []string{"cp evil a.go", "cp evil b.go"}},
		{`xargs --arg-file=two.txt gofmt -l`, []string{"gofmt -l a.go b.go"}},
		{`while read f; do rm "$f"; done < names.txt`, []string{`f=P.md; rm "$f"`}},
		{`xargs rm < names.txt`, []string{"rm P.md"}},
		{`cat names.txt | xargs -I{} cp evil {}`, []string{"cp evil P.md"}},
		{`read X <<< "$(cat names.txt)"; rm "$X"`, []string{"rm P.md"}},
		{`cat names.txt | while read -r f; do sed -i s/a/b/ "$f"; done`, []string{`f=P.md; sed -i s/a/b/ "$f"`}},
		{`for f in $(cat two.txt); do rm "$f"; done`, []string{`f=a.go; rm "$f"`, `f=b.go; rm "$f"`}},
		{`for f in $(< two.txt); do rm "$f"; done`, []string{`f=a.go; rm "$f"`, `f=b.go; rm "$f"`}},
		// Round 21 review (c9): a value written through a redirection, and
		// read by head or tail (each was allowed at the hook).
		{`X=$(cat names.txt); echo hi > "$X"`, []string{"echo hi > P.md"}},
		{`X=$(cat names.txt); : > "$X"`, []string{": > P.md"}},
		{`X=$(cat names.txt); > "$X"`, []string{": > P.md"}},
		{`read X < names.txt; printf x >> "$X"`, []string{"printf x >> P.md"}},
		{`X=$(cat names.txt); cat evil 2>/dev/null >| "$X"`, []string{"cat evil 2> /dev/null >| P.md"}},
		{`X=$(head -1 names.txt); rm "$X"`, []string{"rm P.md"}},
		{`X=$(head -n 1 two.txt); rm "$X"`, []string{"rm a.go"}},
		{`X=$(tail -n1 two.txt); rm "$X"`, []string{"rm b.go"}},
		{`X=$(cat names.txt); echo "$X" > out.txt`, []string{"echo P.md > out.txt"}},
		{`X=$(cat names.txt); echo "$X" > "$OUT"`, []string{"echo P.md"}},
		// Nothing read, or nothing to put in.
		{`X=$(cat missing); rm "$X"`, nil},
		{`rm "$X"`, nil},
		{`X=a; rm "$X"`, nil},
		{`read X; rm "$X"`, nil},
		{`echo hi`, nil},
		{`xargs -a missing rm`, nil},
	} {
		var got []string
		for _, l := range FileValueLines(c.line, read) {
			got = append(got, strings.ReplaceAll(l, "'", ""))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.line, got, c.want)
		}
	}
}

// TestConfigAlias: an alias `git config` sets, old syntax and git 2.46's
// `set`.
func TestConfigAlias(t *testing.T) {
	for _, c := range []struct {
		args       string
		name, want string
	}{
		{`alias.q reset`, "q", "reset"},
		{`set alias.q reset`, "q", "reset"},
		{`set --file .git/config alias.Q !rm`, "q", "!rm"},
		{`--file=.git/config alias.q !rm`, "q", "!rm"},
		{`-f .git/config alias.q !rm`, "q", "!rm"},
		{`set --comment why alias.q reset`, "q", "reset"},
		{`core.pager cat`, "", ""},
		{`set core.pager cat`, "", ""},
		{`get alias.q`, "", ""},
		{`alias.q`, "", ""},
	} {
		name, val, ok := configAlias(strings.Fields(c.args))
		if ok != (c.name != "") || ok && (name != c.name || val != c.want) {
			t.Errorf("%q: %q %q %v, want %q %q", c.args, name, val, ok, c.name, c.want)
		}
	}
}
