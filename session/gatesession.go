package session

import (
	"context"
	"sync"
	"time"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// The session a validate_gate call reads, kept under the store's change
// stamp. Agents poll the gate, and the session read (one statement with
// three subqueries, SQLite's read locks) was a fifth of a warm call's CPU
// (issue 29). A store that can say cheaply whether anything in it may have
// changed (StoreStamper: SQLite's data_version for other connections, a
// count of its own write transactions) lets the next call reuse the row
// while the stamp is the same. Everything else of the call is judged
// afresh (reconcile, protected files, policy, evidence stamp, git); only
// the row is reused, with the last activity and idle expiry this engine's
// own repeats moved (the one write the stamp leaves out, because its
// effect is known here). A kept row that looks expired is read again: the
// expiry decides whether the session is abandoned, and only the database
// may say so.

// StoreStamper is a store that can stamp its whole content cheaply: equal
// stamps mean nothing was written in between except the stamping store's
// own gate repeats (GateRepeater), which move only the repeated session's
// last activity and idle expiry. "" means no stamp: read afresh.
type StoreStamper interface {
	ChangeStamp(ctx context.Context) (string, error)
}

// gateSessionKeep bounds the sessions kept; past it the memory starts over.
const gateSessionKeep = 1024

type gateSessions struct {
	mu   sync.Mutex
	rows map[string]keptSession
	hits int // answered from here (tests)
}

type keptSession struct {
	stamp string
	s     Session
}

// get returns a copy of the kept row of id when it was read under stamp
// and has not expired at now.
func (c *gateSessions) get(id, stamp string, now time.Time) (*Session, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, ok := c.rows[id]
	if !ok || stamp == "" || k.stamp != stamp || !k.s.Active() || k.s.Terminated || k.s.Expired(now) {
		return nil, false
	}
	c.hits++
	s := k.s
	return &s, true
}

// put keeps a copy of s, read after stamp was taken.
func (c *gateSessions) put(stamp string, s *Session) {
	if stamp == "" || !s.Active() || s.Terminated {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rows == nil || len(c.rows) >= gateSessionKeep {
		c.rows = map[string]keptSession{}
	}
	c.rows[s.ID] = keptSession{stamp: stamp, s: *s}
}

// repeated moves the kept row as a gate repeat of this engine moved the
// stored one (migration 0015's triggers: last_activity and expires_at set
// to the repeat's times, stored as unix nanoseconds).
func (c *gateSessions) repeated(id string, at, expiresAt time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, ok := c.rows[id]
	if !ok {
		return
	}
	at, expiresAt = time.Unix(0, at.UnixNano()).UTC(), time.Unix(0, expiresAt.UnixNano()).UTC()
	if at.After(k.s.LastActivity) {
		k.s.LastActivity = at
	}
	if expiresAt.After(k.s.ExpiresAt) {
		k.s.ExpiresAt = expiresAt
	}
	c.rows[id] = k
}

// loadGate is load for a gate call: the session comes from gateSessions
// while the store's change stamp is the one it was read under. stamp is
// that stamp, taken before the session was read ("" when the store has
// none): a later call that reads the same stamp knows nothing but this
// engine's own gate repeats was written in between (gaterepeat.go).
func (e *Engine) loadGate(ctx context.Context, id string) (*Session, *protocolspec.Spec, string, error) {
	st, ok := e.Store.(StoreStamper)
	if !ok {
		s, spec, err := e.load(ctx, id)
		return s, spec, "", err
	}
	if err := ValidateID(id); err != nil {
		return nil, nil, "", err
	}
	stamp, err := st.ChangeStamp(ctx)
	if err != nil {
		e.Logger.Warn("store change stamp: reading the session afresh", "err", err)
		s, spec, err := e.load(ctx, id)
		return s, spec, "", err
	}
	s, ok := e.gateSessions.get(id, stamp, e.now())
	if !ok {
		// Taken before the read: a write after it moves the stamp, so the
		// row is never kept under a stamp older than what it missed.
		s, spec, err := e.load(ctx, id)
		if err != nil {
			return nil, nil, "", err
		}
		e.gateSessions.put(stamp, s)
		return s, spec, stamp, nil
	}
	if err := e.checkUsable(ctx, s); err != nil { // nothing to do for a kept row (active, unexpired): the same order as load
		return nil, nil, "", err
	}
	spec, err := e.SpecFor(ctx, s.ProtocolSHA)
	if err != nil {
		return nil, nil, "", err
	}
	if err := e.reconcileSession(ctx, s); err != nil {
		return nil, nil, "", err
	}
	return s, spec, stamp, nil
}
