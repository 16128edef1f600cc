package teamindex

import (
	"context"
	"runtime"
	"sync"
)

// Outcome is one source's run in IndexAll.
type Outcome struct {
	Source Source
	Result *Result
	Err    error
}

// IndexAll indexes every source, several at once: most of a source's time
// is spent waiting on git (the fetch, cat-file) and on the database, so
// workers (GOMAXPROCS x 2 when 0) overlap them. Sources with the same key
// (two clones of one repository) run one after the other in one worker, as
// they may carry the same sessions. Outcomes are in the order of srcs.
func IndexAll(ctx context.Context, st Store, srcs []Source, opts Options, workers int) []Outcome {
	if workers <= 0 {
		workers = 2 * runtime.GOMAXPROCS(0)
	}
	out := make([]Outcome, len(srcs))
	byKey := map[string][]int{}
	var keys []string
	for i, s := range srcs {
		out[i].Source = s
		if _, ok := byKey[s.Key]; !ok {
			keys = append(keys, s.Key)
		}
		byKey[s.Key] = append(byKey[s.Key], i)
	}
	jobs := make(chan []int)
	var wg sync.WaitGroup
	for range min(workers, len(keys)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for idx := range jobs {
				for _, i := range idx {
					out[i].Result, out[i].Err = Index(ctx, st, srcs[i], opts)
				}
			}
		}()
	}
	for _, k := range keys {
		select {
		case jobs <- byKey[k]:
		case <-ctx.Done():
		}
	}
	close(jobs)
	wg.Wait()
	for i := range out {
		if out[i].Result == nil && out[i].Err == nil {
			out[i].Err = ctx.Err()
		}
	}
	return out
}
