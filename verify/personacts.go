package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

// Person acts on the records ref (acts/, session.PersonAct): a session
// terminated or deleted before it committed anything is named by no commit
// of the range, so verify also reads the acts that belong to it: those on a
// session bound to the same agent conversation as a session of the range,
// or made during that conversation, and those on a session that started on
// a commit of the range or at its base. An act made during an open agent
// conversation is the agent's own unless a signature says otherwise: an
// unsigned one fails (the process tree cannot tell a detached agent from a
// person; docs/security.md, "Ending a session is a person's act"). An
// unsigned act with no conversation open passes with a note, as other
// person claims do without signers.

// personActs judges the acts that belong to the range.
func (t *protocolTrust) personActs(ctx context.Context, rep *Report, rg *Range, records map[string]*recordCheck) error {
	if t.recordsTip == "" {
		return nil
	}
	files, err := recordref.ReadActs(ctx, t.repo.Root(), t.recordsTip)
	if err != nil || len(files) == 0 {
		return err
	}
	inRange := make(map[string]bool, len(rep.Commits))
	for _, c := range rep.Commits {
		inRange[c.SHA] = true
	}
	base, _ := rg.BaseCommit(ctx, t.repo)
	// The range's sessions by conversation, and the commits of each.
	byConv := map[snapshot.ConversationRef][]int{}
	for i, c := range rep.Commits {
		if rc := records[c.SessionID]; rc != nil {
			for _, cv := range rc.conversations {
				byConv[cv] = append(byConv[cv], i)
			}
		}
	}
	type judged struct {
		path string
		act  *session.PersonAct
		hits []int // the commits it belongs to
	}
	var mine []judged
	for _, f := range files {
		pa, err := session.ParsePersonAct(f.Body)
		if err != nil {
			continue
		}
		var hits []int
		convs := slices.Clone(pa.Conversations)
		for _, o := range pa.Open {
			convs = append(convs, snapshot.ConversationRef{Agent: o.Agent, ID: o.ID})
		}
		for _, cv := range convs {
			for _, i := range byConv[cv] {
				if !slices.Contains(hits, i) {
					hits = append(hits, i)
				}
			}
		}
		atBase := pa.StartCommit != "" && pa.StartCommit == base
		if len(hits) == 0 && pa.StartCommit != "" && inRange[pa.StartCommit] {
			hits = []int{0} // the tip: the act belongs to the range as a whole
		}
		if len(hits) == 0 && !atBase {
			continue
		}
		// A session that started at the base and shares no conversation
		// with the range's is reported, never failed: sessions of many
		// branches start at the same base, and one act must not block them
		// all; the conversation is what ties an act to this work.
		mine = append(mine, judged{path: f.Path, act: pa, hits: hits})
	}
	if len(mine) == 0 {
		return nil
	}
	// git's verdict on the records commits that added them: against
	// verify.allowed_signers when the base sets it, else git's own config.
	allowed, named, canSign := "", "", true
	if t.bl != nil && t.bl.Config != nil && t.bl.Config.Verify.AllowedSigners != "" {
		if t.acc == nil {
			t.acc = t.loadAcceptances(ctx)
		}
		allowed, named = t.acc.allowed, t.bl.Config.Verify.AllowedSigners
		canSign = allowed != "" // unreadable: no signature can count
	}
	sigs, err := recordref.ActSignatures(ctx, t.repo.Root(), t.recordsTip, allowed)
	if err != nil {
		return err
	}
	var ids []string
	for _, m := range mine {
		if m.act.SessionID != "" && session.ValidateID(m.act.SessionID) == nil {
			ids = append(ids, m.act.SessionID)
		}
	}
	removed, _ := recordref.ReadMany(ctx, t.repo.Root(), t.recordsTip, ids)
	for _, m := range mine {
		by := ""
		for _, s := range sigs[m.path] {
			if s.Status == "G" && canSign {
				by = fmt.Sprintf("signed by %s (records commit %s)", s.Signer, shorten.SHA(s.Commit))
				break
			}
		}
		what := fmt.Sprintf("person act %s (%s on %s)", m.act.Describe(), m.path, t.recordsTipName())
		if st := removedState(removed, m.act.SessionID); st != "" {
			what += "; the session's record says " + st
		}
		switch {
		case by != "":
			rep.Notes = append(rep.Notes, what+": "+by)
		case len(m.act.Open) > 0 && len(m.hits) == 0:
			rep.Notes = append(rep.Notes, what+": made during an open agent conversation, unsigned; its session started at the base and shares no agent conversation with this range, so it is reported, not failed")
		case len(m.act.Open) > 0:
			signers := "a key git trusts (verify.allowed_signers is not set at the base)"
			if named != "" {
				signers = "a key in " + named
			}
			msg := what + ": made during an open agent conversation and not signed by " + signers +
				", so it cannot be told from the agent ending its own session (a detached process escapes the process tree; the conversation does not). " +
				"A person ends a session with the agent closed, or with --sign"
			for _, i := range m.hits {
				rep.Commits[i].Status = "fail"
				rep.Commits[i].Problems = append(rep.Commits[i].Problems, msg)
			}
			rep.OK = false
		default:
			rep.Notes = append(rep.Notes, what+": unsigned, with no agent conversation open: taken as a person's word, unverified")
		}
	}
	return nil
}

// recordsTipName names where the acts were read, for messages.
func (t *protocolTrust) recordsTipName() string {
	return "the records ref at " + shorten.SHA(t.recordsTip)
}

// removedState is what a removed session's record on the ref says of it.
func removedState(read map[string]recordref.Result, id string) string {
	r, ok := read[id]
	if !ok || r.Err != nil {
		return ""
	}
	var rec snapshot.Record
	if json.Unmarshal(r.Body, &rec) != nil || len(rec.Snapshots) == 0 {
		return ""
	}
	st := rec.Snapshots[len(rec.Snapshots)-1].State.State
	if rec.Session != nil && rec.Session.State != "" {
		st = rec.Session.State
	}
	for _, ev := range rec.Events {
		if ev.Token == "session:deleted" {
			return st + ", deleted"
		}
	}
	return strings.TrimSpace(st)
}
