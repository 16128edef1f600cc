package scriptrun

import (
	"strings"
	"testing"
)

// BenchmarkScan times the reference scan of a 128 KiB bundled script (the
// read bound), the worst a hook reads; peer in the same run: strings.Count
// of one needle over the same text.
func BenchmarkScan(b *testing.B) {
	var big strings.Builder
	for big.Len() < MaxRead {
		big.WriteString("const x = require('path').join('src', 'file.js'); // filler line of a bundled file\n")
	}
	text := big.String()
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			Scan(Node, text, DefaultTargets)
			CommandLines(Node, text)
		}
	})
	b.Run("count-peer", func(b *testing.B) {
		for b.Loop() {
			strings.Count(text, ".git/hooks")
		}
	})
}
