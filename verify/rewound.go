package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

// A full rewind before the first push (docs/security.md): a session
// commits with the hooks off (BYPASS, written onto the records ref at
// once), then the agent resets the branch, moves the records ref back,
// deletes the database and does the session again. The range then holds
// only the clean session, and nothing in it names the first. When the
// first session's record reached the remote before the rewind
// (records_push, or another clone fetched it), the pushed ref carries it
// back: this reads it. A session of one of the range's branches whose
// record carries an unlaunderable violation, that no commit of the range
// names, and none of whose recorded commits is in the tip's history, had
// its work reset away: the commits that shipped were made around it.

// rewoundWindow bounds the records commits read for such sessions, newest
// first (a team's ref holds thousands of records).
const rewoundWindow = 2000

// rewoundHistory bounds the tip's history a session's commits are looked
// for in.
const rewoundHistory = 20000

// rewoundSessions fails the range for sessions of its branches that
// recorded an unlaunderable violation and whose commits left the branch.
func (t *protocolTrust) rewoundSessions(ctx context.Context, rep *Report, rg *Range, records map[string]*recordCheck, opts Options, tipSHA string) error {
	if t.recordsTip == "" || len(rep.Commits) == 0 {
		return nil
	}
	// A violation's push that did not reach the remote (records_push):
	// the record says so, and so does the report (round 28, c2).
	seen := map[string]bool{}
	for _, c := range rep.Commits {
		rc := records[c.SessionID]
		if rc == nil || seen[c.SessionID] {
			continue
		}
		seen[c.SessionID] = true
		for _, ev := range rc.events {
			if ev.Token == session.RecordsNotPushedToken {
				rep.Notes = append(rep.Notes, fmt.Sprintf("session %s: a violation's records push did not reach the remote at %s (records:not-pushed): until a later push carried it, the remote did not hold the record", c.SessionID, ev.At))
				break
			}
		}
	}
	branches := map[string]bool{}
	if opts.Branch != "" {
		branches[opts.Branch] = true
	}
	for _, c := range rep.Commits {
		if rc := records[c.SessionID]; rc != nil && rc.branch != "" {
			branches[rc.branch] = true
		}
	}
	// What ties another session to this range's work besides its branch
	// (round 28, c2): an agent conversation or a worktree (Place) one of
	// the range's sessions had too, and the people who ran them.
	convs, places, people := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, c := range rep.Commits {
		rc := records[c.SessionID]
		if rc == nil {
			continue
		}
		for _, cv := range rc.conversations {
			convs[cv.Agent+"\x00"+cv.ID] = true
		}
		if rc.place != "" {
			places[rc.place] = true
		}
		if rc.email != "" {
			people[strings.ToLower(rc.email)] = true
		}
	}
	if len(branches) == 0 && len(convs) == 0 && len(places) == 0 {
		return nil
	}
	ids, err := recordref.RecentSessions(ctx, t.repo.Root(), t.recordsTip, rewoundWindow)
	if err != nil {
		return err
	}
	ids = slices.DeleteFunc(ids, func(id string) bool { _, in := records[id]; return in })
	if len(ids) == 0 {
		return nil
	}
	// Sessions that started before the range's base are older work, judged
	// when it shipped (a shallow clone may not hold their commits).
	// A base dated ahead of this run's clock gives no floor: a committer
	// date is its writer's word, and an agent's session commit dated 2030
	// and fast-forwarded onto main made every later session "older" than
	// any range forked from it, a rewound BYPASS session's too (round 56,
	// helper 335's F2; landedAhead in recheck.go is the same rule).
	var floor time.Time
	base, err := rg.BaseCommit(ctx, t.repo)
	if err != nil {
		base = ""
	}
	if base != "" {
		if ct, err := t.repo.CommitTime(ctx, base); err == nil && !ct.After(time.Now().Add(landedAhead)) {
			floor = ct
		}
	}
	// A session that started on the base or after it (its start commit
	// is the base or has it below) is no older work, whatever the dates
	// say: a base dated a few minutes ahead, inside the tolerance, still
	// made a rewound BYPASS session begun on it "older" (helper 336's
	// review of F2).
	startedOnBase := func(start string) bool {
		if base == "" || start == "" || !isHex(start) {
			return false
		}
		if start == base {
			return true
		}
		on, err := t.repo.IsAncestor(ctx, base, start)
		return err == nil && on
	}
	got, err := recordref.ReadMany(ctx, t.repo.Root(), t.recordsTip, ids)
	if err != nil {
		return err
	}
	// The versions of the window's records that ever carried such a
	// violation: a push only adds commits, but a commit can delete a
	// record or write it again without its violation, or on another
	// branch, and the pre-receive hook sees only a fast-forward (review
	// of c1, round 27: TestVerifyRewoundSession's "records ref rewritten
	// forward" rows).
	past, err := recordref.VersionsMatching(ctx, t.repo.Root(), t.recordsTip, rewoundWindow, unlaunderablePattern())
	if err != nil {
		return err
	}
	var history map[string]bool // sha256 of each commit id in the tip's history, read once
	var problems []string
	for _, id := range ids {
		r := got[id]
		var rec snapshot.Record
		atTip := r.Err == nil && json.Unmarshal(r.Body, &rec) == nil && rec.Session != nil
		codes := unlaunderableCodes(rec)
		// The oldest version that carried one says the session's branch
		// and start; a later version cannot move them.
		first := oldestWithViolation(past[id])
		if first == nil && (!atTip || len(codes) == 0) {
			continue
		}
		dropped := first != nil && (!atTip || len(codes) == 0)
		if first != nil {
			if !atTip {
				rec = *first
			}
			rec.Session.Branch, rec.Session.StartedAt = first.Session.Branch, first.Session.StartedAt
			if dropped {
				codes = unlaunderableCodes(*first)
			}
		}
		tie := rewoundTie(rec.Session, convs, places)
		sameBranch := branches[rec.Session.Branch]
		if !sameBranch && tie == "" {
			continue
		}
		if st, err := time.Parse(time.RFC3339Nano, rec.Session.StartedAt); err == nil && !floor.IsZero() && st.Before(floor) && !startedOnBase(rec.Session.StartCommit) {
			continue
		}
		if dropped {
			what := "no longer carries it"
			if !atTip {
				what = "is deleted"
			}
			problems = append(problems, fmt.Sprintf("session %s on branch %s (started %s) recorded %s on %s, and a later records commit rewrote its record so that it %s: a violation is never taken away from a session, so the records ref was edited by hand after the fact",
				id, rec.Session.Branch, rec.Session.StartedAt, strings.Join(codes, ", "), t.recordsTipName(), what))
			continue
		}
		rc := checkRecord(&recordCheck{path: r.Path}, r.Body, id, nil)
		made := len(rc.commits) + len(rc.bypassed)
		shipped := false
		if made > 0 {
			if history == nil {
				if history, err = hashedHistory(ctx, t.repo, tipSHA); err != nil {
					return err
				}
			}
			for h := range rc.commits {
				shipped = shipped || history[h]
			}
			for h := range rc.bypassed {
				shipped = shipped || history[h]
			}
		}
		switch rec.Session.State {
		case string(session.StateComplete), string(session.StateAbandoned), string(session.StateTerminated):
		default:
			// Never ended: the record is the one written when the
			// violation was. The BYPASS belongs to the session's commits
			// (round 28, c2): a branch that holds them fails; a range
			// tied to the session (its conversation, its worktree, or
			// its branch and person) shipped around it, since its
			// database is gone (the rewind). A teammate's open session on
			// the same branch, tied by nothing but the branch, is noted:
			// its commits are not in this range, and the range that
			// brings them fails.
			var why string
			switch {
			case shipped:
				why = "and its commits are in this branch's history"
			case tie != "":
				why = "and no commit of this range names it, though " + tie + ": its database and local records were erased and the work done again around it (a rewind before the first push, perhaps on a renamed branch)"
			case samePerson(rec.Session.UserEmail, people):
				why = "and no commit of this range names it: its database and local records were erased and the branch's commits made around it (a rewind before the first push?), or it is still open elsewhere by the same person"
			default:
				rep.Notes = append(rep.Notes, fmt.Sprintf("session %s on branch %s (started %s, by %s) recorded %s on %s and has not ended; none of its recorded commits is in this range and nothing but the branch ties it to this range's sessions (another person, another worktree and conversation): noted, not failed; the range that brings its commits fails",
					id, rec.Session.Branch, rec.Session.StartedAt, personOr(rec.Session.UserEmail), strings.Join(codes, ", "), t.recordsTipName()))
				continue
			}
			problems = append(problems, fmt.Sprintf("session %s on branch %s (started %s) recorded %s on %s and never ended, %s",
				id, rec.Session.Branch, rec.Session.StartedAt, strings.Join(codes, ", "), t.recordsTipName(), why))
			continue
		}
		if made == 0 || shipped || !sameBranch {
			// No commit recorded (nothing of it could have shipped), its
			// commits shipped (judged as the range's), or an ended session
			// of another branch: its BYPASS is that branch's.
			continue
		}
		problems = append(problems, fmt.Sprintf("session %s on branch %s (started %s, ended %s) recorded %s on %s, and none of the %d commit(s) it recorded is in this branch's history: its work was reset away and the branch's commits were made around it",
			id, rec.Session.Branch, rec.Session.StartedAt, rec.Session.State, strings.Join(codes, ", "), t.recordsTipName(), made))
	}
	if len(problems) == 0 {
		return nil
	}
	cr := &rep.Commits[len(rep.Commits)-1]
	if opts.Violations == "warn" {
		if cr.Status == "ok" {
			cr.Status = "warn"
		}
		cr.Problems = append(cr.Problems, problems[0]+" (verify.violations: warn lets it pass)")
		return nil
	}
	cr.Status = "fail"
	cr.Problems = append(cr.Problems, problems...)
	rep.OK = false
	return nil
}

// hashedHistory is sha256 of each commit id the tip reaches (the newest
// rewoundHistory): records list commits by that hash.
func hashedHistory(ctx context.Context, repo *gitrepo.Repo, tip string) (map[string]bool, error) {
	shas, err := repo.RevList(ctx, []string{"-n", fmt.Sprint(rewoundHistory), tip})
	if err != nil {
		return nil, fmt.Errorf("list the history of %s: %w", tip, err)
	}
	out := make(map[string]bool, len(shas))
	for _, s := range shas {
		sum := sha256.Sum256([]byte(s))
		out[hex.EncodeToString(sum[:])] = true
	}
	return out, nil
}

// unlaunderablePattern finds a record version carrying a violation that
// must not be laundered (session.Unlaunderable; records are one line of
// compact JSON).
func unlaunderablePattern() string {
	return `"code":"(` + strings.Join(session.UnlaunderableCodes(), "|") + `)"`
}

// unlaunderableCodes lists rec's violations that must not be laundered.
func unlaunderableCodes(rec snapshot.Record) []string {
	var codes []string
	for _, v := range rec.Violations {
		if session.Unlaunderable(v.Code) && !slices.Contains(codes, v.Code) {
			codes = append(codes, v.Code)
		}
	}
	return codes
}

// oldestWithViolation is the oldest of versions (newest first) whose
// record carries a violation that must not be laundered.
func oldestWithViolation(versions [][]byte) *snapshot.Record {
	for i := len(versions) - 1; i >= 0; i-- {
		var rec snapshot.Record
		if json.Unmarshal(versions[i], &rec) == nil && rec.Session != nil && len(unlaunderableCodes(rec)) > 0 {
			return &rec
		}
	}
	return nil
}

// rewoundTie says what ties a session to the range's sessions besides a
// branch: one of their agent conversations or their worktree ("" none).
func rewoundTie(m *snapshot.SessionMeta, convs, places map[string]bool) string {
	for _, cv := range m.Conversations {
		if convs[cv.Agent+"\x00"+cv.ID] {
			return "it ran in an agent conversation a session of this range ran in (" + cv.Agent + ")"
		}
	}
	if m.Place != "" && places[m.Place] {
		return "it ran in the worktree a session of this range ran in"
	}
	return ""
}

// samePerson: the session's person ran one of the range's sessions, or
// either is unknown (older records: the stricter reading).
func samePerson(email string, people map[string]bool) bool {
	return email == "" || len(people) == 0 || people[strings.ToLower(email)]
}

func personOr(s string) string {
	if s == "" {
		return "an unknown person"
	}
	return s
}
