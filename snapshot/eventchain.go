package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The gate events are sealed with a key the agent's own user can read
// (session/eventseal.go), so an agent that read the key could rewrite the
// database's events and seal them again between two hook calls. A chain
// head over the session's events goes into each commit
// (Session-Events: N:HEX, the first N events): git then holds what the
// events were, outside the database, and a later commit, session end or
// `verify` in CI that finds the first N events different knows the database
// was rewritten after that commit. The chain is a plain sha256, not an
// HMAC: its strength is that git already holds it, and CI (which has no
// key) recomputes it from the record on the records ref.

// EventChain is "N:HEX" over the first n events (in seq order): a running
// sha256 of each event's seq, token and time (Unix seconds). ok is false
// when evs does not start at seq 1 or holds fewer than n events (a record
// that shed its oldest events).
func EventChain(evs []EventRef, n int) (string, bool) {
	if n < 0 || len(evs) < n || n > 0 && evs[0].Seq != 1 {
		return "", false
	}
	h := sha256.Sum256([]byte("sessiongate event chain v1"))
	for _, ev := range evs[:n] {
		at, err := time.Parse(time.RFC3339Nano, ev.At)
		if err != nil {
			return "", false
		}
		m := sha256.New()
		m.Write(h[:])
		fmt.Fprintf(m, "%d\x00%s\x00%d", ev.Seq, ev.Token, at.Unix())
		copy(h[:], m.Sum(nil))
	}
	return strconv.Itoa(n) + ":" + hex.EncodeToString(h[:]), true
}

// ParseEventChain splits a Session-Events value into its count.
func ParseEventChain(v string) (n int, ok bool) {
	c, h, found := strings.Cut(strings.TrimSpace(v), ":")
	n, err := strconv.Atoi(c)
	if !found || err != nil || n < 0 || len(h) != 64 {
		return 0, false
	}
	if _, err := hex.DecodeString(h); err != nil {
		return 0, false
	}
	return n, true
}
