package testrun

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/shellline"
)

// maxRecipeFile bounds a Makefile, justfile, Taskfile, mise or pixi file:
// far above a hand-written one.
const maxRecipeFile = 1 << 20

// ScriptFile finds the project file a target is read from, in the work
// tree: its path relative to the root and its content ("" when none). A
// file there that is not regular (a FIFO, /dev/zero), too large or a link
// out of the repository is not read: its path comes back with an error
// boundedread.Refused accepts (the run is not judged here).
func ScriptFile(root string, t shellline.ScriptTarget) (string, []byte, error) {
	// make, just and task read the first of their files that exists;
	// mise and pixi read several, and the first holding the task is
	// what runs (a file task of mise's last).
	firstWith := t.File == "" && (t.Tool == "mise" || t.Tool == "pixi")
	var firstRel string
	var first []byte
	for _, n := range RecipeFileNames(t) {
		rel := path.Clean(path.Join(t.Dir, n))
		if path.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
			return "", nil, nil // outside the repository: not judged here
		}
		b, err := boundedread.InRoot(root, rel, maxRecipeFile)
		if boundedread.Refused(err) {
			return rel, nil, err
		}
		if err != nil {
			continue
		}
		if !firstWith {
			return rel, b, nil
		}
		if _, ok := ScriptBody(t, b); ok {
			return rel, b, nil
		}
		if first == nil {
			firstRel, first = rel, b
		}
	}
	return firstRel, first, nil
}

// ScriptBody is a target's recipe (its prerequisites on the first line)
// or a package.json script; found is false when the file has none. A
// just, task, mise or pixi recipe comes in make's shape (recipes.go).
func ScriptBody(t shellline.ScriptTarget, file []byte) (string, bool) {
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
	if t.Tool != "make" {
		return recipeBody(t, file)
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

// TrivialScript reports a target or script that runs nothing: every
// command proves nothing (true, exit 0, echo), or a make target with no
// recipe whose prerequisites are all such targets.
func TrivialScript(t shellline.ScriptTarget, file []byte, body string, depth int) bool {
	if t.Tool == "npm" {
		return strings.TrimSpace(body) == "" || shellline.Trivial(body)
	}
	if t.Tool != "make" {
		return trivialRecipe(t, file, body, depth)
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
		if !TrivialScript(sub, file, "", depth+1) {
			return false
		}
	}
	return true
}

// notJudged is what a file the gate would not read (boundedread.Refused)
// is recorded as: why, without the path the change already names.
func notJudged(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err.Error() + ": not judged here, so the run does not count"
}

func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
