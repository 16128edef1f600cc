package session

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
)

// A QA phase without a command of its own takes a test-suite run
// (shellline.RunsTests), and `make test` or `npm test` is one by its name.
// What it runs is in the repository: a Makefile whose test target is
// `true`, or a package.json whose "test" script is `exit 0` or `echo ok`,
// makes it a run of nothing, and so does a target or script the session
// itself rewrote (compared with the start commit): the agent being policed
// wrote what "the tests" are (issue 25). weakTestScript says why such a
// run proves nothing, or "".
func weakTestScript(ctx context.Context, repo Repo, s *Session, line string) (string, error) {
	for _, t := range shellline.ScriptTargets(line) {
		rel, now, err := scriptFile(repo.Root(), t)
		if err != nil || rel == "" {
			continue // no such file here: the runner fails on its own
		}
		body, found := scriptBody(t, now)
		if !found {
			continue
		}
		what := fmt.Sprintf("%s's %q %s", rel, t.Name, map[string]string{"make": "target", "npm": "script"}[t.Tool])
		if trivialScript(t, now, body, 0) {
			return fmt.Sprintf("%s runs no test (%s)", what, truncate(oneLineText(body), 80)), nil
		}
		was := ""
		if s.StartCommit != "" {
			ok, err := repo.ExistsAt(ctx, s.StartCommit, rel)
			if err != nil {
				return "", fmt.Errorf("read %s at the start commit: %w", rel, err)
			}
			if ok {
				b, err := repo.ReadAt(ctx, s.StartCommit, rel)
				if err != nil {
					return "", fmt.Errorf("read %s at the start commit: %w", rel, err)
				}
				was, _ = scriptBody(t, b)
			}
		}
		if strings.TrimSpace(was) != strings.TrimSpace(body) {
			if was == "" {
				return fmt.Sprintf("%s was added in this session (the start commit has none): the session wrote what its tests are; run the test runner itself (go test, pytest, ...), or have a person set commands.QA_VALIDATION", what), nil
			}
			return fmt.Sprintf("%s changed in this session (was %q, now %q): the session rewrote what its tests are; run the test runner itself, or restore the %s", what, truncate(oneLineText(was), 60), truncate(oneLineText(body), 60), map[string]string{"make": "target", "npm": "script"}[t.Tool]), nil
		}
	}
	return "", nil
}

// scriptFile finds the project file a target is read from, in the work
// tree: its path relative to the root and its content ("" when none).
func scriptFile(root string, t shellline.ScriptTarget) (string, []byte, error) {
	names := []string{t.File}
	if t.File == "" {
		names = []string{"GNUmakefile", "makefile", "Makefile"} // make's order
	}
	for _, n := range names {
		rel := path.Clean(path.Join(t.Dir, n))
		if path.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
			return "", nil, nil // outside the repository: not judged here
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err == nil {
			return rel, b, nil
		}
	}
	return "", nil, nil
}

// scriptBody is a target's recipe (its prerequisites on the first line)
// or a package.json script; found is false when the file has none.
func scriptBody(t shellline.ScriptTarget, file []byte) (string, bool) {
	if t.Tool == "npm" {
		var pkg struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal(file, &pkg) != nil {
			return "", false
		}
		b, ok := pkg.Scripts[t.Name]
		return b, ok
	}
	prereq, recipe, ok := makeRule(file, t.Name)
	if !ok {
		return "", false
	}
	return strings.Join(append([]string{t.Name + ": " + strings.Join(prereq, " ")}, recipe...), "\n"), true
}

// makeRule finds a Makefile rule "name: prerequisites" and its recipe
// lines (tab-indented, without make's @ - + prefixes). Only what a
// test target usually is: no pattern rules, includes or variables.
func makeRule(file []byte, name string) (prereq, recipe []string, ok bool) {
	lines := strings.Split(strings.ReplaceAll(string(file), "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "\t") || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		head, rest, found := strings.Cut(l, ":")
		if !found || strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, ":=") {
			continue
		}
		if !slices.Contains(strings.Fields(head), name) {
			continue
		}
		rest, inline, _ := strings.Cut(rest, ";")
		prereq = append(prereq, strings.Fields(rest)...)
		if strings.TrimSpace(inline) != "" {
			recipe = append(recipe, strings.TrimSpace(inline))
		}
		for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], "\t") || strings.TrimSpace(lines[i+1]) == "" && i+2 < len(lines) && strings.HasPrefix(lines[i+2], "\t")) {
			i++
			if r := strings.TrimLeft(strings.TrimSpace(lines[i]), "@-+"); r != "" {
				recipe = append(recipe, r)
			}
		}
		ok = true
	}
	return prereq, recipe, ok
}

// trivialScript reports a target or script that runs nothing: every
// command proves nothing (true, exit 0, echo), or a make target with no
// recipe whose prerequisites are all such targets.
func trivialScript(t shellline.ScriptTarget, file []byte, body string, depth int) bool {
	if t.Tool == "npm" {
		return strings.TrimSpace(body) == "" || shellline.Trivial(body)
	}
	prereq, recipe, _ := makeRule(file, t.Name)
	for _, r := range recipe {
		if !shellline.Trivial(r) {
			return false
		}
	}
	if depth > 8 {
		return false
	}
	for _, p := range prereq {
		sub := shellline.ScriptTarget{Tool: "make", Name: p}
		if _, _, ok := makeRule(file, p); !ok {
			return false // a file, or a rule this reader does not know
		}
		if !trivialScript(sub, file, "", depth+1) {
			return false
		}
	}
	return true
}

func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }
