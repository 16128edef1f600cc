package session

import (
	"context"
	"errors"
	"fmt"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/repopath"
	"strings"
)

// File evidence is judged when it is offered (writtenEvidence: template
// placeholders, a near copy of an earlier session's file), but the file
// can be swapped afterwards: an honest handoff recorded, then overwritten
// with the earlier session's renumbered. At every gate (advance, end) the
// session's recorded files are compared with what they hold now; a file
// whose content changed since it was recorded is judged again, as it is
// now (issue 25 route 5).

// CheckRecordedFiles is the check a gate adds when a recorded file no
// longer holds what made it evidence.
const CheckRecordedFiles CheckKind = "recorded_files"

// recheckRecordedFiles judges again each file the session recorded as
// evidence (file_path, content_hash: the newest record of each path) whose
// content changed since; ok is false when there is nothing to report.
// evs holds at least the session's path evidence (gateAndFileEvidence).
func (e *Engine) recheckRecordedFiles(ctx context.Context, s *Session, evs []Evidence) (cr CheckResult, ok bool, err error) {
	newest := map[string]Evidence{}
	var order []string
	for _, x := range evs {
		if !pathKind(x.Kind) || x.Observed() || x.Origin == OriginTranscript || x.Ref == "" {
			continue
		}
		if _, seen := newest[x.Ref]; !seen {
			order = append(order, x.Ref)
		}
		if cur, seen := newest[x.Ref]; !seen || !x.CreatedAt.Before(cur.CreatedAt) {
			newest[x.Ref] = x
		}
	}
	if len(order) == 0 {
		return cr, false, nil
	}
	spec, err := e.SpecFor(ctx, s.ProtocolSHA)
	if err != nil {
		return cr, false, err
	}
	start := e.now()
	cr = CheckResult{Kind: CheckRecordedFiles, Status: StatusPass}
	var changed []string
	for _, rel := range order {
		x := newest[rel]
		_, found, err := repopath.Resolve(s.Worktree, rel)
		if err != nil || !found {
			if x.Kind == EvidenceFilePath {
				// The file offered as the work is gone: it shows nothing.
				cr.Status, cr.Message, cr.Evidence = StatusFail, fmt.Sprintf("%s was recorded for %s and no longer exists: record the file that holds the work", rel, x.Phase), rel
				return cr, true, nil
			}
			continue // a file read and then removed by the work: checkContentHash judges reads
		}
		b, err := readWorkFile(s.Worktree, rel)
		if boundedread.Refused(err) {
			// Never "unchanged": the file is there and was not read.
			cr.Status, cr.Message, cr.Evidence = StatusFail, fmt.Sprintf("%v: %s was recorded for %s and is not judged here: make it the file that holds the work again", err, rel, x.Phase), rel
			return cr, true, nil
		}
		if err != nil {
			return cr, false, fmt.Errorf("read recorded file %s: %w", rel, err)
		}
		if sha256Hex(b) == x.SHA256 {
			continue
		}
		changed = append(changed, rel)
		jerr := e.writtenEvidence(ctx, s, spec, x.Phase, rel, b)
		if jerr == nil && x.Requirement != "" {
			if p, ok := spec.Phase(x.Phase); ok {
				if r, ok := p.Requirement(x.Requirement); ok {
					jerr = e.writeClaim(ctx, s, p, r, x.Kind, rel)
				}
			}
		}
		if errors.Is(jerr, ErrRefused) {
			cr.Status, cr.Evidence = StatusFail, rel
			cr.Message = fmt.Sprintf("%s changed after it was recorded for %s (sha256 %.12s, now %.12s), and as it is now it is not evidence: %s",
				rel, x.Phase, x.SHA256, sha256Hex(b), strings.TrimPrefix(jerr.Error(), ErrRefused.Error()+": "))
			cr.Duration = e.now().Sub(start)
			return cr, true, nil
		}
		if jerr != nil {
			return cr, false, fmt.Errorf("judge recorded file %s again: %w", rel, jerr)
		}
	}
	if len(changed) == 0 {
		return cr, false, nil
	}
	cr.Message = fmt.Sprintf("%d recorded file(s) changed since they were recorded and are still evidence: %s", len(changed), strings.Join(firstN(changed, 5), ", "))
	cr.Duration = e.now().Sub(start)
	return cr, true, nil
}

// GateFileReader is a store that reads, in one statement, what a gate
// reads (GateEvidence) and the session's path evidence of every phase
// (file_path, content_hash), which recheckRecordedFiles judges again. A
// gate call read them in two statements, the second the whole session's
// evidence with its bodies, so a call cost more as the session went on.
type GateFileReader interface {
	// GateAndFileEvidence returns, in recorded order, the phase's evidence
	// and the path evidence (file_path, content_hash) of every phase.
	GateAndFileEvidence(ctx context.Context, sessionID, phase string) ([]Evidence, error)
}

// gateAndFileEvidence returns what phase's gate reads (as GateEvidence) and
// the session's path evidence (a superset of what recheckRecordedFiles
// reads from ListEvidence: it keeps path kinds only).
func (e *Engine) gateAndFileEvidence(ctx context.Context, sessionID, phase string) (gate, files []Evidence, err error) {
	r, ok := e.Store.(GateFileReader)
	if !ok {
		if gate, err = e.Store.GateEvidence(ctx, sessionID, phase); err != nil {
			return nil, nil, err
		}
		files, err = e.Store.ListEvidence(ctx, sessionID)
		return gate, files, err
	}
	all, err := r.GateAndFileEvidence(ctx, sessionID, phase)
	if err != nil {
		return nil, nil, err
	}
	for _, x := range all {
		// What GateEvidence returns: the phase's, content hashes of any phase.
		if x.Phase == phase || x.Kind == EvidenceContentHash {
			gate = append(gate, x)
		}
		if pathKind(x.Kind) {
			files = append(files, x)
		}
	}
	return gate, files, nil
}
