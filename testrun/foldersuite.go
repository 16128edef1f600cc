package testrun

import (
	"bytes"
	"context"
	"path"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
)

// A monorepo whose subprojects carry their own test entry (api/Makefile's
// test target, web/package.json's test script) has one suite per folder,
// whatever the runner inside: `cd web && make test` passing said nothing
// of api/three.py, broken by the session, yet met QA (round 55, helper
// 331: COMPLETE, clean verify). So a changed file inside such a folder
// needs a passing whole run made in that folder or above it (a run at the
// root is the project's own suite: its recipe decides what it reaches, as
// for any script). A file whose nearest entry is the root's, or that no
// entry holds (a shared lib/ tested through web/), needs nothing more:
// which suite exercises it is not written in the tree, and guessing
// blocks honest work.

// FolderFamily is the Need family of a changed file inside a subproject
// with its own test entry; Root is that folder and Script its entry.
const FolderFamily = "folder"

// folderEntries are the test entries that make a folder a subproject, in
// the order a person would name them.
var folderEntries = []shellline.ScriptTarget{
	{Tool: "make", Name: "test"},
	{Tool: "make", Name: "check"},
	{Tool: "npm", Name: "test", File: "package.json"},
	{Tool: "just", Name: "test"},
	{Tool: "task", Name: "test"},
}

// FolderNeeds lists, for each subproject folder below the root holding a
// changed file, the need of a whole run there (FoldersRun covers it).
func FolderNeeds(ctx context.Context, repo Repo, tree string, files, changed []string, isDoc func(string) bool) []Need {
	have := make(map[string]bool, len(files))
	for _, f := range files {
		have[f] = true
	}
	entry := map[string]string{} // folder -> its test entry, "" none
	var out []Need
	seen := map[string]bool{}
	for _, f := range changed {
		if isDoc(f) || SkippedDir(f) {
			continue
		}
		for d := path.Dir(f); d != "." && d != "/" && d != ""; d = path.Dir(d) {
			e, ok := entry[d]
			if !ok {
				e = folderEntry(ctx, repo, tree, d, have)
				entry[d] = e
			}
			if e == "" {
				continue
			}
			if !seen[d] {
				seen[d] = true
				out = append(out, Need{Family: FolderFamily, Root: d, File: f, Script: e})
			}
			break
		}
	}
	return out
}

// folderEntry names the test entry of folder d ("make test"), "" when it
// has none. npm's default script, which only fails, is none.
func folderEntry(ctx context.Context, repo Repo, tree, d string, have map[string]bool) string {
	for _, t := range folderEntries {
		for _, n := range RecipeFileNames(t) {
			rel := path.Join(d, n)
			if !have[rel] {
				continue
			}
			b, err := repo.ReadAt(ctx, tree, rel)
			if err != nil {
				continue
			}
			body, ok := ScriptBody(t, b)
			if !ok || t.Tool == "npm" && strings.Contains(body, "no test specified") {
				break
			}
			return strings.TrimSpace(t.Tool + " " + t.Name)
		}
	}
	return ""
}

// FoldersRun lists, as FolderFamily needs, the subproject folders a run
// of line tested: the folder each test run ran in (relative to the
// repository's root, root on disk), the folders below it holding test
// files its runner collects, and the folders of the files its scripts
// reach (scriptsReached) or, as the start commit had them, name (`for d
// in api web`) when the session left them unchanged. A script run at the root covers only what it reaches: a
// script the session wrote that tests web/ alone said nothing of api/.
func FoldersRun(ctx context.Context, repo Repo, tree, start, line string, have map[string]bool) []Need {
	seen := map[string]bool{}
	var out []Need
	add := func(d string) {
		if d == "." {
			d = ""
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, Need{Family: FolderFamily, Root: d})
		}
	}
	addUp := func(f, to string) { // f's folder and those above it, to folder to
		for d := path.Dir(f); d != "." && d != "/" && d != to; d = path.Dir(d) {
			add(d)
		}
	}
	root := repo.Root()
	for _, r := range shellline.TestRuns(line) {
		d := r.Dir
		if path.IsAbs(d) || filepath.IsAbs(d) {
			rel, err := filepath.Rel(root, filepath.FromSlash(d))
			if err != nil {
				continue
			}
			d = filepath.ToSlash(rel)
		}
		if d = path.Clean(d); d == "." {
			d = ""
		}
		if d == ".." || strings.HasPrefix(d, "../") {
			continue
		}
		add(d)
		if r.Workspaces {
			for _, w := range WorkspaceDirs(ctx, repo, tree, d, have) {
				add(w) // `npm test --workspaces`: each package's script, in its folder
			}
		}
		if fam, ok := FamilyOf(r.Runner); ok {
			for f := range have {
				if fam.test(f) && !SkippedDir(f) && (d == "" || strings.HasPrefix(f, d+"/")) {
					addUp(f, d)
				}
			}
		}
	}
	_, reached := scriptsReached(ctx, repo, tree, line, have)
	dirs := map[string]bool{}
	for f := range have {
		for d := path.Dir(f); d != "." && d != "/"; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for f := range reached {
		addUp(f, "")
		if !scriptExt[path.Ext(f)] {
			continue
		}
		b, err := repo.ReadAt(ctx, start, f)
		if err != nil {
			continue // a script the session wrote: only what it runs counts
		}
		if now, err := repo.ReadAt(ctx, tree, f); err != nil || !bytes.Equal(now, b) {
			continue // nor one it rewrote (`for d in web` from `for d in api web`)
		}
		for _, d := range namedFiles(f, b, dirs) {
			add(d)
		}
	}
	return out
}

// Covers says whether c, a suite a run covers, answers need n.
func (c Need) Covers(n Need) bool {
	return c.Family == n.Family && c.Root == n.Root
}
