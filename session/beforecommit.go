package session

import (
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// A requirement to do something before committing ("Re-verify the branch
// before commit", "Fix what the checks report before you commit") is met
// only by evidence recorded before a commit of its phase. The adversarial
// pass (issue 25) committed first and ran `git branch --show-current`
// afterwards: the run counted, COMPLETE, clean, verify passing. Times are
// sessiongate's own (the post-commit hook's evidence), never the commit's
// date, which the agent sets. A phase that saw no commit is not judged
// here: its commits were made before it began, and asking an honest agent
// for another commit would be a false block (the gap is documented).

var beforeCommitReqRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:before|prior to)\s+(?:you\s+|each\s+|the\s+|a\s+|any\s+)?commit(?:s|ting)?\b`)
})

// commitOrderGap says why r's evidence does not count for want of order
// ("" when it does, or when r asks for no order).
func commitOrderGap(p *protocolspec.Phase, r protocolspec.Requirement, evs []Evidence) string {
	if !beforeCommitReqRE().MatchString(r.Text) {
		return ""
	}
	var lastCommit, firstProof time.Time
	for _, e := range evs {
		if e.Phase != p.ID {
			continue
		}
		switch {
		case e.Kind == EvidenceCommitSHA || e.Kind == EvidenceBypassCommit:
			if e.CreatedAt.After(lastCommit) {
				lastCommit = e.CreatedAt
			}
		case e.Step == StepNotApplicable || e.Step == StepCondition:
		case e.Observed() && e.Origin != OriginTranscript && !observedFor(e, r):
		case e.Observed() && e.Origin != OriginTranscript && !e.Succeeded():
		case e.Requirement != r.ID && !(e.Observed() && e.Origin != OriginTranscript):
		default:
			if firstProof.IsZero() || e.CreatedAt.Before(firstProof) {
				firstProof = e.CreatedAt
			}
		}
	}
	if lastCommit.IsZero() || firstProof.IsZero() || firstProof.Before(lastCommit) {
		return ""
	}
	return fmt.Sprintf("it asks for this before committing, and its evidence came after %s's last commit (%s, evidence at %s): do it, then commit",
		p.ID, lastCommit.UTC().Format(time.TimeOnly), firstProof.UTC().Format(time.TimeOnly))
}
