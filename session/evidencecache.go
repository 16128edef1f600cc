package session

import (
	"context"
	"slices"
	"sync"
)

// evidenceCache keeps, per session, the evidence a phase's gate last read
// (gateAndFileEvidence) under the session's EvidenceStamp: a gate call
// polled with nothing new recorded then reads the session row alone, not
// the evidence too (issue 29: the evidence read was a third of a warm
// validate_gate's statements).
//
// Why the stamp follows every change sessiongate makes: evidence rows are
// only ever added, by any process (an MCP client, a hook, the CLI), and
// each new row moves the session's newest evidence id; every event (an
// advance, a gate recorded in full, a reconciled commit) moves its newest
// seq. What it cannot see is a row rewritten in place by hand in the
// database (the newest id and seq unchanged): that is a forged record,
// which a fresh read would take at its word as well; the next evidence or
// event, or a restart, reads it.
type evidenceCache struct {
	mu   sync.Mutex
	m    map[string]evidenceEntry
	hits int // for tests
}

type evidenceEntry struct {
	phase, stamp string
	gate, files  []Evidence
}

// evidenceKeep bounds the sessions remembered, as gateRepeatKeep does.
const evidenceKeep = 4096

func (c *evidenceCache) get(id, phase, stamp string) (gate, files []Evidence, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	en, ok := c.m[id]
	if !ok || en.phase != phase || en.stamp != stamp {
		return nil, nil, false
	}
	c.hits++
	return slices.Clone(en.gate), slices.Clone(en.files), true
}

func (c *evidenceCache) put(id, phase, stamp string, gate, files []Evidence) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= evidenceKeep {
		c.m = map[string]evidenceEntry{}
	}
	c.m[id] = evidenceEntry{phase: phase, stamp: stamp, gate: slices.Clone(gate), files: slices.Clone(files)}
}

// gateEvidenceStamped is gateAndFileEvidence for s as it was read: from
// the cache while s.EvidenceStamp is the one the evidence was read under.
// A session read without a stamp (a store without SessionTrustedReader)
// always reads.
//
// Only ValidateGate reads through it (withStampedEvidence): it writes
// nothing between reading the session and judging the gate, where an
// advance or a fix run records as it goes.
func (e *Engine) gateEvidenceStamped(ctx context.Context, s *Session, phase string) (gate, files []Evidence, err error) {
	if s.EvidenceStamp == "" || ctx.Value(stampedEvidenceKey{}) == nil {
		return e.gateAndFileEvidence(ctx, s.ID, phase)
	}
	if gate, files, ok := e.evidence.get(s.ID, phase, s.EvidenceStamp); ok {
		return gate, files, nil
	}
	if gate, files, err = e.gateAndFileEvidence(ctx, s.ID, phase); err != nil {
		return nil, nil, err
	}
	e.evidence.put(s.ID, phase, s.EvidenceStamp, gate, files)
	return gate, files, nil
}

type stampedEvidenceKey struct{}

// withStampedEvidence lets the gate of this call read its evidence
// through the evidence cache.
func withStampedEvidence(ctx context.Context) context.Context {
	return context.WithValue(ctx, stampedEvidenceKey{}, true)
}
