package verify

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

// excuseBaseContent (F1) drops a record's PROTECTED_CHANGE violations from
// the ones that fail its commits when each was about the range's base
// content: a person changed sessiongate.yaml (or another protected file)
// on main, the session's branch merged main mid-session, and the next gate
// met main's content as an unaccepted change. The base is main as the CI
// has it, where no agent commits, so its content is a person's.
//
// All or nothing, failing closed: every PROTECTED_CHANGE of the final
// snapshot must have its protect:content event (session/protectcontent.go:
// written with the violation, in the same transaction; a record without
// events, one that shed them, or a violation recorded by another path has
// fewer, and nothing is dropped), and every file every such event names
// must hold, byte for byte, what it holds at the base. An agent's own
// edit, a branch of its own merged in, or an old main revision merged in
// names another content: the violations stay and fail as before. The
// events must also read the same in the record's versions on the records
// ref (recordshistory.go): at least two versions hold each, and no version
// holds another token at its seq.
//
// The base is the range's (t.bl.Rev) and, when the CI names a default
// branch this clone has as origin's, that branch's tip too: a push to a
// branch is checked against its merge base with the default branch, and
// an agent that merged an old main revision makes that revision the merge
// base, whose (weaker) content its merge then "equals".
func (t *protocolTrust) excuseBaseContent(ctx context.Context, rc *recordCheck, defaultBranch string) {
	if t == nil || t.bl == nil || t.bl.Rev == "" || t.repo == nil || rc == nil || rc.contentSplit {
		return
	}
	isProtected := func(v string) bool {
		code, _, _ := strings.Cut(v, ":")
		return code == session.CodeProtectedChange
	}
	marks := 0
	for _, v := range rc.violations {
		if isProtected(v) {
			marks++
		}
	}
	if marks == 0 {
		return
	}
	var (
		named []session.ProtectContentFile
		paths []string
		seen  int
	)
	for _, ev := range rc.events {
		if !strings.HasPrefix(ev.Token, session.TokProtectContent+":") {
			continue
		}
		files, ok := session.ParseProtectContent(ev.Token)
		// The event as the records ref's history first held it: the
		// violation's own version (written and pushed when it was
		// recorded) and a later one, the same token. An agent that
		// rewrites the event in its database afterwards (UPDATE events)
		// to name the base's content splits them.
		if !ok || rc.contentSeen[ev.Seq] != ev.Token || rc.contentCount[ev.Seq] < 2 {
			return
		}
		seen++
		for _, f := range files {
			if !f.Comparable {
				return
			}
			named = append(named, f)
			if !slices.Contains(paths, f.Path) {
				paths = append(paths, f.Path)
			}
		}
	}
	if seen != marks {
		return
	}
	// Nor one an earlier version held and the final one lost (deleted in
	// the database, a forged one inserted at another seq).
	for seq, tok := range rc.contentSeen {
		if !slices.ContainsFunc(rc.events, func(ev snapshot.EventRef) bool { return ev.Seq == seq && ev.Token == tok }) {
			return
		}
	}
	slices.Sort(paths)
	revs := []string{t.bl.Rev}
	if defaultBranch != "" {
		if tip, err := t.repo.ResolveRev(ctx, "refs/remotes/origin/"+defaultBranch); err == nil && tip != "" && tip != t.bl.Rev {
			revs = append(revs, tip)
		}
	}
	for _, rev := range revs {
		base, err := t.repo.SHA256sAt(ctx, rev, paths)
		if err != nil {
			return
		}
		for _, f := range named {
			if base[f.Path] != f.SHA256 {
				return
			}
		}
	}
	rc.violations = slices.DeleteFunc(rc.violations, isProtected)
	rc.notes = append(rc.notes, fmt.Sprintf("%s: its %d PROTECTED_CHANGE violation(s) named %s holding exactly what the base %s holds (main's content merged into the branch, not the session's edit): not counted",
		rc.path, marks, strings.Join(paths, ", "), shorten.SHA(t.bl.Rev)))
}
