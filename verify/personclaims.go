package verify

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/snapshot"
)

// Person claims on the records ref (issue 26.4). An actor record saying
// "a person made this commit" is written by the post-commit hook, on the
// machine the agent has a shell on: the agent can write one for its own
// commit and push it. With verify.allowed_signers set at the base, such a
// claim counts only when a key of that file signed the commit itself or
// the records commit that wrote the claim; otherwise it is taken as no
// record (and verify.unsessioned decides), and the output says why.
// Without allowed signers nothing can prove a person, and the output says
// the claims are unverified.

// personProof is what verify concluded about the person claims.
type personProof struct {
	// unproven maps a commit to why its person record was set aside.
	unproven map[string]string
	// unverified maps a commit to the caveat of a claim taken unverified.
	unverified map[string]string
	note       string // for the report
}

func (t *protocolTrust) provePersons(ctx context.Context, actors map[string]snapshot.CommitActor, actorTip string) (*personProof, error) {
	pp := &personProof{unproven: map[string]string{}, unverified: map[string]string{}}
	var persons []string
	for sha, a := range actors {
		if a.Actor == snapshot.ActorPerson {
			persons = append(persons, sha)
		}
	}
	if len(persons) == 0 {
		return pp, nil
	}
	allowedPath := ""
	if t.bl != nil && t.bl.Rev != "" && t.bl.Config != nil {
		allowedPath = t.bl.Config.Verify.AllowedSigners
	}
	if allowedPath == "" {
		why := "person claim unverified: verify.allowed_signers is not set at the base, and anyone with a shell (the policed agent too) can write an actor record"
		for _, sha := range persons {
			pp.unverified[sha] = why
		}
		pp.note = fmt.Sprintf("person claims on the records ref are unverified: %d commit(s) pass as a person's on an actor record nobody signed (set verify.allowed_signers and sign commits: docs/security.md, \"Person claims in CI\")", len(persons))
		return pp, nil
	}
	if t.acc == nil {
		t.acc = t.loadAcceptances(ctx)
	}
	if t.acc.allowed == "" {
		// The file could not be read: no signature can be checked against it.
		for _, sha := range persons {
			pp.unproven[sha] = "an actor record says a person made it, but " + t.acc.err + ": unproven"
			delete(actors, sha)
		}
		return pp, nil
	}
	signed, err := t.repo.CommitSigners(ctx, persons, t.acc.allowed)
	if err != nil {
		return nil, err
	}
	writers, err := recordref.ActorWriters(ctx, t.repo.Root(), actorTip, t.acc.allowed, persons)
	if err != nil {
		return nil, err
	}
	for _, sha := range persons {
		if s := signed[sha]; s.Status == "G" {
			pp.unverified[sha] = "the commit is signed by " + s.Name + " (verify.allowed_signers)"
			continue
		}
		if w := writers[sha]; w.Status == "G" {
			pp.unverified[sha] = fmt.Sprintf("its actor record was written by records commit %s, signed by %s (verify.allowed_signers)", shorten.SHA(w.Commit), w.Signer)
			continue
		}
		p, _ := recordref.ActorPath(sha)
		pp.unproven[sha] = fmt.Sprintf("an actor record (%s) says a person made it, but neither the commit nor the records commit that wrote the record is signed by a key in %s (verify.allowed_signers at the base): unproven, since anyone with a shell can write one; taken as no record", p, allowedPath)
		delete(actors, sha)
	}
	return pp, nil
}
