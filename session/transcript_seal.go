package session

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/sessiongate/sessiongate/transcript"
)

// Transcript seals (issue 25 item 4). The agent hook hashes what a bound
// transcript gained at each event (SealTranscript); the gates check those
// bytes before they read them (ingestTranscripts), and so does the prompt
// rule before it believes a rejection (settledButFinished). A rewrite in
// place is TRANSCRIPT_TAMPERED; a file renamed over the path (Claude Code
// compacting a long transcript) is read from its end on, with no violation.

// SealTranscript extends the seal of a transcript bound to the session
// (path as BindTranscript got it) to what the file holds now. Only the
// bytes it gained since the last seal are hashed. A transcript not bound,
// broken, replaced or shrunk is left to the gates.
func (e *Engine) SealTranscript(ctx context.Context, t AgentTranscript) error {
	if t.Broken != "" {
		return nil
	}
	seal, ok, err := transcript.Extend(t.Path, t.State)
	if err != nil || !ok {
		if errors.Is(err, os.ErrNotExist) {
			return nil // written lazily
		}
		return err
	}
	base := t.State.Seal
	err = e.Store.Update(ctx, func(w Writer) error {
		tr, ok1 := w.(TranscriptReader)
		tw, ok2 := w.(TranscriptWriter)
		if !ok1 || !ok2 {
			return nil
		}
		cur, err := tr.SessionTranscripts(ctx, t.SessionID)
		if err != nil {
			return err
		}
		for _, c := range cur {
			// Only over the seal it extended: a gate or another hook that
			// moved it on first wins.
			if c.Path != t.Path || c.Broken != "" || c.State.Offset != t.State.Offset || !sameSeal(c.State.Seal, base) {
				continue
			}
			c.State.Seal = seal
			return tw.PutTranscript(ctx, &c)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("seal the %s transcript: %w", t.Agent, err)
	}
	return nil
}

// sameSeal reports whether two seals cover the same bytes alike.
func sameSeal(a, b *transcript.Seal) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.From == b.From && a.To == b.To && a.SHA256 == b.SHA256 && a.Checked == b.Checked
}

// transcriptReplaced starts a transcript over at the end of the file now
// at its path: the file sealed was replaced (renamed over). What the old
// file held past the last gate read is not read (it may be the agent's
// edit); what is appended from here on is. The failed call ids and used
// witnesses stay, so a call that failed before cannot pass by a copy.
func (e *Engine) transcriptReplaced(ctx context.Context, sessionID string, t AgentTranscript, why error) error {
	var size int64
	if fi, err := os.Stat(t.Path); err == nil {
		size = fi.Size()
	}
	st := transcript.NewState(size)
	st.Witnessed, st.Runs = t.State.Witnessed, t.State.Runs
	before := t.State
	t.State, t.UpdatedAt = st, e.now()
	err := e.Store.Update(ctx, func(w Writer) error {
		tr, ok1 := w.(TranscriptReader)
		tw, ok2 := w.(TranscriptWriter)
		if !ok1 || !ok2 {
			return nil
		}
		cur, err := tr.SessionTranscripts(ctx, sessionID)
		if err != nil {
			return err
		}
		for _, c := range cur {
			if c.Path == t.Path && (c.State.Offset != before.Offset || c.Broken != "" || !sameSeal(c.State.Seal, before.Seal)) {
				return nil // someone else got there first
			}
		}
		if err := tw.PutTranscript(ctx, &t); err != nil {
			return err
		}
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: "transcript:" + t.Agent + ":replaced", Detail: truncate(why.Error(), 300), CreatedAt: t.UpdatedAt})
	})
	if err != nil {
		return fmt.Errorf("restart the replaced %s transcript: %w", t.Agent, err)
	}
	return nil
}

// transcriptTampered records a transcript whose sealed or read bytes
// changed, found by a reader other than the gates (the prompt rule): a
// HIGH TRANSCRIPT_TAMPERED, and the transcript is no longer read.
func (e *Engine) transcriptTampered(ctx context.Context, sessionID string, t AgentTranscript, why error) {
	now := e.now()
	_ = e.Store.Update(ctx, func(w Writer) error {
		cur, err := w.GetSession(ctx, sessionID)
		if err != nil {
			return err
		}
		tw, ok := w.(TranscriptWriter)
		if !ok || t.Broken != "" {
			return nil
		}
		t.Broken, t.UpdatedAt = truncate(why.Error(), 300), now
		if err := tw.PutTranscript(ctx, &t); err != nil {
			return err
		}
		v := &Violation{SessionID: sessionID, Phase: cur.Phase, Severity: "HIGH", Code: CodeTranscriptTampered, Window: WindowSession,
			Message: truncate(fmt.Sprintf("the %s transcript %s was rewritten (in place, or a copy renamed over it) after the agent hook saw it (%v); nothing more from it counts", t.Agent, t.Path, why), 500), CreatedAt: now}
		if err := w.AddViolation(ctx, v); err != nil {
			return err
		}
		return w.AppendEvent(ctx, &Event{SessionID: sessionID, Token: "transcript:" + t.Agent + ":tampered", Detail: truncate(t.Path, 300), CreatedAt: now})
	})
}
