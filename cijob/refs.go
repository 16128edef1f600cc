package cijob

import (
	"bytes"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/scriptrun"
)

// A Reader reads a repository file (slashes, from the root) of the same
// tree the CI file was read from; ok is false when the tree has none.
type Reader func(rel string) (b []byte, ok bool)

// A job can run sessiongate without naming it: through a reusable
// workflow (`uses: ./.github/workflows/verify.yml`), a local action, a
// GitLab include, a script, or a make goal whose recipe runs it. Deleting
// such a caller stops CI's verify as surely as deleting the step, so the
// job that calls one is kept as a job that names sessiongate is, and the
// Makefile's rule for the goal is kept too (MakeWeakened).

// ref is one local file or make goal a CI file's text runs, keyed as
// spelled ("file:PATH", "make:DIR:FILE#GOAL"), so a file's two versions
// agree on keys without reading the tree again.
type ref struct {
	key  string
	path string   // a file's path
	yaml bool     // a workflow, action or include: read as a CI file
	make makeCall // a make goal (path empty)
	goal string
}

const maxDepth = 3 // a workflow that calls a workflow that includes a file

// refsIn lists the refs in v (a job, a setting or a whole file).
func refsIn(v any) []ref {
	var out []ref
	add := func(p string, y bool) {
		p = path.Clean(strings.TrimPrefix(p, "/"))
		if p == "." || p == ".." || strings.HasPrefix(p, "../") || strings.ContainsAny(p, "$*?[{}@") {
			return
		}
		out = append(out, ref{key: "file:" + p, path: p, yaml: y})
	}
	walkStrings(v, "", func(key, s string) {
		switch key {
		case "uses":
			rest, ok := strings.CutPrefix(s, "./")
			if !ok {
				return
			}
			if e := path.Ext(rest); e == ".yml" || e == ".yaml" {
				add(rest, true) // a reusable workflow
			} else {
				add(strings.TrimSuffix(rest, "/")+"/action.yml", true)
				add(strings.TrimSuffix(rest, "/")+"/action.yaml", true)
			}
			return
		case "local", "include":
			if !strings.Contains(s, "://") && (strings.HasSuffix(s, ".yml") || strings.HasSuffix(s, ".yaml")) {
				add(s, true) // GitLab's include: local
			}
			return
		case "project", "remote", "template", "component", "file":
			return // another project's file
		}
		files, makes := lineRuns(s)
		for _, f := range files {
			add(f, false)
		}
		for _, c := range makes {
			if c.dir == "" && c.file == "" {
				continue // a folder or file that leaves the repository
			}
			for _, g := range c.goals {
				out = append(out, ref{key: "make:" + c.dir + ":" + c.file + "#" + g, make: c, goal: g})
			}
		}
	})
	return out
}

// ghExpr is a GitHub Actions expression (`${{ github.sha }}`), which is
// not shell: the line is parsed with a word in its place.
var ghExpr = lazyregexp.New(`\$\{\{[^}]*\}\}`)

// lineRuns reads a command line as shell (scriptrun.Find): the
// repository files it runs by path (`./scripts/verify.sh`, `bash
// ci/verify.sh`, `python3 tools/x.py`) and its make calls (`make -C tools
// ci`, `make -f ci.mk check`). A path that leaves the repository, is
// absolute or holds a variable is no file of it.
func lineRuns(s string) (files []string, makes []makeCall) {
	for _, r := range scriptrun.Find(ghExpr.ReplaceAllString(s, "x")) {
		switch {
		case r.Lang == scriptrun.Make && r.DefaultMakefile:
			makes = append(makes, makeCall{dir: cleanRel(r.Path), goals: goalList(r.Goals)})
		case r.Lang == scriptrun.Make:
			makes = append(makes, makeCall{file: cleanRel(r.Path), goals: goalList(r.Goals)})
		case r.Path != "" && r.Code == "" && !r.Module && r.Suite == "" && !r.GoPackage && r.NpmScript == "" && !r.Optional && !r.FromInput:
			if p := cleanRel(r.Path); p != "" && p != "." && !strings.ContainsAny(p, "$*?[{}~`") {
				files = append(files, p)
			}
		}
	}
	return files, makes
}

// cleanRel is p relative to the repository root, "" when it leaves it.
func cleanRel(p string) string {
	p = path.Clean(p)
	if path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	return p
}

func goalList(goals string) []string {
	if g := strings.Fields(goals); len(g) > 0 {
		return g
	}
	return []string{""} // the default goal
}

// makefile names the file a make call reads through rd, "" when none.
func (c makeCall) makefile(rd Reader) string {
	if c.file != "" {
		return path.Clean(path.Join(c.dir, c.file))
	}
	for _, n := range Makefiles {
		p := path.Clean(path.Join(c.dir, n))
		if _, ok := rd(p); ok {
			return p
		}
	}
	return ""
}

// runners returns the keys of b's refs that run sessiongate when read
// through rd.
func runners(b []byte, rd Reader, depth int) map[string]bool {
	var doc any
	if rd == nil || depth < 0 || yaml.Unmarshal(b, &doc) != nil {
		return nil
	}
	out := map[string]bool{}
	for _, r := range refsIn(normalize(doc)) {
		if _, done := out[r.key]; !done {
			out[r.key] = r.runs(rd, depth)
		}
	}
	maps.DeleteFunc(out, func(_ string, v bool) bool { return !v })
	return out
}

// runs reports whether what r names runs sessiongate.
func (r ref) runs(rd Reader, depth int) bool {
	if r.path == "" { // a make goal
		mf := r.make.makefile(rd)
		mb, ok := rd(mf)
		if mf == "" || !ok {
			return false
		}
		rule := makeRule(withIncludes(mb, path.Dir(mf), rd), r.goal)
		if named(rule) {
			return true
		}
		for _, l := range strings.Split(rule, "\n") {
			if !strings.HasPrefix(l, "\t") {
				continue // a recipe line is shell; rule lines are make's
			}
			files, _ := lineRuns(strings.TrimLeft(l, "\t@-+"))
			for _, w := range files {
				if b, ok := rd(w); ok && named(string(b)) {
					return true
				}
			}
		}
		return false
	}
	b, ok := rd(r.path)
	if !ok {
		return false
	}
	if named(string(b)) {
		return true
	}
	return r.yaml && depth > 0 && len(runners(b, rd, depth-1)) > 0
}

func named(s string) bool { return strings.Contains(strings.ToLower(s), "sessiongate") }

// runsAny reports whether v names sessiongate or one of its refs is in run.
func runsAny(v any, run map[string]bool) bool {
	if mentions(v, "sessiongate") {
		return true
	}
	if len(run) == 0 {
		return false
	}
	return slices.ContainsFunc(refsIn(v), func(r ref) bool { return run[r.key] })
}

// Callees are the repository files, beyond a CI file itself, through which
// its jobs run sessiongate: YAML files (workflows, actions, includes)
// whose own jobs are compared with Weakened, and Makefiles with the goals
// whose rules MakeWeakened compares.
type Callees struct {
	YAML []string
	Make map[string][]string
	// MakeIncludes are the files those Makefiles include: a rule or
	// variable there changes the goal, so any change of one is a change.
	MakeIncludes []string
	// DefaultMake are the Makefiles of Make that plain `make` found by
	// name (no -f): a new GNUmakefile beside a Makefile is read instead.
	DefaultMake []string
}

// Shadows names the Makefile a new file p would replace for a goal CI
// runs sessiongate through: make reads GNUmakefile, then makefile, then
// Makefile, and only the first it finds. "" when p shadows none.
func (c Callees) Shadows(p string) string {
	i := slices.Index(Makefiles, path.Base(p))
	if i < 0 {
		return ""
	}
	for _, mf := range c.DefaultMake {
		if path.Dir(mf) == path.Dir(p) && i < slices.Index(Makefiles, path.Base(mf)) {
			return mf
		}
	}
	return ""
}

// withIncludes is a Makefile's text followed by the files it includes.
func withIncludes(mb []byte, dir string, rd Reader) []byte {
	out := slices.Clone(mb)
	for _, inc := range makeIncludes(mb, dir, rd) {
		b, _ := rd(inc)
		out = append(append(out, '\n'), b...)
	}
	return out
}

// makeIncludes lists the repository files a Makefile in dir includes, as
// far as they can be named without running make (no variables, no
// globs), and those they include, to a few levels; an absent one too.
func makeIncludes(mb []byte, dir string, rd Reader) []string {
	var out []string
	var walk func(b []byte, depth int)
	walk = func(b []byte, depth int) {
		if depth > maxDepth {
			return
		}
		mk := parseMake(b)
		for _, g := range mk.globals {
			f := strings.Fields(g)
			if len(f) < 2 || f[0] != "include" && f[0] != "-include" && f[0] != "sinclude" {
				continue
			}
			for _, w := range f[1:] {
				w = mk.expandSimple(w)
				p := cleanRel(path.Join(dir, w))
				if p == "" || strings.ContainsAny(w, "$*?[") || slices.Contains(out, p) {
					continue
				}
				// Listed even when absent: `-include local.mk` reads a
				// local.mk added later, which can redefine the goal.
				out = append(out, p)
				if sub, ok := rd(p); ok {
					walk(sub, depth+1)
				}
			}
		}
	}
	walk(mb, 0)
	return out
}

// CalleesOf reads b's callees through rd (b's own tree).
func CalleesOf(b []byte, rd Reader) Callees {
	c := Callees{Make: map[string][]string{}}
	var doc any
	if rd == nil || yaml.Unmarshal(b, &doc) != nil {
		return c
	}
	run := runners(b, rd, maxDepth)
	seen := map[string]bool{}
	for _, r := range refsIn(normalize(doc)) {
		if !run[r.key] || seen[r.key] {
			continue
		}
		seen[r.key] = true
		switch {
		case r.path == "":
			if mf := r.make.makefile(rd); mf != "" {
				c.Make[mf] = append(c.Make[mf], r.goal)
				if r.make.file == "" && !slices.Contains(c.DefaultMake, mf) {
					c.DefaultMake = append(c.DefaultMake, mf)
				}
				mb, _ := rd(mf)
				for _, inc := range makeIncludes(mb, path.Dir(mf), rd) {
					if !slices.Contains(c.MakeIncludes, inc) {
						c.MakeIncludes = append(c.MakeIncludes, inc)
					}
				}
			}
		case r.yaml:
			c.YAML = append(c.YAML, r.path)
			if sub, ok := rd(r.path); ok {
				for _, p := range CalleesOf(sub, rd).YAML {
					if !slices.Contains(c.YAML, p) && p != r.path {
						c.YAML = append(c.YAML, p)
					}
				}
			}
		}
	}
	slices.Sort(c.YAML)
	return c
}

// MakeWeakened says what an edit of a Makefile did to the rules of goals
// a CI job runs sessiongate through, "" when it kept them; after == nil
// is a deletion.
func MakeWeakened(before, after []byte, goals []string) string {
	if after == nil {
		return "deletes it, and with it the make goal the CI job runs sessiongate through"
	}
	var changed []string
	for _, g := range goals {
		if !bytes.Equal([]byte(makeRule(before, g)), []byte(makeRule(after, g))) {
			changed = append(changed, cmpGoal(g))
		}
	}
	if len(changed) == 0 {
		return ""
	}
	return fmt.Sprintf("changes what %s runs, the make goal the CI job runs sessiongate through", strings.Join(changed, ", "))
}

// IncludeWeakened says what an edit did to a file a Makefile includes
// (Callees.MakeIncludes), "" when it kept it byte for byte.
func IncludeWeakened(before, after []byte) string {
	switch {
	case before == nil && after != nil:
		return "adds it, a file the Makefile of the make goal the CI job runs sessiongate through includes (it can redefine the goal)"
	case after == nil:
		return "deletes it, and with it what the make goal the CI job runs sessiongate through includes"
	case !bytes.Equal(before, after):
		return "changes it, a file the Makefile of the make goal the CI job runs sessiongate through includes"
	}
	return ""
}

func cmpGoal(g string) string {
	if g == "" {
		return "`make` (its default goal)"
	}
	return "`make " + g + "`"
}

// IncludeGlobs lists the wildcard local includes of a CI file that runs
// sessiongate (GitLab's `include: 'ci/*.yml'`): a file added there later
// is read with it, and can redefine its verify job.
func IncludeGlobs(b []byte, rd Reader) []string {
	parts, _, err := read(b, runners(b, rd, maxDepth))
	if err != nil || len(parts) == 0 {
		return nil
	}
	var doc map[string]any
	if yaml.Unmarshal(b, &doc) != nil {
		return nil
	}
	var out []string
	walkStrings(normalize(doc["include"]), "include", func(key, s string) {
		if (key == "include" || key == "local") && !strings.Contains(s, "://") && strings.ContainsAny(s, "*?[") {
			if g := strings.TrimPrefix(path.Clean(s), "/"); !strings.HasPrefix(g, "../") && !slices.Contains(out, g) {
				out = append(out, g)
			}
		}
	})
	return out
}

// Overrides says which of the parts of base that decide how sessiongate
// runs (PartsIn) a file added under one of its IncludeGlobs redefines,
// "" when none: a job of the same name, a template it extends, or a
// setting (variables, workflow, default).
func Overrides(base []byte, rd Reader, added []byte) string {
	parts, err := PartsIn(base, rd)
	if err != nil || len(parts) == 0 {
		return ""
	}
	var doc map[string]any
	if yaml.Unmarshal(added, &doc) != nil {
		return "it does not parse, so CI reads none of the pipeline"
	}
	var hit []string
	for k := range doc {
		if _, ok := parts[k]; ok || k == "workflow" || k == "variables" || k == "default" || k == "include" {
			hit = append(hit, k)
		}
	}
	if len(hit) == 0 {
		return ""
	}
	slices.Sort(hit)
	return "it redefines what decides whether and how sessiongate runs (" + strings.Join(hit, ", ") + "), read through the pipeline's wildcard include"
}
