package protocolspec

import (
	"sync"
	"testing"
)

// TestParseConcurrent: the hooks and the server parse protocols on many
// goroutines at once, sharing the parser, the regexps and the lazy
// walk's sync.Pool. Every real protocol and sample is read on 4
// goroutines at once and must read as it does alone. This is the
// package's one test with more than one goroutine, so the only one the
// race detector can say anything about: CI runs it under -race
// (`-run TestParseConcurrent`) and the rest of the package without.
func TestParseConcurrent(t *testing.T) {
	docs, fences := templateBodies(t)
	for _, s := range append(lazySamples, gfmSamples...) {
		docs = append(docs, []byte(s))
	}
	docs = append(docs, fences...)
	want := make([]string, len(docs))
	for i, d := range docs {
		want[i] = readings(d)
	}
	const workers = 4
	got := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		got[w] = make([]string, len(docs))
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each worker starts at another document, so different
			// documents are parsed at the same moment too.
			for k := range docs {
				i := (k + w*len(docs)/workers) % len(docs)
				got[w][i] = readings(docs[i])
			}
		}()
	}
	wg.Wait()
	for w := range workers {
		for i := range docs {
			if got[w][i] != want[i] {
				t.Fatalf("document %d read differently on goroutine %d:\n%s\nalone:\n%s", i, w, got[w][i], want[i])
			}
		}
	}
}
