package verify

import (
	"context"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/testrun"
)

// The rerun guard failed every skip marker a session committed unless a
// person signed, an honest `t.Skip` without a database URL in a new test
// included, while the local QA gate passed it (the session ended clean,
// CI failed it: issue 25, round 19). Skips in the test files the local
// rule reads are now judged by that rule (testrun.SkipsAddedRange) over
// base..tip: a skip in a new test behind a condition on a missing
// resource, or any condition the rule reads as not firing, passes; a
// skip added to a test the base had whose condition fires in this run's
// environment, an unconditional skip, a helper that always skips,
// `//go:build ignore` on an old file, xit, .only still fail. The
// environment is this process's: in CI, CI's own, the run that matters
// there. Test files the rule does not read keep the marker regexp.

// rangeSkips judges the skips base..tip added to the test files testrun
// reads. changed are the paths the range changed (git diff --name-only).
// One git call lists the tip's tree when a Go test changed (its package's
// helpers); each judged file is read at both ends.
func rangeSkips(ctx context.Context, repo *gitrepo.Repo, base, tip string, changed []string, links map[string]bool, env testrun.LookupEnv) ([]weakening, error) {
	var read []string
	jsMods := false
	for _, p := range changed {
		if testrun.RangeReads(p) && !links[p] {
			read = append(read, p)
		}
		jsMods = jsMods || testrun.JSModule(p)
	}
	if len(read) == 0 && !jsMods {
		return nil, nil
	}
	// One cat-file process per end of the range, however many files.
	was, err := repo.BlobsAt(ctx, base, read)
	if err != nil {
		return nil, fmt.Errorf("rerun guard: %w", err)
	}
	now, err := repo.BlobsAt(ctx, tip, read)
	if err != nil {
		return nil, fmt.Errorf("rerun guard: %w", err)
	}
	var files []testrun.RangeFile
	dirs := map[string]bool{} // folders of changed Go test files
	for _, p := range read {
		w, existed := was[p]
		f := testrun.RangeFile{Path: p, Existed: existed, Was: w, Now: now[p]}
		if f.Now == nil && testrun.FileKind(p) == "" && !testrun.PyImportedByDiscovery(p) {
			continue // a source file deleted: no helper to read
		}
		files = append(files, f)
		if testrun.FileKind(p) == "go" && f.Now != nil {
			dirs[path.Dir(p)] = true
		}
	}
	pkg := map[string][]byte{}
	var all []string
	listed := false
	list := func() error { // the tip's files, listed once when needed
		if listed {
			return nil
		}
		var err error
		if all, err = repo.TreeFiles(ctx, tip); err != nil {
			return fmt.Errorf("rerun guard: list the tip's files: %w", err)
		}
		listed = true
		return nil
	}
	if len(dirs) > 0 {
		if err := list(); err != nil {
			return nil, err
		}
		var sib []string
		for _, p := range all {
			if dirs[path.Dir(p)] && path.Ext(p) == ".go" && !slices.Contains(read, p) {
				sib = append(sib, p)
			}
		}
		if pkg, err = repo.BlobsAt(ctx, tip, sib); err != nil {
			return nil, fmt.Errorf("rerun guard: %w", err)
		}
	}
	// A changed Python test file: the tip's layout says which modules are
	// the project's (a top-level stub of a third-party client is honest).
	var py *testrun.PyLayout
	for _, f := range files {
		// A module added in a test folder can shadow the project's
		// (testrun/pyrootdir.go): the layout says whose it is.
		inTests := path.Ext(f.Path) == ".py" && strings.Contains(strings.ToLower(path.Dir(f.Path)), "test")
		if k := testrun.FileKind(f.Path); f.Now != nil && (k == "py" || k == "conftest" || inTests || k == "" && testrun.PyImportedByDiscovery(f.Path)) {
			if err := list(); err != nil {
				return nil, err
			}
			meta, err := repo.BlobsAt(ctx, tip, testrun.PyLayoutFiles)
			if err != nil {
				return nil, fmt.Errorf("rerun guard: %w", err)
			}
			py = testrun.TreePyLayout(all, meta)
			break
		}
	}
	helpers, err := rangeGoHelpers(ctx, repo, tip, files, pkg, list, &all)
	if err != nil {
		return nil, err
	}
	byPath := testrun.SkipsAddedRangeHelpers(files, pkg, helpers, env, py)
	if len(testrun.RangeShadowDirs(files, py)) > 0 {
		// A copy of a project module added where an unchanged test file
		// puts its folder first (lazy pass 25): read those files too.
		if err := list(); err != nil {
			return nil, err
		}
		var holders []string
		for _, p := range all {
			if testrun.PyPathHolder(p) && !slices.Contains(read, p) && !testrun.SkippedDir(p) {
				holders = append(holders, p)
			}
		}
		tipFiles, err := repo.BlobsAt(ctx, tip, holders)
		if err != nil {
			return nil, fmt.Errorf("rerun guard: %w", err)
		}
		for p, why := range testrun.RangeUnchangedShadows(files, py, tipFiles) {
			byPath[p] = append(byPath[p], why)
		}
	}
	// An alias at a JS module the range added (lazy pass 27, c3): the
	// tip's runner configs, read only when the range added one.
	aliases, err := rangeJSAliases(ctx, repo, base, tip, changed, list, &all)
	if err != nil {
		return nil, err
	}
	for p, why := range aliases {
		byPath[p] = append(byPath[p], why)
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []weakening
	for _, p := range paths {
		for _, why := range byPath[p] {
			out = append(out, weakening{p, why})
		}
	}
	return out, nil
}

// linkWeakenings names the test files base..tip made symbolic links (or
// links whose target it changed): the runner follows the link and runs
// the tests of the file it names, so the link's text read as the file
// ("removes the test X") misnamed what happened (round 18,
// TestAdvTestFileSymlink).
func linkWeakenings(ctx context.Context, repo *gitrepo.Repo, base, tip string, status []gitrepo.PathChange) (map[string]bool, []weakening, error) {
	var cand []string
	added := map[string]bool{}
	for _, s := range status {
		if s.Status != "D" && testFile(s.Path) {
			cand = append(cand, s.Path)
			added[s.Path] = s.Status == "A"
		}
	}
	if len(cand) == 0 {
		return nil, nil, nil
	}
	now, err := repo.LinksAt(ctx, tip, cand)
	if err != nil {
		return nil, nil, fmt.Errorf("rerun guard: %w", err)
	}
	if len(now) == 0 {
		return nil, nil, nil
	}
	was, err := repo.LinksAt(ctx, base, cand)
	if err != nil {
		return nil, nil, fmt.Errorf("rerun guard: %w", err)
	}
	links := map[string]bool{}
	var out []weakening
	for _, p := range cand {
		target, ok := now[p]
		if !ok {
			continue
		}
		links[p] = true
		switch old, wasLink := was[p]; {
		case wasLink && old == target, added[p]:
			// unchanged, or a new link: the tests it names run twice
		case wasLink:
			out = append(out, weakening{p, fmt.Sprintf("points this test file's link at %s (it pointed at %s): the run reads the tests of the file the link names", strings.TrimSpace(target), old)})
		default:
			out = append(out, weakening{p, fmt.Sprintf("replaces this test file by a symbolic link to %s: the run reads the tests of the file the link names, not the ones the base had here", target)})
		}
	}
	return links, out, nil
}

// rangeJSAliases reads, when base..tip added a JS module, the tip's jest
// and vitest configs, package.json files and tsconfig/jsconfig files for
// an alias at a copy of a project module (testrun.JSAliasCopiesRange).
// list fills *all with the tip's files.
func rangeJSAliases(ctx context.Context, repo *gitrepo.Repo, base, tip string, changed []string, list func() error, all *[]string) (map[string]string, error) {
	var mods []string
	for _, p := range changed {
		if testrun.JSModule(p) {
			mods = append(mods, p)
		}
	}
	if len(mods) == 0 {
		return nil, nil
	}
	was, err := repo.BlobsAt(ctx, base, mods)
	if err != nil {
		return nil, fmt.Errorf("rerun guard: %w", err)
	}
	now, err := repo.BlobsAt(ctx, tip, mods)
	if err != nil {
		return nil, fmt.Errorf("rerun guard: %w", err)
	}
	var files []testrun.RangeFile
	var added []string
	for _, p := range mods {
		w, existed := was[p]
		files = append(files, testrun.RangeFile{Path: p, Existed: existed, Was: w, Now: now[p]})
		if !existed && now[p] != nil {
			added = append(added, p)
		}
	}
	if len(added) == 0 {
		return nil, nil
	}
	if err := list(); err != nil {
		return nil, err
	}
	var cfgs, named []string
	for _, p := range *all {
		switch {
		case testrun.JSAliasConfig(p):
			cfgs = append(cfgs, p)
		case testrun.JSModuleNamed(p, added):
			named = append(named, p)
		}
	}
	if len(cfgs) == 0 {
		return nil, nil
	}
	cfgText, err := repo.BlobsAt(ctx, tip, cfgs)
	if err != nil {
		return nil, fmt.Errorf("rerun guard: %w", err)
	}
	namedText, err := repo.BlobsAt(ctx, tip, named)
	if err != nil {
		return nil, fmt.Errorf("rerun guard: %w", err)
	}
	return testrun.JSAliasCopiesRange(files, namedText, cfgText), nil
}

// rangeGoHelpers reads, at the tip, the non-test Go files of the
// repository's packages the range's changed Go test files import, and of
// the packages those import (testrun.GoHelperDepth deep), that the range
// did not change: a new call of the team's unchanged helper that swaps
// the seam is judged as locally (lazy pass 27, c3). Nothing is read
// unless a changed Go test file imports one of the repository's packages.
func rangeGoHelpers(ctx context.Context, repo *gitrepo.Repo, tip string, files []testrun.RangeFile, pkg map[string][]byte, list func() error, all *[]string) (map[string][]byte, error) {
	var queue []string
	have := map[string]bool{}
	for _, f := range files {
		have[f.Path] = true
		if testrun.FileKind(f.Path) == "go" {
			queue = append(queue, testrun.GoImports(f.Now)...)
			queue = append(queue, testrun.GoImports(f.Was)...)
		}
	}
	if len(queue) == 0 {
		return nil, nil
	}
	if err := list(); err != nil {
		return nil, err
	}
	byDir := map[string][]string{} // the tip's non-test Go files by folder
	for _, p := range *all {
		if path.Ext(p) == ".go" && !strings.HasSuffix(p, "_test.go") {
			byDir[path.Dir(p)] = append(byDir[path.Dir(p)], p)
		}
	}
	out := map[string][]byte{}
	seen := map[string]bool{}
	for depth := 0; depth < testrun.GoHelperDepth && len(queue) > 0; depth++ {
		var read []string
		for _, ip := range queue {
			d := testrun.GoPkgDir(ip, func(d string) bool { return len(byDir[d]) > 0 })
			if d == "" || seen[d] {
				continue
			}
			seen[d] = true
			for _, p := range byDir[d] {
				if !have[p] && pkg[p] == nil {
					read = append(read, p)
				}
			}
		}
		queue = nil
		if len(read) == 0 {
			break
		}
		blobs, err := repo.BlobsAt(ctx, tip, read)
		if err != nil {
			return nil, fmt.Errorf("rerun guard: %w", err)
		}
		for p, b := range blobs {
			out[p] = b
			queue = append(queue, testrun.GoImports(b)...)
		}
	}
	return out, nil
}
