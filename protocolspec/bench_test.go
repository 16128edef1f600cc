package protocolspec

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

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

// BenchmarkParseVsGoldmark alternates Parse and goldmark's bare parse of
// the same document, so a load that comes and goes weighs on both, and
// reports each one's median and the median of their paired ratio.
//
//	go test ./protocolspec -run '^$' -bench ParseVsGoldmark -benchtime 2000x -count 3
func BenchmarkParseVsGoldmark(b *testing.B) {
	data := largestFixture(b)
	m := goldmark.New(goldmark.WithExtensions(extension.Table, extension.TaskList))
	var ours, peer, ratio []float64
	for b.Loop() {
		t := time.Now()
		if _, err := Parse("bench.md", data); err != nil {
			b.Fatal(err)
		}
		o := time.Since(t)
		t = time.Now()
		m.Parser().Parse(text.NewReader(data))
		p := time.Since(t)
		ours, peer = append(ours, float64(o.Nanoseconds())/1e6), append(peer, float64(p.Nanoseconds())/1e6)
		ratio = append(ratio, float64(o)/float64(p))
	}
	med := func(xs []float64) float64 { slices.Sort(xs); return xs[len(xs)/2] }
	b.ReportMetric(med(ours), "parse-ms")
	b.ReportMetric(med(peer), "goldmark-ms")
	b.ReportMetric(med(ratio), "ratio")
}
