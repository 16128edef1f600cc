package session

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/sessiongate/sessiongate/repopath"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/atomicfile"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/snapshot"
)

// buildPayload assembles the ADR-029 payload of a session's current state
// from what r sees (inside a transaction: including its own writes).
func (e *Engine) buildPayload(ctx context.Context, r Reader, s *Session, spec *protocolspec.Spec) (*snapshot.Payload, error) {
	repo, err := r.GetRepository(ctx, s.RepoID)
	if err != nil {
		return nil, fmt.Errorf("load repository: %w", err)
	}
	rs, err := r.PhaseResults(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	evs, err := r.ListEvidence(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	vs, err := r.ListViolations(ctx, ViolationFilter{SessionID: s.ID, Limit: 1000})
	if err != nil {
		return nil, err
	}
	byPhase := map[string]PhaseResult{}
	for _, x := range rs {
		byPhase[x.PhaseID] = x
	}
	p := &snapshot.Payload{
		Schema:  snapshot.PayloadSchema,
		Session: snapshot.Key{EventSource: EventSource(repo.Name), ServerID: snapshot.ServerID, SessionID: s.ID},
		Window:  snapshot.Window{Kind: WindowSession},
		Privacy: snapshot.Privacy{
			StoresRawToolArgs:       e.Config.StoreRawEvidence,
			StoresRawPromptBodies:   false,
			StoresRawDocumentBodies: e.Config.StoreRawEvidence,
		},
		State: snapshot.State{ProtocolSHA256: s.ProtocolSHA, State: string(s.State), Phase: s.Phase},
	}
	for _, ph := range spec.Phases {
		st := snapshot.Phase{ID: ph.ID, Gate: string(ph.Level()), Status: string(PhasePending)}
		if x, ok := byPhase[ph.ID]; ok {
			st.Status, st.Decision = string(x.Status), x.Decision
		}
		p.State.Phases = append(p.State.Phases, st)
	}
	for _, ev := range evs {
		ref := snapshot.EvidenceRef{Phase: ev.Phase, Kind: ev.Kind, SHA256: ev.SHA256, Requirement: ev.Requirement, Change: ev.Change}
		if ev.Observed() || ev.Origin == OriginTranscript {
			ref.Origin, ref.ExitCode = string(ev.Origin), ev.ExitCode
		}
		if isNAMark(ev) {
			if ph, ok := spec.Phase(ev.Phase); ok {
				var r *protocolspec.Requirement
				if q, ok := ph.Requirement(ev.Requirement); ok && ev.Requirement != "" {
					r = &q
				}
				ref.NotApplicable = naStanding(spec, ph, r)
			}
		}
		p.State.Evidence = append(p.State.Evidence, ref)
	}
	for _, v := range vs {
		p.State.Violations = append(p.State.Violations, v.Code+":"+v.Phase)
		if v.Window == WindowCrossSessionDecay && v.DecayRuns > p.Window.DecayRuns {
			p.Window = snapshot.Window{Kind: WindowCrossSessionDecay, DecayRuns: v.DecayRuns}
		}
	}
	return p, nil
}

// takeSnapshot stores a snapshot of the session as w sees it.
func (e *Engine) takeSnapshot(ctx context.Context, w Writer, s *Session, spec *protocolspec.Spec) (string, error) {
	p, err := e.buildPayload(ctx, w, s, spec)
	if err != nil {
		return "", fmt.Errorf("build snapshot: %w", err)
	}
	id, canon, err := p.ID()
	if err != nil {
		return "", err
	}
	if err := w.AddSnapshot(ctx, &Snapshot{SessionID: s.ID, SnapshotID: id, Payload: canon, CreatedAt: e.now()}); err != nil {
		return "", fmt.Errorf("store snapshot: %w", err)
	}
	return id, nil
}

// LatestSnapshot returns the newest stored snapshot id of a session ("" if none).
func (e *Engine) LatestSnapshot(ctx context.Context, id string) (string, error) {
	return e.Store.LatestSnapshotID(ctx, id)
}

// Record returns the session record: every stored snapshot payload and the
// envelope of the newest (or of the current state when none is stored).
func (e *Engine) Record(ctx context.Context, id string) (*snapshot.Record, error) {
	if err := ValidateID(id); err != nil {
		return nil, err
	}
	s, err := e.Store.GetSession(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	snaps, err := e.Store.ListSnapshots(ctx, id)
	if err != nil {
		return nil, err
	}
	rec := &snapshot.Record{Schema: snapshot.RecordSchema, SessionID: id, Snapshots: []snapshot.Payload{}}
	for _, sn := range snaps {
		var p snapshot.Payload
		if err := json.Unmarshal(sn.Payload, &p); err != nil {
			return nil, fmt.Errorf("decode snapshot %s: %w", sn.SnapshotID, err)
		}
		rec.Snapshots = append(rec.Snapshots, p)
	}
	if len(rec.Snapshots) == 0 {
		spec, err := e.SpecFor(ctx, s.ProtocolSHA)
		if err != nil {
			return nil, err
		}
		p, err := e.buildPayload(ctx, e.Store, s, spec)
		if err != nil {
			return nil, err
		}
		rec.Snapshots = append(rec.Snapshots, *p)
	}
	last := rec.Snapshots[len(rec.Snapshots)-1]
	sid, _, err := last.ID()
	if err != nil {
		return nil, err
	}
	rec.Envelope = last.Envelope(sid, "sessiongate "+e.version())
	if err := e.addFileRefs(ctx, rec); err != nil {
		return nil, err
	}
	return rec, nil
}

func (e *Engine) version() string {
	if e.Config.Version != "" {
		return e.Config.Version
	}
	return "dev"
}

// RecordPath expands the session record template for a session.
func RecordPath(template, id string) (string, error) {
	if template == "" {
		return "", nil
	}
	rel, err := repopath.Clean(strings.ReplaceAll(template, "{session_id}", id))
	if err != nil {
		return "", fmt.Errorf("session_record: %w", err)
	}
	return rel, nil
}

// writeRecord writes the session record file into the worktree, or onto
// the records ref when session_record names one (then it returns
// "<ref>:<path on the ref>").
func (e *Engine) writeRecord(ctx context.Context, s *Session) (string, error) {
	if ref := e.Config.SessionRecord; IsRecordRef(ref) {
		rec, err := e.refRecord(ctx, s)
		if err != nil {
			return "", fmt.Errorf("session record for %s: %w", ref, err)
		}
		b, err := json.Marshal(rec)
		// Over the readers' limit: shed the oldest events (the snapshots,
		// which verify needs, stay whole).
		for err == nil && len(b) >= snapshot.MaxRecordBytes && len(rec.Events) > 0 {
			rec.Events = rec.Events[len(rec.Events)/2:]
			if len(rec.Events) == 1 {
				rec.Events = nil
			}
			b, err = json.Marshal(rec)
		}
		if err != nil {
			return "", err
		}
		repo, err := e.OpenRepo(ctx, s.Worktree)
		if err != nil {
			return "", fmt.Errorf("write session record to %s: %w", ref, err)
		}
		p, err := repo.PutRecord(ctx, ref, s.ID, append(b, '\n'))
		if err != nil {
			return "", fmt.Errorf("write session record to %s: %w", ref, err)
		}
		return ref + ":" + p, nil
	}
	rel, err := RecordPath(e.Config.SessionRecord, s.ID)
	if err != nil || rel == "" {
		return "", err
	}
	rec, err := e.Record(ctx, s.ID)
	if err != nil {
		return "", err
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return "", err
	}
	if err := writeInside(s.Worktree, rel, append(b, '\n')); err != nil {
		return "", fmt.Errorf("write session record %s: %w", rel, err)
	}
	return rel, nil
}

// writeInside writes a file under root without ever following a symlink
// out of it: the nearest existing ancestor folder must resolve inside root
// before any folder is created, the folder must still resolve inside after,
// and the file is written to a temporary name and renamed over the target,
// which replaces a symlink rather than writing through it.
func writeInside(root, rel string, data []byte) error {
	dir := path.Dir(rel)
	for d := dir; d != "."; d = path.Dir(d) {
		if _, ok, err := repopath.Resolve(root, d); err != nil {
			return err
		} else if ok {
			break
		}
	}
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return err
	}
	if dir != "." {
		if _, _, err := repopath.Resolve(root, dir); err != nil {
			return err
		}
	}
	return atomicfile.Write(abs, data, 0o644)
}
