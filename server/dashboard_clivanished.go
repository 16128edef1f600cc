package server

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/session"
)

// cliVanishedCalls is a store that reads a page's vanished-CLI settlements
// in one statement (the SQLite and PostgreSQL stores).
type cliVanishedCalls interface {
	CLIVanishedCalls(ctx context.Context, ids []string) ([]session.Event, error)
}

// cliVanishedOfRows reads, by session id, the calls the listed sessions'
// agent CLIs were running when they vanished (killed, crashed: round 30,
// c11): in one batch, or one read a row from a store without it.
func (d *dashboard) cliVanishedOfRows(ctx context.Context, ss []*session.Session) (map[string][]session.CLIVanishedShown, error) {
	out := map[string][]session.CLIVanishedShown{}
	if len(ss) == 0 {
		return out, nil
	}
	var evs []session.Event
	if b, ok := d.store().(cliVanishedCalls); ok {
		ids := make([]string, len(ss))
		for i, s := range ss {
			ids[i] = s.ID
		}
		var err error
		if evs, err = b.CLIVanishedCalls(ctx, ids); err != nil {
			return nil, fmt.Errorf("read the listed sessions' vanished agent CLIs: %w", err)
		}
	} else {
		for _, s := range ss {
			e, err := d.store().EventsWith(ctx, s.ID, session.TokenToolUnreported)
			if err != nil {
				return nil, fmt.Errorf("read the vanished agent CLIs of session %s: %w", s.ID, err)
			}
			evs = append(evs, e...)
		}
	}
	for _, v := range evs {
		if shown := session.VanishedShown([]session.Event{v}); len(shown) > 0 {
			out[v.SessionID] = append(out[v.SessionID], shown...)
		}
	}
	return out, nil
}
