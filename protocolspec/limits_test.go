package protocolspec

import (
	"errors"
	"strings"
	"testing"
)

// adversarial builds the documents of the hardening issue at 10 MB and at
// just under the size limit.
func adversarial() map[string]string {
	head := "# P\n\n## Session Start\n\n### Phase 1: A\n\n"
	var deep, quotes, heads strings.Builder
	for i := 0; i < 2000; i++ {
		deep.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	quotes.WriteString(strings.Repeat(">", 100_000) + " x\n")
	for i := 0; heads.Len() < 10<<20; i++ {
		heads.WriteString("### Phase 1: A\n\n1. The agent MUST x.\n\n")
	}
	var wideDeep strings.Builder
	block := ""
	for k := 0; k < 20; k++ {
		block += strings.Repeat("  ", k) + "- x\n"
	}
	for wideDeep.Len()+len(block) < MaxProtocolBytes-len(head) {
		wideDeep.WriteString(block)
	}
	return map[string]string{
		"2000-deep list":           head + deep.String(),
		"100000 >":                 head + quotes.String(),
		"10 MB of headings":        head + heads.String(),
		"2000-deep list, 1 line":   head + strings.Repeat("- ", 2000) + "x\n",
		"1 MiB of 20-deep lists":   head + wideDeep.String(),
		"41 nested quotes":         head + strings.Repeat("> ", 41) + "x\n",
		"numbered lists, 50 deep":  head + strings.Repeat("1. ", 50) + "x\n",
		"tabs, 41 levels of code":  head + strings.Repeat("\t", 21) + "x\n",
		"10 MB one line":           head + strings.Repeat("x", 10<<20) + "\n",
		"600 phases under 1 MiB":   "# P\n\n## Session Start\n\n" + strings.Repeat("### Phase 1: A\n\nText.\n\n", 600) + "## Session End\n\n### Phase 1: B\n",
		"40 nested quotes (limit)": head + strings.Repeat(">", 40) + " x\n",
	}
}

// TestBoundedInput: documents past the limits are refused with a FILE:LINE
// error naming the limit, without parsing; those within are parsed.
func TestBoundedInput(t *testing.T) {
	refused := map[string]string{
		"2000-deep list":          "the limit is 1048576",
		"100000 >":                "nest",
		"10 MB of headings":       "the limit is 1048576",
		"2000-deep list, 1 line":  "nest",
		"41 nested quotes":        "nest 41 levels",
		"numbered lists, 50 deep": "nest",
		"tabs, 41 levels of code": "nest",
		"10 MB one line":          "the limit is 1048576",
		"600 phases under 1 MiB":  "more than 500 phases",
	}
	for name, doc := range adversarial() {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("adv.md", []byte(doc))
			want, refuse := refused[name]
			if !refuse {
				var el ErrorList
				if errors.As(err, &el) {
					for _, e := range el {
						if strings.Contains(e.Msg, "limit") || strings.Contains(e.Msg, "nest") {
							t.Fatalf("refused within the limits: %v", e)
						}
					}
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "adv.md:") {
				t.Fatalf("err = %v, want a FILE:LINE error containing %q", err, want)
			}
		})
	}
}

func BenchmarkParseAdversarial(b *testing.B) {
	for name, doc := range adversarial() {
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				_, _ = Parse("adv.md", []byte(doc))
			}
		})
	}
}

// checkNesting on a document's own lines refuses what checkBounds
// refuses, at the same line.
func TestCheckNestingMatchesCheckBounds(t *testing.T) {
	docs := []string{"", "x", "x\n", "\n\n", "- x\n" + strings.Repeat("> ", 41) + "x", strings.Repeat("> ", 41) + "x\n\n",
		"a\n" + strings.Repeat("\t", 21) + "x\nb\n", strings.Repeat("1. ", 41) + "\n"}
	for _, d := range adversarial() {
		if len(d) <= MaxProtocolBytes {
			docs = append(docs, d)
		}
	}
	for _, d := range docs {
		want := checkBounds("f.md", []byte(d))
		got := newSource([]byte(d)).checkNesting("f.md")
		if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
			t.Errorf("%.40q: checkNesting says %v, checkBounds %v", d, got, want)
		}
	}
}
