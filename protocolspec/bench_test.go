package protocolspec

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// largestFixture returns the biggest real protocol document.
func largestFixture(b *testing.B) []byte {
	b.Helper()
	paths, _ := filepath.Glob(filepath.Join("..", "..", "shared", "fixtures", "ai-agents", "SESSION-PROTOCOL_*.md"))
	var best []byte
	for _, p := range paths {
		if d, err := os.ReadFile(p); err == nil && len(d) > len(best) {
			best = d
		}
	}
	if best == nil {
		if os.Getenv("CI") == "" {
			b.Skip("no protocol fixture in ../shared/fixtures/ai-agents")
		}
		b.Fatal("no protocol fixture in ../shared/fixtures/ai-agents")
	}
	return best
}

func BenchmarkParseLargestFixture(b *testing.B) {
	data := largestFixture(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("bench.md", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGoldmarkBaseline is goldmark's own parse of the same bytes with
// the same extensions: Parse's overhead is the ratio of the two.
func BenchmarkGoldmarkBaseline(b *testing.B) {
	data := largestFixture(b)
	m := goldmark.New(goldmark.WithExtensions(extension.Table, extension.TaskList))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		m.Parser().Parse(text.NewReader(data))
	}
}
