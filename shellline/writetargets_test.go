package shellline

import (
	"slices"
	"testing"
)

// TestWriteTargets: the written operands Writes skips (globs, variables
// set on the line, words with unknown parts) are read as patterns that
// match the files they can name, and the links a line makes are listed.
func TestWriteTargets(t *testing.T) {
	for _, c := range []struct {
		line    string
		matches []string // paths (relative to the line's folder) some target matches
		misses  []string // paths no target matches
	}{
		{`sed -i 's/MUST/MAY/' SESSION-PROTO*.md`, []string{"SESSION-PROTOCOL.md"}, []string{".agents/SESSION-PROTOCOL.md", "README"}},
		{`perl -pi -e 's/x/y/' session*.yaml`, []string{"sessiongate.yaml"}, []string{".sessiongate.yaml"}},
		{`cp x .claude/*.local.json`, []string{".claude/settings.local.json"}, []string{"x", ".claude/settings.json"}},
		{`sed -i s/a/b/ */settings.json`, []string{"web/settings.json"}, []string{".claude/settings.json"}},
		{`shopt -s dotglob; sed -i s/a/b/ */settings.json`, []string{".claude/settings.json"}, nil},
		{`echo x > .claude/settings.[jl]*`, []string{".claude/settings.json", ".claude/settings.local.json"}, []string{".claude/settings.yaml"}},
		{`f=SESSION-PROTOCOL; sed -i s/a/b/ $f.md`, []string{"SESSION-PROTOCOL.md"}, []string{"x.md"}},
		{`export f=SESSION-PROTOCOL.md && sed -i s/a/b/ "$f"`, []string{"SESSION-PROTOCOL.md"}, nil},
		{`for f in *.md docs/*.txt; do sed -i s/a/b/ "$f"; done`, []string{"SESSION-PROTOCOL.md", "docs/a.txt"}, []string{"docs/a.md"}},
		{`p=.claude; echo x > $p/settings.local.json`, []string{".claude/settings.local.json"}, nil},
		{`sed -i s/a/b/ "$(git rev-parse --show-toplevel)/SESSION-PROTOCOL.md"`, []string{"SESSION-PROTOCOL.md", "/abs/root/SESSION-PROTOCOL.md"}, []string{"README.md"}},
		{`cd docs && sed -i s/a/b/ *.md`, []string{"docs/a.md"}, []string{"SESSION-PROTOCOL.md"}},
		{`cd "$D" && sed -i s/a/b/ *.md`, []string{"SESSION-PROTOCOL.md", "docs/a.md"}, nil},
		{`env sed -i s/a/b/ SESSION-*.md`, []string{"SESSION-PROTOCOL.md"}, nil},
		// Round 17 review (t9): a default word, pushd, -iname's case, ~+.
		{`sed -i s/a/b/ "${g:-SESSION-PROTOCOL.md}"`, []string{"SESSION-PROTOCOL.md"}, []string{"README.md"}},
		{`f=SESSION-PROTOCOL.md; sed -i s/a/b/ "${f:-x}"`, []string{"SESSION-PROTOCOL.md", "x"}, []string{"README.md"}},
		{`sed -i s/a/b/ "${f:+SESSION-PROTOCOL.md}"`, []string{"SESSION-PROTOCOL.md"}, []string{"README.md"}},
		{`sed -i s/a/b/ "${f:-src/a.go}"`, []string{"src/a.go"}, []string{"SESSION-PROTOCOL.md"}},
		{`pushd docs && sed -i s/a/b/ *.md`, []string{"docs/a.md"}, []string{"SESSION-PROTOCOL.md"}},
		{`find . -iname 'session-protocol.md' -delete`, []string{"SESSION-PROTOCOL.md", "docs/SESSION-PROTOCOL.md"}, []string{"README.md"}},
		{`sed -i s/a/b/ ~+/SESSION-PROTOCOL.md`, []string{"SESSION-PROTOCOL.md"}, []string{"README.md"}},
		{`f=SESSION-PROTOCOL.md; sh -c "sed -i s/a/b/ $f"`, []string{"SESSION-PROTOCOL.md"}, []string{"README.md"}},
		{`f=SESSION-PROTOCOL; f+=.md; sed -i s/a/b/ "$f"`, []string{"SESSION-PROTOCOL.md"}, []string{"SESSION-PROTOCOL"}},
		{`d=$(mktemp -d); echo x > "$d/settings.json"`, nil, []string{".claude/settings.json", "settings.json"}},
		{`bash -c 'sed -i s/a/b/ SESSION-*.md'`, []string{"SESSION-PROTOCOL.md"}, nil},
		{`sed -i s/a/b/ "$f"`, nil, []string{"SESSION-PROTOCOL.md"}}, // no literal part: not listed
		{`sed -i s/a/b/ "$d/$f"`, nil, []string{"SESSION-PROTOCOL.md"}},
		{`sed -i s/a/b/ *`, []string{"SESSION-PROTOCOL.md"}, []string{".claude", "src/a.go"}}, // a glob alone is judged
		{`for f in *; do sed -i s/a/b/ "$f"; done`, []string{"sessiongate.yaml"}, nil},
		{`rm -rf .*`, []string{".claude", ".git"}, nil},
		{`f=SESSION-PROTOCOL.md; dd if=t of=$f`, []string{"SESSION-PROTOCOL.md"}, nil},
		{`dd if=t of=build/$n.bin`, []string{"build/x.bin"}, []string{"SESSION-PROTOCOL.md"}},
		{`f=x; f=$(cat name); sed -i s/a/b/ "$f"`, nil, []string{"SESSION-PROTOCOL.md", "x"}},
		{`sed -i 's/a*/b/' src/*.go`, []string{"src/a.go"}, []string{"SESSION-PROTOCOL.md"}},
		{`grep -l x *.md > list.txt`, nil, []string{"SESSION-PROTOCOL.md"}}, // a read
		{`rm -f ~/x/*`, nil, []string{"x/a"}},
		{`rm -f ./SESSION-*.md`, []string{"SESSION-PROTOCOL.md"}, nil},
		{`cd docs && sed -i s/a/b/ ../SESSION-*.md`, []string{"SESSION-PROTOCOL.md"}, []string{"docs/SESSION-PROTOCOL.md"}},
		{`cd docs/x && rm -f ../../.claude/*.json`, []string{".claude/settings.json"}, nil},
		{`cd .claude && sed -i s/a/b/ *.json`, []string{".claude/settings.json"}, []string{"settings.json"}},
		{`f=$(echo SESSION-PROTOCOL.md); sed -i s/a/b/ "$f"`, []string{"SESSION-PROTOCOL.md"}, nil},
		{`sed -i s/a/b/ @(SESSION-PROTOCOL).md`, []string{"SESSION-PROTOCOL.md"}, nil},
		// find: a glob -name under its start points, a glob -path.
		{`find . -name 'SESSION-*' -delete`, []string{"SESSION-PROTOCOL.md", ".agents/SESSION-PROTOCOL.md"}, []string{"README.md"}},
		{`find . -name '*.json' -exec sed -i s/a/b/ {} +`, []string{".claude/settings.json"}, []string{"a.md"}},
		{`find . -path './.claude/*' -delete`, []string{".claude/settings.json"}, nil},
		{`find "$PWD" -iname 'session*.yaml' -exec rm {} \;`, []string{"sessiongate.yaml"}, nil},
		{`find . -name '*.pyc' -delete`, nil, []string{"SESSION-PROTOCOL.md", "sessiongate.yaml"}},
		{`find docs -name '*.md' -delete`, []string{"docs/a.md", "docs/x/b.md"}, []string{"SESSION-PROTOCOL.md"}},
		{`find . -name '*.md' -exec sed -n 1p {} \;`, nil, []string{"SESSION-PROTOCOL.md"}},
		{`find . -name '*.md' -print`, nil, []string{"SESSION-PROTOCOL.md"}},
	} {
		ts, _, ok := WriteTargets(c.line)
		if !ok {
			t.Errorf("%q: does not parse", c.line)
			continue
		}
		any := func(p string) bool {
			return slices.ContainsFunc(ts, func(x Target) bool { return x.Match(p) })
		}
		for _, p := range c.matches {
			if !any(p) {
				t.Errorf("%q: no target matches %s (targets %v)", c.line, p, ts)
			}
		}
		for _, p := range c.misses {
			if any(p) {
				t.Errorf("%q: a target matches %s (targets %v)", c.line, p, ts)
			}
		}
	}
}

func TestWriteTargetsLinks(t *testing.T) {
	for _, c := range []struct {
		line string
		want []Link
	}{
		{`ln -s . self && find self/ -delete`, []Link{{Name: "self", Target: "."}}},
		{`ln -sf SESSION-PROTOCOL.md notes/`, []Link{{Name: "notes/SESSION-PROTOCOL.md", Target: "SESSION-PROTOCOL.md"}}},
		{`ln SESSION-PROTOCOL.md h.md`, []Link{{Name: "h.md", Target: "SESSION-PROTOCOL.md", Hard: true}}},
		{`cd sub && ln -s .. up`, []Link{{Name: "sub/up", Target: ".."}}},
		{`ln -s "$T" x`, []Link{{Name: "x", Built: true}}},
		{`d=.; ln -s $d s`, []Link{{Name: "s", Target: ".", Built: true}}},
		{`ln -s "$T" dir/`, nil},
	} {
		_, links, ok := WriteTargets(c.line)
		if !ok || !slices.Equal(links, c.want) {
			t.Errorf("%q: links %v, want %v", c.line, links, c.want)
		}
	}
}
