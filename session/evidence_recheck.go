package session

import (
	"context"
	"errors"
	"fmt"
	"os"
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
func (e *Engine) recheckRecordedFiles(ctx context.Context, s *Session) (cr CheckResult, ok bool, err error) {
	evs, err := e.Store.ListEvidence(ctx, s.ID)
	if err != nil {
		return cr, false, fmt.Errorf("load evidence: %w", err)
	}
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
		abs, found, err := resolveInside(s.Worktree, rel)
		if err != nil || !found {
			if x.Kind == EvidenceFilePath {
				// The file offered as the work is gone: it shows nothing.
				cr.Status, cr.Message, cr.Evidence = StatusFail, fmt.Sprintf("%s was recorded for %s and no longer exists: record the file that holds the work", rel, x.Phase), rel
				return cr, true, nil
			}
			continue // a file read and then removed by the work: checkContentHash judges reads
		}
		b, err := os.ReadFile(abs)
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
