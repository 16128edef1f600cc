package session

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/sessiongate/sessiongate/docmention"
	"github.com/sessiongate/sessiongate/repopath"
)

// docsAddressed judges a docs gate whose condition held (when=docs_affected
// on changed_since_start): each documented name the session touched must be
// addressed by the session's change to a doc that mentions it (a line
// naming it added or removed, or a line within docmention.Near lines of a
// mention changed). A line in CHANGELOG.md or a new notes.md, a whitespace
// edit or a comment in the README does not tell its reader the flag changed.
func docsAddressed(ctx context.Context, env gateEnv, glob string, hits []docmention.Hit) (GateStatus, string, string) {
	files, err := sessionFiles(ctx, env.repo, env.sess)
	if err != nil {
		return StatusFail, fmt.Sprintf("docs gate: list the session's changed files: %v", err), ""
	}
	changed := map[string]bool{}
	for _, f := range files {
		changed[f] = true
	}
	type named struct {
		hit  docmention.Hit
		docs []string
	}
	var order []string
	byName := map[string]*named{}
	for _, h := range hits {
		k := h.Kind + " " + h.Text
		if byName[k] == nil {
			byName[k] = &named{hit: h}
			order = append(order, k)
		}
		if n := byName[k]; !strings.Contains(" "+strings.Join(n.docs, " ")+" ", " "+h.Doc+" ") {
			n.docs = append(n.docs, h.Doc)
		}
	}
	// A changed doc the condition does not read (a hidden folder's:
	// .claude/skills/x/SKILL.md) answers too when it named the name at the
	// start: it is often the source a published copy is built from.
	var extra []string
	for _, f := range files {
		if docmention.CanAnswer(f) && !docmention.IsDoc(f) && repopath.Match(glob, f) && !env.cfg.isRecord(f) {
			extra = append(extra, f)
		}
	}
	var done, missing, evidence []string
	for _, k := range order {
		n := byName[k]
		ok := false
		cands := n.docs
		for _, d := range extra {
			if b, err := env.repo.ReadAt(ctx, env.sess.StartCommit, d); err == nil && docmention.Mentions(n.hit.Name, d, b) {
				cands = append(cands[:len(cands):len(cands)], d)
			}
		}
		for _, d := range cands {
			if !changed[d] {
				continue
			}
			before, err := env.repo.ReadAt(ctx, env.sess.StartCommit, d)
			if err != nil {
				return StatusFail, fmt.Sprintf("docs gate: read %s at the session's start: %v", d, err), ""
			}
			// A doc deleted whole is no update of it (as for the plain
			// check): deleting the README is not documenting a change.
			abs, exists, err := repopath.Resolve(env.repo.Root(), d)
			if err != nil || !exists {
				continue
			}
			after, err := os.ReadFile(abs)
			if err != nil {
				return StatusFail, fmt.Sprintf("docs gate: read %s: %v", d, err), ""
			}
			if docmention.Addressed(n.hit.Name, d, before, after) {
				done = append(done, fmt.Sprintf("%s changed where it names %s", d, k))
				if !strings.Contains(" "+strings.Join(evidence, " ")+" ", " "+d+" ") {
					evidence = append(evidence, d)
				}
				ok = true
				break
			}
		}
		if !ok {
			missing = append(missing, fmt.Sprintf("%s (changed in %s) is mentioned in %s", k, n.hit.File, strings.Join(firstN(n.docs, 3), ", ")))
		}
	}
	if len(missing) > 0 || len(evidence) == 0 {
		msg := fmt.Sprintf("%s changed, but not where it names what the session changed: %s; add, remove or rewrite a line there that names it (or one within %d lines of it): whitespace, comments and other docs do not count",
			strings.Join(firstN(repopath.Filter(files, glob), 3), ", "), strings.Join(missing, "; "), docmention.Near)
		return StatusFail, msg, ""
	}
	return StatusPass, strings.Join(done, "; "), evidence[0] // a file, as checkChanged gives
}
