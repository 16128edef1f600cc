package session

import (
	"context"
	"fmt"
	"os"

	"github.com/sessiongate/sessiongate/gateenv"
)

// TokStartPath records the PATH a session started with: a gate's command
// later resolves its programs only on folders that were on it (gateenv),
// so `PATH=$HOME/fake:$PATH sessiongate session end`, with a `go` there
// that prints ok, runs the real go (issue 25.7). The DB is local; the
// records ref never carries it (a machine-local path).
const TokStartPath = "gateenv:start_path"

// startPathEvent is the event Start appends.
func startPathEvent(id string, s *Session) *Event {
	return &Event{SessionID: id, Token: TokStartPath, Detail: os.Getenv("PATH"), CreatedAt: s.CreatedAt}
}

// gateEnviron is the clean environment of a session's gate command or
// `sessiongate run`: gateenv.CleanFor, bounded by the PATH the session
// started with when it recorded one (sessions from before it did not).
func (e *Engine) gateEnviron(ctx context.Context, s *Session, root string, keepIndex bool) (env, dropped []string, err error) {
	o := gateenv.Options{Root: root, KeepIndex: keepIndex, Since: s.CreatedAt}
	evs, err := startEvent(ctx, e.Store, s.ID, TokStartPath)
	if err != nil {
		return nil, nil, fmt.Errorf("read the PATH the session started with: %w", err)
	}
	if len(evs) == 1 {
		o.StartPath, o.StartPathBound = evs[0].Detail, true
	}
	sp, ok, err := startProgramsOf(ctx, e.Store, s)
	if err != nil {
		return nil, nil, err
	}
	if ok && sp.Vars != nil {
		o.StartVars = sp.Vars // HOME and the like as the session started
	}
	env, dropped = gateenv.CleanFor(os.Environ(), o)
	return env, dropped, nil
}

// startEvent returns the event with token that Start appended (nil, or
// an empty list, when the session has none): Start's events are among a
// session's first, so only those are read.
func startEvent(ctx context.Context, st Store, id, token string) ([]Event, error) {
	evs, err := st.ListEvents(ctx, id, 0, 16)
	if err != nil {
		return nil, err
	}
	for _, ev := range evs {
		if ev.Token == token {
			return []Event{ev}, nil
		}
	}
	return nil, nil
}
