package docsaffected

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/docmention"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/repopath"
)

// Addressed judges a docs gate whose condition held (when=docs_affected
// on changed_since_start): each documented name the session touched must be
// addressed by the session's change to a doc that mentions it (a line
// naming it added or removed, or a line within docmention.Near lines of a
// mention changed). A line in CHANGELOG.md or a new notes.md, a whitespace
// edit or a comment in the README does not tell its reader the flag changed.
func Addressed(ctx context.Context, ch Change, glob string, hits []docmention.Hit) (pass bool, msg, evidenceFile string) {
	files := ch.Files
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
		if docmention.CanAnswer(f) && !docmention.IsDoc(f) && repopath.Match(glob, f) && !ch.isRecord(f) {
			extra = append(extra, f)
		}
	}
	gone := deletedDocsAnswer(ch, hits)
	var done, missing, evidence []string
	for _, k := range order {
		n := byName[k]
		ok := false
		if gone[k] {
			done = append(done, fmt.Sprintf("%s went with the files that defined it and the docs that named it", k))
			ok = true
			continue
		}
		cands := n.docs
		for _, d := range extra {
			if b, err := ch.Repo.ReadAt(ctx, ch.Start, d); err == nil && docmention.Mentions(n.hit.Name, d, b) {
				cands = append(cands[:len(cands):len(cands)], d)
			}
		}
		for _, d := range cands {
			if !changed[d] {
				continue
			}
			before, err := ch.Repo.ReadAt(ctx, ch.Start, d)
			if err != nil {
				return false, fmt.Sprintf("docs gate: read %s at the session's start: %v", d, err), ""
			}
			// A doc deleted whole is no update of it (as for the plain
			// check): deleting the README is not documenting a change.
			abs, exists, err := repopath.Resolve(ch.Repo.Root(), d)
			if err != nil || !exists {
				continue
			}
			after, err := boundedread.File(abs, boundedread.DefaultLimit)
			if err != nil {
				return false, fmt.Sprintf("docs gate: read %s: %v", d, err), ""
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
	if len(missing) == 0 && len(evidence) == 0 && len(done) > 0 {
		// Every name went, with its docs: the deleted docs are the update.
		return true, strings.Join(done, "; "), ""
	}
	if len(missing) > 0 || len(evidence) == 0 {
		msg := fmt.Sprintf("%s changed, but not where it names what the session changed: %s; add, remove or rewrite a line there that names it (or one within %d lines of it): whitespace, comments and other docs do not count",
			strings.Join(firstN(repopath.Filter(files, glob), 3), ", "), strings.Join(missing, "; "), docmention.Near)
		return false, msg, ""
	}
	return true, strings.Join(done, "; "), evidence[0] // a file, as checkChanged gives
}

// deletedDocsAnswer lists the names whose every defining file the session
// deleted and that a doc it deleted named (docmention.DeletedAnswers): a
// program removed with its docs owes no other doc an update.
func deletedDocsAnswer(ch Change, hits []docmention.Hit) map[string]bool {
	var docs, gone []string
	for _, f := range ch.Files {
		if _, exists, err := repopath.Resolve(ch.Repo.Root(), f); err != nil || exists {
			continue
		}
		if docmention.DocFormat(f) {
			docs = append(docs, f)
		} else {
			gone = append(gone, f)
		}
	}
	if len(docs) == 0 {
		return nil
	}
	return docmention.DeletedAnswers(hits, docs, gone)
}

// AllDeletedWithDocs reports whether every documented name the session
// touched went with the files that defined it and every doc that named it.
func AllDeletedWithDocs(ch Change, hits []docmention.Hit) (string, bool) {
	gone := deletedDocsAnswer(ch, hits)
	var names []string
	for _, h := range hits {
		k := h.Kind + " " + h.Text
		if !gone[k] {
			return "", false
		}
		if !slices.Contains(names, k) {
			names = append(names, k)
		}
	}
	return fmt.Sprintf("%s went with the files that defined it and the docs that named it", strings.Join(firstN(names, 3), ", ")), true
}
