package docsaffected

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/sessiongate/sessiongate/docmention"
	"github.com/sessiongate/sessiongate/docsgo"
	"github.com/sessiongate/sessiongate/goimporters"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/repopath"
)

// ScanCap bounds the files whose diffs are read for docs_affected;
// a larger change is taken to affect the docs (the check binds).
const ScanCap = 200

// BodyCap skips a tracked .md larger than this (a generated dump, not
// prose anyone keeps up to date by hand).
const BodyCap = docsgo.BodyCap

// Affected reads the session's change and the docs tracked at its
// start: holds when the change touched a name a doc mentions; why names
// it, or says what was looked at when none was.
func Affected(ctx context.Context, ch Change, glob string) (why string, hits []docmention.Hit, holds bool, err error) {
	var changes []docmention.Change
	scanned := 0
	for _, f := range ch.Files {
		if docmention.DocFormat(f) || docmention.IgnoredPath(f) || ch.isRecord(f) {
			continue
		}
		if scanned++; scanned > ScanCap {
			return fmt.Sprintf("the session changed more than %d files that are not docs or tests: taken to affect the docs", ScanCap), nil, true, nil
		}
		abs, ok, rerr := repopath.Resolve(ch.Repo.Root(), f)
		dc := docmention.Change{Path: f, Deleted: rerr == nil && !ok}
		if ch.Start != "" || !dc.Deleted {
			if dc.Added, dc.Removed, _, err = ch.Repo.DiffLines(ctx, ch.Start, f); err != nil {
				return "", nil, false, fmt.Errorf("condition docs_affected: %w", err)
			}
		}
		if ok && strings.HasSuffix(f, ".go") {
			// Its constants name flags (flag.Bool(verboseFlag, ...)).
			if st, err := os.Stat(abs); err == nil && st.Mode().IsRegular() && st.Size() <= BodyCap {
				if b, err := boundedread.File(abs, boundedread.DefaultLimit); err == nil {
					dc.Body = string(b)
				}
			}
		}
		docsgo.WholeChange(ctx, ch.Repo.Root(), ch.Start, ch.Repo.ReadAt, &dc)
		changes = append(changes, dc)
	}
	if len(changes) == 0 {
		return "the session changed no file but docs and tests", nil, false, nil
	}
	docs, err := trackedDocs(ctx, ch, glob)
	if err != nil {
		return "", nil, false, err
	}
	unchanged := docsgo.UnchangedFiles(ch.Repo.Root(), changes, ch.Files)
	if dirs := docmention.ChangedValueDirs(changes, unchanged); len(dirs) > 0 {
		docsgo.AddImporters(ctx, ch.Repo.Root(), dirs, unchanged, ch.Files)
	}
	importPath := func(dir string) string { return strings.Trim(goimporters.ImportPath(ch.Repo.Root(), dir), `"`) }
	if hits = docmention.FindTouched(docmention.TouchedIn(changes, unchanged, importPath), docs); len(hits) > 0 {
		return hits[0].String(), hits, true, nil
	}
	in := "tracked doc(s)"
	if glob != "" {
		in = "tracked doc(s) matching " + glob
	}
	return fmt.Sprintf("no flag, environment variable, exported identifier or file that %d changed file(s) touch is mentioned in the %d %s", len(changes), len(docs), in), nil, false, nil
}

// trackedDocs are the .md files tracked at the session's start that
// describe the project (docmention.IsDoc), as the start commit holds them:
// a mention the agent deletes, or hides from git (skip-worktree), still
// counts. An unchanged doc is read from the work tree (no git process);
// one the session changed or git hides is read at the start.
func trackedDocs(ctx context.Context, ch Change, glob string) ([]docmention.Doc, error) {
	tl, ok := ch.Repo.(TreeLister)
	if !ok || ch.Start == "" {
		return nil, nil // nothing tracked before the session: nothing documented
	}
	paths, err := tl.TreeFiles(ctx, ch.Start)
	if err != nil {
		return nil, fmt.Errorf("condition docs_affected: list the tracked docs: %w", err)
	}
	atStart := map[string]bool{}
	for _, f := range ch.Files {
		atStart[f] = true
	}
	hidden, err := ch.Repo.HiddenFiles(ctx)
	if err != nil {
		return nil, fmt.Errorf("condition docs_affected: list hidden files: %w", err)
	}
	for f := range hidden {
		atStart[f] = true
	}
	var docs []docmention.Doc
	for _, p := range paths {
		if !docmention.IsDoc(p) || ch.isRecord(p) || glob != "" && !repopath.Match(glob, p) {
			continue
		}
		if atStart[p] {
			b, err := ch.Repo.ReadAt(ctx, ch.Start, p)
			if err != nil {
				return nil, fmt.Errorf("condition docs_affected: read %s at the session's start: %w", p, err)
			}
			if len(b) <= BodyCap {
				docs = append(docs, docmention.Doc{Path: p, Body: b})
			}
			continue
		}
		abs, ok, err := repopath.Resolve(ch.Repo.Root(), p)
		if err != nil || !ok {
			continue
		}
		if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() || st.Size() > BodyCap {
			continue
		}
		b, err := boundedread.File(abs, boundedread.DefaultLimit)
		if err != nil {
			return nil, fmt.Errorf("condition docs_affected: read %s: %w", p, err)
		}
		docs = append(docs, docmention.Doc{Path: p, Body: b})
	}
	return docs, nil
}
