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

// TestParseAllocations: parsing the largest real protocol allocates no more
// than it did when the count was last cut (1,381 on 2026-11-29, third
// pass, 1,426 under -race, where some stack buffers escape and sync.Pool
// drops some of what it is given; 1,680 and 1,709 before, 1,822 and 1,864
// before that). Raised to 1,450 (1,500 under -race) on 2026-12-07: the
// document now has three more requirements (the items under "Session
// context MUST go to:", each with its words, id and check: 1,432).
// Allocation counts do not depend on the machine or its load, so a copy or
// a per-sentence string brought back shows here. Raise the bound only
// with the reason in the commit.
func TestParseAllocations(t *testing.T) {
	maxAllocs := 1450
	if raceBuild {
		maxAllocs = 1500 // CI runs the tests under -race only
	}
	paths, _ := filepath.Glob(filepath.Join("..", "..", "shared", "fixtures", "ai-agents", protocolV14))
	if len(paths) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("no fixture " + protocolV14)
		}
		t.Skip("fixture " + protocolV14 + " not available in ../shared/fixtures/ai-agents")
	}
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("bench.md", data); err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(20, func() { _, _ = Parse("bench.md", data) })
	if n > float64(maxAllocs) {
		t.Errorf("Parse allocates %.0f times per run of %s, want at most %d", n, protocolV14, maxAllocs)
	}
	t.Logf("%.0f allocations per parse", n)
}
