package verify

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/testrun"
)

// The rerun guard judges a JS runner's config as the QA gate does (round
// 30, c2; issue 25, "one judgement for gate and verify"): when the base's
// command runs jest, vitest or mocha (itself, or through the npm script or
// recipe it names), each config those runners read in the repository's
// root and the script's folder (jest.config.*, package.json's "jest",
// vitest.config.*, vite.config.*, vitest.workspace.*, .mocharc.*), the
// local setup files those configs name, and for jest a local Babel plugin
// the root's Babel config names, are read at the base and the tip from git
// objects and handed to the gate's own functions (testrun.ConfigChange,
// SetupFileChange, BabelPluginChange). Before, none was read: a
// jest.config.js given testPathIgnorePatterns by a commit made with hooks
// off, or in a session whose database was deleted, passed CI.

// jsRunnerFamilies are the runner families whose configs jsConfigWeakenings reads.
var jsRunnerFamilies = []string{"jest", "vitest", "mocha"}

// runnerFamilies names the runner families (pytest, jest, vitest, mocha)
// the base's commands run, themselves or through the recipe or npm
// script they name as the base or the tip has it, and the folders of
// those scripts ("" the root): what the gate reads from a test line
// (testrun.InputChanges).
func runnerFamilies(ctx context.Context, repo *gitrepo.Repo, base, tip string, cmds []RerunResult) (fams, dirs []string, err error) {
	dirs = []string{""}
	for _, c := range cmds {
		fams = append(fams, testrun.RunnerFamilies(testrun.LineWords(c.Command))...)
		for _, st := range shellline.ScriptTargets(c.Command) {
			if !slices.Contains(dirs, st.Dir) {
				dirs = append(dirs, st.Dir)
			}
			for _, rev := range []string{base, tip} {
				_, b, err := testrun.RecipeFile(st, func(p string) ([]byte, error) {
					bs, err := repo.BlobsAt(ctx, rev, []string{p})
					return bs[p], err
				})
				if err != nil {
					return nil, nil, fmt.Errorf("rerun guard: read the recipe of %q: %w", c.Command, err)
				}
				if b != nil {
					fams = append(fams, testrun.RecipeFamilies(st, b)...)
				}
			}
		}
	}
	slices.Sort(fams)
	return slices.Compact(fams), dirs, nil
}

// jsConfigWeakenings judges, over base..tip, the JS runner configs the
// families fams read in the folders dirs.
func jsConfigWeakenings(ctx context.Context, repo *gitrepo.Repo, base, tip string, fams, dirs []string) ([]weakening, error) {
	fams = slices.DeleteFunc(slices.Clone(fams), func(f string) bool { return !slices.Contains(jsRunnerFamilies, f) })
	if len(fams) == 0 {
		return nil, nil
	}
	cfgs := testrun.RunnerConfigs(fams, dirs)
	var paths []string
	for _, c := range cfgs {
		if !slices.Contains(paths, c.Path) {
			paths = append(paths, c.Path)
		}
	}
	read := func(ps []string) (was, now map[string][]byte, err error) {
		if was, err = repo.BlobsAt(ctx, base, ps); err != nil {
			return nil, nil, fmt.Errorf("rerun guard: read the runner configs at the base: %w", err)
		}
		if now, err = repo.BlobsAt(ctx, tip, ps); err != nil {
			return nil, nil, fmt.Errorf("rerun guard: read the runner configs at the tip: %w", err)
		}
		return was, now, nil
	}
	was, now, err := read(paths)
	if err != nil {
		return nil, err
	}
	tipRead := func(p string) (string, bool) {
		b, err := repo.BlobsAt(ctx, tip, []string{p})
		if err != nil || b[p] == nil || len(b[p]) > 256<<10 {
			return "", false
		}
		return string(b[p]), true
	}
	var out []weakening
	var setups []string
	for _, c := range cfgs {
		if ch, ok := testrun.ConfigChange(c.Path, c.Section, was[c.Path], now[c.Path], nil, nil, tipRead); ok && ch.Weakens() {
			out = append(out, weakening{c.Path, ch.What()})
		}
		// The local setup files the config names, at either end.
		for _, b := range [][]byte{was[c.Path], now[c.Path]} {
			if b == nil || c.Section != "" {
				continue
			}
			dir := path.Dir(c.Path)
			sw, sn, err := read(testrun.JSConfigSetupCandidates(dir, string(b)))
			if err != nil {
				return nil, err
			}
			for _, p := range testrun.JSConfigSetupFiles(dir, string(b), func(p string) bool { return sw[p] != nil || sn[p] != nil }) {
				if slices.Contains(setups, p) {
					continue
				}
				setups = append(setups, p)
				if ch, ok := testrun.SetupFileChange(p, sw[p], sn[p], tipRead); ok && ch.Weakens() {
					out = append(out, weakening{p, ch.What()})
				}
			}
		}
	}
	if slices.Contains(fams, "jest") {
		bw, err := babelWeakenings(ctx, repo, base, tip)
		if err != nil {
			return nil, err
		}
		out = append(out, bw...)
	}
	return out, nil
}

// babelWeakenings: a local Babel plugin the tip's root Babel config names,
// added or changed in the range, that stands in for the code under test
// (testrun.BabelPluginChange, the gate's judgement).
func babelWeakenings(ctx context.Context, repo *gitrepo.Repo, base, tip string) ([]weakening, error) {
	names := testrun.BabelConfigNames()
	cfgs, err := repo.BlobsAt(ctx, tip, names)
	if err != nil {
		return nil, fmt.Errorf("rerun guard: read the Babel configs at the tip: %w", err)
	}
	testStrings := sync.OnceValue(func() map[string]bool {
		all, err := repo.TreeFiles(ctx, tip)
		if err != nil {
			return nil
		}
		var tests []string
		for _, p := range all {
			if testrun.JSTestFile(p) && !slices.Contains(strings.Split(p, "/"), "node_modules") {
				tests = append(tests, p)
			}
		}
		if len(tests) > 2000 {
			tests = tests[:2000]
		}
		b, err := repo.BlobsAt(ctx, tip, tests)
		if err != nil {
			return nil
		}
		for p, t := range b {
			if len(t) > 256<<10 {
				delete(b, p)
			}
		}
		return testrun.JSTestStrings(b)
	})
	var out []weakening
	for _, n := range names {
		cfg := cfgs[n]
		if cfg == nil || len(cfg) > 256<<10 {
			continue
		}
		cands := testrun.BabelLocalCandidates(string(cfg))
		now, err := repo.BlobsAt(ctx, tip, cands)
		if err != nil {
			return nil, fmt.Errorf("rerun guard: read %s's plugins at the tip: %w", n, err)
		}
		was, err := repo.BlobsAt(ctx, base, cands)
		if err != nil {
			return nil, fmt.Errorf("rerun guard: read %s's plugins at the base: %w", n, err)
		}
		for _, p := range testrun.BabelLocalFiles(string(cfg), func(p string) bool { return now[p] != nil }) {
			if ch, ok := testrun.BabelPluginChange(n, p, was[p], now[p], testStrings); ok {
				out = append(out, weakening{p, ch.What()})
			}
		}
	}
	return out, nil
}
