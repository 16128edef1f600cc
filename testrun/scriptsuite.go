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

// scriptNeeds lists, for each changed file a test script names, the need
// of a run that reaches one of those scripts.
func scriptNeeds(ctx context.Context, repo Repo, tree string, files, changed []string, have map[string]bool, isDoc func(string) bool) []Need {
	want := map[string]bool{}
	for _, f := range changed {
		if have[f] && !isDoc(f) && !SkippedDir(f) {
			want[f] = true
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
		reads++
		b, err := repo.ReadAt(ctx, tree, s)
		if err != nil {
			continue
		}
		for _, f := range namedFiles(s, b, have) {
			if want[f] && named[f] == "" && f != s {
				named[f] = s
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

// scriptsReached lists the tracked files a run of line reaches: the
// scripts it runs (an interpreter's script, a script run by its path, a
// make target's or npm script's recipe) and, transitively, the tracked
// files those name outside comments.
func scriptsReached(ctx context.Context, repo Repo, tree, line string, have map[string]bool) map[string]bool {
	reached := map[string]bool{}
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
					reached[p] = true
					queue = append(queue, p)
				}
			}
		}
		for _, t := range shellline.ScriptTargets(line) {
			t.Dir = path.Join(dir, t.Dir)
			names := []string{t.File}
			if t.File == "" {
				names = []string{"GNUmakefile", "makefile", "Makefile"}
			}
			for _, n := range names {
				rel := path.Clean(path.Join(t.Dir, n))
				if !have[rel] || reads >= maxScriptReads {
					continue
				}
				reads++
				b, err := repo.ReadAt(ctx, tree, rel)
				if err != nil {
					continue
				}
				if body, ok := ScriptBody(t, b); ok {
					for _, l := range strings.Split(body, "\n") {
						fromLine(strings.TrimSpace(l), t.Dir, depth+1)
					}
				}
				break
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
	return reached
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
