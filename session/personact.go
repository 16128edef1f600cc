package session

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/snapshot"
)

// A person act (terminate, delete, protocol accept, init --commit) is
// written onto the records ref as a file of its own (acts/<sha256>.json,
// recordref.PutAct), in a records commit that `--sign` signs: what the
// act was, which session, the conversations that session was bound to,
// and the agent conversations open in the worktree when it was made. verify
// reads them to see removals its range's commits do not name
// (docs/security.md, "Ending a session is a person's act").

// Person act kinds.
const (
	ActTerminate = "terminate"
	ActDelete    = "delete"
	ActAccept    = "accept"
	ActInit      = "init"
)

// PersonAct is one person act as recorded on the records ref.
type PersonAct struct {
	Act         string `json:"act"`
	SessionID   string `json:"session_id,omitempty"`
	StartCommit string `json:"start_commit,omitempty"`
	// Conversations are those the session was bound to.
	Conversations []snapshot.ConversationRef `json:"conversations,omitempty"`
	Head          string                     `json:"head,omitempty"` // HEAD when it was made
	At            string                     `json:"at"`             // RFC 3339, UTC
	Who           string                     `json:"who,omitempty"`
	// Open are the agent conversations open in the worktree then.
	Open []OpenConversation `json:"open_conversations,omitempty"`
	// Signed says the writer asked for a signed records commit; verify
	// believes git's verdict on that commit, not this field.
	Signed bool `json:"signed"`
}

// OpenConversation is a conversation open when a person act was made.
type OpenConversation struct {
	Agent    string `json:"agent"`
	ID       string `json:"id"`
	LastHook string `json:"last_hook"`
}

// Describe is the act in a sentence for messages.
func (a *PersonAct) Describe() string {
	s := a.Act
	if a.SessionID != "" {
		s += " of session " + a.SessionID
	}
	s += " at " + a.At
	if len(a.Open) > 0 {
		var names []string
		for _, o := range a.Open {
			names = append(names, o.Agent+":"+o.ID)
		}
		s += " during the open agent conversation " + strings.Join(names, ", ")
	}
	return s
}

// ParsePersonAct reads an act file.
func ParsePersonAct(b []byte) (*PersonAct, error) {
	var a PersonAct
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("not a person act: %w", err)
	}
	if a.Act == "" {
		return nil, fmt.Errorf("not a person act: no act")
	}
	return &a, nil
}

// OpenConversations turns the log's open conversations into the act's.
func OpenConversations(cs []Conversation) []OpenConversation {
	var out []OpenConversation
	for _, c := range cs {
		out = append(out, OpenConversation{Agent: c.Agent, ID: c.ID, LastHook: stamp(c.LastHook)})
	}
	return out
}

// SessionConversations are the agent conversations a session was bound
// to, from its agent:<agent>:bind events (whose detail is the agent's
// conversation id), in the order they were bound.
func (e *Engine) SessionConversations(ctx context.Context, id string) ([]snapshot.ConversationRef, error) {
	evs, err := e.Store.ListEvents(ctx, id, 0, 0)
	if err != nil {
		return nil, fmt.Errorf("load events of %s: %w", id, err)
	}
	return conversationsOf(evs), nil
}

func conversationsOf(evs []Event) []snapshot.ConversationRef {
	var out []snapshot.ConversationRef
	for _, ev := range evs {
		agent, ok := strings.CutPrefix(ev.Token, "agent:")
		if !ok {
			continue
		}
		agent, ok = strings.CutSuffix(agent, ":bind")
		if !ok || agent == "" || ev.Detail == "" {
			continue
		}
		ref := snapshot.ConversationRef{Agent: agent, ID: ev.Detail}
		dup := false
		for _, o := range out {
			dup = dup || o == ref
		}
		if !dup {
			out = append(out, ref)
		}
	}
	return out
}

// NewPersonAct describes act on session id (id "" for an act on no
// session) as made now, with the conversations open in the worktree.
func (e *Engine) NewPersonAct(ctx context.Context, act, id, head, who string, open []Conversation, sign bool) (*PersonAct, error) {
	pa := &PersonAct{Act: act, SessionID: id, Head: head, At: stamp(e.now()), Who: who, Open: OpenConversations(open), Signed: sign}
	if id != "" {
		s, err := e.Store.GetSession(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("session %s: %w", id, err)
		}
		pa.StartCommit = s.StartCommit
		if pa.Conversations, err = e.SessionConversations(ctx, id); err != nil {
			return nil, err
		}
	}
	return pa, nil
}

// RecordPersonActEvent appends the act to the session's events, so its
// record says, token by token, how it ended: person:<act> with
// ":during-agent" when a conversation was open and ":signed" when signed.
func (e *Engine) RecordPersonActEvent(ctx context.Context, pa *PersonAct) error {
	if pa.SessionID == "" {
		return nil
	}
	tok := "person:" + pa.Act
	if len(pa.Open) > 0 {
		tok += ":during-agent"
	}
	if pa.Signed {
		tok += ":signed"
	}
	detail := pa.Describe()
	return e.Store.Update(ctx, func(w Writer) error {
		return w.AppendEvent(ctx, &Event{SessionID: pa.SessionID, Token: tok, Detail: truncate(detail, 500), CreatedAt: e.now()})
	})
}
