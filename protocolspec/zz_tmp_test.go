package protocolspec

import (
	"slices"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

func BenchmarkTmpMdVsGoldmark(b *testing.B) {
	data := largestFixture(b)
	m := goldmark.New(goldmark.WithExtensions(extension.Table, extension.TaskList))
	var ratio, r2 []float64
	for b.Loop() {
		t := time.Now()
		md().Parse(text.NewReader(data))
		o := time.Since(t)
		t = time.Now()
		m.Parser().Parse(text.NewReader(data))
		p := time.Since(t)
		t = time.Now()
		Parse("x.md", data)
		q := time.Since(t)
		ratio = append(ratio, float64(o)/float64(p))
		r2 = append(r2, float64(q)/float64(p))
	}
	med := func(xs []float64) float64 { slices.Sort(xs); return xs[len(xs)/2] }
	b.ReportMetric(med(ratio), "md-ratio")
	b.ReportMetric(med(r2), "parse-ratio")
}
