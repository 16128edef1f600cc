package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/sessiongate/sessiongate/eventseal"
	"github.com/sessiongate/sessiongate/gaterepeat"
	"github.com/sessiongate/sessiongate/identity"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/sessiongate/sessiongate/plaintext"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// Engine drives sessions. It is safe for concurrent use; the store
// serialises writes, so several processes (MCP server, hooks, CLI) can drive
// sessions of one database at once.
type Engine struct {
	Store  Store
	Config Config
	// OpenRepo opens the worktree a session belongs to.
	OpenRepo func(ctx context.Context, worktree string) (Repo, error)
	Now      func() time.Time
	Logger   *slog.Logger
	// seal signs gate events (eventseal/); nil for a store without a file.
	seal *eventseal.Seal
	// Progress, when set, is told when a command gate starts and ends
	// (the CLI shows it on a terminal: long gates otherwise look hung).
	Progress CommandProgress
	// BeforeReconcile, when set, runs before reconciliation accounts for
	// an active session's unseen commits, and reports whether it recorded
	// any. The CLI run inside a hooks-off agent's shell call judges that
	// call's commits there (agenthook.ShellCommitsJudge): `git commit &&
	// sessiongate session end` in Gemini CLI reconciled its honest commit
	// as a BYPASS before the call's post-tool hook could judge it.
	BeforeReconcile func(ctx context.Context, s *Session) (bool, error)
	// StartNotices says what the wiring knows about a repository that the
	// agent should hear before its work (sessiongate's git hooks not
	// installed: every commit of the session would be a BYPASS); nil for
	// none. Added to StartResult.Notices.
	StartNotices func(ctx context.Context, root string) []string

	specs sync.Map // protocol sha256 -> *protocolspec.Spec
	// workStarts keeps workStart's answers (startbound.go).
	workStarts workStartCache
	// accepted keeps each repository's accepted contents by the stamp
	// read with the session (trustedcache.go).
	accepted trustedCache
	evidence evidenceCache // a gate's evidence under Session.EvidenceStamp
	// gateRepeats remembers the last gate answer recorded per session
	// (gaterepeat.go, the table in gaterepeat/).
	gateRepeats gaterepeat.Table
	// gateSessions keeps the session a gate call read under the store's
	// change stamp (gatesession.go).
	gateSessions gateSessions
}

// NewEngine returns an engine with defaults filled in.
func NewEngine(store Store, cfg Config, openRepo func(ctx context.Context, worktree string) (Repo, error)) *Engine {
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 24 * time.Hour
	}
	if cfg.HistorySize <= 0 {
		cfg.HistorySize = 5
	}
	if cfg.CommandTimeout <= 0 {
		cfg.CommandTimeout = 2 * time.Minute
	}
	if len(cfg.DocGlobs) == 0 {
		// Prose only: *.txt (requirements.txt) and docs/** (code under
		// docs/) are not safe to call documentation.
		cfg.DocGlobs = []string{"*.md", "*.markdown", "*.rst", "*.adoc"}
	}
	return &Engine{Store: store, Config: cfg, OpenRepo: openRepo, Now: time.Now, Logger: slog.Default(), seal: eventseal.ForStore(store)}
}

func (e *Engine) now() time.Time { return e.Now().UTC() }

// LoadSpec returns the parsed spec of a protocol document. The parse is
// cached by the sha256 of the bytes, in memory and in the store, so an
// unchanged protocol is never parsed twice (hooks stay fast).
func (e *Engine) LoadSpec(ctx context.Context, name string, content []byte) (*protocolspec.Spec, error) {
	sum := sha256.Sum256(content)
	sha := hex.EncodeToString(sum[:])
	if v, ok := e.specs.Load(sha); ok {
		return v.(*protocolspec.Spec), nil
	}
	if p, err := e.Store.GetProtocol(ctx, sha); err == nil && len(p.SpecJSON) > 0 {
		if spec, err := protocolspec.UnmarshalSpec(p.SpecJSON); err == nil && spec.SHA256 == sha && spec.Version == protocolspec.SpecVersion {
			spec = e.bound(spec)
			e.specs.Store(sha, spec)
			return spec, nil
		}
	}
	spec, err := protocolspec.Parse(name, content)
	if err != nil {
		return nil, err
	}
	js, err := json.Marshal(spec)
	if err != nil {
		return nil, fmt.Errorf("encode spec: %w", err)
	}
	err = e.Store.Update(ctx, func(w Writer) error {
		return w.PutProtocol(ctx, &Protocol{SHA256: sha, Name: name, Content: content, SpecJSON: js, CreatedAt: e.now()})
	})
	if err != nil {
		return nil, fmt.Errorf("store protocol: %w", err)
	}
	spec = e.bound(spec)
	e.specs.Store(sha, spec)
	return spec, nil
}

// bound is a spec with its phases bound under this engine's config
// (unmarked_phases:, commands:). The store keeps the parse as written;
// the config is applied on the way in.
func (e *Engine) bound(spec *protocolspec.Spec) *protocolspec.Spec {
	return spec.Bound(e.Config.BindOptions())
}

// SpecFor returns the spec a session pinned when it started.
func (e *Engine) SpecFor(ctx context.Context, sha string) (*protocolspec.Spec, error) {
	if v, ok := e.specs.Load(sha); ok {
		return v.(*protocolspec.Spec), nil
	}
	p, err := e.Store.GetProtocol(ctx, sha)
	if err != nil {
		return nil, fmt.Errorf("load protocol %s: %w", shortSHA(sha), err)
	}
	if len(p.SpecJSON) > 0 {
		// A spec cached by an older parser lacks what this one adds
		// (requirement ids, inferred checks): parse the stored content again.
		if spec, err := protocolspec.UnmarshalSpec(p.SpecJSON); err == nil && spec.Version == protocolspec.SpecVersion {
			spec = e.bound(spec)
			e.specs.Store(sha, spec)
			return spec, nil
		}
	}
	spec, err := protocolspec.Parse(p.Name, p.Content)
	if err != nil {
		return nil, fmt.Errorf("parse stored protocol %s: %w", shortSHA(sha), err)
	}
	spec = e.bound(spec)
	e.specs.Store(sha, spec)
	return spec, nil
}

// StartRequest opens a session.
type StartRequest struct {
	Repo           Repo
	Spec           *protocolspec.Spec
	Objective      string
	Branch         string // optional; default: the worktree's branch
	StartingCommit string // optional; default: HEAD
	// KeepActive: when the worktree already has an active session (one
	// started since the caller looked), return ErrActiveExists instead of
	// superseding it. Agent hooks that run at once (Copilot fires
	// sessionStart and userPromptSubmitted together) must not start two
	// sessions of which the first is abandoned.
	KeepActive bool
}

// ErrActiveExists is Start's answer to KeepActive when the worktree has an
// active session.
var ErrActiveExists = errors.New("the worktree already has an active session")

// StartResult is what session_start returns.
type StartResult struct {
	SessionID    string          `json:"session_id"`
	State        State           `json:"state"`
	Phase        string          `json:"phase"`
	BlockedUntil []string        `json:"blocked_until"`
	Checklist    []ChecklistItem `json:"checklist"`
	History      []HistoryEntry  `json:"history"`
	Carried      []Violation     `json:"carried_violations"`
	Superseded   []string        `json:"superseded_sessions,omitempty"`
	// Notices are what the agent should know before the work (a protocol
	// change on the default branch since this branch forked).
	Notices    []string  `json:"notices,omitempty"`
	SnapshotID string    `json:"snapshot_id"`
	ExpiresAt  time.Time `json:"expires_at"`
}

// HistoryEntry is a previous session's summary, for the next session.
type HistoryEntry struct {
	SessionID  string    `json:"session_id"`
	State      State     `json:"state"`
	Objective  string    `json:"objective"`
	Summary    string    `json:"summary"`
	NextNotes  string    `json:"next_session_notes"`
	EndedAt    time.Time `json:"ended_at"`
	Violations int       `json:"violations"`
}

// hexSHA matches a lower-case hex commit id of 7 to 64 digits; badBranch
// finds a character git refuses in a branch name. Hand-written, like isUUID.
var (
	hexSHA = matcher(func(s string) bool {
		return len(s) >= 7 && len(s) <= 64 && strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && (r < 'a' || r > 'f') }) < 0
	})
	badBranch = matcher(func(s string) bool {
		return strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) }) >= 0
	})
)

// matcher gives a predicate regexp's MatchString name, so call sites read alike.
type matcher func(string) bool

func (m matcher) MatchString(s string) bool { return m(s) }

// Start creates a session in INIT at the first start phase. An older active
// session in the same worktree is marked ABANDONED (superseded), so hooks
// never have to guess which session a worktree runs.
func (e *Engine) Start(ctx context.Context, req StartRequest) (*StartResult, error) {
	obj := strings.TrimSpace(req.Objective)
	if obj == "" {
		return nil, invalidf("objective is required: say what this session is for")
	}
	if err := plaintext.Check("objective", obj, 2000, true); err != nil {
		return nil, err
	}
	if req.Spec == nil {
		return nil, errors.New("no protocol loaded")
	}
	// A session starts only under the protocol and config a person
	// accepted: an agent that weakened them cannot begin a fresh session.
	if changes, err := e.ProtectedChanges(ctx, req.Repo); err != nil {
		return nil, err
	} else if len(changes) > 0 {
		return nil, e.refuseProtected(ctx, req.Repo, changes)
	}
	if err := e.foreignProtocol(ctx, req.Repo, req.Spec); err != nil {
		return nil, err
	}
	head, branch, err := req.Repo.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	if req.Branch != "" {
		if badBranch.MatchString(req.Branch) || len(req.Branch) > 250 {
			return nil, invalidf("invalid branch name %q", truncate(req.Branch, 64))
		}
		branch = req.Branch
	}
	override := req.StartingCommit != ""
	headAtStart := head
	now := e.now()
	newID := uuid.NewString()
	if override {
		c := strings.ToLower(req.StartingCommit)
		if !hexSHA.MatchString(c) {
			return nil, invalidf("invalid starting_commit %q: want a hex commit id", truncate(req.StartingCommit, 64))
		}
		if head, err = req.Repo.VerifyStart(ctx, c, head); err != nil {
			return nil, fmt.Errorf("invalid starting_commit: %w", err)
		}
		if err := boundStart(ctx, req.Repo, &Session{ID: newID, CreatedAt: now}, head, headAtStart); err != nil {
			return nil, err
		}
	}
	tips := startTips(ctx, req.Repo)                                              // before the transaction: two git processes (refs, ORIG_HEAD)
	remoteTips := startRemoteTips(ctx, req.Repo, e.Config.DefaultBranch)          // the remote-tracking refs: one git process
	stashStart := startStash(ctx, req.Repo)                                       // the stash's entries: one git process (parked.go)
	worktreesStart := startWorktrees(req.Repo)                                    // the linked worktrees: a folder read (parked.go)
	hiddenStart, hiddenBySession, hiddenRefused := e.hiddenAtStart(ctx, req.Repo) // a developer's own update-index flags, and those not honoured, with why (hiddenstart.go)
	excludesStart := excludesAtStart(ctx, req.Repo)
	hooksDir := effectiveHooksDir(ctx, req.Repo.Root()) // one git process (hooksdir.go)
	userName, userEmail, host := identity.WhoRuns(ctx, req.Repo)
	if err := e.importRefViolations(ctx, req.Repo, userEmail); err != nil {
		// The start goes on: the records ref is a second copy, not the gate.
		e.Logger.Warn("carry violations over from the records ref", "err", err)
	}
	origin := identity.Origin(req.Repo)
	s := &Session{
		UserName:     userName,
		UserEmail:    userEmail,
		Host:         host,
		ID:           newID,
		Worktree:     req.Repo.Root(),
		Branch:       branch,
		StartCommit:  head,
		ProtocolSHA:  req.Spec.SHA256,
		Objective:    obj,
		State:        StateInit,
		CreatedAt:    now,
		LastActivity: now,
		ExpiresAt:    now.Add(e.Config.IdleTimeout),
	}
	starts := req.Spec.SectionPhases(protocolspec.SectionStart)
	if len(starts) > 0 {
		s.Phase = starts[0].ID
	} else {
		s.State = StateWorking
	}
	res := &StartResult{SessionID: s.ID, State: s.State, Phase: s.Phase, ExpiresAt: s.ExpiresAt}
	if n := e.baseChangedNotice(ctx, req.Repo, req.Spec, head, remoteTips); n != "" {
		res.Notices = append(res.Notices, n)
	}
	if e.StartNotices != nil {
		res.Notices = append(res.Notices, e.StartNotices(ctx, req.Repo.Root())...)
	}
	// A session this one supersedes first records the commits it left to
	// reconciliation (the post-commit handoff): once ABANDONED it is not
	// reconciled any more.
	// Its agent CLI vanished (killed) with its work committed: the skip
	// is recorded on it as it is superseded (clivanished.go).
	var skipped *Violation
	if r, err := e.Store.RepositoryByRoot(ctx, req.Repo.MainRoot()); err == nil && !req.KeepActive {
		if old, err := e.Store.ActiveSession(ctx, r.ID, s.Worktree); err == nil {
			if _, err := e.Reconcile(ctx, old, req.Repo, "", ""); err != nil && !errors.Is(err, context.Canceled) {
				e.Logger.Warn("reconcile the superseded session", "session", old.ID, "err", err)
			}
			if skipped, err = e.vanishedSkipped(ctx, old, "superseded by a new session"); err != nil {
				return nil, fmt.Errorf("judge the superseded session %s: %w", old.ID, err)
			}
		}
	}
	// Where records_push pushes, read before the agent acts (pinned.go in
	// recordref): a violation's push goes there whatever the config says
	// by then.
	var pushURL string
	if pp, ok := req.Repo.(PinnedRecordPusher); ok && e.Config.RecordsPush != "" {
		if pushURL, err = pp.RecordsPushURL(ctx, e.Config.RecordsPush); err != nil {
			e.Logger.Warn("records_push: read the remote's push URL at the start; a violation's push uses the config of the moment", "err", err)
		}
	}
	err = e.Store.Update(ctx, func(w Writer) error {
		repo, err := w.EnsureRepository(ctx, req.Repo.MainRoot(), req.Repo.Name())
		if err != nil {
			return err
		}
		if origin != repo.Origin {
			// The repository's identity across clones (Repository.Key).
			if err := w.SetRepositoryOrigin(ctx, repo.ID, origin); err != nil {
				return err
			}
		}
		s.RepoID = repo.ID
		var inherit []AgentTranscript // the superseded sessions' agent transcripts
		for {
			old, err := w.ActiveSession(ctx, repo.ID, s.Worktree)
			if errors.Is(err, ErrNotFound) {
				break
			}
			if err != nil {
				return err
			}
			if req.KeepActive {
				return ErrActiveExists
			}
			old.State, old.EndedAt, old.Summary = StateAbandoned, now, "superseded by session "+s.ID
			if err := w.UpdateSession(ctx, old); err != nil {
				return err
			}
			if err := w.AppendEvent(ctx, &Event{SessionID: old.ID, Token: "session:superseded", Detail: s.ID, CreatedAt: now}); err != nil {
				return err
			}
			res.Superseded = append(res.Superseded, old.ID)
			if skipped != nil && skipped.SessionID == old.ID {
				if err := w.AddViolation(ctx, skipped); err != nil {
					return err
				}
			}
			if tr, ok := w.(TranscriptReader); ok {
				ts, err := tr.SessionTranscripts(ctx, old.ID)
				if err != nil {
					return err
				}
				inherit = append(inherit, ts...)
			}
		}
		if err := w.CreateSession(ctx, s); err != nil {
			return err
		}
		if err := inheritTranscripts(ctx, w, s.ID, inherit, now); err != nil {
			return err
		}
		start := map[string]any{"branch": s.Branch, "starting_commit": s.StartCommit, "starting_commit_from_caller": override, "head_at_start": headAtStart, "protocol_sha256": s.ProtocolSHA, "ref_tips": tips, "remote_tips": remoteTips, "stash_at_start": stashStart, "worktrees_at_start": worktreesStart, "hidden_at_start": hiddenStart, "hidden_by_session": hiddenBySession, "hidden_refused": hiddenRefused, "excludes_at_start": excludesStart}
		if pushURL != "" {
			start["records_push_url"] = pushURL
		}
		detail, _ := json.Marshal(start)
		if err := w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: "tool:session_start", Detail: string(detail), CreatedAt: now}); err != nil {
			return err
		}
		if err := w.AppendEvent(ctx, startPathEvent(s.ID, s)); err != nil {
			return err
		}
		if ev := startHooksDirEvent(s, hooksDir); ev != nil {
			if err := w.AppendEvent(ctx, ev); err != nil {
				return err
			}
		}
		if err := w.AppendEvent(ctx, startUserConfigEvent(s)); err != nil {
			return err
		}
		if err := w.AppendEvent(ctx, startProgramsEvent(s, req.Spec, e.Config)); err != nil {
			return err
		}
		if res.History, err = e.history(ctx, w, repo.ID, s.ID); err != nil {
			return err
		}
		if res.Carried, err = e.Carried(ctx, w, s); err != nil {
			return err
		}
		res.SnapshotID, err = e.takeSnapshot(ctx, w, s, req.Spec)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("start session: %w", err)
	}
	for _, id := range res.Superseded {
		e.publishAbandoned(ctx, id)
	}
	if err := e.recordContinued(ctx, req.Repo, s); err != nil {
		return nil, fmt.Errorf("start session: %w", err)
	}
	for _, p := range starts {
		if p.Mandatory() {
			res.BlockedUntil = append(res.BlockedUntil, p.ID)
		}
	}
	res.Checklist = checklist(req.Spec, nil, s, nil, e.Config)
	return res, nil
}

// history returns the last ended sessions' summaries and notes.
func (e *Engine) history(ctx context.Context, r Reader, repoID int64, self string) ([]HistoryEntry, error) {
	prev, err := r.RecentEnded(ctx, repoID, e.Config.HistorySize)
	if err != nil {
		return nil, err
	}
	hist := []HistoryEntry{}
	for _, p := range prev {
		if p.ID == self {
			continue
		}
		vs, err := r.ListViolations(ctx, ViolationFilter{SessionID: p.ID, Limit: 100})
		if err != nil {
			return nil, err
		}
		hist = append(hist, HistoryEntry{SessionID: p.ID, State: p.State, Objective: p.Objective, Summary: p.Summary, NextNotes: p.NextNotes, EndedAt: p.EndedAt, Violations: len(vs)})
	}
	return hist, nil
}

// load fetches an active, unexpired session and its spec. An expired one is
// marked ABANDONED on the way (its data kept).
func (e *Engine) load(ctx context.Context, id string) (*Session, *protocolspec.Spec, error) {
	if err := ValidateID(id); err != nil {
		return nil, nil, err
	}
	var s *Session
	var err error
	if r, ok := e.Store.(SessionTrustedReader); ok {
		s, err = r.GetSessionTrusted(ctx, id)
	} else {
		s, err = e.Store.GetSession(ctx, id)
	}
	if errors.Is(err, ErrNotFound) {
		return nil, nil, fmt.Errorf("session %s: %w: start one with session_start", id, ErrNotFound)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("load session %s: %w", id, err)
	}
	if err := e.checkUsable(ctx, s); err != nil {
		return nil, nil, err
	}
	spec, err := e.SpecFor(ctx, s.ProtocolSHA)
	if err != nil {
		return nil, nil, err
	}
	// Every call of a session first accounts for commits that landed
	// unseen (a killed post-commit, hooks skipped).
	if err := e.reconcileSession(ctx, s); err != nil {
		return nil, nil, err
	}
	return s, spec, nil
}

func (e *Engine) checkUsable(ctx context.Context, s *Session) error {
	switch {
	case s.Terminated || s.State == StateTerminated:
		return fmt.Errorf("session %s: %w (%s): start a new session", s.ID, ErrTerminated, s.TerminateReason)
	case s.State == StateComplete || s.State == StateAbandoned:
		return fmt.Errorf("session %s: %w (%s): start a new session", s.ID, ErrEnded, s.State)
	}
	now := e.now()
	if s.Expired(now) {
		// Its last commits first, while it is still active (see Start).
		if err := e.reconcileSession(ctx, s); err != nil {
			e.Logger.Warn("reconcile the expired session", "session", s.ID, "err", err)
		}
		flagged, flaggedOK := e.flaggedAtEnd(ctx, s)                        // hiddenstart.go
		skipped, err := e.vanishedSkipped(ctx, s, "expired (idle timeout)") // clivanished.go
		if err != nil {
			e.Logger.Warn("judge the expired session's vanished agent CLI", "session", s.ID, "err", err)
		}
		if err := e.Store.Update(ctx, func(w Writer) error {
			cur, err := w.GetSession(ctx, s.ID)
			if err != nil || !cur.Active() {
				return err
			}
			cur.State, cur.EndedAt = StateAbandoned, now
			if err := w.UpdateSession(ctx, cur); err != nil {
				return err
			}
			if err := e.recordHiddenAtEnd(ctx, w, cur, flagged, flaggedOK); err != nil {
				return err
			}
			if skipped != nil {
				if err := w.AddViolation(ctx, skipped); err != nil {
					return err
				}
			}
			return w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: "session:expired", CreatedAt: now})
		}); err != nil {
			// The caller is told the session expired either way; a store
			// that could not record it is the operator's to see.
			e.Logger.Error("mark an expired session abandoned", "session", s.ID, "err", err)
		} else {
			e.publishAbandoned(ctx, s.ID)
		}
		return fmt.Errorf("session %s: %w at %s (idle timeout %s): start a new session", s.ID, ErrExpired, s.ExpiresAt.Format(time.RFC3339), e.Config.IdleTimeout)
	}
	return nil
}

func (e *Engine) touch(s *Session) {
	now := e.now()
	s.LastActivity = now
	s.ExpiresAt = now.Add(e.Config.IdleTimeout)
}

// Terminate ends a session by hand (soft delete: rows kept, state TERMINATED).
func (e *Engine) Terminate(ctx context.Context, id, reason string) (*Session, error) {
	if err := ValidateID(id); err != nil {
		return nil, err
	}
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return nil, invalidf("a reason is required to terminate a session")
	}
	if err := plaintext.Check("reason", reason, 2000, true); err != nil {
		return nil, err
	}
	e.FlushGateRepeats(ctx) // while the session is active: see End
	var out *Session
	var flagged map[string]string
	var flaggedOK bool
	if s, err := e.Store.GetSession(ctx, id); err == nil && s.Active() {
		flagged, flaggedOK = e.flaggedAtEnd(ctx, s) // hiddenstart.go
	}
	err := e.Store.Update(ctx, func(w Writer) error {
		s, err := w.GetSession(ctx, id)
		if err != nil {
			return fmt.Errorf("session %s: %w", id, err)
		}
		if s.Terminated {
			return fmt.Errorf("session %s: %w already", id, ErrTerminated)
		}
		if !s.Active() { // keep a finished session's outcome
			return fmt.Errorf("session %s: %w (%s): nothing to terminate", id, ErrEnded, s.State)
		}
		now := e.now()
		s.Terminated, s.TerminateReason, s.State = true, truncate(reason, 500), StateTerminated
		if s.EndedAt.IsZero() {
			s.EndedAt = now
		}
		if err := w.UpdateSession(ctx, s); err != nil {
			return err
		}
		out = s
		if err := e.recordHiddenAtEnd(ctx, w, s, flagged, flaggedOK); err != nil {
			return err
		}
		return w.AppendEvent(ctx, &Event{SessionID: id, Token: "session:terminated", Detail: truncate(reason, 200), CreatedAt: now})
	})
	if err != nil {
		return nil, err
	}
	if err := e.recordRemoval(ctx, id); err != nil {
		// Terminated all the same: the record is the second copy.
		e.Logger.Warn("write the terminated session's record", "session", id, "err", err)
	}
	return out, nil
}

// Delete removes a session and every row that refers to it (hard delete).
// A session with recorded violations is refused (ErrRefused): deleting it
// erased them, so a BYPASS or a forced gate no longer reached the next
// session_start's carried_violations or the dashboard (terminate, then
// delete, then start afresh). Terminate keeps them; DeleteWithViolations
// is for a person who means to erase them.
func (e *Engine) Delete(ctx context.Context, id string) error {
	return e.deleteSession(ctx, id, false)
}

// DeleteWithViolations is Delete that also removes a session with
// recorded violations, and its violations.
func (e *Engine) DeleteWithViolations(ctx context.Context, id string) error {
	return e.deleteSession(ctx, id, true)
}

func (e *Engine) deleteSession(ctx context.Context, id string, withViolations bool) error {
	if err := ValidateID(id); err != nil {
		return err
	}
	if IsRecordRef(e.Config.SessionRecord) {
		// The record goes onto the records ref before the rows go: a
		// delete that cannot leave it deletes nothing.
		err := e.Store.Update(ctx, func(w Writer) error {
			if _, err := w.GetSession(ctx, id); err != nil {
				return fmt.Errorf("session %s: %w", id, err)
			}
			if !withViolations {
				if err := keepsViolations(ctx, w, id); err != nil {
					return err
				}
			}
			return w.AppendEvent(ctx, &Event{SessionID: id, Token: "session:deleted", CreatedAt: e.now()})
		})
		if err != nil {
			return err
		}
		if err := e.recordRemoval(ctx, id); err != nil {
			return fmt.Errorf("%w: nothing was deleted", err)
		}
	}
	return e.Store.Update(ctx, func(w Writer) error {
		if _, err := w.GetSession(ctx, id); err != nil {
			return fmt.Errorf("session %s: %w", id, err)
		}
		if !withViolations {
			if err := keepsViolations(ctx, w, id); err != nil {
				return err
			}
		}
		return w.DeleteSession(ctx, id)
	})
}

// keepsViolations refuses to delete a session with recorded violations.
func keepsViolations(ctx context.Context, w Writer, id string) error {
	vs, err := w.ListViolations(ctx, ViolationFilter{SessionID: id})
	if err != nil {
		return err
	}
	if len(vs) == 0 {
		return nil
	}
	codes := make([]string, 0, len(vs))
	for _, v := range vs {
		if !slices.Contains(codes, v.Code) {
			codes = append(codes, v.Code)
		}
	}
	return refusedf("session %s has %d violation(s) (%s): deleting it would erase them, and later sessions would no longer carry them; terminate keeps them (sessiongate session terminate %s --reason \"...\")", id, len(vs), strings.Join(codes, ", "), id)
}
