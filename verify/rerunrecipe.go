package verify

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/testrun"
)

// The rerun guard reads a recipe file (Makefile, justfile, Taskfile) the
// base's command runs as the QA gate reads it (round 28, c2): the test
// target, the targets it depends on and the make variables they expand,
// each judged by testrun.SectionChange, the gate's own function. Before,
// any change to the file failed verify without a signature, so a check
// an honest session added inline to the test recipe passed the gate and
// failed CI. What the gate does not read but the runner does (a line
// outside every recipe: SHELL, MAKEFLAGS, include, a just `set`/`import`
// or variable, a Taskfile's top-level keys; the target dropped from
// .PHONY; another file the runner now reads first) still fails here.
// mise and pixi files keep the whole-file rule.

// recipeJudgement is what recipeChanges found in one range.
type recipeJudgement struct {
	weak, noted []weakening
	judged      map[string]bool // recipe files read by sections (the whole-file rule skips them)
}

// recipeChanges judges the recipes the base's rerun commands run.
func (t *protocolTrust) recipeChanges(ctx context.Context, base, tip string, cmds []string, isCode func(string) bool) (recipeJudgement, error) {
	return recipeChangesAt(ctx, t.repo, base, tip, cmds, isCode)
}

func recipeChangesAt(ctx context.Context, repo *gitrepo.Repo, base, tip string, cmds []string, isCode func(string) bool) (recipeJudgement, error) {
	j := recipeJudgement{judged: map[string]bool{}}
	read := func(rev, p string) ([]byte, error) {
		b, err := repo.ReadAt(ctx, rev, p)
		if errors.Is(err, gitrepo.ErrNoFile) {
			return nil, nil
		}
		return b, err
	}
	// The file the runner reads at rev: make, just and task the first of
	// their names that exists (RecipeFileNames' order).
	resolve := func(rev string, st shellline.ScriptTarget) (string, []byte, error) {
		for _, n := range testrun.RecipeFileNames(st) {
			rel := path.Clean(path.Join(st.Dir, n))
			if path.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
				return "", nil, nil
			}
			b, err := read(rev, rel)
			if err != nil {
				return "", nil, fmt.Errorf("the rerun guard: read %s at %s: %w", rel, shortRev(rev), err)
			}
			if b != nil {
				return rel, b, nil
			}
		}
		return "", nil, nil
	}
	for _, c := range cmds {
		for _, st := range shellline.ScriptTargets(c) {
			if st.Name == "" || (st.Tool != "make" && st.Tool != "just" && st.Tool != "task") {
				continue
			}
			rel, was, err := resolve(base, st)
			if err != nil {
				return j, err
			}
			if rel == "" || j.judged[rel] {
				continue
			}
			if _, ok := testrun.ScriptBody(st, was); !ok {
				continue // no such target at the base: the whole-file rule
			}
			relNow, now, err := resolve(tip, st)
			if err != nil {
				return j, err
			}
			j.judged[rel] = true
			if relNow != rel {
				what := "deletes it, and the rerun runs " + st.Tool
				if relNow != "" {
					j.judged[relNow] = true
					what = fmt.Sprintf("the rerun's %s now reads %s instead of it", st.Tool, relNow)
				}
				j.weak = append(j.weak, weakening{rel, what})
				continue
			}
			names := recipeClosure(st, was, now)
			var secs []string
			for i, n := range names {
				sub := st
				sub.Name = n
				for _, b := range [][]byte{was, now} {
					if body, ok := testrun.ScriptBody(sub, b); ok {
						for _, s := range testrun.RecipeSections(sub, body) {
							if !slices.Contains(secs, s) {
								secs = append(secs, s)
							}
						}
					}
				}
				// A dependency is judged line by line like the target
				// (it is often a check itself: `check: lint unit`); one
				// that now runs nothing is named as such.
				if i > 0 {
					bw, okw := testrun.ScriptBody(sub, was)
					bn, okn := testrun.ScriptBody(sub, now)
					if okw && okn && testrun.TrivialScript(sub, now, bn, 0) && !testrun.TrivialScript(sub, was, bw, 0) {
						j.weak = append(j.weak, weakening{rel, fmt.Sprintf("the %q %s the test target depends on now runs nothing (%s)", n, st.Tool, testrun.OneLine(bn))})
					}
				}
			}
			tipRead := func(f string) (string, bool) {
				b, err := repo.ReadAt(ctx, tip, f)
				return string(b), err == nil && len(b) <= 256<<10
			}
			for _, s := range secs {
				ch, ok := testrun.SectionChange(rel, s, testrun.SectionOf(was, s), testrun.SectionOf(now, s), false, false, nil, isCode, tipRead)
				switch {
				case !ok:
				case ch.Weakens():
					j.weak = append(j.weak, weakening{rel, ch.String()})
				default:
					j.noted = append(j.noted, weakening{rel, ch.String()})
				}
			}
			if why := outsideRecipes(st.Tool, was, now, names); why != "" {
				j.weak = append(j.weak, weakening{rel, why})
			}
		}
	}
	return j, nil
}

func shortRev(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}

// recipeClosure is the target and the targets it depends on, at either
// end (bounded: a test target's dependencies are few).
func recipeClosure(st shellline.ScriptTarget, files ...[]byte) []string {
	names := []string{st.Name}
	for i := 0; i < len(names) && len(names) < 32; i++ {
		sub := st
		sub.Name = names[i]
		for _, b := range files {
			body, ok := testrun.ScriptBody(sub, b)
			if !ok {
				continue
			}
			first, _, _ := strings.Cut(body, "\n")
			deps, ok := strings.CutPrefix(first, sub.Name+":")
			if !ok {
				continue
			}
			for _, d := range strings.Fields(deps) {
				if _, found := testrun.ScriptBody(shellline.ScriptTarget{Tool: st.Tool, Name: d}, b); found && !slices.Contains(names, d) {
					names = append(names, d)
				}
			}
		}
	}
	return names
}

var (
	makeRuleHead = lazyregexp.New(`^[^\s#=:][^=:]*::?([^=]|$)`)
	justRecipe   = lazyregexp.New(`^@?[A-Za-z_][A-Za-z0-9_-]*(\s[^:]*)?:([^=]|$)`)
)

// outsideRecipes says what a change outside every recipe does to how
// the runner runs the judged ones, "" when nothing there changed: such a
// line (make's SHELL, MAKEFLAGS, include, a special target; just's set,
// import, a variable; a Taskfile's top-level keys) reaches every recipe,
// and the gate's sections do not show it.
func outsideRecipes(tool string, was, now []byte, judged []string) string {
	switch tool {
	case "make":
		a, pa := makeOutside(was)
		b, pb := makeOutside(now)
		for _, n := range judged {
			if pa[n] && !pb[n] {
				return fmt.Sprintf("removes %s from .PHONY: a file of that name then stands for the target, and make may not run it", n)
			}
		}
		return linesDiffer(a, b, "a line outside every recipe")
	case "just":
		return linesDiffer(justOutside(was), justOutside(now), "a line outside every recipe (a setting, import, variable or attribute)")
	case "task":
		a, b := taskOutside(was), taskOutside(now)
		if a != b {
			return "changes the Taskfile's top-level settings (vars, env, includes, dotenv, set ...), which reach every task"
		}
	}
	return ""
}

func linesDiffer(a, b []string, what string) string {
	count := map[string]int{}
	for _, l := range a {
		count[l]++
	}
	var changed []string
	for _, l := range b {
		if count[l] > 0 {
			count[l]--
			continue
		}
		changed = append(changed, l)
	}
	for l, n := range count {
		if n > 0 {
			changed = append(changed, l)
		}
	}
	if len(changed) == 0 {
		return ""
	}
	slices.Sort(changed)
	return fmt.Sprintf("changes %s (%q), which reaches every recipe the runner runs", what, strings.Join(changed, "; "))
}

// makeOutside lists a Makefile's lines outside every rule and its
// .PHONY targets (judged apart: an honest new target is added there).
func makeOutside(b []byte) ([]string, map[string]bool) {
	var out []string
	phony := map[string]bool{}
	lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		for strings.HasSuffix(l, "\\") && i+1 < len(lines) {
			i++
			l = strings.TrimSuffix(l, "\\") + " " + strings.TrimSpace(lines[i])
		}
		s := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "\t"), s == "", strings.HasPrefix(s, "#"):
			continue
		case strings.HasPrefix(s, ".PHONY"):
			if _, rest, ok := strings.Cut(s, ":"); ok {
				for _, w := range strings.Fields(rest) {
					phony[w] = true
				}
			}
			continue
		case !strings.HasPrefix(s, ".") && !strings.Contains(s, "%") && makeRuleHead.MatchString(s) &&
			!strings.HasPrefix(s, "include ") && !strings.HasPrefix(s, "-include ") && !strings.HasPrefix(s, "sinclude "):
			continue // another rule's head: its recipe is judged if it is run
		}
		out = append(out, strings.Join(strings.Fields(s), " "))
	}
	return out, phony
}

// justOutside lists a justfile's lines outside every recipe: settings,
// imports, modules, variables, aliases, attributes.
func justOutside(b []byte) []string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n") {
		s := strings.TrimSpace(l)
		switch {
		case s == "", strings.HasPrefix(s, "#"), l != strings.TrimLeft(l, " \t"):
			continue // a recipe's line, a comment
		case justRecipe.MatchString(s) && !strings.Contains(s, ":="):
			continue // a recipe's head
		}
		out = append(out, strings.Join(strings.Fields(s), " "))
	}
	return out
}

// taskOutside is a Taskfile without its tasks, as canonical YAML ("?" when
// it does not parse: a change then counts).
func taskOutside(b []byte) string {
	var doc map[string]any
	if yaml.Unmarshal(b, &doc) != nil {
		return "?" + string(b)
	}
	delete(doc, "tasks")
	out, err := yaml.Marshal(doc)
	if err != nil {
		return "?" + string(b)
	}
	return string(out)
}
