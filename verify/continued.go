package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

// continuedWork passes the commits of an ABANDONED session (it expired
// overnight, or a new session superseded it) that a later session of the
// range continued: that session is COMPLETE with no problem of its own, on
// the same branch, started after the abandoned one ended, and at a commit
// that holds the abandoned session's commit, so its end gates (the QA run,
// the handoff) judged a tree with that work in it. Round 20: an honest
// session interrupted and resumed the next day failed verify on every
// commit of its first day. Only the problems the abandonment made (ended
// ABANDONED, mandatory gates never reached) are lifted: a violation, a
// failed gate or anything else about the commit still fails it. The later
// session must have recorded, at its start, that it continues this one
// (session.ContinuesToken): its gates then counted from the abandoned
// session's start. It reports whether it changed a verdict.
func continuedWork(ctx context.Context, repo *gitrepo.Repo, rep *Report, records map[string]*recordCheck, trust *protocolTrust) bool {
	changed := false
	for i := range rep.Commits {
		cr := &rep.Commits[i]
		rc := records[cr.SessionID]
		if cr.Status != "fail" || rc == nil || len(rc.liftable) == 0 {
			continue
		}
		next, old := continuing(ctx, repo, cr.SHA, rc, records, trust)
		if next == "" {
			continue
		}
		// The continuing session recorded this commit as its own checked
		// commit (its hooks saw it land: a rebase of the abandoned work
		// onto main, its replay judged by the session, round 56 F5): the
		// abandoned record not listing the rewritten commit is answered.
		sum := sha256.Sum256([]byte(cr.SHA))
		byNext := records[next].commits[hex.EncodeToString(sum[:])]
		if slices.ContainsFunc(cr.Problems, func(p string) bool {
			if byNext && (strings.HasPrefix(p, "trailers copied: session "+cr.SessionID+" ") || strings.HasPrefix(p, rebasedWorkHint)) {
				return false
			}
			return !rc.liftable[p] && !slices.Contains(rc.notes, p)
		}) {
			continue
		}
		nrc := records[next]
		cr.Status = "ok"
		cr.Problems = []string{fmt.Sprintf("session %s ended ABANDONED before its end protocol; session %s continued it from %s, which holds this commit, and ended COMPLETE",
			cr.SessionID, next, shorten.SHA(nrc.start))}
		if old != "" {
			cr.Problems = append(cr.Problems, old)
		}
		if len(nrc.unclean) > 0 {
			cr.Status = "warn"
			cr.Problems = append(cr.Problems, fmt.Sprintf("session %s"+notCleanMark+"%s", next, strings.Join(nrc.unclean, ", ")))
		}
		changed = true
	}
	return changed
}

// continuing returns the session among records that continued abandoned
// session rc's commit c ("" when none), and, when its record predates the
// continues marker and was taken without it, a note saying so.
func continuing(ctx context.Context, repo *gitrepo.Repo, c string, rc *recordCheck, records map[string]*recordCheck, trust *protocolTrust) (string, string) {
	ended, err := time.Parse(time.RFC3339Nano, rc.endedAt)
	if err != nil {
		return "", ""
	}
	for _, id := range slices.Sorted(maps.Keys(records)) {
		n := records[id]
		if n == nil || n == rc || len(n.problems) > 0 || len(n.naProblems) > 0 || len(n.violations) > 0 ||
			n.summary == nil || n.summary.State != "COMPLETE" || n.branch == "" || n.branch != rc.branch || n.start == "" {
			continue
		}
		started, err := time.Parse(time.RFC3339Nano, n.startedAt)
		if err != nil || started.Before(ended) {
			continue
		}
		note := ""
		if !slices.ContainsFunc(n.events, func(ev snapshot.EventRef) bool { return ev.Token == session.ContinuesToken+rc.id }) {
			// Its start did not record continuing rc: its gates never
			// judged rc's work (lazy-agent pass 22, a second worktree's
			// COMPLETE session between the two). Unless its record comes
			// from a sessiongate that recorded no such marker at all.
			if note = trust.predatesContinues(ctx, n, id); note == "" {
				continue
			}
		}
		if ok, err := repo.IsAncestor(ctx, c, n.start); err == nil && ok {
			return id, note
		}
		// Or rewritten by it: a rebase inside the continuing session
		// (round 56 F5), which recorded the replayed commit as its own
		// checked one (a replay it could not vouch for is a BYPASS).
		sum := sha256.Sum256([]byte(c))
		if h := hex.EncodeToString(sum[:]); n.commits[h] && !n.bypassed[h] && note == "" {
			return id, note
		}
	}
	return "", ""
}

// predatesContinues returns a note when record n, which holds no
// session:continues: event, was written by a sessiongate that recorded
// none: it has no continues_version, and the records ref's history shows
// no record of continues_version 1 before it was written nor one whose
// session started below its start commit. Such a record is judged by the
// rule of its time (round 20: a later COMPLETE session on the branch,
// holding the commit), so a session resumed across the upgrade does not
// fail verify on its first day's commits. A record that drops the field
// after the ref held one is a downgrade and gets nothing; records kept in
// the tree, with no ref history to tell, get nothing either.
func (t *protocolTrust) predatesContinues(ctx context.Context, n *recordCheck, id string) string {
	if t == nil || n.continuesV >= snapshot.ContinuesVersion || t.recordsTip == "" {
		return ""
	}
	if t.contFloor == nil && t.contErr == nil {
		t.contFloor, t.contErr = recordref.FindContinuesFloor(ctx, t.repo.Root(), t.recordsTip, snapshot.ContinuesVersion)
	}
	if t.contErr != nil {
		return ""
	}
	if f := t.contFloor; f.Found {
		if f.WrittenSince(id) {
			return ""
		}
		if f.StartCommit != "" && f.First.SessionID != id {
			if ok, err := t.repo.IsAncestor(ctx, f.StartCommit, n.start); err != nil || ok {
				return ""
			}
		}
	}
	return fmt.Sprintf("session %s's record has no continues_version: written by a sessiongate that did not record which sessions a session continues, before this repository's records carried it; judged by that version's rule (a later COMPLETE session on the branch whose start holds the commit)", id)
}
