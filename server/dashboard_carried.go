package server

import (
	"context"
	"sync"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// carriedTTL is how long the dashboard reuses a session's carried
// violations. Engine.Carried walks every session started after each
// decaying violation (about 14 ms at 100,000 sessions); what it returns
// changes only when another session of the repository completes, so a
// page polled every 2 s need not pay that on every change of its own.
const carriedTTL = 10 * time.Second

type carriedEntry struct {
	at time.Time
	vs []session.Violation
}

type carriedCache struct {
	mu sync.Mutex
	m  map[string]carriedEntry
}

// carried returns the violations of earlier sessions still active in s
// (force is refused while there is one), at most carriedTTL old.
func (d *dashboard) carried(ctx context.Context, s *session.Session) ([]session.Violation, error) {
	now := time.Now()
	d.carry.mu.Lock()
	if e, ok := d.carry.m[s.ID]; ok && now.Sub(e.at) < carriedTTL {
		d.carry.mu.Unlock()
		return e.vs, nil
	}
	d.carry.mu.Unlock()
	vs, err := d.s.opts.Engine.Carried(ctx, d.store(), s)
	if err != nil {
		return nil, err
	}
	d.carry.mu.Lock()
	defer d.carry.mu.Unlock()
	if d.carry.m == nil || len(d.carry.m) > 1000 {
		d.carry.m = map[string]carriedEntry{} // bounded: dropped wholesale
	}
	d.carry.m[s.ID] = carriedEntry{at: now, vs: vs}
	return vs, nil
}
