package testrun

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/shellline"
)

// One judgement of a test target's recipe file for the QA gate and for
// verify (round 29, c2; the final review of round 28): the gate
// (InputChanges: the start commit against the work tree) and verify's
// rerun guard (the base against the tip) both call RecipeFileChanges.
// Before, only verify read the target's dependency targets and the lines
// outside every recipe (make's SHELL, MAKEFLAGS, .IGNORE, include; just's
// set; a Taskfile's top-level env), so `SHELL = /bin/true` passed the
// local gate and failed CI.

// RecipeSide reads one end of the compare: a file by its repository path,
// nil when there is none.
type RecipeSide func(p string) ([]byte, error)

// RecipeJudge is how a caller's sections are judged (SectionChange's
// arguments) and whether the target's own section is (the gate leaves an
// agent's own `make test` target to WeakScript, which refuses any change).
type RecipeJudge struct {
	SkipTarget   bool
	Dead, IsCode func(string) bool
	Read         func(string) (string, bool)
	// NowExtra reads, at the now end, a file the recipe file includes or
	// loads (a make include, a dotenv file); nil: now. The gate leaves
	// out a file the start commit lacks that git ignores (a developer's
	// local.mk or .env: CI has none, and the gate cannot tell when it was
	// written).
	NowExtra RecipeSide
}

// RecipeFile is the file the runner of t reads at one end ("" none) and
// its text: make, just and task read the first of their names that
// exists (RecipeFileNames' order).
func RecipeFile(t shellline.ScriptTarget, read RecipeSide) (string, []byte, error) {
	for _, n := range RecipeFileNames(t) {
		rel := path.Clean(path.Join(t.Dir, n))
		if path.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
			return "", nil, nil
		}
		b, err := read(rel)
		if err != nil {
			return "", nil, fmt.Errorf("read %s: %w", rel, err)
		}
		if b != nil {
			return rel, b, nil
		}
	}
	return "", nil, nil
}

// RecipeFileChanges judges what changed, between was and now, in the
// recipe file the runner of t reads: the target and the targets it
// depends on (RecipeClosure), the make variables they expand, the lines
// outside every recipe that reach them (OutsideRecipes), the target
// dropped from .PHONY, another file the runner now reads first, and a
// dotenv file the runner loads. judged is false when the file or the
// target is not at the was end (the caller's own rule then).
func RecipeFileChanges(t shellline.ScriptTarget, was, now RecipeSide, j RecipeJudge) (changes []InputChange, rel string, judged bool, err error) {
	if t.Tool != "make" && t.Tool != "just" && t.Tool != "task" {
		return nil, "", false, nil
	}
	rel, wasB, err := RecipeFile(t, was)
	if err != nil || rel == "" {
		return nil, rel, false, err
	}
	if _, ok := ScriptBody(t, wasB); !ok {
		return nil, rel, false, nil
	}
	relNow, nowB, err := RecipeFile(t, now)
	if err != nil {
		return nil, rel, false, err
	}
	if relNow != rel {
		what := "deleted, and the run's " + t.Tool + " reads no recipe file"
		if relNow != "" {
			what = fmt.Sprintf("the run's %s now reads %s instead of it", t.Tool, relNow)
		}
		return []InputChange{{rel, what, true}}, rel, true, nil
	}
	var readWas, readNow map[string]bool
	if t.Tool == "make" {
		// What make includes is read as part of the file (a new
		// `-include local.mk` the team had, holding SHELL = /bin/true).
		extra := j.NowExtra
		if extra == nil {
			extra = now
		}
		if wasB, readWas, err = withIncludes(wasB, t.Dir, was); err != nil {
			return nil, rel, false, err
		}
		if nowB, readNow, err = withIncludes(nowB, t.Dir, extra); err != nil {
			return nil, rel, false, err
		}
	}
	names := RecipeClosure(t, wasB, nowB)
	var secs []string
	for i, n := range names {
		sub := t
		sub.Name = n
		for _, b := range [][]byte{wasB, nowB} {
			if body, ok := ScriptBody(sub, b); ok {
				for k, s := range RecipeSections(sub, body) {
					if i == 0 && k == 0 && j.SkipTarget {
						continue
					}
					if !slices.Contains(secs, s) {
						secs = append(secs, s)
					}
				}
			}
		}
		// A dependency is judged line by line like the target (it is
		// often a check itself: `check: lint unit`); one that now runs
		// nothing is named as such.
		if i > 0 {
			bw, okw := ScriptBody(sub, wasB)
			bn, okn := ScriptBody(sub, nowB)
			if okw && okn && TrivialScript(sub, nowB, bn, 0) && !TrivialScript(sub, wasB, bw, 0) {
				changes = append(changes, InputChange{rel, fmt.Sprintf("the %q %s the test target depends on now runs nothing (%s)", n, recipeWord(t.Tool), OneLine(bn)), true})
			}
		}
	}
	for _, s := range secs {
		a, b := SectionOf(wasB, s), SectionOf(nowB, s)
		if t.Tool == "make" {
			b = keepHeadWithNewPrereqs(a, b, wasB)
		}
		if ch, ok := SectionChange(rel, s, a, b, false, false, j.Dead, j.IsCode, j.Read); ok {
			changes = append(changes, ch)
		}
	}
	if t.Tool == "make" {
		// ScriptBody drops make's @ - + prefixes; `-` makes make ignore
		// the line's failure, so a `-` the session put before a judged
		// line is the check made `|| true`.
		for _, n := range names {
			if a, b := makeIgnoring(wasB, n), makeIgnoring(nowB, n); b > a {
				changes = append(changes, InputChange{rel, fmt.Sprintf("puts '-' before %d line(s) of the %q target: make ignores their failure", b-a, n), true})
			}
		}
	}
	ow, on := wasB, nowB
	if t.Tool == "make" {
		ow, on = dropReadIncludes(wasB, t.Dir, readWas), dropReadIncludes(nowB, t.Dir, readNow)
	}
	if why := OutsideRecipes(t.Tool, ow, on, names); why != "" {
		changes = append(changes, InputChange{rel, why, true})
	}
	for _, env := range dotenvFiles(t.Tool, nowB) {
		p := path.Clean(path.Join(t.Dir, env))
		if path.IsAbs(p) || strings.HasPrefix(p, "../") {
			continue
		}
		extra := j.NowExtra
		if extra == nil {
			extra = now
		}
		a, errA := was(p)
		b, errB := extra(p)
		if errA != nil || errB != nil {
			return nil, rel, true, errors.Join(errA, errB)
		}
		if why := dotenvChange(string(a), string(b)); why != "" {
			changes = append(changes, InputChange{p, fmt.Sprintf("%s, which %s loads into every recipe's environment", why, t.Tool), true})
		}
	}
	return changes, rel, true, nil
}

var makeIncludeRE = lazyregexp.New(`^\s*(?:-include|sinclude|include)\s+(.+)$`)

// withIncludes appends to a Makefile the files it includes by a plain
// name (no variable, no glob), as read, a few deep; a file included twice
// is read once.
func withIncludes(b []byte, dir string, read RecipeSide) ([]byte, map[string]bool, error) {
	if b == nil {
		return nil, nil, nil
	}
	out := slices.Clone(b)
	seen, got := map[string]bool{}, map[string]bool{}
	for i := 0; i < len(out) && len(seen) < 16; {
		rest := out[i:]
		nl := strings.IndexByte(string(rest), '\n')
		line := string(rest)
		if nl >= 0 {
			line = string(rest[:nl])
			i += nl + 1
		} else {
			i = len(out)
		}
		m := makeIncludeRE.FindStringSubmatch(line)
		if m == nil || strings.HasPrefix(line, "\t") {
			continue
		}
		for _, f := range strings.Fields(m[1]) {
			if strings.ContainsAny(f, "$*?[") || strings.HasPrefix(f, "#") {
				continue
			}
			p := path.Clean(path.Join(dir, f))
			if seen[p] || path.IsAbs(p) || strings.HasPrefix(p, "../") {
				continue
			}
			seen[p] = true
			inc, err := read(p)
			if err != nil {
				return nil, nil, err
			}
			if inc != nil {
				got[p] = true
				out = append(append(append(out, "\n# include "+p+"\n"...), inc...), '\n')
			}
		}
	}
	return out, got, nil
}

// makeIgnoring counts the recipe lines of target name whose prefix holds
// '-' (make ignores their failure).
func makeIgnoring(b []byte, name string) int {
	n := 0
	lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "\t") || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		head, rest, found := strings.Cut(l, ":")
		if !found || strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, ":=") || !slices.Contains(strings.Fields(head), name) {
			continue
		}
		if _, inline, ok := strings.Cut(rest, ";"); ok && strings.HasPrefix(strings.TrimLeft(strings.TrimSpace(inline), "@+"), "-") {
			n++
		}
		for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], "\t") || strings.TrimSpace(lines[i+1]) == "" && i+2 < len(lines) && strings.HasPrefix(lines[i+2], "\t")) {
			i++
			p := strings.TrimSpace(lines[i])
			if strings.Contains(p[:len(p)-len(strings.TrimLeft(p, "@-+ "))], "-") {
				n++
			}
		}
	}
	return n
}

// RecipeClosure is the target and the targets it depends on, at either
// end (bounded: a test target's dependencies are few). One reading of a
// body's dependencies (recipeDeps) for the gate and verify.
func RecipeClosure(t shellline.ScriptTarget, files ...[]byte) []string {
	names := []string{t.Name}
	for i := 0; i < len(names) && len(names) < 32; i++ {
		sub := t
		sub.Name = names[i]
		for _, b := range files {
			body, ok := ScriptBody(sub, b)
			if !ok {
				continue
			}
			for _, d := range recipeDeps(sub, body) {
				if _, found := ScriptBody(shellline.ScriptTarget{Tool: t.Tool, Name: d}, b); found && !slices.Contains(names, d) {
					names = append(names, d)
				}
			}
		}
	}
	return names
}

var (
	makeRuleHead = lazyregexp.New(`^[^\s#=:][^=:]*::?([^=]|$)`)
	justRecipeRE = lazyregexp.New(`^@?[A-Za-z_][A-Za-z0-9_-]*(\s[^:]*)?:([^=]|$)`)
	// A plain variable assignment outside every recipe: a new one for a
	// new target reaches the judged recipes only by its name.
	makeAssignRE = lazyregexp.New(`^([A-Za-z_][A-Za-z0-9_]*)\s*(?:\?|\+|:|::|:::)?=(.*)$`)
	justAssignRE = lazyregexp.New(`^([A-Za-z_][A-Za-z0-9_-]*)\s*:=(.*)$`)
	// What runs when make or just reads the file, wherever the value is
	// used: a shell call, eval, a file written.
	parseRunsRE = lazyregexp.New("\\$[({](?:shell|eval|file|call|value|guile)\\b|`|\\bshell\\s*\\(")
)

// makeSpecialVars are the variables make itself, or its built-in rules,
// read whatever the recipes say.
var makeSpecialVars = map[string]bool{
	"SHELL": true, "MAKESHELL": true, "MAKEFLAGS": true, "MFLAGS": true, "GNUMAKEFLAGS": true, "MAKEFILES": true,
	"MAKEOVERRIDES": true, "MAKE": true, "MAKELEVEL": true, "MAKECMDGOALS": true, "VPATH": true, "MAKEFILE_LIST": true,
	"CC": true, "CXX": true, "CFLAGS": true, "CXXFLAGS": true, "CPPFLAGS": true, "LDFLAGS": true, "LDLIBS": true,
	"LD": true, "AR": true, "ARFLAGS": true, "AS": true, "ASFLAGS": true, "RM": true, "FC": true, "FFLAGS": true,
	"YACC": true, "LEX": true, "CPP": true, "TARGET_ARCH": true, "OUTPUT_OPTION": true, "COMPILE.c": true, "LINK.o": true,
}

// OutsideRecipes says what a change outside every recipe does to how
// the runner runs the judged ones, "" when nothing there changed that
// reaches them: such a line (make's SHELL, MAKEFLAGS, include, a special
// target, export; just's set, import, an exported variable; a Taskfile's
// top-level env) reaches every recipe, and the sections do not show it.
// A plain variable that no judged recipe or other outside line names,
// whose value runs nothing when the file is read, a comment, an
// attribute of another just recipe, and a .PHONY entry are no such
// change (an honest new target brings them).
func OutsideRecipes(tool string, was, now []byte, judged []string) string {
	text := judgedText(tool, judged, was, now)
	switch tool {
	case "make":
		a, pa := makeOutside(was)
		b, pb := makeOutside(now)
		for _, n := range judged {
			if pa[n] && !pb[n] {
				return fmt.Sprintf("removes %s from .PHONY: a file of that name then stands for the target, and make may not run it", n)
			}
		}
		exportsAll := slices.ContainsFunc(b, func(l string) bool { return l == "export" || strings.HasPrefix(l, ".EXPORT_ALL_VARIABLES") })
		return linesDiffer(a, b, "a line outside every recipe", func(l string, all []string) bool {
			// .SILENT only stops make echoing commands; exit statuses
			// and the commands' own output are as before (review 29 c10).
			if rest, ok := strings.CutPrefix(l, ".SILENT:"); ok && !strings.ContainsAny(rest, ";=$|:") {
				return true
			}
			m := makeAssignRE.FindStringSubmatch(l)
			return m != nil && !exportsAll && !makeSpecialVars[m[1]] && !parseRunsRE.MatchString(m[2]) && !namedIn(m[1], text, all, l)
		})
	case "just":
		a, b := justOutside(was, judged), justOutside(now, judged)
		exportsAll := slices.ContainsFunc(b, func(l string) bool { return strings.HasPrefix(l, "set export") })
		return linesDiffer(a, b, "a line outside every recipe (a setting, import, variable or attribute)", func(l string, all []string) bool {
			m := justAssignRE.FindStringSubmatch(l)
			return m != nil && !exportsAll && !parseRunsRE.MatchString(m[2]) && !namedIn(m[1], text, all, l)
		})
	case "task":
		a, b := taskOutside(was, text), taskOutside(now, text)
		if a != b {
			return "changes the Taskfile's top-level settings (vars, env, includes, dotenv, set ...), which reach every task"
		}
	}
	return ""
}

// judgedText is the judged recipes' bodies at both ends: what names a
// variable they read.
func judgedText(tool string, judged []string, files ...[]byte) string {
	var sb strings.Builder
	for _, n := range judged {
		for _, b := range files {
			if body, ok := ScriptBody(shellline.ScriptTarget{Tool: tool, Name: n}, b); ok {
				sb.WriteString(body + "\n")
			}
		}
	}
	if tool == "task" {
		// A task's own vars and env are in its YAML, not its body.
		for _, b := range files {
			var doc struct {
				Tasks map[string]any `yaml:"tasks"`
			}
			if yaml.Unmarshal(b, &doc) == nil {
				for _, n := range judged {
					if out, err := yaml.Marshal(doc.Tasks[n]); err == nil {
						sb.Write(out)
					}
				}
			}
		}
	}
	return sb.String()
}

// namedIn: name is a word of text or of another outside line than its
// own assignments (a variable read through another one).
func namedIn(name, text string, lines []string, own string) bool {
	if containsWord(text, name) {
		return true
	}
	for _, l := range lines {
		if l == own {
			continue
		}
		if m := makeAssignRE.FindStringSubmatch(l); m != nil && m[1] == name {
			continue
		}
		if m := justAssignRE.FindStringSubmatch(l); m != nil && m[1] == name {
			continue
		}
		if containsWord(l, name) {
			return true
		}
	}
	return false
}

// linesDiffer names the lines that differ between a and b (as multisets)
// but those free says reach no judged recipe (all: the lines of both ends).
func linesDiffer(a, b []string, what string, free func(l string, all []string) bool) string {
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
	all := append(slices.Clone(a), b...)
	changed = slices.DeleteFunc(changed, func(l string) bool { return free(l, all) })
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
			!strings.HasPrefix(s, "include ") && !strings.HasPrefix(s, "-include ") && !strings.HasPrefix(s, "sinclude ") &&
			!strings.Contains(strings.SplitN(s, ":", 2)[0], "$"):
			// Another rule's head: its recipe is judged if it is run. Not
			// `$(QA_GOAL):`, which can name the judged target itself
			// (lazy pass 34: its recipe replaced `make test`'s).
			continue
		}
		out = append(out, strings.Join(strings.Fields(s), " "))
	}
	return out, phony
}

// justOutside lists a justfile's lines outside every recipe: settings,
// imports, modules, variables, aliases, attributes (but those of a
// recipe not judged, which come with an honest new recipe).
func justOutside(b []byte, judged []string) []string {
	var out []string
	lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	for i, l := range lines {
		s := strings.TrimSpace(l)
		switch {
		case s == "", strings.HasPrefix(s, "#"), l != strings.TrimLeft(l, " \t"):
			continue // a recipe's line, a comment
		case justRecipeRE.MatchString(s) && !strings.Contains(s, ":="):
			continue // a recipe's head
		case strings.HasPrefix(s, "[") && !judgedAttribute(lines[i+1:], judged):
			continue
		}
		out = append(out, strings.Join(strings.Fields(s), " "))
	}
	return out
}

// judgedAttribute: the recipe an attribute line stands above (the next
// line that is neither an attribute nor a comment) is judged, or unknown.
func judgedAttribute(rest []string, judged []string) bool {
	for _, l := range rest {
		s := strings.TrimSpace(l)
		if s == "" || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "[") {
			continue
		}
		if !justRecipeRE.MatchString(s) || strings.Contains(s, ":=") {
			return true
		}
		name := strings.TrimPrefix(s, "@")
		if i := strings.IndexAny(name, " \t:"); i >= 0 {
			name = name[:i]
		}
		return slices.Contains(judged, name)
	}
	return true
}

// taskOutside is a Taskfile without its tasks, as canonical YAML ("?" when
// it does not parse: a change then counts); a top-level var no judged
// task names (text) and that runs nothing (no sh:) is left out.
func taskOutside(b []byte, text string) string {
	var doc map[string]any
	if yaml.Unmarshal(b, &doc) != nil {
		return "?" + string(b)
	}
	delete(doc, "tasks")
	if vars, ok := doc["vars"].(map[string]any); ok {
		for k, v := range vars {
			if m, dyn := v.(map[string]any); dyn && m["sh"] != nil {
				continue
			}
			if s, isStr := v.(string); isStr && strings.Contains(s, "{{") {
				continue // reads another var
			}
			if !containsWord(text, k) && !varNamedByOthers(vars, k) {
				delete(vars, k)
			}
		}
		if len(vars) == 0 {
			delete(doc, "vars")
		}
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		return "?" + string(b)
	}
	return string(out)
}

func varNamedByOthers(vars map[string]any, k string) bool {
	for o, v := range vars {
		if o != k && containsWord(fmt.Sprint(v), k) {
			return true
		}
	}
	return false
}

// dotenvFiles are the files the runner loads into every recipe's
// environment, as the recipe file says now.
func dotenvFiles(tool string, b []byte) []string {
	switch tool {
	case "just":
		var load bool
		name := ".env"
		for _, l := range strings.Split(string(b), "\n") {
			s := strings.Join(strings.Fields(l), " ")
			switch {
			case s == "set dotenv-load" || strings.HasPrefix(s, "set dotenv-load := true") || strings.HasPrefix(s, "set dotenv-required"):
				load = true
			case strings.HasPrefix(s, "set dotenv-filename :=") || strings.HasPrefix(s, "set dotenv-path :="):
				load = true
				name = strings.Trim(strings.TrimSpace(s[strings.Index(s, ":=")+2:]), `"'`)
			}
		}
		if load {
			return []string{name}
		}
	case "task":
		var doc struct {
			Dotenv []string `yaml:"dotenv"`
		}
		if yaml.Unmarshal(b, &doc) == nil {
			return doc.Dotenv
		}
	}
	return nil
}

// dotenvChange names the keys a dotenv file sets anew, differently or no
// more, "" when only comments or blank lines changed.
func dotenvChange(was, now string) string {
	keys := func(text string) map[string]string {
		m := map[string]string{}
		for _, l := range strings.Split(text, "\n") {
			l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "export "))
			if k, v, ok := strings.Cut(l, "="); ok && !strings.HasPrefix(l, "#") {
				m[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
		return m
	}
	a, b := keys(was), keys(now)
	var set []string
	for k, v := range b {
		if old, ok := a[k]; !ok || old != v {
			set = append(set, k)
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			set = append(set, k+" (removed)")
		}
	}
	if len(set) == 0 {
		return ""
	}
	slices.Sort(set)
	return "sets " + strings.Join(set, ", ")
}

// containsWord: w stands in s with no identifier character either side.
func containsWord(s, w string) bool {
	if w == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !identByte(s[j-1])
		after := j+len(w) == len(s) || !identByte(s[j+len(w)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func identByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// RecipeWords are the scripts the commands of target t and the targets
// it depends on run or source, in file (not a file they only read, nor a
// test file), with t.Dir: verify's rerun guard takes those naming a file
// of the base as scripts the rerun runs, as the gate reads the scripts a
// target calls (round 29, c2: `test: ; sh scripts/check.sh` with
// check.sh made `|| true` passed CI).
func RecipeWords(t shellline.ScriptTarget, file []byte) []string {
	var out []string
	for _, n := range RecipeClosure(t, file) {
		sub := t
		sub.Name = n
		body, ok := ScriptBody(sub, file)
		if !ok {
			continue
		}
		for _, l := range strings.Split(body, "\n") {
			if t.Tool != "npm" && strings.HasPrefix(l, n+":") || strings.HasPrefix(l, settingMark) {
				continue
			}
			// Scripts it runs or sources, not the files it reads (data,
			// the code under test) nor test files (judged as tests).
			for _, sc := range ranScripts(l) {
				p := path.Join(t.Dir, sc.dir, sc.file)
				if !strings.ContainsAny(p, "*?[$\n={}") && !testNamed(p) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// keepHeadWithNewPrereqs returns now with its rule head read as was's
// when the only change there is prerequisites added that the was file
// has no rule for: a new target (RecipeClosure reads it, and its lines
// are judged as added lines) or a file. An honest `build: gen` with a
// new `gen:` adds a step and removes none (review 29 c10). A target the
// team already had stays a change (`test: snap`, the team's snapshot
// update, makes the run prove less), as do a variable, an inline recipe,
// a target-specific variable and an order-only or double-colon rule.
func keepHeadWithNewPrereqs(was, now string, wasFile []byte) string {
	wh, wrest, _ := strings.Cut(was, "\n")
	nh, nrest, _ := strings.Cut(now, "\n")
	if wh == nh || wrest != nrest {
		return now
	}
	split := func(h string) (string, []string, bool) {
		if strings.HasPrefix(h, "\t") || strings.ContainsAny(h, ";=|$%") || strings.Contains(h, "::") {
			return "", nil, false
		}
		tg, deps, ok := strings.Cut(h, ":")
		return strings.Join(strings.Fields(tg), " "), strings.Fields(deps), ok
	}
	wt, wd, okw := split(wh)
	nt, nd, okn := split(nh)
	if !okw || !okn || wt != nt || len(nd) <= len(wd) {
		return now
	}
	// was's prerequisites in their order, the new ones anywhere.
	k := 0
	for _, d := range nd {
		if k < len(wd) && d == wd[k] {
			k++
			continue
		}
		if slices.Contains(wd, d) {
			return now
		}
		if _, had := ScriptBody(shellline.ScriptTarget{Tool: "make", Name: d}, wasFile); had {
			return now
		}
	}
	if k != len(wd) {
		return now
	}
	return wh + "\n" + nrest
}

// dropReadIncludes drops the include lines whose files withIncludes read
// into b: their text is judged line by line where it was appended (a
// SHELL = /bin/true there is still a change), so the include line itself
// is none (review 29 c10: the team's tracked common.mk newly included
// was refused). An include of a file not read (absent, ignored, a
// variable or glob in its name) stays.
func dropReadIncludes(b []byte, dir string, got map[string]bool) []byte {
	if b == nil {
		return nil
	}
	lines := strings.SplitAfter(string(b), "\n")
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		m := makeIncludeRE.FindStringSubmatch(strings.TrimRight(l, "\r\n"))
		if m == nil || strings.HasPrefix(l, "\t") {
			out = append(out, l)
			continue
		}
		read := true
		for _, f := range strings.Fields(m[1]) {
			p := path.Clean(path.Join(dir, f))
			if strings.ContainsAny(f, "$*?[#") || !got[p] {
				read = false
				break
			}
		}
		if !read {
			out = append(out, l)
		}
	}
	return []byte(strings.Join(out, ""))
}
