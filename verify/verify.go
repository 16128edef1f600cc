// Package verify checks, from git alone, that the commits of a range were
// made inside sessions that passed their gates: the place where local hooks
// can be bypassed (CI). It needs no database: the evidence is the
// Session-Id / Session-Snapshot trailers and the session records, read
// from the records ref (session_record: refs/...) or committed in the tree.
package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/sessiongate/sessiongate/eventpin"
	"maps"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

// Trailer keys.
const (
	TrailerSession  = "Session-Id"
	TrailerSnapshot = "Session-Snapshot"
)

// Options configure a run.
type Options struct {
	// RecordPath is the session_record setting: a records ref
	// ("refs/sessiongate/records") or a path template in the tree
	// ("{session_id}" replaced).
	RecordPath string
	// MissingTrailer is "fail" or "warn"; warn turns every failure of a
	// commit without a Session-Id trailer into a warning.
	MissingTrailer string
	// Unsessioned is the policy for commits without a session
	// (UnsessionedPeople when ""): unsessioned.go.
	Unsessioned string
	// Unrecorded is "fail" (default) or "warn": what a commit whose
	// trailers name a session that never recorded it gets.
	Unrecorded string
	// Violations is "fail" (default) or "warn": what a commit gets whose
	// session recorded a violation that bypassed the protocol (BYPASS,
	// ESCAPE_HATCH, FOREIGN_AMEND, PROTECTED_CHANGE, TRANSCRIPT_CHANGED (and
	// TRANSCRIPT_TAMPERED),
	// END_PROTOCOL_SKIPPED, FORCED_ADVANCE). Before this, a session that
	// recorded one still verified clean: the record said so and CI passed.
	Violations string
	// RequireSigned fails every commit of the range whose signature git's
	// own `git verify-commit` does not accept (gpg, or ssh with
	// gpg.ssh.allowedSignersFile).
	RequireSigned bool
	// Baseline, when set, is the config and protocol committed at the
	// range's base: every record must name that protocol.
	Baseline *Baseline
	// Branch is the branch the CI says the range's commits are on (a pull
	// request's head, a push's branch) and DefaultBranch the repository's;
	// a record that says it ran on the default branch for commits the CI
	// has from another branch fails (claims.go). "" skips the check.
	Branch, DefaultBranch string
	// Rerun: the command gates are run again on the head (Rerun), so the
	// changes in the range to what they run are flagged (rerunguard.go).
	Rerun bool
	// NoFetch: never fetch (--no-fetch); a squash merge's pull request
	// head missing from the clone is then named, not fetched.
	NoFetch  bool
	inSquash bool // checking a squashed pull request's commits (mergedwork.go)
	// replayDepth counts the published originals being verified around
	// this run (a copy of a copy...): bounded, failing closed.
	replayDepth int
}

// CommitReport is the verdict on one commit.
type CommitReport struct {
	SHA        string   `json:"sha"`
	Subject    string   `json:"subject"`
	SessionID  string   `json:"session_id,omitempty"`
	SnapshotID string   `json:"snapshot_id,omitempty"`
	eventChain string   // its Session-Events trailer
	hooksOff   bool     // no trailer: the records ref maps it to SessionID (hooksOffMapped)
	Record     string   `json:"record,omitempty"`
	File       string   `json:"file,omitempty"` // its first changed file, where annotations point
	Status     string   `json:"status"`         // ok, warn, fail
	Problems   []string `json:"problems"`
}

// Report is the whole run.
type Report struct {
	Range   string   `json:"range"`
	How     string   `json:"how"`               // how the range was chosen
	Fetched []string `json:"fetched,omitempty"` // fetches that completed a shallow clone
	// Baseline says where the config and protocol verify trusted came from.
	Baseline string           `json:"baseline,omitempty"`
	Rerun    []RerunResult    `json:"rerun,omitempty"`
	Notes    []string         `json:"notes,omitempty"`
	Sessions []SessionSummary `json:"sessions,omitempty"` // the sessions behind the range
	Tip      string           `json:"tip"`
	OK       bool             `json:"ok"`
	Commits  []CommitReport   `json:"commits"`
}

// Run verifies every commit of rng. Records are read from the tip of the
// range: the session record is committed when the session ends, after the
// commits it covers.
func Run(ctx context.Context, repo *gitrepo.Repo, rng string, opts Options) (*Report, error) {
	tip := "HEAD"
	if i := strings.LastIndex(rng, ".."); i >= 0 && strings.TrimLeft(rng[i:], ".") != "" {
		tip = strings.TrimLeft(rng[i:], ".")
	} else if !strings.Contains(rng, "..") && rng != "" {
		tip = rng
	}
	return RunRange(ctx, repo, Named(rng, tip), opts)
}

// RunRange verifies every commit of a range (ChooseRange's, or one named).
func RunRange(ctx context.Context, repo *gitrepo.Repo, rg *Range, opts Options) (*Report, error) {
	if opts.RecordPath == "" {
		opts.RecordPath = session.DefaultRecordPath
	}
	var commits []gitrepo.Commit
	var err error
	if rg.named {
		commits, err = repo.Log(ctx, rg.Revs[0]) // its shallow-clone message
	} else {
		commits, err = repo.LogRevs(ctx, rg.Revs)
	}
	if err != nil {
		return nil, err
	}
	// Files only where they matter: a commit without a trailer may be a
	// record commit (all its files records).
	var bare []*gitrepo.Commit
	for i := range commits {
		if len(commits[i].Trailers[TrailerSession]) == 0 {
			bare = append(bare, &commits[i])
		}
	}
	if err := repo.FilesOf(ctx, bare); err != nil {
		return nil, err
	}
	tipSHA, err := repo.ResolveRev(ctx, rg.Head)
	if err != nil {
		return nil, err
	}
	rng := rg.Text
	rep := &Report{Range: rng, How: rg.How, Fetched: rg.Fetched, Notes: slices.Clone(rg.notes), Tip: tipSHA, OK: true, Commits: []CommitReport{}}
	if bl := opts.Baseline; bl != nil {
		rep.Baseline = bl.describe()
	}
	src := source{repo: repo, tip: tipSHA, template: opts.RecordPath, rw: newRewrites(repo, tipSHA, commits)}
	if session.IsRecordRef(opts.RecordPath) {
		// Commits from before a move to the ref keep their in-tree records.
		src.ref, src.template = opts.RecordPath, session.DefaultRecordPath
		if src.refTip, err = recordref.Tip(ctx, repo.Root(), src.ref); err != nil {
			return nil, err
		}
		if src.refTip == "" && len(commits) > 0 && !opts.NoFetch {
			// actions/checkout's default fetches the one ref it checks
			// out (round 28, c2): fetch the records ref as a deepening is
			// fetched; a failure leaves the clear error below. A person's
			// commit needs it too, for its actor record (lazy pass 41, H5:
			// a person's commit alone in a pull request failed as "no
			// record of who made it").
			if err := repo.FetchRevs(ctx, "origin", nil, "+"+src.ref+":"+src.ref); err == nil {
				if src.refTip, err = recordref.Tip(ctx, repo.Root(), src.ref); err != nil {
					return nil, err
				}
				if src.refTip != "" {
					rep.Fetched = append(rep.Fetched, "git fetch origin +"+src.ref+":"+src.ref)
				}
			}
		}
		if src.refTip == "" && anyTrailer(commits) {
			return nil, &MissingRefError{Ref: src.ref}
		}
		if src.refTip == "" && len(commits) > 0 {
			rep.Notes = append(rep.Notes, "the records ref "+src.ref+" is not in this clone (nor fetched from origin): a commit without a Session-Id trailer has no record of who made it here")
		}
		if f, err := completeRecords(ctx, repo, src.ref, src.refTip, !opts.NoFetch); err != nil {
			return nil, err
		} else if f != "" {
			rep.Fetched = append(rep.Fetched, f)
			rep.Notes = append(rep.Notes, "the records ref "+src.ref+" was fetched shallow: its history fetched whole ("+f+")")
		}
	}
	if err := src.preload(ctx, commits); err != nil {
		return nil, err
	}
	unheld, err := unheldPins(ctx, src, commits)
	if err != nil {
		return nil, err
	}
	// Who made the commits no session covers, as their post-commit hooks
	// recorded it on the records ref.
	var bareSHAs []string
	for _, c := range bare {
		bareSHAs = append(bareSHAs, c.SHA)
	}
	actorTip := src.refTip
	if src.ref == "" && len(bareSHAs) > 0 {
		// A base with no records ref configured (the adoption's own range)
		// still has the adoption's record on the default ref.
		if actorTip, err = recordref.Tip(ctx, repo.Root(), recordref.DefaultRef); err != nil {
			return nil, err
		}
	}
	actors, err := recordref.Actors(ctx, repo.Root(), actorTip, bareSHAs)
	if err != nil {
		return nil, err
	}
	records := map[string]*recordCheck{}
	inTree, err := src.treeHooksOff(ctx, bareSHAs, records)
	if err != nil {
		return nil, err
	}
	if opts.Branch == "" {
		opts.Branch, opts.DefaultBranch = rg.Branch, rg.DefaultBranch
	}
	claims := newClaimCheck(repo, opts)
	claims.tip = tipSHA
	claims.rw = src.rw
	trust := &protocolTrust{repo: repo, bl: opts.Baseline, revs: rg.Revs, recordsTip: src.refTip, recordsRef: src.ref, target: rg.target, noFetch: opts.NoFetch, defaultPush: rg.defaultPush}
	if src.ref == "" {
		trust.recordsRef = session.DefaultRecordsRef
		// In-tree records: acceptances are on the default records ref all the same.
		if trust.recordsTip, err = recordref.Tip(ctx, repo.Root(), session.DefaultRecordsRef); err != nil {
			return nil, err
		}
	}
	defer trust.close()
	claims.load = func(ctx context.Context, id string) *recordCheck {
		if session.ValidateID(id) != nil {
			return nil
		}
		return cachedRecord(ctx, src, opts, trust, records, id)
	}
	persons, err := trust.provePersons(ctx, actors, actorTip)
	if err != nil {
		return nil, err
	}
	if persons.note != "" {
		rep.Notes = append(rep.Notes, persons.note)
	}
	var unwitnessed []int // bare commits nobody's record named yet
	for _, c := range commits {
		cr := CommitReport{SHA: c.SHA, Subject: c.Subject, Status: "ok", Problems: []string{}}
		ids := c.Trailers[TrailerSession]
		snaps := c.Trailers[TrailerSnapshot]
		switch {
		case len(ids) == 0 && onlyRecords(c.Files, src.template):
			cr.Status = "ok"
			cr.Problems = append(cr.Problems, "session record commit (no trailer needed)")
		case len(ids) == 0 && hooksOffMapped(actors[c.SHA]):
			// git ran no commit-msg for it (an agent CLI with hooks off):
			// the records ref maps it to its session, judged as a trailer
			// naming it would be, so the session must have recorded it as
			// passing its pre-commit (a BYPASS fails).
			a := actors[c.SHA]
			cr.SessionID, cr.hooksOff = a.Session, true
			cr.Problems = append(cr.Problems, fmt.Sprintf("no %s trailer: %s ran git with its hooks off, and the records ref maps the commit to session %s", TrailerSession, orAgent(a.Agent), a.Session))
			checkCommit(ctx, src, opts, trust, records, &cr)
			claims.commit(ctx, records[cr.SessionID], &cr)
		case len(ids) == 0 && inTree[c.SHA] != "":
			// The same with records in the tree: the session's own record
			// lists the commit (intreehooksoff.go).
			cr.SessionID, cr.hooksOff = inTree[c.SHA], true
			cr.Problems = append(cr.Problems, fmt.Sprintf("no %s trailer (git ran no commit-msg hook: hooks off), and its record in the tree lists the commit: session %s", TrailerSession, cr.SessionID))
			checkCommit(ctx, src, opts, trust, records, &cr)
			claims.commit(ctx, records[cr.SessionID], &cr)
		case len(ids) == 0:
			var actor *snapshot.CommitActor
			if a, ok := actors[c.SHA]; ok {
				actor = &a
			}
			if why := persons.unproven[c.SHA]; why != "" {
				cr.Problems = append(cr.Problems, why)
			}
			judgeUnsessioned(opts.Unsessioned, &c, actor, &cr)
			if actor == nil && len(agentTrailers(&c)) == 0 && persons.unproven[c.SHA] == "" {
				unwitnessed = append(unwitnessed, len(rep.Commits))
			}
			if why := persons.unverified[c.SHA]; why != "" && actor != nil {
				cr.Problems = append(cr.Problems, why)
			}
			if cr.Status == "fail" && opts.MissingTrailer == "warn" {
				cr.Status = "warn"
				cr.Problems = append(cr.Problems, "verify.missing_trailer: warn lets it pass")
			}
		default:
			cr.SessionID = ids[len(ids)-1]
			if len(snaps) > 0 {
				cr.SnapshotID = snaps[len(snaps)-1]
			}
			if evc := c.Trailers[eventpin.TrailerEventsKey]; len(evc) > 0 {
				cr.eventChain = evc[len(evc)-1]
			}
			checkCommit(ctx, src, opts, trust, records, &cr)
			if ps := c.Trailers[eventpin.TrailerPinKey]; len(ps) > 0 && unheld[ps[len(ps)-1]] {
				cr.Status = "fail"
				cr.Problems = append(cr.Problems, fmt.Sprintf("%s %s: %s does not hold the records commit this commit's pre-commit wrote its event pin to: the ref was moved back or deleted before it was pushed, and the pins and violations written since are gone (%s)",
					eventpin.TrailerPinKey, shorten.SHA(ps[len(ps)-1]), src.ref, session.CodeRecordsRewound))
			}
			claims.commit(ctx, records[cr.SessionID], &cr)
		}
		if cr.Status == "fail" {
			// GitHub's merge or squash of a pull request: passes when its
			// content is the verified work and nothing else (mergedwork.go).
			if note, why := mergedWork(ctx, repo, &c, opts); note != "" {
				cr.Status, cr.Problems = statusOf(note), []string{note}
			} else if why != "" {
				cr.Problems = append(cr.Problems, why)
			}
		}
		if cr.Status == "fail" {
			rep.OK = false
		}
		rep.Commits = append(rep.Commits, cr)
	}
	replays, err := vouchedReplays(ctx, repo, rep, unwitnessed, records, opts)
	if err != nil {
		return nil, err
	}
	// After every record is loaded: the originals are found by the commits
	// the range's sessions recorded (rebasedwork.go).
	squashes := gitlabSquashes(ctx, repo, rep, commits, opts)
	rebased := rebasedWork(ctx, repo, rep, records, opts)
	// Last, what the paths above left failed: a squash fast-forwarded
	// passes when it is a session's whole gated run (rewrites.go).
	fastSquashes := src.rw.bareSquashes(ctx, src, opts, trust, claims, rep, commits, records)
	continued := continuedWork(ctx, repo, rep, records, trust)
	if rebased || replays || squashes || fastSquashes || continued {
		rep.OK = !slices.ContainsFunc(rep.Commits, func(c CommitReport) bool { return c.Status == "fail" })
	}
	// What is still failed for want of a record a fork holds says so.
	forkRecordsHint(ctx, repo, rep, commits, src.ref)
	// Signatures last: a verdict the passes above turn to ok (a replay, a
	// rebase, a squash of verified work) must not drop a signature failure.
	if opts.RequireSigned {
		for i := range rep.Commits {
			cr := &rep.Commits[i]
			if err := repo.VerifyCommit(ctx, cr.SHA); err != nil {
				cr.Status = "fail"
				cr.Problems = append(cr.Problems, "signature: "+err.Error())
				rep.OK = false
			}
		}
	}
	index := make(map[string]int, len(rep.Commits))
	for i, c := range rep.Commits {
		index[c.SHA] = i
	}
	if err := trust.trustedChanges(ctx, rep, index); err != nil {
		return nil, err
	}
	if err := trust.hookConfigs(ctx, rep, index, tipSHA); err != nil {
		return nil, err
	}
	if err := trust.personActs(ctx, rep, rg, records); err != nil {
		return nil, err
	}
	if err := trust.uncheckedStops(ctx, rep, records, opts); err != nil {
		return nil, err
	}
	if err := trust.rewoundSessions(ctx, rep, rg, records, opts, tipSHA); err != nil {
		return nil, err
	}
	// The guard is syntactic (two git diffs, nothing run), so it runs
	// without --rerun too: a session that weakened the script its QA gate
	// runs passed that gate locally (issue 25 adversarial pass, route 6).
	if err := trust.rerunGuard(ctx, rep, index, tipSHA, opts.Rerun); err != nil {
		return nil, err
	}
	// Annotations point at a file of each commit that did not pass.
	var flagged []*gitrepo.Commit
	for i := range commits {
		if rep.Commits[i].Status != "ok" {
			if commits[i].Files == nil {
				flagged = append(flagged, &commits[i])
			}
		}
	}
	if err := repo.FilesOf(ctx, flagged); err != nil {
		return nil, err
	}
	for i := range commits {
		if rep.Commits[i].Status != "ok" && len(commits[i].Files) > 0 {
			rep.Commits[i].File = commits[i].Files[0]
		}
	}
	for _, c := range rep.Commits {
		if rc := records[c.SessionID]; rc != nil && rc.summary != nil && !slices.ContainsFunc(rep.Sessions, func(s SessionSummary) bool { return s.ID == c.SessionID }) {
			rep.Sessions = append(rep.Sessions, *rc.summary)
		}
	}
	return rep, nil
}

// recordCheck caches what one session record says.
type recordCheck struct {
	path      string
	ids       map[string]bool // recomputed snapshot ids
	problems  []string        // problems of the record as a whole
	notes     []string        // what a reader should know, not failures
	protocols []string        // the protocol sha256s its snapshots name
	summary   *SessionSummary // for the job summary
	// commits and bypassed hold sha256(commit id) of the commits the
	// session's hooks saw land (observed commit_sha evidence) and of those
	// that landed without a passing pre-commit (bypass_commit).
	commits, bypassed map[string]bool
	// recorded lists the observed commits, each with its change
	// fingerprint when its pre-commit passed (rewrites.go).
	recorded []recorded
	final    string // the final snapshot's id
	id       string // the session's
	// events are the record's events (a records-ref record's), oldest first.
	events []snapshot.EventRef
	// violations are the final snapshot's "CODE:PHASE" entries whose code
	// bypassed the protocol (gatingViolation).
	violations []string
	// What the record claims that git can say again (claims.go).
	start, end, branch string
	// startStandIn is the range's rewrite of start when start is not in
	// the clone (rewrites.startStandIn); "" otherwise.
	startStandIn       string
	conversations      []snapshot.ConversationRef // the agent conversations it was bound to
	email, place       string                     // who ran it and where (rewound.go)
	passed             map[string]bool            // phases the final snapshot says PASSED
	rechecked          bool
	files              fileRefs // file evidence to read again from git (filerefs.go)
	schema             string   // the record's schema ("" in the oldest records)
	clock              int      // the record's clock_version (recordsclock.go)
	continuesV         int      // the record's continues_version (continued.go)
	startedAt, endedAt string   // the record's session times (recordshistory.go)
	// startEventAt is when the session's start events say it began
	// (startEventAt): the session row's created_at is one UPDATE away.
	startEventAt string
	endState     string   // the state it ended in, as recordref.Times reads a version's (recordshistory.go)
	marks        []string // the final snapshot's violation marks (recordshistory.go)
	// Not-applicable marks (notapplicable.go): the final snapshot's, and
	// once judged, the problems of those no person accepted.
	na         []naMark
	naJudged   bool
	naProblems []string
	// unclean lists the phases session.PhaseNotClean names (a skipped
	// failing gate, a mandatory gate that checked nothing): the commits
	// pass with a warning, never as clean.
	unclean []string
	// liftable are the problems of an ABANDONED record that a later
	// session continuing its work answers (continued.go).
	liftable map[string]bool
	// The protect:content events of the record's versions on the records
	// ref (recordshistory.go): how many versions were read, the tokens
	// by seq and how many versions held each, and whether one seq held
	// two tokens (basecontent.go).
	contentVersions int
	contentSeen     map[int64]string
	contentCount    map[int64]int
	contentSplit    bool
}

// gatingViolation reports a violation code that means the protocol was
// bypassed, not merely warned about (a sequence rule that refused a call
// stopped the call: nothing got through).
func gatingViolation(code string) bool {
	switch code {
	case session.CodeBypass, session.CodeEscapeHatch, session.CodeForeignAmend, session.CodeProtectedChange,
		session.CodeTranscriptChanged, session.CodeTranscriptTampered, session.CodeEndProtocolSkipped, session.CodeForcedAdvance, session.CodeSessionRestarted,
		session.CodeEventsRewritten, session.CodeRecordsRewound, session.CodeToolInputRewritten:
		return true
	}
	return false
}

// cachedRecord loads, checks and caches the record of session id once.
func cachedRecord(ctx context.Context, src source, opts Options, trust *protocolTrust, cache map[string]*recordCheck, id string) *recordCheck {
	rc, ok := cache[id]
	if !ok {
		rc = src.load(ctx, id)
		cache[id] = rc
		for _, sha := range rc.protocols {
			p, note := trust.check(ctx, sha, rc.start, laterTime(rc.startedAt, rc.startEventAt))
			if p != "" {
				rc.problems = append(rc.problems, rc.path+": "+p)
			}
			if note != "" {
				rc.notes = append(rc.notes, note)
			}
		}
		trust.excuseBaseContent(ctx, rc, opts.DefaultBranch)
	}
	return rc
}

func checkCommit(ctx context.Context, src source, opts Options, trust *protocolTrust, cache map[string]*recordCheck, cr *CommitReport) {
	fail := func(format string, a ...any) {
		cr.Status = "fail"
		cr.Problems = append(cr.Problems, fmt.Sprintf(format, a...))
	}
	if err := session.ValidateID(cr.SessionID); err != nil {
		fail("Session-Id trailer: %v", err)
		return
	}
	rc := cachedRecord(ctx, src, opts, trust, cache, cr.SessionID)
	cr.Record = rc.path
	trust.judgeNA(ctx, rc, cr.SessionID)
	for _, p := range rc.problems {
		fail("%s", p)
	}
	for _, p := range rc.naProblems {
		fail("%s", p)
	}
	if p := trust.downgraded(ctx, rc, cr.SessionID, cr.SHA); p != "" {
		fail("%s", p)
	}
	if p := trust.clockDropped(ctx, rc, cr.SessionID, cr.SHA); p != "" {
		fail("%s", p)
	}
	cr.Problems = append(cr.Problems, rc.notes...)
	if rc.ids == nil {
		return
	}
	src.rw.judge(ctx, cr.SessionID, rc)
	if len(rc.violations) > 0 {
		msg := fmt.Sprintf("session %s recorded %d violation(s) that bypassed the protocol: %s (verify.violations: warn to let them pass)", cr.SessionID, len(rc.violations), strings.Join(rc.violations, ", "))
		if opts.Violations == "warn" {
			if cr.Status == "ok" {
				cr.Status = "warn"
			}
			cr.Problems = append(cr.Problems, msg)
		} else {
			fail("%s", msg)
		}
	}
	if len(rc.unclean) > 0 {
		// The verdict `session end` gave: complete, not clean.
		if cr.Status == "ok" {
			cr.Status = "warn"
		}
		cr.Problems = append(cr.Problems, fmt.Sprintf("session %s"+notCleanMark+"%s", cr.SessionID, strings.Join(rc.unclean, ", ")))
	}
	switch {
	case cr.SnapshotID == "" && cr.hooksOff:
		// No commit-msg ran to bind a snapshot: the record's list of the
		// commits the session recorded (below) is what binds it.
	case cr.SnapshotID == "":
		fail("no Session-Snapshot trailer")
	case !snapshot.ValidID(cr.SnapshotID):
		fail("Session-Snapshot %q is not a sha256 snapshot id", cr.SnapshotID)
	case !rc.ids[cr.SnapshotID]:
		fail("Session-Snapshot %s matches no snapshot in %s (record edited, or the commit is from another session)", cr.SnapshotID, rc.path)
	}
	// The chain head of the session's events the commit held: the record's
	// events must begin with the same ones (session/eventchain.go).
	if cr.eventChain != "" {
		n, ok := snapshot.ParseEventChain(cr.eventChain)
		got, have := snapshot.EventChain(rc.events, n)
		switch {
		case !ok:
			fail("%s trailer %q is not a chain head", eventpin.TrailerEventsKey, cr.eventChain)
		case len(rc.events) == 0:
			// A record in the tree holds no events: nothing to compare.
		case !have && len(rc.events) > 0 && rc.events[0].Seq != 1:
			cr.Problems = append(cr.Problems, fmt.Sprintf("%s: the record shed its oldest events, so the commit's %s is not re-checked", rc.path, eventpin.TrailerEventsKey))
		case !have || got != cr.eventChain:
			fail("the session's events in %s differ from the first %d the commit held (%s): the session database was rewritten after this commit", rc.path, n, eventpin.TrailerEventsKey)
		}
	}
	// The record lists, by hash, the commits the session saw land: trailers
	// copied onto a commit made elsewhere (hooks off) do not make it one.
	sum := sha256.Sum256([]byte(cr.SHA))
	h := hex.EncodeToString(sum[:])
	switch {
	case rc.bypassed[h]:
		fail("the session recorded this commit as landing without a passing pre-commit hook (BYPASS)")
	case !rc.commits[h] && rewritten(src.rw, cr):
		// A platform's rewrite of a commit the session gated (rewrites.go).
	case !rc.commits[h]:
		msg := fmt.Sprintf("trailers copied: session %s never recorded this commit (its record lists %d commits); the trailers were copied from another commit, or the commit was rewritten (amend, rebase) outside the session", cr.SessionID, len(rc.commits))
		if opts.Unrecorded == "warn" {
			if cr.Status == "ok" {
				cr.Status = "warn"
			}
			cr.Problems = append(cr.Problems, msg)
		} else {
			fail("%s", msg)
		}
	}
}

func loadTreeRecord(ctx context.Context, repo *gitrepo.Repo, tip, template, id string) *recordCheck {
	rel, err := session.RecordPath(template, id)
	rc := &recordCheck{path: rel}
	if err != nil {
		rc.problems = append(rc.problems, err.Error())
		return rc
	}
	b, err := repo.ReadAt(ctx, tip, rel)
	if errors.Is(err, gitrepo.ErrNoFile) {
		rc.problems = append(rc.problems, fmt.Sprintf("session record %s is not in the tree at %.12s: end the session and commit its record", rel, tip))
		return rc
	}
	if err != nil {
		rc.problems = append(rc.problems, err.Error())
		return rc
	}
	return checkRecord(rc, b, id, nil)
}

// identity tells a record of this repository (source.identity).
type identity struct {
	eventSource string                // sessiongate://<name> of this clone
	nameFrom    string                // where the name came from
	inHistory   func(sha string) bool // sha is a commit of this history
}

// checkRecord parses and checks a record's bytes. A record that fails a
// check of its own (parse, session, repository, snapshot ids) gets no ids,
// so no commit can lean on it: it is reported, never trusted.
func checkRecord(rc *recordCheck, b []byte, id string, who *identity) *recordCheck {
	rel := rc.path
	var rec snapshot.Record
	if err := json.Unmarshal(b, &rec); err != nil {
		rc.problems = append(rc.problems, fmt.Sprintf("%s: not a session record: %v", rel, err))
		return rc
	}
	if rec.SessionID != id || len(rec.Snapshots) == 0 {
		rc.problems = append(rc.problems, fmt.Sprintf("%s: record is for session %q with %d snapshots", rel, rec.SessionID, len(rec.Snapshots)))
		return rc
	}
	rc.events = rec.Events
	if who != nil {
		for i, p := range rec.Snapshots {
			if p.Session.EventSource == who.eventSource {
				continue
			}
			start := ""
			if rec.Session != nil {
				start = rec.Session.StartCommit
			}
			if who.inHistory(start) {
				rc.notes = append(rc.notes, fmt.Sprintf("%s: recorded as repository %q; this repository is %s (from %s): the same repository, since the session's start commit %s is in this history (a rename or a fork)",
					rel, p.Session.EventSource, who.eventSource, who.nameFrom, shorten.SHA(start)))
				break
			}
			why := "the record names no start commit"
			if start != "" {
				why = fmt.Sprintf("its start commit %s is not in this history", shorten.SHA(start))
			}
			rc.problems = append(rc.problems, fmt.Sprintf("%s: snapshot %d claims repository %q, not this repository (%s, from %s), and %s: skipped", rel, i, p.Session.EventSource, who.eventSource, who.nameFrom, why))
			return rc
		}
	}
	rc.ids = map[string]bool{}
	rc.commits, rc.bypassed = map[string]bool{}, map[string]bool{}
	at := map[string]int{} // index in rc.recorded
	var last string
	for i := range rec.Snapshots {
		p := rec.Snapshots[i]
		for _, ev := range p.State.Evidence {
			switch {
			case ev.Kind == session.EvidenceCommitSHA && ev.Origin == string(session.OriginObserved):
				rc.commits[ev.SHA256] = true
				if k, ok := at[ev.SHA256]; !ok {
					at[ev.SHA256] = len(rc.recorded)
					rc.recorded = append(rc.recorded, newRecorded(ev.SHA256, ev.Change))
				} else if rc.recorded[k].change == "" {
					rc.recorded[k] = newRecorded(ev.SHA256, ev.Change)
				}
			case ev.Kind == session.EvidenceBypassCommit:
				rc.bypassed[ev.SHA256] = true
			}
		}
		if sha := p.State.ProtocolSHA256; sha != "" && !slices.Contains(rc.protocols, sha) {
			rc.protocols = append(rc.protocols, sha)
		}
		if p.Session.SessionID != id {
			rc.problems = append(rc.problems, fmt.Sprintf("%s: snapshot %d belongs to session %s", rel, i, p.Session.SessionID))
		}
		sid, _, err := p.ID()
		if err != nil {
			rc.problems = append(rc.problems, fmt.Sprintf("%s: snapshot %d: %v", rel, i, err))
			continue
		}
		rc.ids[sid] = true
		last = sid
	}
	if rec.Envelope.Snapshot.StateSnapshotID != last {
		rc.problems = append(rc.problems, fmt.Sprintf("%s: envelope id %s does not match the recomputed final snapshot %s (record edited)", rel, rec.Envelope.Snapshot.StateSnapshotID, last))
	}
	rc.schema = rec.Schema
	rc.final, rc.id = last, id
	readFileRefs(rc, &rec)
	readClock(rc, &rec)
	rc.clock = rec.ClockVersion
	rc.continuesV = rec.ContinuesVersion
	if m := rec.Session; m != nil {
		rc.startedAt, rc.endedAt = m.StartedAt, m.EndedAt
	}
	rc.startEventAt = startEventAt(rec.Events)
	final := rec.Snapshots[len(rec.Snapshots)-1].State
	rc.na = naMarksOf(final)
	rc.marks = final.Violations
	rc.summary = summarize(&rec, final)
	if m := rec.Session; m != nil {
		rc.start, rc.end, rc.branch, rc.conversations = m.StartCommit, m.EndCommit, m.Branch, m.Conversations
		rc.email, rc.place = m.UserEmail, m.Place
	}
	rc.passed = map[string]bool{}
	for _, ph := range final.Phases {
		if ph.Status == string(session.PhasePassed) {
			rc.passed[ph.ID] = true
		}
	}
	for _, v := range final.Violations {
		if code, _, _ := strings.Cut(v, ":"); gatingViolation(code) {
			rc.violations = append(rc.violations, v)
		}
	}
	// An expired or superseded session is marked ABANDONED without a
	// snapshot of its own: the record's session state says so.
	abandoned := final.State == string(session.StateAbandoned) || rec.Session != nil && rec.Session.State == string(session.StateAbandoned)
	rc.endState = final.State
	if abandoned {
		rc.endState = string(session.StateAbandoned)
	}
	if final.State != string(session.StateComplete) {
		p := fmt.Sprintf("%s: the session ended %s, not COMPLETE", rel, final.State)
		rc.problems = append(rc.problems, p)
		if abandoned {
			rc.liftable = map[string]bool{p: true}
		}
	}
	for _, ph := range final.Phases {
		mandatory := ph.Gate == string(protocolspec.GateBlocking) || ph.Gate == string(protocolspec.GateRequired)
		if mandatory && ph.Status != string(session.PhasePassed) && ph.Status != string(session.PhaseSkipped) {
			p := fmt.Sprintf("%s: %s gate %s is %s", rel, ph.Gate, ph.ID, ph.Status)
			rc.problems = append(rc.problems, p)
			if rc.liftable != nil && ph.Status == string(session.PhasePending) {
				// Never reached: the continuing session's gates answer it.
				// Only for a session that ended ABANDONED short of COMPLETE:
				// a record whose final snapshot says COMPLETE beside an
				// ABANDONED state was edited (it panicked here: round 63).
				rc.liftable[p] = true
			}
			continue
		}
		// The rule every surface applies (issue 25: a failed gate is
		// never shown as clean anywhere). A failing optional gate skipped
		// warns but does not fail CI: the protocol let it fail.
		if why := session.PhaseNotClean(ph.Gate, ph.Status, ph.Decision); why != "" {
			rc.unclean = append(rc.unclean, ph.ID+" ("+strings.TrimSuffix(why, ":")+")")
		}
	}
	return rc
}

// SessionSummary is one session behind the range, for the job summary.
type SessionSummary struct {
	ID         string `json:"id"`
	User       string `json:"user,omitempty"` // who ran it (name <email>, host)
	Protocol   string `json:"protocol_sha256"`
	State      string `json:"state"`
	Gates      string `json:"gates"` // e.g. "5/6 passed, 1 skipped"
	Violations int    `json:"violations"`
	Forced     int    `json:"forced_advances"`
	// NAPending counts not-applicable marks no person accepted.
	NAPending int `json:"na_pending,omitempty"`
}

func summarize(rec *snapshot.Record, final snapshot.State) *SessionSummary {
	s := &SessionSummary{ID: rec.SessionID, Protocol: final.ProtocolSHA256, State: final.State, Violations: len(final.Violations)}
	if m := rec.Session; m != nil {
		s.User = strings.TrimSpace(m.UserName + " <" + m.UserEmail + ">")
		if m.UserEmail == "" {
			s.User = m.UserName
		}
		if m.Host != "" {
			s.User += " on " + m.Host
		}
	}
	passed, skipped := 0, 0
	for _, ph := range final.Phases {
		switch ph.Status {
		case string(session.PhasePassed):
			passed++
		case string(session.PhaseSkipped):
			skipped++
		case string(session.PhaseForced):
			s.Forced++
		}
	}
	s.Gates = fmt.Sprintf("%d/%d passed", passed, len(final.Phases))
	if skipped > 0 {
		s.Gates += fmt.Sprintf(", %d skipped", skipped)
	}
	if s.Forced > 0 {
		s.Gates += fmt.Sprintf(", %d forced", s.Forced)
	}
	return s
}

// onlyRecords reports whether every file a commit touched is a session record.
func onlyRecords(files []string, template string) bool {
	if len(files) == 0 {
		return false
	}
	prefix, suffix, ok := strings.Cut(template, "{session_id}")
	if !ok {
		return false
	}
	for _, f := range files {
		if !strings.HasPrefix(f, prefix) || !strings.HasSuffix(f, suffix) || session.ValidateID(strings.TrimSuffix(strings.TrimPrefix(f, prefix), suffix)) != nil {
			return false
		}
	}
	return true
}

// vouchedReplays passes the bare commits (at idx) that a session of the
// range recorded as checked work: git revert and git cherry-pick commit
// without the commit-msg hook, so without a trailer, and the session's
// post-commit took the replay (its change was one the session checked, the
// exact reverse of the branch's own history, or a copy of published work).
// A commit made with the hooks off is recorded as a BYPASS or not at all,
// and stays failed. The record is the agent's machine's word on what the
// commit replays, so CI settles it again from its own clone: the exact
// reverse of a commit of the range, or a copy of a commit on the remote's
// branches as CI fetched them (a remote-tracking ref the agent wrote
// locally, over a hooks-off commit, never reaches CI) that verifies on its
// own: a commit on a remote branch is no witness that hooks ran (the
// agent can push its hooks-off commit to a branch of its own, then pick
// it), its own verdict is. It reports whether it changed a verdict.
func vouchedReplays(ctx context.Context, repo *gitrepo.Repo, rep *Report, idx []int, records map[string]*recordCheck, opts Options) (bool, error) {
	ids := slices.Sorted(maps.Keys(records))
	var inRange []string
	for _, c := range rep.Commits {
		inRange = append(inRange, c.SHA)
	}
	changed := false
	for _, i := range idx {
		cr := &rep.Commits[i]
		sum := sha256.Sum256([]byte(cr.SHA))
		h := hex.EncodeToString(sum[:])
		for _, id := range ids {
			rc := records[id]
			if rc == nil || !rc.commits[h] || rc.bypassed[h] {
				continue
			}
			// A shallow clone may lack the commit it reverts (shallowrevert.go).
			if err := completeForRevert(ctx, repo, cr.SHA, opts, &rep.Fetched); err != nil {
				return changed, err
			}
			what, why := replayedHere(ctx, repo, cr.SHA, inRange, opts)
			if why != "" {
				cr.Problems = append(cr.Problems, fmt.Sprintf("session %s's hooks recorded it as a replay of checked work, but %s", id, why))
				break
			}
			if what == "" {
				cr.Problems = append(cr.Problems, fmt.Sprintf("session %s's hooks recorded it as a replay of checked work, but this clone holds nothing it replays: neither a commit of the range it exactly reverts nor a commit on the remote's branches it copies (fetch them: git fetch origin '+refs/heads/*:refs/remotes/origin/*'; a cherry-pick of a commit never pushed is unchecked work)", id))
				break
			}
			cr.Status = "ok"
			cr.Problems = []string{fmt.Sprintf("no %s trailer (git revert and cherry-pick commit without the commit-msg hook), and session %s's hooks recorded it as checked work: %s", TrailerSession, id, what)}
			if len(rc.unclean) > 0 {
				// The session's own verdict goes with its replays.
				cr.Status = "warn"
				cr.Problems = append(cr.Problems, fmt.Sprintf("session %s"+notCleanMark+"%s", id, strings.Join(rc.unclean, ", ")))
			}
			changed = true
			break
		}
	}
	return changed, nil
}

// replayedHere: what bare commit c replays, settled in this clone: "" when
// nothing; why when what it copies does not verify.
func replayedHere(ctx context.Context, repo *gitrepo.Repo, c string, inRange []string, opts Options) (what, why string) {
	if from, err := repo.RevertedFrom(ctx, c, inRange); err == nil && from != "" {
		return "it reverts " + shorten.SHA(from) + " of the range exactly", ""
	}
	if from, err := repo.RevertedBefore(ctx, c, inRange); err == nil && from != "" {
		return "it reverts " + shorten.SHA(from) + " exactly, a commit from before the range", ""
	}
	if from, err := repo.PublishedElsewhere(ctx, c); err == nil && from != "" {
		if why := originalVerifies(ctx, repo, from, opts); why != "" {
			return "", "it copies " + shorten.SHA(from) + " on the remote's branches, which does not verify on its own (" + why + "): a commit on a remote branch is no witness that hooks ran"
		}
		return "it copies " + shorten.SHA(from) + " on the remote's branches, which verifies on its own", ""
	}
	return "", ""
}

// originalVerifies verifies a published commit a replay copies, alone,
// under the run's policy: "" when it passes, else why not.
func originalVerifies(ctx context.Context, repo *gitrepo.Repo, from string, opts Options) string {
	if opts.replayDepth >= 2 {
		return "it is itself a copy of a copy, which is not followed further"
	}
	rg := &Range{Revs: []string{from, "--not", from + "^"}, Head: from, Text: shorten.SHA(from), How: "the published commit a replay copies"}
	if err := rg.Complete(ctx, repo, !opts.NoFetch); err != nil {
		return err.Error()
	}
	sub := opts
	sub.replayDepth++
	// Its branch is not the run's: its claims are its own run's.
	sub.Branch, sub.DefaultBranch = "", ""
	rep, err := RunRange(ctx, repo, rg, sub)
	if err != nil {
		return err.Error()
	}
	for _, cr := range rep.Commits {
		if cr.SHA == from {
			if cr.Status == "fail" {
				return shorten.Bytes(strings.Join(cr.Problems, "; "), 400, "...")
			}
			return ""
		}
	}
	return "git lists no such commit"
}
