package verify

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
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
func continuedWork(ctx context.Context, repo *gitrepo.Repo, rep *Report, records map[string]*recordCheck) bool {
	changed := false
	for i := range rep.Commits {
		cr := &rep.Commits[i]
		rc := records[cr.SessionID]
		if cr.Status != "fail" || rc == nil || len(rc.liftable) == 0 {
			continue
		}
		if slices.ContainsFunc(cr.Problems, func(p string) bool { return !rc.liftable[p] && !slices.Contains(rc.notes, p) }) {
			continue
		}
		next := continuing(ctx, repo, cr.SHA, rc, records)
		if next == "" {
			continue
		}
		nrc := records[next]
		cr.Status = "ok"
		cr.Problems = []string{fmt.Sprintf("session %s ended ABANDONED before its end protocol; session %s continued it from %s, which holds this commit, and ended COMPLETE",
			cr.SessionID, next, shorten.SHA(nrc.start))}
		if len(nrc.unclean) > 0 {
			cr.Status = "warn"
			cr.Problems = append(cr.Problems, fmt.Sprintf("session %s"+notCleanMark+"%s", next, strings.Join(nrc.unclean, ", ")))
		}
		changed = true
	}
	return changed
}

// continuing returns the session among records that continued abandoned
// session rc's commit c ("" when none).
func continuing(ctx context.Context, repo *gitrepo.Repo, c string, rc *recordCheck, records map[string]*recordCheck) string {
	ended, err := time.Parse(time.RFC3339Nano, rc.endedAt)
	if err != nil {
		return ""
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
		if !slices.ContainsFunc(n.events, func(ev snapshot.EventRef) bool { return ev.Token == session.ContinuesToken+rc.id }) {
			// Its start did not record continuing rc: its gates never
			// judged rc's work (lazy-agent pass 22, a second worktree's
			// COMPLETE session between the two).
			continue
		}
		if ok, err := repo.IsAncestor(ctx, c, n.start); err == nil && ok {
			return id
		}
	}
	return ""
}
