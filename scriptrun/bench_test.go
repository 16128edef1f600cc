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

// BenchmarkTaken times deciding the case branch a 62-line shell script's
// literal arguments take (a parse and a walk), which the hook now adds to
// each `sh x.sh ARGS` it judges; peer in the same run: Statements on the
// same text, the parse the hook already made.
func BenchmarkTaken(b *testing.B) {
	var sh strings.Builder
	sh.WriteString("#!/bin/sh\nset -e\ncase \"$1\" in\n  test) go test ./... ;;\n  publish) git update-ref refs/heads/release HEAD ;;\nesac\n")
	for i := range 56 {
		sh.WriteString("go vet ./pkg" + strings.Repeat("x", i%7) + "/... && echo \"ok\" >> build/log.txt\n")
	}
	text := sh.String()
	b.Run("taken", func(b *testing.B) {
		for b.Loop() {
			Taken(text, []string{"test"})
		}
	})
	b.Run("statements-peer", func(b *testing.B) {
		for b.Loop() {
			Statements(text)
		}
	})
}
