package session

import (
	"context"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/repopath"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/streamsample"
)

// EvidenceRequest records evidence for a phase.
type EvidenceRequest struct {
	ID       string
	Phase    string // "" means the current phase
	Kind     string
	Evidence string // the body: tool output, a path, a commit sha, a decision
	Step     string // optional checklist step; "condition" records that a conditional gate does not apply
	// Requirement is the id of the requirement or checklist row the
	// evidence satisfies (PHASE.slug, or the slug within Phase).
	Requirement string
	// NotApplicable records that a conditional Requirement does not apply;
	// Evidence is then the reason.
	NotApplicable bool
	// Cwd is where the caller stands (absolute; "" the root): a relative
	// path of file_path or content_hash evidence is read from there when
	// it names a file there, as git reads a path, else from the root.
	Cwd string
	// Ref is the short reference of manual evidence, chosen by the caller
	// (a ticket, a file, "decided with the lead"). Manual evidence stores
	// its sha256 and this reference only: never its text, unless
	// store_raw_evidence. Reasons (step condition, not applicable) keep
	// their first line as the reference when Ref is empty: the reason is
	// the record. Secret-looking values are redacted either way.
	Ref string
	// Stream, when set, is the evidence instead of Evidence, read to its
	// end: tool_output and manual evidence store only its hash, so its
	// size is not capped; the cap applies to bodies that are stored
	// (store_raw_evidence) and to the kinds whose body is a reference.
	Stream io.Reader
}

// EvidenceKinds lists the accepted kinds, for schemas and messages.
var EvidenceKinds = []string{EvidenceToolOutput, EvidenceFilePath, EvidenceCommitSHA, EvidenceContentHash, EvidenceManual}

// RecordEvidence stores a hash and a short reference of the evidence; the
// body itself only when the config opts in. Paths must stay inside the
// repository.
func (e *Engine) RecordEvidence(ctx context.Context, req EvidenceRequest) (*Evidence, error) {
	s, spec, err := e.load(ctx, req.ID)
	if err != nil {
		return nil, err
	}
	phase := req.Phase
	if phase == "" && req.Requirement != "" {
		phase = phaseOfRequirement(spec, req.Requirement)
	}
	if phase == "" {
		phase = s.Phase
	}
	if phase == "" {
		return nil, invalidf("session %s has no current phase: name the phase the evidence is for (one of %s)", s.ID, phaseIDs(spec))
	}
	p, ok := spec.Phase(phase)
	if !ok {
		return nil, invalidf("unknown phase %q: the protocol has %s", truncate(phase, 64), phaseIDs(spec))
	}
	if err := evidenceBeforeTheWork(s, p); err != nil {
		return nil, err
	}
	var streamed *streamsample.Body
	if req.Stream != nil {
		if streamed, err = streamsample.Read(req.Stream, MaxEvidenceBytes); err != nil {
			return nil, err
		}
		req.Evidence = streamed.Sample
		hashOnly := req.Kind == EvidenceToolOutput || req.Kind == EvidenceManual
		if streamed.Truncated && (!hashOnly || e.Config.StoreRawEvidence) {
			why := "only tool_output and manual evidence are stored as a hash alone"
			if e.Config.StoreRawEvidence {
				why = "store_raw_evidence is on and stored bodies are capped"
			}
			return nil, invalidf("evidence is %d bytes; the limit is %d (64 KiB): %s", streamed.Size, MaxEvidenceBytes, why)
		}
	} else if len(req.Evidence) > MaxEvidenceBytes {
		return nil, invalidf("evidence is %d bytes; the limit is %d (64 KiB): record a file_path or content_hash reference instead of the whole body", len(req.Evidence), MaxEvidenceBytes)
	}
	body := req.Evidence
	if strings.TrimSpace(body) == "" {
		return nil, invalidf("evidence is empty: pass the tool output, path, commit sha or decision")
	}
	if len(req.Step) > 200 || !utf8.ValidString(req.Step) {
		return nil, invalidf("step must be valid UTF-8 and at most 200 bytes")
	}
	if req.NotApplicable {
		if req.Kind == "" {
			req.Kind = EvidenceManual
		}
		if req.Kind != EvidenceManual {
			return nil, invalidf("a not-applicable record is a reason: evidence_type manual (got %s)", truncate(req.Kind, 40))
		}
	}
	bound, err := e.checkClaim(ctx, spec, s.ID, p, &req, body)
	if err != nil {
		return nil, err
	}
	ev := &Evidence{SessionID: s.ID, Phase: p.ID, Step: req.Step, Kind: req.Kind, Size: len(body), CreatedAt: e.now(), Requirement: bound}
	switch req.Kind {
	case EvidenceToolOutput:
		ev.SHA256 = sha256Hex([]byte(body))
		ev.Ref = fmt.Sprintf("%d bytes", len(body))
		if streamed != nil {
			ev.SHA256, ev.Size, ev.Ref = streamed.SHA256, int(streamed.Size), fmt.Sprintf("%d bytes", streamed.Size)
		}
	case EvidenceManual:
		ev.SHA256 = sha256Hex([]byte(body))
		if streamed != nil {
			ev.SHA256, ev.Size = streamed.SHA256, int(streamed.Size)
		}
		ev.Ref = truncate(strings.TrimSpace(firstLine(req.Ref)), 120)
		if ev.Ref == "" && (req.NotApplicable || req.Step == StepCondition) {
			ev.Ref = truncate(firstLine(body), 120)
		}
	case EvidenceCommitSHA:
		c := strings.ToLower(strings.TrimSpace(body))
		if !hexSHA.MatchString(c) {
			return nil, invalidf("commit_sha evidence %q is not a hex commit id", truncate(body, 64))
		}
		ev.SHA256, ev.Ref = sha256Hex([]byte(c)), c
	case EvidenceFilePath, EvidenceContentHash:
		given := strings.TrimSpace(body)
		if sub := subfolder(s.Worktree, req.Cwd); sub != "" && given != "" && !filepath.IsAbs(given) {
			// From src/, `../README.md` and `strs.sh` (round 56, helper
			// 334's F2: both were refused, read from the root).
			if r, err := repopath.Clean(path.Join(sub, filepath.ToSlash(given))); err == nil {
				if _, ok, err := repopath.Resolve(s.Worktree, r); err == nil && ok {
					given = r
				}
			}
		}
		rel, err := repopath.Clean(given)
		if err != nil {
			return nil, fmt.Errorf("%s evidence: %w", req.Kind, err)
		}
		_, ok, err := repopath.Resolve(s.Worktree, rel)
		if err != nil {
			return nil, fmt.Errorf("%s evidence: %w", req.Kind, err)
		}
		if !ok {
			return nil, invalidf("%s evidence: %s does not exist in the repository", req.Kind, rel)
		}
		b, err := readWorkFile(s.Worktree, rel)
		if boundedread.Refused(err) {
			// A FIFO or /dev/zero where the file was hung or filled memory.
			return nil, refusedf("%s evidence: %v: record a file that holds the work", req.Kind, err)
		}
		if err != nil {
			return nil, fmt.Errorf("%s evidence: read %s: %w", req.Kind, rel, err)
		}
		if err := e.writtenEvidence(ctx, s, spec, p.ID, rel, b); err != nil {
			return nil, fmt.Errorf("%s evidence: %w", req.Kind, err)
		}
		ev.SHA256, ev.Ref, ev.Size = sha256Hex(b), rel, len(b)
	default:
		return nil, invalidf("unknown evidence_type %q: use one of %s", truncate(req.Kind, 40), strings.Join(EvidenceKinds, ", "))
	}
	if e.Config.StoreRawEvidence {
		ev.Body = []byte(body)
	}
	pol, err := e.CheckPolicy(ctx, s, "tool:record_evidence")
	if err != nil {
		return nil, err
	}
	now := e.now()
	tokens := append([]string{"tool:record_evidence"}, pol.Tokens()...)
	if req.Step == StepCondition {
		tokens = append(tokens, "decision:"+p.ID+":condition_not_met")
	}
	if req.Step == StepNotApplicable {
		tokens = append(tokens, "decision:"+bound+":not_applicable")
	}
	err = e.Store.Update(ctx, func(w Writer) error {
		cur, err := w.GetSession(ctx, s.ID)
		if err != nil {
			return err
		}
		// Ended, or ending, while we checked the evidence.
		if err := refuseWhileEnding(cur, e.now()); err != nil {
			return err
		}
		e.touch(cur)
		if err := w.UpdateSession(ctx, cur); err != nil {
			return err
		}
		if err := w.AddEvidence(ctx, ev); err != nil {
			return err
		}
		return e.appendEvents(ctx, w, s.ID, now, tokens...)
	})
	if err != nil {
		return nil, fmt.Errorf("record evidence: %w", err)
	}
	ev.Warnings = pol.Warnings
	return ev, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// evidenceBeforeTheWork refuses evidence for an end phase while the session
// is still in its start protocol: tests run, a QA claim or a retrospective
// recorded before the work began would prove the end gate about a change
// that did not exist yet (the tests passed at the start, the change broke
// them, and the early run passed the QA gate). Record it once the start
// protocol is done.
func evidenceBeforeTheWork(s *Session, p *protocolspec.Phase) error {
	if s.State != StateInit || p.Section != protocolspec.SectionEnd {
		return nil
	}
	return invalidf("session %s is still in its start protocol (at %s): evidence for the end phase %s recorded now would predate the work it proves; pass the start gates (sessiongate session advance --to WORKING), do the work, then record it", s.ID, s.Phase, p.ID)
}
