package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// CodeSessionRestarted: a session was started (or bound) from an agent
// conversation whose earlier session was terminated or deleted while the
// conversation was open, without a signature, or vanished without a
// recorded removal (its database rows deleted). The fresh session would
// otherwise leave the refused claims and failed gates of the earlier one
// behind; it carries this violation instead, and verify fails its commits.
const CodeSessionRestarted = "SESSION_RESTARTED"

// InheritConversation gives session sid, newly bound to a conversation,
// what the conversation's earlier removed sessions left: their agent
// transcripts (a broken one stays broken, so claims it would refute stay
// refused), an event naming each, and, for a removal no person proved
// (unsigned during the open conversation, or none recorded), a HIGH
// SESSION_RESTARTED violation. It returns notes for the agent.
func (e *Engine) InheritConversation(ctx context.Context, sid string, before *Conversation) ([]string, error) {
	if before == nil {
		return nil, nil
	}
	var notes []string
	// The removals since the conversation's last session that was not
	// removed: that one inherited what came before it.
	for i := len(before.Sessions) - 1; i >= 0; i-- {
		old := before.Sessions[i]
		if old == sid {
			continue
		}
		prev, err := e.Store.GetSession(ctx, old)
		gone := errors.Is(err, ErrNotFound)
		if err != nil && !gone {
			return nil, fmt.Errorf("load earlier session %s: %w", old, err)
		}
		if !gone && !prev.Terminated {
			break // still running elsewhere, or ended as it should
		}
		r, recorded := before.Removal(old)
		if !recorded && !gone {
			// The log lost it (its file deleted): the session's own
			// person:<act>[:during-agent][:signed] event still says it.
			if r, recorded, err = e.removalEvent(ctx, old); err != nil {
				return nil, err
			}
		}

		state := "TERMINATED"
		if gone {
			state = "deleted"
		}
		var ts []AgentTranscript
		if !gone {
			if tr, ok := e.Store.(TranscriptReader); ok {
				if ts, err = tr.SessionTranscripts(ctx, old); err != nil {
					return nil, fmt.Errorf("load transcripts of %s: %w", old, err)
				}
			}
		}
		why := ""
		switch {
		case !recorded:
			why = fmt.Sprintf("session %s of this %s conversation was %s with no person act recorded for it", old, before.Agent, state)
		case r.During && !r.Signed && r.EndNotAgents:
			why = fmt.Sprintf("session %s of this %s conversation was %s (%s) by an unsigned act while the conversation looked ended, but it went on without a start event (its end was not the agent's)", old, before.Agent, state, r.Act)
		case r.During && !r.Signed:
			why = fmt.Sprintf("session %s of this %s conversation was %s (%s) by an unsigned act while the conversation was open", old, before.Agent, state, r.Act)
		}
		now := e.now()
		err = e.Store.Update(ctx, func(w Writer) error {
			if err := inheritTranscripts(ctx, w, sid, ts, now); err != nil {
				return err
			}
			detail := old + " " + state
			if why != "" {
				detail += ", unproven removal"
			}
			if err := w.AppendEvent(ctx, &Event{SessionID: sid, Token: "conversation:inherits", Detail: detail, CreatedAt: now}); err != nil {
				return err
			}
			if why == "" {
				return nil
			}
			cur, err := w.GetSession(ctx, sid)
			if err != nil {
				return err
			}
			return w.AddViolation(ctx, &Violation{SessionID: sid, RepoID: cur.RepoID, Phase: cur.Phase, Severity: "HIGH", Code: CodeSessionRestarted, Window: WindowSession, CreatedAt: now,
				Message: truncate(why+": this session takes its place, so it carries that removal (a person ends a session with the agent closed, or signs the act with --sign)", 500)})
		})
		if err != nil {
			return nil, fmt.Errorf("inherit from session %s: %w", old, err)
		}
		n := fmt.Sprintf("this session follows session %s of the same conversation (%s)", old, state)
		if why != "" {
			n += "; recorded as " + CodeSessionRestarted + ": " + why
		}
		notes = append(notes, n)
		if recorded && r.Signed {
			break // a person signed for this removal and what came before it
		}
	}
	return notes, nil
}

// ConversationNames lists conversations as agent:id for messages.
func ConversationNames(cs []Conversation) string {
	var n []string
	for i := range cs {
		n = append(n, cs[i].Name())
	}
	return strings.Join(n, ", ")
}

// removalEvent reads the person act that removed session id from its
// events (RecordPersonActEvent).
func (e *Engine) removalEvent(ctx context.Context, id string) (ConversationRemoval, bool, error) {
	evs, err := e.Store.ListEvents(ctx, id, 0, 0)
	if err != nil {
		return ConversationRemoval{}, false, fmt.Errorf("load events of %s: %w", id, err)
	}
	for i := len(evs) - 1; i >= 0; i-- {
		rest, ok := strings.CutPrefix(evs[i].Token, "person:")
		if !ok {
			continue
		}
		parts := strings.Split(rest, ":")
		r := ConversationRemoval{SessionID: id, Act: parts[0], At: evs[i].CreatedAt}
		for _, p := range parts[1:] {
			r.During = r.During || p == "during-agent"
			r.Signed = r.Signed || p == "signed"
		}
		return r, true, nil
	}
	return ConversationRemoval{}, false, nil
}
