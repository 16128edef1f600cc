package session

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// evidenceFilesAtEnd blocks the end while a file that a binding phase
// behind the position passed on is not in git: verify in CI re-reads each
// file evidence at the session's end commit and fails a file git does not
// hold there, or held at no commit of the session. The lazy-agent pass
// (round 16) passed GIT_OPERATIONS on a committed handoff, then ran
// `git reset HEAD~1` (the handoff left untracked): the end said COMPLETE,
// clean, and only verify failed it. Blocking here says the same thing
// while the agent can still commit the file. A file the session did not
// hold at its start must be in git at HEAD: one a commit of the session
// held and a later one removed fails too (round 17); a file held at the
// start (read, not written) may go with the work.
func (e *Engine) evidenceFilesAtEnd(ctx context.Context, s *Session, ps []position, cur int) (*GateResult, *protocolspec.Phase, error) {
	binding := map[string]*protocolspec.Phase{}
	for i := 0; i < cur && i < len(ps); i++ {
		if p := ps[i].phase; p != nil && p.Mandatory() {
			binding[p.ID] = p
		}
	}
	if len(binding) == 0 {
		return nil, nil, nil
	}
	all, err := e.Store.ListEvidence(ctx, s.ID)
	if err != nil {
		return nil, nil, fmt.Errorf("load the session's evidence: %w", err)
	}
	type ref struct {
		phase *protocolspec.Phase
		path  string
		req   string
	}
	var refs []ref
	var paths []string
	seen := map[string]bool{}
	for _, x := range all {
		p := binding[x.Phase]
		if p == nil || x.Origin == OriginTranscript || (x.Kind != EvidenceFilePath && x.Kind != EvidenceContentHash) {
			continue
		}
		rel := x.Ref
		if rel == "" || strings.HasPrefix(rel, "/") || path.Clean(rel) != rel || strings.HasPrefix(rel, "../") || seen[x.Phase+"\x00"+rel] {
			continue // not a repository path: the evidence rules judged it when it was recorded
		}
		seen[x.Phase+"\x00"+rel] = true
		refs = append(refs, ref{p, rel, x.Requirement})
		paths = append(paths, rel)
	}
	if len(refs) == 0 {
		return nil, nil, nil
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return nil, nil, err
	}
	head, _, err := repo.Head(ctx)
	if err != nil || head == "" {
		return nil, nil, err // no commit yet: the commit gates say so
	}
	at, err := repo.SHA256sAt(ctx, head, paths)
	if err != nil {
		return nil, nil, fmt.Errorf("read the evidence files at HEAD: %w", err)
	}
	var commits []string // the session's commits, read only when a file is missing
	for _, r := range refs {
		if _, ok := at[r.path]; ok {
			continue
		}
		if commits == nil {
			commits = []string{}
			if s.StartCommit != "" {
				if cs, err := repo.CommitsSince(ctx, s.StartCommit); err == nil {
					commits = cs
				}
			}
		}
		// A file the session read (held at its start) may go with the
		// work. One it wrote and committed, then took out of git in a
		// later commit (`git rm`, `git rm --cached`), is not at the end a
		// fresh clone sees (round 17: verify took the earlier commit's
		// bytes, COMPLETE, clean).
		if s.StartCommit != "" {
			if ok, err := repo.ExistsAt(ctx, s.StartCommit, r.path); err == nil && ok {
				continue
			}
		}
		removed := ""
		for _, c := range commits {
			if ok, err := repo.ExistsAt(ctx, c, r.path); err == nil && ok {
				removed = c
				break
			}
		}
		what := "phase " + r.phase.ID
		if r.req != "" {
			what = r.req
		}
		msg := fmt.Sprintf("%s passed on the file %s, which is not in git at HEAD nor at any commit of the session: commit it (verify re-reads it from git)", what, r.path)
		if removed != "" {
			msg = fmt.Sprintf("%s passed on the file %s, which commit %s of the session held and a later commit took out of git: a clone at the end has no such file; restore and commit it (git checkout %s -- %s)", what, r.path, shortSHA(removed), shortSHA(removed), r.path)
		}
		cr := CheckResult{Kind: "evidence_committed", Status: StatusFail, Message: msg}
		g := GateResult{Phase: r.phase.ID, Title: r.phase.Title, Level: r.phase.Level(), Status: StatusFail, Checks: []CheckResult{cr},
			Message: fmt.Sprintf("%s passed, but its evidence file %s is not committed at the end", r.phase.ID, r.path)}
		return &g, r.phase, nil
	}
	return nil, nil, nil
}
