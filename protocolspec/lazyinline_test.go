package protocolspec

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// lazySamples put paragraphs left unparsed next to the blocks and
// markup that could make them read.
var lazySamples = []string{
	"## Session Start\n### Phase 1: A\nplain prose here\nand more\n\nThe agent MU**ST** act.\n\nMU_ST_ too. cre*ate* it\n",
	"## Session Start\n### Phase 1: A\n- plain item\n\n  MUST second paragraph\n- only prose\n\n  still prose\n- # MUST heading\n  prose\n- prose\n  > MUST quoted\n",
	"## Session Start\n### Phase 1: A\n- prose\n- MUST x\n  - nested prose\n  - nested SHOULD\n\n1. one\n2. two\n",
	"Title line\n===\n\nSetext prose\n---\n\n## Session End\n### Phase 1: B\nprose\n===\n",
	"## Session Start\n### Phase 1: A\nprose\n| Req | Step | Status |\n|-|-|-|\n| MUST | x | [ ] |\nafter\n",
	"[ref]: /u\nprose [ref]\n\n&#77;UST entity\n\n&amp; prose\n\n<!-- gate: id=X --> prose\n\nprose <b>x</b>\n\n<http://x> prose\n",
	"## Log Template\n\nCreate at: `.agents/sessions/YYYY-MM-DD.md`\n\n```markdown\n# Session\n```\n\n## Session End\n### Phase 1: Log\nThe agent MUST complete the log.\n",
	"## Session Start\n### Phase 1: A\n- [ ] task prose\n- [x] MUST task\n* prose\n  lazy continuation\nMUST lazy\n",
	"> prose\n> MUST quoted\n\n> only prose\n>\n> more prose\n\nprose  \nhard break\\\nMUST after break\n",
	"- a\n\n      indented code MUST\n- b\n  ```\n  MUST fenced\n  ```\n",
	"## Session Start\n### Phase 1: A\n- prose\n\n- MUST loose\n- prose\n\n  NOT RECOMMENDED\n- OPTIONAL-ish\n- MAYBE\n",
	"  \n\t\nprose\n\n   indented prose\n\n- \n  prose after empty item line\n",
	"## Session Start\n### Phase 1: A\nprose <!-- gate: id=LAZY_X --> more prose\n\n- item <!-- gate: evidence manual -->\n",
	"## Session Start\n### Phase 1: A\n- [ ] prose task\n- item\n\n  [ ] not a box\n\nprose [link](MUST) and ![MUST](x)\n\n&#77;UST &#x4D;AY\n",
	"## A Template\n\nWhere: `docs/x-YYYY.md`, cre\\\nate it.\n\nCre*ate* at: `a/b/YYYY.md`\n\n```md\n# T\n```\n",
	"## Session Start\n### Phase 1: A\n#### Details\nThe agent MUST do x.\n\n### Pha\u017fe 2: B\nThe agent MUST do y.\n" +
		"### <b></b>Phase 3: C\nThe agent MUST do z.\n### &#80;hase 4: D\nThe agent SHOULD do w.\n## Other\nThe agent MUST NOT count.\n",
	"MUST before any heading.\n\n# Session End\nPhase 1: Setext\n---\nThe agent MUST do v.\n\n## Phase 2: Two\n- MUST item\n\n  > MAY quoted\n",
	"## Log Template\n\n### Where\n\nCreate at: `.agents/y/YYYY.md`\n\n```markdown\n# Session [name]\n```\n\n## Session End\n### Phase 1: Log\nThe agent MUST complete the log.\n",
	// Plain paragraphs (no inline markup) in a phase: their text is read
	// from their lines, hard breaks, tabs and trailing spaces included.
	"## Session Start\n### Phase 1: A\nThe agent MUST act  \nthen stop. Run\tthe   tests   \nplain\n\n- MUST plain item  \n  second line\n  third\n\n  MUST with `code` too\n- plain\n\n  &amp; unread\n- Check it.\n  - nested plain  \n    MAY go on\n\n> MUST quoted plain\n> and on  \n",
	// Strong emphasis in plain paragraphs: "**" runs that open and close
	// in turn are read from the lines; any other run is parsed.
	"## Session Start\n### Phase 1: A\nThis is a **blocking gate**. **Requirements:**\n\n**Verification:**  \nMUST **a\nb** run\n\na**b**c MUST x\n\n**a *b*** MUST\n\n***a*** MUST\n\n> **q** MUST\n>**r** MUST\n\n- **i**: MUST do\n- x.**a**, (**b**) MUST\n- ** a ** MUST\n- **a MUST\n- MUST **.**\n- MUST **a**b\n- MUST **\u00e9**\n- MUST \u00e9**a**\n",
	// Plain ATX headings, strong emphasis and closing sequences included.
	"# **Protocol** #\n## Session **Start**\n### Phase 1: **A** b ##\n#### **Details**  \nThe agent MUST x.\n- # plain item heading\n  MUST y\n## Session End\n### **Phase 2: B**\nThe agent MUST z.\n#\n",
	// Code spans as the only markup: read from the lines too.
	"## Session Start\n### Phase 1: `A` b\nThe agent MUST run `npm test`. Then `MUST` x.\n\n- MUST `` a ` b `` c\n- MUST ` a ` and `  ` and ` a`\n- MUST `a\n  b` c  \n  d `x`  \n  e\n- MUST ``x` y\n- MUST x ` y\n- MUST ```a``` and `a``b`\n- MUST `a  \n  b` c\n- MUST `\n  a\n  ` d\n- `x`\n\n## A Template\n\nCreate at: `a/b/YYYY.md` and `c`\n\n```md\n# T [x]\n```\n\n## Session End\n### Phase 1: B\nThe agent MUST complete the a.\n",
	"## Log Template\n\nCREATE at: `.agents/x/YYYY.md`\n\n```markdown\n# Session [name]\n```\n\n## Session End\n### Phase 1: Log\nThe agent MUST complete the log.\n",
}

// lazyCorpus is the documents the lazy parser is checked on.
func lazyCorpus(t testing.TB) [][]byte {
	docs, fences := templateBodies(t)
	for _, pattern := range []string{
		filepath.Join("testdata", "*", "*.md"),
		filepath.Join("..", "docs", "*.md"),
		filepath.Join("..", "cmd", "sessiongate", "starter", "*.md"),
	} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, b)
		}
	}
	for _, s := range append(lazySamples, gfmSamples...) {
		docs = append(docs, []byte(s))
	}
	all := append(docs, fences...)
	return append(all, mutants(all, 4000)...)
}

// readings is what Parse, ParseChecklists and Headings give for d.
func readings(d []byte) string {
	spec, err := Parse("doc.md", d)
	s, _ := json.Marshal(spec)
	c, _ := json.Marshal(ParseChecklists(d))
	h, _ := json.Marshal(Headings(d))
	return fmt.Sprintf("%s\n%v\n%s\n%s", s, err, c, h)
}

// withParser runs f with md swapped for p.
func withParser(p parser.Parser, f func()) {
	defer func(m func() parser.Parser) { md = m }(md)
	md = func() parser.Parser { return p }
	f()
}

// sameReadings checks that the walk reads d the same with every
// paragraph parsed and every table cell made, and that the trees differ
// only by the inline nodes and cells left out.
func sameReadings(t testing.TB, d []byte, full parser.Parser) {
	t.Helper()
	lazy := readings(d)
	var eager string
	withParser(full, func() { eager = readings(d) })
	if lazy != eager {
		t.Fatalf("%q: read with every paragraph parsed:\n%s\nwith paragraphs left unparsed:\n%s", d, eager, lazy)
	}
	src := normalize(d)
	if diff := treeDiff(src, full.Parse(text.NewReader(src)), md().Parse(text.NewReader(src))); diff != "" {
		t.Fatalf("%q: trees differ: %s", d, diff)
	}
}

// treeDiff compares dumpTree's lines of the trees, except for the nodes
// below a paragraph, text block, heading or table row (or header) the lazy tree
// has no children of.
func treeDiff(src []byte, full, lazy ast.Node) string {
	f := strings.Split(dumpTree(src, full), "\n")
	l := strings.Split(dumpTree(src, lazy), "\n")
	depth := func(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }
	i := 0
	for j, line := range l {
		if i >= len(f) || f[i] != line {
			return fmt.Sprintf("line %d: %q, with every paragraph parsed %q", j, line, f[min(i, len(f)-1)])
		}
		i++
		d, text := depth(line), strings.TrimLeft(line, " ")
		leaf := j+1 == len(l) || depth(l[j+1]) <= d
		if leaf && (strings.HasPrefix(text, "Paragraph ") || strings.HasPrefix(text, "TextBlock ") || strings.HasPrefix(text, "Heading ") ||
			strings.HasPrefix(text, "TableRow ") || strings.HasPrefix(text, "TableHeader ")) {
			for i < len(f) && depth(f[i]) > d {
				i++ // inline nodes, or cells, left out
			}
		}
	}
	if i != len(f) {
		return fmt.Sprintf("the lazy tree ends before %q", f[i])
	}
	return ""
}

func TestLazyInlineReadsTheSame(t *testing.T) {
	full := newParser(true, false)
	for _, d := range lazyCorpus(t) {
		sameReadings(t, d, full)
	}
}

// FuzzLazyInline: Parse, ParseChecklists and Headings read any document
// the same with every paragraph parsed and every table cell made.
func FuzzLazyInline(f *testing.F) {
	// Small seeds, so the fuzzer edits documents it can run many times:
	// the whole protocols are TestLazyInlineReadsTheSame's.
	_, fences := templateBodies(f)
	for _, d := range fences {
		f.Add(d)
	}
	for _, s := range append(lazySamples, gfmSamples...) {
		f.Add([]byte(s))
	}
	full := newParser(true, false)
	f.Fuzz(func(t *testing.T, d []byte) {
		if len(d) > 4096 || checkBounds("", d) != nil {
			return
		}
		sameReadings(t, d, full)
	})
}
