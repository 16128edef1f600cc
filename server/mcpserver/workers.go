package mcpserver

import (
	"runtime"
	"sync/atomic"
)

// workerPool runs tool handlers on long-lived goroutines.
//
// Why: the SDK starts a fresh goroutine for every request, with the
// runtime's small starting stack, and a tool call (schema validation, then
// the engine's store calls down through SQLite) grows that stack several
// times, copying it each time; the copies were a noticeable share of a
// validate_gate call. A worker's stack has already grown, so a call it runs
// copies nothing. This is what grpc-go's NumStreamWorkers does for the
// same reason.
//
// At most max workers are kept; when all are busy a call runs on the
// caller's goroutine, as it would without the pool, so the pool never
// queues work or limits concurrency.
type workerPool struct {
	jobs chan func()
	n    atomic.Int32 // workers started
	max  int32
}

// toolWorkers runs every tool call of every server in the process: a few
// grown stacks are enough for the calls that run at once.
var toolWorkers = newWorkerPool(16)

func newWorkerPool(max int) *workerPool {
	return &workerPool{jobs: make(chan func()), max: int32(max)}
}

// run calls f on an idle worker, or a new one, or the caller's goroutine,
// and returns when f has returned. A panic in f is raised again in the
// caller, and a runtime.Goexit in f ends the caller's goroutine, so each
// surfaces where it would without the pool.
func (p *workerPool) run(f func()) {
	done := make(chan any, 1)
	job := func() {
		returned := false
		defer func() {
			switch v := recover(); {
			case returned:
				done <- nil
			case v != nil:
				done <- v
			default: // runtime.Goexit: this goroutine ends too
				done <- goexit{}
			}
		}()
		f()
		returned = true
	}
	select {
	case p.jobs <- job:
	default:
		if p.n.Add(1) <= p.max {
			go p.work(job)
		} else {
			p.n.Add(-1)
			job()
		}
	}
	switch v := <-done; v.(type) {
	case nil:
	case goexit:
		runtime.Goexit()
	default:
		panic(v)
	}
}

// goexit is what run receives when f called runtime.Goexit.
type goexit struct{}

func (p *workerPool) work(job func()) {
	defer p.n.Add(-1) // a Goexit in a job ends the worker
	for {
		job()
		job = <-p.jobs
	}
}
