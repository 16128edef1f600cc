package session

import (
	"context"
	"fmt"
	"github.com/sessiongate/sessiongate/repopath"
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// One commit sha, content hash or file answers one requirement, not
// sixteen: an agent recorded the session's one commit for "re-verify the
// branch", "do not bypass hooks" and "commit all changes", and the hash of
// the handoff for every unnamed requirement of the session. The same
// artifact counts again, in any phase, only for a requirement that names
// it: a path the requirement's text names, or a commit for a requirement
// about committing ("Use conventional commits", "Commit all changes").

// aboutCommitRE finds a requirement about making or describing a commit;
// "before commit" (a step to do first) is not one.
var aboutCommitRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bcommit(?:s|ted|ting)?\b`)
})

var beforeCommitRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:before|prior to|until|after)\s+(?:you\s+|each\s+|the\s+|a\s+)?commit(?:ting)?\b`)
})

// artifactKey is the artifact a claim offers: "path:REL" for a file,
// "commit:SHA7" for a commit (short and full ids of one commit agree), ""
// for kinds that are not artifacts.
func artifactKey(kind, ref string) string {
	switch {
	case pathKind(kind):
		return "path:" + ref
	case kind == EvidenceCommitSHA:
		ref = strings.ToLower(strings.TrimSpace(ref))
		if len(ref) > 7 {
			ref = ref[:7]
		}
		return "commit:" + ref
	}
	return ""
}

// namesArtifact reports whether a requirement names the artifact, so it
// may share it with another requirement.
func namesArtifact(r protocolspec.Requirement, kind, ref string) bool {
	switch {
	case pathKind(kind):
		return namesPath(r.NamedPaths(), ref)
	case kind == EvidenceCommitSHA:
		return aboutCommitRE().MatchString(beforeCommitRE().ReplaceAllString(r.Text, ""))
	}
	return false
}

// artifactReused refuses an artifact already counted for another
// requirement of the session (any phase) unless r names it.
func (e *Engine) artifactReused(ctx context.Context, sid string, r protocolspec.Requirement, kind, body string) error {
	ref := strings.TrimSpace(body)
	if pathKind(kind) {
		c, err := repopath.Clean(ref)
		if err != nil {
			return nil // RecordEvidence refuses it with the reason
		}
		ref = c
	}
	key := artifactKey(kind, ref)
	if key == "" || namesArtifact(r, kind, ref) {
		return nil
	}
	all, err := e.Store.ListEvidence(ctx, sid)
	if err != nil {
		return fmt.Errorf("load evidence: %w", err)
	}
	for _, x := range all {
		if x.Observed() || x.Requirement == "" || x.Requirement == r.ID || x.Step == StepNotApplicable || artifactKey(x.Kind, x.Ref) != key {
			continue
		}
		what := map[string]string{EvidenceCommitSHA: "commit " + shortSHA(x.Ref), EvidenceFilePath: x.Ref, EvidenceContentHash: "the hash of " + x.Ref}[kind]
		if what == "" || pathKind(kind) && pathKind(x.Kind) && x.Kind != kind {
			what = x.Ref
		}
		return refusedf("%s already answers requirement %s (phase %s); one commit sha, content hash or file answers one requirement unless the requirement names it, and %s does not: record what shows %s was done",
			what, x.Requirement, x.Phase, r.ID, r.ID)
	}
	return nil
}
