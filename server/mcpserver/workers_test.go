package mcpserver

import (
	"runtime"
	"sync"
	"testing"
	"time"
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

// A runtime.Goexit in a call (t.FailNow in a handler under test) ends the
// caller's goroutine, as it would without the pool, rather than returning
// as if the call had succeeded; the worker it ended is no longer counted.
func TestWorkerPoolGoexitEndsCaller(t *testing.T) {
	p := newWorkerPool(1)
	p.run(func() {}) // one worker, idle
	returned := make(chan bool, 1)
	go func() {
		ok := false
		defer func() { returned <- ok }()
		p.run(func() { runtime.Goexit() })
		ok = true // not reached
	}()
	if <-returned {
		t.Fatal("run returned after its call's Goexit")
	}
	// The worker's goroutine finishes unwinding after run's caller heard.
	for deadline := time.Now().Add(5 * time.Second); p.n.Load() != 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d workers counted after the only one ended", p.n.Load())
		}
	}
	ran := false
	p.run(func() { ran = true })
	if !ran {
		t.Error("pool unusable after a Goexit")
	}
}
