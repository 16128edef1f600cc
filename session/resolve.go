package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// MinIDPrefix is the shortest session id prefix ResolveID accepts.
const MinIDPrefix = 4

// ErrAmbiguousID is returned when an id prefix names more than one session.
var ErrAmbiguousID = errors.New("ambiguous session id prefix")

// ResolveID turns a full session id or an unambiguous prefix of one (at
// least MinIDPrefix characters, as `session list` prints them) into the
// full id. A full id is returned as it is, whether or not it exists (the
// caller's lookup says); a prefix that matches no session is ErrNotFound,
// one that matches several is ErrAmbiguousID with the candidates.
func (e *Engine) ResolveID(ctx context.Context, s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if isUUID(s) {
		return s, nil
	}
	if len(s) < MinIDPrefix || !isUUIDPrefix(s) {
		return "", fmt.Errorf("%w (got %q; or a prefix of one, at least %d characters)", ErrInvalidID, truncate(s, 64), MinIDPrefix)
	}
	var matches []*Session
	f := SessionFilter{Limit: 1000}
	for {
		page, err := e.Store.ListSessions(ctx, f)
		if err != nil {
			return "", fmt.Errorf("resolve session id %q: %w", s, err)
		}
		for _, ss := range page {
			if strings.HasPrefix(ss.ID, s) {
				matches = append(matches, ss)
			}
		}
		if len(page) < f.Limit {
			break
		}
		last := page[len(page)-1]
		f.BeforeTime, f.BeforeID = last.CreatedAt, last.ID
	}
	switch len(matches) {
	case 0:
		return "", fmt.Errorf("session %s: %w (no session id starts with %q)", s, ErrNotFound, s)
	case 1:
		return matches[0].ID, nil
	}
	var ids []string
	for i, m := range matches {
		if i == 5 {
			ids = append(ids, fmt.Sprintf("and %d more", len(matches)-5))
			break
		}
		ids = append(ids, m.ID+" ("+string(m.State)+")")
	}
	return "", fmt.Errorf("%w %q: it starts %d sessions: %s; give more characters", ErrAmbiguousID, s, len(matches), strings.Join(ids, ", "))
}

// isUUIDPrefix reports whether s can begin a session id: hex digits with
// dashes exactly where a UUID has them (8-4-4-4-12), at most 36 characters.
func isUUIDPrefix(s string) bool {
	if len(s) > 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return false
			}
		}
	}
	return true
}
