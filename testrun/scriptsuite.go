package testrun

import (
	"context"
	"path"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
)

// A project tested by shell scripts has no runner family: "its suite is
// what it runs", so any passing test script met QA. A change to
// scripts/greet.sh that broke tests/greet_check.sh passed QA on a run of
// tests/readme_check.sh, an older script of the project that checks only
// the README (issue 25, lazy-agent pass 5: COMPLETE, clean verify). So a
// changed file that a test script of the project names (a line that is no
// comment holds its path) needs a passing whole run that reaches one such
// script: the run's own script, a make target or npm script, and what
// they name in turn. A file no test script names needs nothing more than
// before (a script may exercise code it never names: a built binary).
//
// A file the start commit had counts as named only by what the scripts
// said at the start: one line added to readme_check.sh that runs
// scripts/greet.sh without checking it (`sh scripts/greet.sh >/dev/null`)
// made the README check "name" it. A file new in the session is named by
// what the scripts say now (its tests come with it).

// ScriptFamily is the Need family of a changed file a test script names;
// its Root is that file and Script the first script that names it.
const ScriptFamily = "script"

// scriptExt are the script files a project's shell test suite is made of.
var scriptExt = map[string]bool{".sh": true, ".bash": true, ".zsh": true, ".ksh": true, ".bats": true, ".ps1": true}

// maxScriptReads bounds the files read for one question: a suite is a few
// scripts, and a gate call must stay short.
const maxScriptReads = 64

// testScript: a tracked shell script whose name says it tests (the rule
// RunsTests applies to a script an interpreter runs).
func testScript(f string) bool {
	return scriptExt[path.Ext(f)] && !SkippedDir(f) && shellline.RunsTests("sh "+f)
}

// ScriptNeeds lists, for each changed file a test script names (at start
// for a file the start commit had, in tree for a new one), the need of a
// run that reaches one of those scripts (ScriptsRun).
func ScriptNeeds(ctx context.Context, repo Repo, tree, start string, files, changed []string, isDoc func(string) bool) []Need {
	have := make(map[string]bool, len(files))
	for _, f := range files {
		have[f] = true
	}
	old := map[string]bool{} // changed files the start commit had
	want := map[string]bool{}
	for _, f := range changed {
		if have[f] && !isDoc(f) && !SkippedDir(f) {
			want[f] = true
			if ok, err := repo.ExistsAt(ctx, start, f); err == nil && ok {
				old[f] = true
			}
		}
	}
	if len(want) == 0 {
		return nil
	}
	named := map[string]string{} // changed file -> first test script naming it
	reads := 0
	for _, s := range files {
		if !testScript(s) || reads >= maxScriptReads {
			continue
		}
		for _, rev := range []string{start, tree} {
			reads++
			b, err := repo.ReadAt(ctx, rev, s)
			if err != nil {
				continue
			}
			for _, f := range namedFiles(s, b, have) {
				if want[f] && named[f] == "" && f != s && old[f] == (rev == start) {
					named[f] = s
				}
			}
		}
	}
	var out []Need
	for _, f := range changed {
		if s := named[f]; s != "" {
			out = append(out, Need{Family: ScriptFamily, Root: f, File: f, Script: s})
		}
	}
	return out
}

// ScriptsRun lists, as ScriptFamily needs, the changed-or-not files a run
// of line covers: the scripts it runs, the files a script it reaches named
// at start, and the files the start commit lacked that such a script names
// in tree.
func ScriptsRun(ctx context.Context, repo Repo, tree, start, line string, have map[string]bool) []Need {
	direct, reached := scriptsReached(ctx, repo, tree, line, have)
	var out []Need
	for f := range direct {
		out = append(out, Need{Family: ScriptFamily, Root: f})
	}
	reads := 0
	for s := range reached {
		if !scriptExt[path.Ext(s)] || reads >= maxScriptReads {
			continue
		}
		reads += 2
		if b, err := repo.ReadAt(ctx, start, s); err == nil {
			for _, f := range namedFiles(s, b, have) {
				out = append(out, Need{Family: ScriptFamily, Root: f})
			}
		}
		if b, err := repo.ReadAt(ctx, tree, s); err == nil {
			for _, f := range namedFiles(s, b, have) {
				if ok, err := repo.ExistsAt(ctx, start, f); err == nil && !ok {
					out = append(out, Need{Family: ScriptFamily, Root: f})
				}
			}
		}
	}
	return out
}

// scriptsReached lists the tracked files a run of line reaches: direct,
// the scripts it runs (an interpreter's script, a script run by its path,
// a make target's or npm script's recipe), and with them, transitively,
// the tracked files those name outside comments in tree (what runs).
func scriptsReached(ctx context.Context, repo Repo, tree, line string, have map[string]bool) (direct, reached map[string]bool) {
	direct, reached = map[string]bool{}, map[string]bool{}
	var queue []string
	reads := 0
	var fromLine func(line, dir string, depth int)
	fromLine = func(line, dir string, depth int) {
		if depth > 3 {
			return
		}
		calls, _, ok := shellline.Calls(shellline.Unwrap(line))
		if !ok {
			return
		}
		d := dir
		for _, c := range calls {
			w := c.Words
			if len(w) == 2 && w[0] == "cd" {
				d = path.Join(d, w[1])
				continue
			}
			if !shellline.RunsTests(strings.Join(w, " ")) {
				continue // `cat scripts/greet.sh` beside the run reaches nothing
			}
			for _, x := range shellline.StripWrappers(w) {
				if p := path.Clean(path.Join(d, x)); have[p] && !reached[p] {
					reached[p], direct[p] = true, true
					queue = append(queue, p)
				}
			}
		}
		for _, t := range shellline.ScriptTargets(line) {
			t.Dir = path.Join(dir, t.Dir)
			for _, n := range RecipeFileNames(t) {
				rel := path.Clean(path.Join(t.Dir, n))
				if !have[rel] || reads >= maxScriptReads {
					continue
				}
				reads++
				b, err := repo.ReadAt(ctx, tree, rel)
				if err != nil {
					continue
				}
				body, ok := ScriptBody(t, b)
				if ok {
					for _, l := range strings.Split(body, "\n") {
						fromLine(strings.TrimSpace(l), t.Dir, depth+1)
					}
				}
				if ok || t.Tool != "mise" && t.Tool != "pixi" {
					break // mise and pixi read on to the file that has it
				}
			}
		}
	}
	fromLine(line, "", 0)
	for len(queue) > 0 && reads < maxScriptReads {
		s := queue[0]
		queue = queue[1:]
		if !scriptExt[path.Ext(s)] && path.Ext(s) != "" {
			continue // a data file or source the script names: not read on
		}
		reads++
		b, err := repo.ReadAt(ctx, tree, s)
		if err != nil {
			continue
		}
		for _, f := range namedFiles(s, b, have) {
			if !reached[f] {
				reached[f] = true
				queue = append(queue, f)
			}
		}
	}
	return direct, reached
}

// namedFiles lists the tracked files script s names on a line that is no
// comment: a path from the script's own folder (`$(dirname "$0")/../lib.sh`)
// or from any folder above it up to the repository's root (a script runs
// from wherever the run's `cd` left it, which the script does not say).
func namedFiles(s string, body []byte, have map[string]bool) []string {
	var out []string
	seen := map[string]bool{}
	var bases []string
	for d := path.Dir(s); ; d = path.Dir(d) {
		bases = append(bases, d)
		if d == "." || d == "/" {
			break
		}
	}
	for _, l := range strings.Split(string(body), "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") {
			continue // a comment names a file without running it
		}
		for _, tok := range strings.FieldsFunc(l, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._/-", r))
		}) {
			for _, b := range bases {
				p := path.Join(b, strings.TrimPrefix(tok, "/"))
				if have[p] && !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	}
	return out
}
