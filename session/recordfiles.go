package session

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/snapshot"
)

// addFileRefs lists on a record the path and sha256 of every file_path and
// content_hash evidence of its session: the snapshots hold only kind and
// hash (no paths), so without the path CI could not read the file again
// and had to take the gate's word (issue 26). References, never bodies.
func (e *Engine) addFileRefs(ctx context.Context, rec *snapshot.Record) error {
	evs, err := e.Store.ListEvidence(ctx, rec.SessionID)
	if err != nil {
		return fmt.Errorf("list evidence for the record's file references: %w", err)
	}
	seen := map[snapshot.FileRef]bool{}
	for _, ev := range evs {
		// A transcript's file_path names a tool call, not a file's bytes.
		if (ev.Kind != EvidenceFilePath && ev.Kind != EvidenceContentHash) || ev.Ref == "" || ev.Origin == OriginTranscript {
			continue
		}
		f := snapshot.FileRef{Phase: ev.Phase, Requirement: ev.Requirement, Kind: ev.Kind, Path: ev.Ref, SHA256: ev.SHA256}
		if !seen[f] {
			seen[f] = true
			rec.FileRefs = append(rec.FileRefs, f)
		}
	}
	rec.FileRefsVersion = snapshot.FileRefsVersion
	return nil
}
