package session

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Acceptance travels in git. `protocol accept` writes what a person
// accepted onto the records ref (acceptances/<sha256>.json), and the local
// trust rows must be backed by it: a trusted_files row that git does not
// back (an agent's INSERT into the database) trusts nothing. Any process
// of the user can write git objects too, so locally this makes a forgery
// take two writes and leave a trace on a pushed ref; in CI only a
// signature by a listed signer is proof (verify: docs/security.md).

// AcceptanceSchema names the acceptance format.
const AcceptanceSchema = "sessiongate.acceptance/1"

// DefaultRecordsRef is where acceptances go when session_record names no
// ref (a path template keeps records in the tree; acceptances never are).
const DefaultRecordsRef = "refs/sessiongate/records"

// Acceptance is one person's acceptance of protected files' contents.
type Acceptance struct {
	Schema     string         `json:"schema"`
	Files      []AcceptedFile `json:"files"`
	Who        string         `json:"who"`
	Reason     string         `json:"reason"`
	Via        string         `json:"via"` // terminal, non-interactive (--yes), signed commit X by S, first use
	AcceptedAt string         `json:"accepted_at"`
	Head       string         `json:"head,omitempty"` // HEAD's commit when accepted
	// SignedCommit is the commit of the work whose signature vouched for
	// the files (protocol accept --signed-commit).
	SignedCommit string `json:"signed_commit,omitempty"`
}

// AcceptedFile is one file's accepted content.
type AcceptedFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"` // "" = absent
}

// AcceptanceRepo writes and reads acceptances on a records ref; the git
// adapter implements it.
type AcceptanceRepo interface {
	// PutAcceptance writes body onto ref (signed with the user's git
	// signing key when sign) and returns its path there.
	PutAcceptance(ctx context.Context, ref string, body []byte, sign bool) (string, error)
	// Acceptances returns the bodies of the acceptances on ref whose names
	// match their bytes (nil when the ref does not exist).
	Acceptances(ctx context.Context, ref string) ([][]byte, error)
}

// AcceptanceRef is the ref acceptances are written to and read from.
func (c Config) AcceptanceRef() string {
	if IsRecordRef(c.SessionRecord) {
		return c.SessionRecord
	}
	return DefaultRecordsRef
}

// ParseAcceptance reads an acceptance's bytes.
func ParseAcceptance(b []byte) (*Acceptance, error) {
	var a Acceptance
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("not an acceptance: %w", err)
	}
	if a.Schema != AcceptanceSchema {
		return nil, fmt.Errorf("not an acceptance: schema %q", a.Schema)
	}
	return &a, nil
}

// putAcceptance writes an acceptance of these files to git.
func (e *Engine) putAcceptance(ctx context.Context, repo Repo, files []AcceptedFile, who, reason, via, signedCommit string, sign bool) error {
	head, _, err := repo.Head(ctx)
	if err != nil {
		return fmt.Errorf("read HEAD: %w", err)
	}
	a := Acceptance{Schema: AcceptanceSchema, Files: files, Who: truncate(who, 200), Reason: truncate(reason, 500), Via: via,
		AcceptedAt: stamp(e.now()), Head: head, SignedCommit: signedCommit}
	slices.SortFunc(a.Files, func(x, y AcceptedFile) int { return strings.Compare(x.Path, y.Path) })
	b, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return err
	}
	ref := e.Config.AcceptanceRef()
	if _, err := repo.PutAcceptance(ctx, ref, append(b, '\n'), sign); err != nil {
		return fmt.Errorf("write the acceptance to %s: %w", ref, err)
	}
	return nil
}

// backTrust keeps, of the accepted contents the current state relies on,
// those git backs: the content committed at HEAD (what first use trusts,
// and what deleting the database would trust again), or an acceptance on
// the records ref. It returns the trust to use and, by path, the contents
// it dropped. Only contents the state relies on are checked: one git
// process when nothing differs from HEAD.
func (e *Engine) backTrust(ctx context.Context, repo Repo, current []map[string]string, trusted map[string][]string) (map[string][]string, map[string]string, error) {
	// The paths whose current content is trusted, then HEAD's contents of
	// them: on every gate call everything usually matches HEAD, and that
	// is answered without building the per-content sets below.
	var paths []string
	for _, st := range current {
		for p, sha := range st {
			if slices.Contains(trusted[p], sha) {
				paths = append(paths, p) // a path of both states twice: compacted below
			}
		}
	}
	if len(paths) == 0 {
		return trusted, nil, nil
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	head, err := repo.CommittedSHA256(ctx, paths)
	if err != nil {
		return nil, nil, fmt.Errorf("read the committed protected files: %w", err)
	}
	backed := func(p, sha string) bool {
		h, ok := head[p]
		return ok && h == sha || head == nil && sha == "" || h == "" && slices.Contains(trusted[p], firstUseMark+sha) ||
			ok && checkoutOf(repo.Root(), p, sha, h)
	}
	need := map[string]map[string]bool{}
	for _, st := range current {
		for p, sha := range st {
			if slices.Contains(trusted[p], sha) && !backed(p, sha) {
				if need[p] == nil {
					need[p] = map[string]bool{}
				}
				need[p][sha] = true
			}
		}
	}
	if len(need) == 0 {
		return trusted, nil, nil
	}
	bodies, err := repo.Acceptances(ctx, e.Config.AcceptanceRef())
	if err != nil {
		return nil, nil, fmt.Errorf("read the acceptances on %s: %w", e.Config.AcceptanceRef(), err)
	}
	for _, b := range bodies {
		a, err := ParseAcceptance(b)
		if err != nil {
			continue
		}
		for _, f := range a.Files {
			if shas := need[f.Path]; shas != nil {
				delete(shas, f.SHA256)
				if len(shas) == 0 {
					delete(need, f.Path)
				}
			}
		}
	}
	if len(need) == 0 {
		return trusted, nil, nil
	}
	out := maps.Clone(trusted)
	dropped := map[string]string{}
	for p, shas := range need {
		for sha := range shas {
			out[p] = slices.DeleteFunc(slices.Clone(out[p]), func(s string) bool { return s == sha })
			dropped[p] = sha
		}
	}
	return out, dropped, nil
}
