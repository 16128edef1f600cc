package mcpserver

import (
	"sync"
	"testing"
)

func TestWorkerPoolRunsEveryCall(t *testing.T) {
	p := newWorkerPool(2)
	// More calls at once than workers: none waits for a worker, so all
	// four must be running together for the barrier to open.
	var wg, started sync.WaitGroup
	started.Add(4)
	release := make(chan struct{})
	results := make([]int, 4)
	for i := range 4 {
		wg.Go(func() {
			p.run(func() {
				started.Done()
				<-release
				results[i] = i + 1
			})
		})
	}
	started.Wait()
	close(release)
	wg.Wait()
	for i, r := range results {
		if r != i+1 {
			t.Errorf("call %d: got %d", i, r)
		}
	}
	if n := p.n.Load(); n != 2 {
		t.Errorf("%d workers kept, want 2", n)
	}
	// A worker is reused.
	ran := false
	p.run(func() { ran = true })
	if !ran || p.n.Load() != 2 {
		t.Errorf("ran %v, %d workers", ran, p.n.Load())
	}
}

func TestWorkerPoolPanicReachesCaller(t *testing.T) {
	p := newWorkerPool(1)
	defer func() {
		if v := recover(); v != "boom" {
			t.Errorf("recovered %v, want boom", v)
		}
		// The worker survives a panic in a call.
		ok := false
		p.run(func() { ok = true })
		if !ok {
			t.Error("pool unusable after a panic")
		}
	}()
	p.run(func() { panic("boom") })
}
