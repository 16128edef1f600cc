package session

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// SessionTrustedReader is a store that reads a session together with its
// repository's accepted-contents stamp (Session.TrustedStamp) in one
// statement. Every gate call compares the protected files with the
// accepted contents; reading those was a statement of its own per call
// (17% of validate_gate's CPU in the fifth round's profile).
type SessionTrustedReader interface {
	GetSessionTrusted(ctx context.Context, id string) (*Session, error) // ErrNotFound
}

// trustedCache keeps each repository's accepted contents (trustedOf of its
// rows) with the stamp they were read under.
//
// Why a stale entry never weakens the check: accepted contents are only
// ever added (nothing in sessiongate updates or deletes a trusted_files
// row), and a new row moves the stamp (its count and newest id). An
// entry can only miss a row written behind the stamp's back (a row
// inserted while another is deleted by hand): then the gate sees fewer
// accepted contents than the database, and refuses what it would have
// accepted, never the reverse. A forged row written straight into the
// database is what backTrust already refuses unless git backs it.
type trustedCache struct {
	mu sync.Mutex
	m  map[int64]trustedEntry
}

type trustedEntry struct {
	stamp   string
	trusted map[string][]string
}

func (c *trustedCache) get(repoID int64, stamp string) (map[string][]string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	en, ok := c.m[repoID]
	if !ok || en.stamp != stamp {
		return nil, false
	}
	return cloneTrusted(en.trusted), true
}

func (c *trustedCache) put(repoID int64, stamp string, trusted map[string][]string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[int64]trustedEntry{}
	}
	c.m[repoID] = trustedEntry{stamp: stamp, trusted: cloneTrusted(trusted)}
}

// cloneTrusted copies the map and its slices: callers change what they get
// (backTrust drops contents git does not back).
func cloneTrusted(m map[string][]string) map[string][]string {
	out := make(map[string][]string, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}

// acceptedContents returns a repository's accepted contents by path
// (trustedOf), from the cache when stamp is the one they were read under;
// stamp "" (a store without SessionTrustedReader) always reads.
func (e *Engine) acceptedContents(ctx context.Context, repoID int64, stamp string) (map[string][]string, error) {
	if stamp != "" {
		if t, ok := e.accepted.get(repoID, stamp); ok {
			return t, nil
		}
	}
	rows, err := e.Store.TrustedFiles(ctx, repoID)
	if err != nil {
		return nil, fmt.Errorf("load accepted protected files: %w", err)
	}
	trusted := trustedOf(rows)
	if stamp != "" {
		e.accepted.put(repoID, stamp, trusted)
	}
	return trusted, nil
}
