package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/snapshot"
)

// Records off the working branch: a session_record setting that names a
// git ref ("refs/sessiongate/records") makes session_end write the record
// onto that ref instead of into the worktree (docs/team.md, "Records ref").

// RecordRefWriter writes a session record onto a records ref without
// touching the worktree, the index or HEAD; the git adapters implement it.
type RecordRefWriter interface {
	// PutRecord writes body as the record of session id on ref and
	// returns the record's path on the ref.
	PutRecord(ctx context.Context, ref, id string, body []byte) (string, error)
	// RecordBodies returns every record on ref (nil when it does not exist).
	RecordBodies(ctx context.Context, ref string) ([][]byte, error)
}

// IsRecordRef reports whether a session_record setting names a git ref
// rather than a path template in the worktree.
func IsRecordRef(setting string) bool { return strings.HasPrefix(setting, "refs/") }

// EventSource is the ADR-029 event source of a repository's sessions.
func EventSource(repoName string) string { return "sessiongate://" + repoName }

// maxRecordEvents bounds the events a record carries (the newest are kept):
// a record must stay well under the readers' size limit.
const maxRecordEvents = 20000

// refRecord is the session record plus what a team index needs: the
// session's metadata, events (token and time) and violations (no message).
func (e *Engine) refRecord(ctx context.Context, s *Session) (*snapshot.Record, error) {
	rec, err := e.Record(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	repo, err := e.Store.GetRepository(ctx, s.RepoID)
	if err != nil {
		return nil, fmt.Errorf("load repository: %w", err)
	}
	rec.Session = &snapshot.SessionMeta{
		Repository: repo.Name, Origin: portableOrigin(repo.Origin), Branch: s.Branch,
		StartCommit: s.StartCommit, EndCommit: s.EndCommit, State: string(s.State),
		StartedAt: stamp(s.CreatedAt), EndedAt: stamp(s.EndedAt),
		UserName: s.UserName, UserEmail: s.UserEmail, Host: s.Host,
		Place: snapshot.PlaceOf(s.Host, s.Worktree),
	}
	if rec.Session.HeadAtStart, err = e.HeadAtStart(ctx, s.ID); err != nil {
		return nil, err
	}
	evs, err := e.Store.ListEvents(ctx, s.ID, 0, 0)
	if err != nil {
		return nil, fmt.Errorf("load events: %w", err)
	}
	rec.Session.Conversations = conversationsOf(evs)
	if len(evs) > maxRecordEvents {
		evs = evs[len(evs)-maxRecordEvents:]
	}
	rec.ClockVersion = snapshot.ClockVersion
	rec.ContinuesVersion = snapshot.ContinuesVersion
	for _, ev := range evs {
		// Only the session's own time: an event a hook wrote after the
		// end (one that read the session before it ended) is not the
		// session's, and verify fails a record holding one.
		if ev.CreatedAt.Before(s.CreatedAt) || !s.EndedAt.IsZero() && ev.CreatedAt.After(s.EndedAt) {
			continue
		}
		rec.Events = append(rec.Events, snapshot.EventRef{Seq: ev.Seq, Token: ev.Token, At: stamp(ev.CreatedAt)})
	}
	vs, err := e.Store.ListViolations(ctx, ViolationFilter{SessionID: s.ID, Limit: 1000})
	if err != nil {
		return nil, fmt.Errorf("load violations: %w", err)
	}
	for _, v := range vs {
		rec.Violations = append(rec.Violations, snapshot.ViolationRef{Code: v.Code, Phase: v.Phase, Requirement: v.Requirement, Severity: v.Severity, At: stamp(v.CreatedAt)})
	}
	return rec, nil
}

// portableOrigin is the origin for a record: a remote that is a local path
// (a clone of a folder) names a place on one machine only, so it is left out.
func portableOrigin(o string) string {
	if o == "" || strings.HasPrefix(o, "/") || strings.HasPrefix(o, ".") || strings.HasPrefix(o, "~") || strings.HasPrefix(o, `\\`) ||
		(len(o) >= 2 && o[1] == ':') {
		return ""
	}
	return o
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// CodeForcedAdvance is the violation of a mandatory gate skipped with force.
const CodeForcedAdvance = "FORCED_ADVANCE"

// unlaunderable are the violations that reach the records ref when they
// are recorded, not only at session_end: a session that never ends (its
// database deleted, a new session started in its place) would otherwise
// take them with it (issue 25.8).
var unlaunderable = map[string]bool{CodeBypass: true, CodeForcedAdvance: true, CodeProtectedChange: true, CodeForeignAmend: true, CodeUngatedPhase: true, CodeEventsRewritten: true, CodeToolInputRewritten: true}

// publishViolations writes session id's record onto the records ref (when
// session_record names one) if one of vs must not be laundered. The record
// is rewritten with the final one at session_end. A failure is logged,
// never returned: the violation is in the database either way, and a hook
// must not fail on it.
func (e *Engine) publishViolations(ctx context.Context, id string, vs ...*Violation) {
	if id == "" || e.OpenRepo == nil || !IsRecordRef(e.Config.SessionRecord) ||
		!slices.ContainsFunc(vs, func(v *Violation) bool { return v != nil && unlaunderable[v.Code] }) {
		return
	}
	s, err := e.Store.GetSession(ctx, id)
	if err == nil {
		_, err = e.writeRecord(ctx, s)
	}
	if err != nil {
		e.Logger.Warn("write the session record with its violation to the records ref", "session", id, "err", err)
		return
	}
	e.pushViolation(ctx, s)
}

// RecordPusher is the optional part of a Repo that pushes the records ref
// to a remote (gitrepo.Repo: recordref.Push, prompts off).
type RecordPusher interface {
	PushRecords(ctx context.Context, remote, ref string) error
}

// recordsPushTimeout bounds the push a violation starts: a hook waits for
// it, and an unreachable remote must not hold the agent's tool call (an
// agent hook gives it less: what its own limit leaves).
const recordsPushTimeout = 15 * time.Second

// pushBudget is how long a violation's push may take under ctx: inside an
// agent hook, the transcript wait agenthook's decide set (half of what the
// hook's time limit left), which the push must not outlast, or the hook
// answers with its fail mode; elsewhere recordsPushTimeout.
func pushBudget(ctx context.Context) time.Duration {
	if d, ok := ctx.Value(transcriptWaitKey{}).(time.Duration); ok {
		return min(recordsPushTimeout, d)
	}
	return recordsPushTimeout
}

// pushViolation sends the records ref to records_push's remote right
// after a violation was written onto it. Everything local (the ref, its
// reflog, the database) is the agent's user's to rewind before the first
// push; the remote's copy is not, once the host refuses non-fast-forward
// updates of the ref (docs/team.md, "Violations pushed when they
// happen"). Offline, or refused, it warns and goes on: the violation is on
// the local ref and the next push sends it; work is never blocked on the
// network.
func (e *Engine) pushViolation(ctx context.Context, s *Session) {
	remote := e.Config.RecordsPush
	if remote == "" {
		return
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		e.Logger.Warn("push the records ref with the violation", "remote", remote, "err", err)
		return
	}
	p, ok := repo.(RecordPusher)
	if !ok {
		return
	}
	budget := pushBudget(ctx)
	if budget <= 0 {
		e.Logger.Warn("push the records ref with the violation (records_push): no time left in this hook; the next push sends it", "remote", remote)
		return
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), budget)
	defer cancel()
	// To the URL pinned at the session's start, past the repository's
	// config (round 28, c2): a pushurl, insteadOf or sshCommand the agent
	// set since cannot send it elsewhere.
	url := e.recordsPushURL(ctx, s.ID)
	if pp, ok := repo.(PinnedRecordPusher); ok && url != "" {
		err = pp.PushRecordsPinned(pctx, url, e.Config.SessionRecord)
	} else {
		err = p.PushRecords(pctx, remote, e.Config.SessionRecord)
	}
	if err != nil {
		e.Logger.Warn("push the records ref with the violation (records_push); the next push sends it", "remote", remote, "url", url, "err", err)
		// Kept visible: the record written next (at the end) carries it,
		// and verify notes it.
		_ = e.Store.Update(context.WithoutCancel(ctx), func(w Writer) error {
			return w.AppendEvent(context.WithoutCancel(ctx), &Event{SessionID: s.ID, Token: RecordsNotPushedToken, Detail: truncate(err.Error(), 300), CreatedAt: e.Now()})
		})
	}
}

// RecordsNotPushedToken is the event of a violation's push that did not
// reach the remote.
const RecordsNotPushedToken = "records:not-pushed"

// PinnedRecordPusher is the optional part of a Repo that pushes the
// records ref to a URL past the repository's config (gitrepo.Repo), and
// says at session start where records_push's remote pushes.
type PinnedRecordPusher interface {
	PushRecordsPinned(ctx context.Context, url, ref string) error
	RecordsPushURL(ctx context.Context, remote string) (string, error)
}

// recordsPushURL is the records_push URL the session's start pinned ("" none).
func (e *Engine) recordsPushURL(ctx context.Context, id string) string {
	evs, err := startEvent(ctx, e.Store, id, "tool:session_start")
	if err != nil || len(evs) == 0 {
		return ""
	}
	var d struct {
		URL string `json:"records_push_url"`
	}
	if json.Unmarshal([]byte(evs[0].Detail), &d) != nil {
		return ""
	}
	return d.URL
}

// importRefViolations runs when this database knows no session of the
// repository (a new clone, or a database deleted): the records ref still
// holds what earlier sessions of the same person were caught at, and a
// BYPASS or forced BLOCKING gate carries over to the next sessions
// (Carried) from there, instead of vanishing with the database. Each is
// added once as a repository violation naming the session. Records of
// other people are left out: a teammate's bypass does not bar this
// person's force.
func (e *Engine) importRefViolations(ctx context.Context, repo Repo, userEmail string) error {
	ref := e.Config.SessionRecord
	if !IsRecordRef(ref) {
		return nil
	}
	r, err := e.Store.RepositoryByRoot(ctx, repo.MainRoot())
	if err == nil {
		n, err := e.Store.CountSessions(ctx, SessionFilter{RepoID: r.ID})
		if err != nil || n > 0 {
			return err
		}
	} else if !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("look up repository: %w", err)
	}
	bodies, err := repo.RecordBodies(ctx, ref)
	if err != nil {
		return fmt.Errorf("read %s: %w", ref, err)
	}
	var vs []*Violation
	for _, b := range bodies {
		var rec snapshot.Record
		if json.Unmarshal(b, &rec) != nil || rec.Session == nil {
			continue
		}
		if userEmail != "" && rec.Session.UserEmail != "" && !strings.EqualFold(userEmail, rec.Session.UserEmail) {
			continue
		}
		for _, v := range rec.Violations {
			decay := 0
			switch {
			case v.Code == CodeBypass:
				decay = DecayBypass
			case v.Code == CodeForcedAdvance && v.Severity == SeverityCritical:
				decay = DecayForcedBlocked
			default:
				continue
			}
			at, err := time.Parse(time.RFC3339Nano, v.At)
			if err != nil {
				continue
			}
			vs = append(vs, &Violation{Phase: v.Phase, Requirement: v.Requirement, Severity: v.Severity, Code: v.Code,
				Window: WindowCrossSessionDecay, DecayRuns: decay, CreatedAt: at,
				Message: truncate(fmt.Sprintf("%s of session %s (%s, state %s), read from %s: this database does not know that session (deleted, or a new clone)",
					v.Code, rec.SessionID, rec.Session.UserEmail, rec.Session.State, ref), 1000)})
		}
	}
	if len(vs) == 0 {
		return nil
	}
	err = e.Store.Update(ctx, func(w Writer) error {
		r, err := w.EnsureRepository(ctx, repo.MainRoot(), repo.Name())
		if err != nil {
			return err
		}
		for _, v := range vs {
			v.RepoID = r.ID
			if err := w.AddViolation(ctx, v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record violations from %s: %w", ref, err)
	}
	return nil
}

// Unlaunderable reports whether a violation code is one that reaches the
// records ref when it is recorded (publishViolations): verify reads a
// session whose record carries one and whose commits left the branch.
func Unlaunderable(code string) bool { return unlaunderable[code] }

// UnlaunderableCodes lists those codes, sorted (verify searches the
// records ref's history for them).
func UnlaunderableCodes() []string { return slices.Sorted(maps.Keys(unlaunderable)) }
