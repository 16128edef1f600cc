package verify

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

// Not-applicable marks pending a person (issue 25.4). A session may mark a
// requirement or phase not applicable on the agent's reason alone when the
// protocol gives no condition a machine can check; the gate lets it go on,
// but its commits fail here until a person accepts the mark with
// `sessiongate session accept-na`, an acceptance on the records ref. With
// signers at the base (accept_signers, verify.allowed_signers) only a
// listed signer's signature counts: the agent with a shell can write an
// unsigned acceptance as easily as a person.

// naMark is one not-applicable mark of a record's final snapshot.
type naMark struct {
	phase, requirement, sha, standing string
}

func (m naMark) what() string {
	if m.requirement != "" {
		return m.requirement
	}
	return "phase " + m.phase
}

// naMarksOf reads the marks of a final snapshot.
func naMarksOf(st snapshot.State) []naMark {
	var out []naMark
	for _, ev := range st.Evidence {
		if ev.NotApplicable != "" {
			out = append(out, naMark{phase: ev.Phase, requirement: ev.Requirement, sha: ev.SHA256, standing: ev.NotApplicable})
		}
	}
	return out
}

// naAccepted indexes the acceptances of not-applicable marks by
// session.NAKey: by a listed signer (signed) or anyone (unsigned).
type naAccepted struct {
	signed, unsigned map[string]string
}

// addNA indexes one acceptance file of not-applicable marks; false when
// the file is not one.
func (a *acceptanceIndex) addNA(f recordref.AcceptanceFile, sigs map[string][]recordref.Signature) bool {
	na, err := session.ParseNAAcceptance(f.Body)
	if err != nil {
		return false
	}
	if a.na.signed == nil {
		a.na = naAccepted{signed: map[string]string{}, unsigned: map[string]string{}}
	}
	by := ""
	for _, s := range sigs[f.Path] {
		if s.Status == "G" && a.listed(s.Signer) {
			by = fmt.Sprintf("accepted by %s (signed records commit %s, %s; reason: %s)", s.Signer, shorten.SHA(s.Commit), f.Path, oneLine(na.Reason))
			break
		}
	}
	for _, m := range na.Marks {
		k := session.NAKey(na.SessionID, m.Phase, m.Requirement, m.ReasonSHA256)
		if by != "" {
			a.na.signed[k] = by
		} else if _, ok := a.na.unsigned[k]; !ok {
			a.na.unsigned[k] = fmt.Sprintf("accepted by %s via %s at %s (%s, unsigned; reason: %s)", oneLine(na.Who), oneLine(na.Via), na.AcceptedAt, f.Path, oneLine(na.Reason))
		}
	}
	return true
}

// judgeNA decides a record's not-applicable marks once: the problems that
// fail its commits and the notes that pass with them. The standing the
// record claims is recomputed from the base's protocol when the session
// ran under it: a record cannot call "checked" a mark the protocol leaves
// to a person.
func (t *protocolTrust) judgeNA(ctx context.Context, rc *recordCheck, sid string) {
	if rc.naJudged || len(rc.na) == 0 {
		return
	}
	rc.naJudged = true
	spec := t.recordSpec(rc)
	var pending []naMark
	for _, m := range rc.na {
		if spec != nil {
			if st, ok := session.NAStanding(spec, m.phase, m.requirement); ok {
				m.standing = st
			}
		}
		if m.standing != session.NAChecked && m.standing != session.NAOptional {
			pending = append(pending, m)
		}
	}
	if len(pending) == 0 {
		return
	}
	if t.acc == nil {
		t.acc = t.loadAcceptances(ctx)
	}
	open := 0
	for _, m := range pending {
		k := session.NAKey(sid, m.phase, m.requirement, m.sha)
		if by, ok := t.acc.na.signed[k]; ok {
			rc.notes = append(rc.notes, fmt.Sprintf("not applicable: %s, %s", m.what(), by))
			continue
		}
		unsigned, hasUnsigned := t.acc.na.unsigned[k]
		switch {
		case hasUnsigned && !t.acc.canVerify():
			rc.notes = append(rc.notes, fmt.Sprintf("not applicable: %s, %s; unverified: the base lists no signer (verify.allowed_signers), and anyone with a shell can write an acceptance", m.what(), unsigned))
			continue
		case hasUnsigned:
			rc.naProblems = append(rc.naProblems, fmt.Sprintf("N/A pending acceptance: %s was marked not applicable on the agent's reason (sha256 %.12s); an acceptance exists (%s), but no listed signer (accept_signers, verify.allowed_signers at the base) signed it, which is no proof in CI: a listed signer runs `sessiongate session accept-na %s %s --sign` and pushes the records ref",
				m.what(), m.sha, unsigned, sid, naArg(m)))
		default:
			msg := fmt.Sprintf("N/A pending acceptance: %s was marked not applicable on the agent's reason (sha256 %.12s), with no condition a machine could check; a person accepts it with `sessiongate session accept-na %s %s` (--sign when verify.allowed_signers is set) and pushes the records ref", m.what(), m.sha, sid, naArg(m))
			if t.acc.err != "" {
				msg += "; " + t.acc.err
			}
			rc.naProblems = append(rc.naProblems, msg)
		}
		open++
	}
	if rc.summary != nil && open > 0 {
		rc.summary.NAPending = open
		rc.summary.Gates += fmt.Sprintf(", %d N/A pending acceptance", open)
	}
}

func naArg(m naMark) string {
	if m.requirement != "" {
		return m.requirement
	}
	return m.phase
}

// recordSpec is the protocol a record's one protocol sha names, when CI
// holds it: the base's, or one the base held where the session's work
// forks (protocolTrust.held). nil otherwise: the record's standing is
// taken.
func (t *protocolTrust) recordSpec(rc *recordCheck) *protocolspec.Spec {
	if t == nil || t.bl == nil || len(rc.protocols) != 1 {
		return nil
	}
	if t.bl.isProtocol(rc.protocols[0]) {
		return t.baseSpec()
	}
	h, ok := t.held[rc.protocols[0]]
	if !ok || len(h.body) == 0 {
		return nil
	}
	if h.spec == nil {
		sp, err := protocolspec.Parse(t.bl.ProtocolPath, h.body)
		if err != nil {
			return nil
		}
		h.spec = sp
		t.held[rc.protocols[0]] = h
	}
	return h.spec
}

// baseSpec parses the base's protocol once (nil without one, or when it
// does not parse: then the record's standing is taken).
func (t *protocolTrust) baseSpec() *protocolspec.Spec {
	if t == nil || t.bl == nil || len(t.bl.Protocol) == 0 {
		return nil
	}
	if !t.specRead {
		t.specRead = true
		if sp, err := protocolspec.Parse(t.bl.ProtocolPath, t.bl.Protocol); err == nil {
			t.spec = sp
		}
	}
	return t.spec
}
