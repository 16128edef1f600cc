package testrun

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/sessiongate/sessiongate/shellline"
)

// Recipes of the task runners besides make and npm (issue 25 items 5 and
// 10): a justfile recipe, a Taskfile task, a mise or pixi task. Each is
// read into make's shape, "name: dependencies" and one command a line, so
// that WeakScript and InputChanges judge them as they judge a Makefile
// target: a recipe that runs `true`, or one the session changed, proves
// nothing; a change that only adds checks is noted.
//
// A runner also has settings that decide whether and how the commands run
// at all: just's `set shell`, a task's `status:`/`sources:` (up to date:
// skipped), mise's `sources`/`outputs` and `shell`, pixi's
// `inputs`/`outputs` (cached: skipped), an `env` that sets PYTEST_ADDOPTS.
// They are kept as lines starting with settingMark: any such line the
// session added or changed makes the recipe prove less (RecipeSettings).

const settingMark = "[setting] "

// scriptFileNames are the files a runner reads, in the order it prefers
// them (checked with just 1.58, task 3.54 and mise 2026.9: mise reads all
// and the first holding the task wins).
func scriptFileNames(tool string) []string {
	switch tool {
	case "make":
		return []string{"GNUmakefile", "makefile", "Makefile"}
	case "just":
		return []string{"justfile", "Justfile", "JUSTFILE", ".justfile"}
	case "task":
		return []string{"Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml",
			"Taskfile.dist.yml", "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml"}
	case "mise":
		return []string{".mise.local.toml", "mise.local.toml", ".mise.toml", "mise.toml", "mise/config.toml",
			".mise/config.toml", ".config/mise.toml", ".config/mise/config.toml"}
	case "pixi":
		return []string{"pixi.toml", "pyproject.toml"}
	case "npm":
		return []string{"package.json"}
	}
	return nil
}

// miseTaskDirs hold mise's file tasks (an executable named after the
// task), run when no config file defines the task.
var miseTaskDirs = []string{"mise-tasks", ".mise-tasks", "mise/tasks", ".mise/tasks", ".config/mise/tasks"}

// RecipeFileNames are the files ScriptFile may read for t, relative to
// t.Dir: what a change in the session is looked for in.
func RecipeFileNames(t shellline.ScriptTarget) []string {
	if t.File != "" {
		return []string{t.File}
	}
	names := scriptFileNames(t.Tool)
	if t.Tool == "mise" {
		for _, d := range miseTaskDirs {
			names = append(names, d+"/"+t.Name)
		}
	}
	return names
}

// recipeBody reads a just, task, mise or pixi recipe into make's shape.
func recipeBody(t shellline.ScriptTarget, file []byte) (string, bool) {
	var deps, cmds []string
	var ok bool
	switch t.Tool {
	case "just":
		deps, cmds, ok = justRecipe(file, t.Name, 0)
	case "task":
		deps, cmds, ok = taskRecipe(file, t.Name)
	case "mise":
		if fileTask(file) {
			return t.Name + ": \n" + strings.TrimSpace(string(file)), true
		}
		deps, cmds, ok = tomlTask(readTOML(file), t.Name, miseKeys)
	case "pixi":
		deps, cmds, ok = tomlTask(readTOML(file), t.Name, pixiKeys)
	}
	if !ok {
		return "", false
	}
	var lines []string
	for _, c := range cmds {
		lines = append(lines, splitAnd(c)...)
	}
	return strings.Join(append([]string{t.Name + ": " + strings.Join(deps, " ")}, lines...), "\n"), true
}

// splitAnd splits a command line at its top-level " && " (outside quotes):
// pixi's one-line `cmd = "pytest && mypy"` is two commands, and a check
// appended with && is a line added, not a line changed.
func splitAnd(l string) []string {
	if strings.HasPrefix(l, settingMark) || !strings.Contains(l, "&&") {
		return []string{l}
	}
	var out []string
	var q byte
	start := 0
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else if c == '\\' && q == '"' {
				i++
			}
		case c == '\'' || c == '"':
			q = c
		case c == '(' || c == '{' || c == '$' || c == '`':
			return []string{l} // subshells and substitutions: kept whole
		case c == '&' && strings.HasPrefix(l[i:], "&&"):
			out = append(out, strings.TrimSpace(l[start:i]))
			i++
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(l[start:]))
}

// fileTask: a mise file task is a script (#! first), not TOML.
func fileTask(b []byte) bool { return strings.HasPrefix(string(b), "#!") }

// justHeader matches a recipe's first line: `test:`, `@test arg="x": build`,
// not an assignment (`x := 1`).
var justHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^@?([A-Za-z_][\w-]*)((?:\s+[^:]*?)?)\s*:([^=].*)?$`)
})

// justSettings change how every recipe line runs.
var justSettings = []string{"set shell", "set script-interpreter", "set windows-shell", "set dotenv", "set export", "set positional-arguments", "set fallback", "set working-directory", "import ", "mod "}

// justRecipe finds recipe name in a justfile (an alias followed) and its
// body lines without just's @ and - prefixes; the file's shell settings
// come along as setting lines.
func justRecipe(file []byte, name string, depth int) (deps, cmds []string, ok bool) {
	lines := strings.Split(strings.ReplaceAll(string(file), "\r\n", "\n"), "\n")
	var settings []string
	for _, l := range lines {
		for _, s := range justSettings {
			if strings.HasPrefix(l, s) {
				settings = append(settings, settingMark+strings.TrimSpace(l))
			}
		}
		if f := strings.Fields(l); len(f) == 4 && f[0] == "alias" && f[1] == name && f[2] == ":=" && depth < 4 {
			return justRecipe(file, f[3], depth+1)
		}
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '#' || l[0] == '[' {
			continue
		}
		m := justHeader().FindStringSubmatch(l)
		if m == nil || m[1] != name {
			continue
		}
		ok = true
		for _, d := range strings.Fields(strings.ReplaceAll(m[3], "&&", " ")) {
			if d = strings.Trim(d, "()"); d != "" && !strings.HasPrefix(d, "#") {
				deps = append(deps, d)
			}
		}
		for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], " ") || strings.HasPrefix(lines[i+1], "\t") || strings.TrimSpace(lines[i+1]) == "" && i+2 < len(lines) && (strings.HasPrefix(lines[i+2], " ") || strings.HasPrefix(lines[i+2], "\t"))) {
			i++
			if r := strings.TrimLeft(strings.TrimSpace(lines[i]), "@-"); r != "" {
				cmds = append(cmds, r)
			}
		}
		break
	}
	return deps, append(settings, cmds...), ok
}

// taskRecipe finds task name in a Taskfile: its cmds (a string, a list,
// or maps with cmd:, task: and ignore_error:), its deps, and the keys that
// skip it (status, sources, if) as setting lines.
func taskRecipe(file []byte, name string) (deps, cmds []string, ok bool) {
	var doc struct {
		Env     map[string]any `yaml:"env"`
		Dotenv  any            `yaml:"dotenv"`
		Set     any            `yaml:"set"`
		Tasks   map[string]any `yaml:"tasks"`
		Include any            `yaml:"includes"`
	}
	if yaml.Unmarshal(file, &doc) != nil {
		return nil, nil, false
	}
	task, found := doc.Tasks[name]
	if !found {
		for n, v := range doc.Tasks { // aliases: test: {aliases: [t]}
			if m, isMap := v.(map[string]any); isMap && slices.Contains(stringsOf(m["aliases"]), name) {
				task, found = v, true
				name = n
				break
			}
		}
	}
	if !found {
		return nil, nil, false
	}
	for _, k := range []string{"env", "dotenv", "set"} {
		if v := map[string]any{"env": doc.Env, "dotenv": doc.Dotenv, "set": doc.Set}[k]; v != nil && fmt.Sprint(v) != "map[]" {
			cmds = append(cmds, settingMark+k+": "+oneValue(v))
		}
	}
	cmd := func(c any, ignore bool) {
		switch x := c.(type) {
		case string:
			if ignore {
				x += " || true" // ignore_error: the line's failure is dropped
			}
			cmds = append(cmds, strings.Split(strings.TrimSpace(x), "\n")...)
		case map[string]any:
			ig := ignore || fmt.Sprint(x["ignore_error"]) == "true"
			if s, isStr := x["cmd"].(string); isStr {
				if ig {
					s += " || true"
				}
				cmds = append(cmds, strings.Split(strings.TrimSpace(s), "\n")...)
			}
			if s, isStr := x["task"].(string); isStr {
				deps = append(deps, s)
			}
			if x["defer"] != nil {
				cmds = append(cmds, settingMark+"defer: "+oneValue(x["defer"]))
			}
		}
	}
	switch x := task.(type) {
	case string:
		cmd(x, false)
	case []any:
		for _, c := range x {
			cmd(c, false)
		}
	case map[string]any:
		ignore := fmt.Sprint(x["ignore_error"]) == "true"
		for _, d := range asList(x["deps"]) {
			if m, isMap := d.(map[string]any); isMap {
				d = m["task"]
			}
			if s, isStr := d.(string); isStr {
				deps = append(deps, s)
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch k {
			case "status", "sources", "generates", "method", "if", "platforms", "env", "dotenv", "dir", "run", "set", "shopt", "requires", "ignore_error":
				cmds = append(cmds, settingMark+k+": "+oneValue(x[k]))
			}
		}
		if c, has := x["cmd"]; has {
			cmd(c, ignore)
		}
		for _, c := range asList(x["cmds"]) {
			cmd(c, ignore)
		}
	default:
		return nil, nil, false
	}
	return deps, cmds, true
}

// tomlKeys name a TOML runner's task keys.
type tomlKeys struct {
	tables   [][]string // where tasks are: ["tasks"], ["tool", "pixi", "tasks"]
	run      []string   // the command keys
	deps     []string
	settings []string // keys that skip the task or change how it runs
}

var (
	miseKeys = tomlKeys{tables: [][]string{{"tasks"}}, run: []string{"run"}, deps: []string{"depends", "depends_post", "wait_for"},
		settings: []string{"sources", "outputs", "shell", "env", "dir", "file", "raw", "quiet", "tools"}}
	pixiKeys = tomlKeys{tables: [][]string{{"tasks"}, {"tool", "pixi", "tasks"}}, run: []string{"cmd"}, deps: []string{"depends-on", "depends_on"},
		settings: []string{"inputs", "outputs", "env", "cwd", "default-environment", "clean-env"}}
)

// tomlTask finds task name in a mise or pixi file: `test = "pytest"`, a
// list of commands, an inline table, or a [tasks.test] table; pixi's
// features ([feature.x.tasks]) and pyproject's [tool.pixi.*] too.
func tomlTask(doc map[string]any, name string, k tomlKeys) (deps, cmds []string, ok bool) {
	var task any
	for _, tbl := range k.tables {
		if v := tomlAt(doc, append(slices.Clone(tbl), name)); v != nil {
			task = v
			break
		}
	}
	if task == nil && k.run[0] == "cmd" {
		for _, base := range [][]string{{"feature"}, {"tool", "pixi", "feature"}} {
			feats, _ := tomlAt(doc, base).(map[string]any)
			fn := make([]string, 0, len(feats))
			for f := range feats {
				fn = append(fn, f)
			}
			sort.Strings(fn)
			for _, f := range fn {
				if v := tomlAt(doc, append(slices.Clone(base), f, "tasks", name)); v != nil {
					task = v
					break
				}
			}
			if task != nil {
				break
			}
		}
	}
	run := func(v any) {
		switch x := v.(type) {
		case string:
			cmds = append(cmds, strings.Split(strings.TrimSpace(x), "\n")...)
		case []any:
			if k.run[0] == "cmd" { // pixi: a list is one command's words
				cmds = append(cmds, strings.Join(stringsOf(x), " "))
				return
			}
			for _, c := range x {
				if m, isMap := c.(map[string]any); isMap {
					deps = append(deps, stringsOf(m["task"])...)
					continue
				}
				if s, isStr := c.(string); isStr {
					cmds = append(cmds, strings.Split(strings.TrimSpace(s), "\n")...)
				}
			}
		}
	}
	switch x := task.(type) {
	case nil:
		return nil, nil, false
	case string, []any:
		run(x)
	case map[string]any:
		for _, d := range k.deps {
			for _, dep := range asList(x[d]) {
				if m, isMap := dep.(map[string]any); isMap {
					dep = m["task"]
				}
				deps = append(deps, stringsOf(dep)...)
			}
		}
		for _, s := range k.settings {
			if v, has := x[s]; has {
				cmds = append(cmds, settingMark+s+": "+oneValue(v))
			}
		}
		for _, r := range k.run {
			run(x[r])
		}
	}
	return deps, cmds, true
}

func tomlAt(doc map[string]any, keys []string) any {
	var v any = doc
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func asList(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case nil:
		return nil
	}
	return []any{v}
}

func stringsOf(v any) []string {
	var out []string
	for _, x := range asList(v) {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// oneValue prints a setting's value on one line, maps in key order.
func oneValue(v any) string {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			parts = append(parts, k+"="+oneValue(x[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, 0, len(x))
		for _, y := range x {
			parts = append(parts, oneValue(y))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return OneLine(fmt.Sprint(v))
}

// RecipeSettings compares a recipe's setting lines at the start and now:
// one added or changed (a task's `status: [true]` marks it up to date, a
// `set shell := ["true"]` runs no line, an env sets PYTEST_ADDOPTS) makes
// it prove less; removed ones make it run more. It returns why ("" when
// none) and both bodies without their setting lines, for the line-by-line
// comparison of the commands.
func RecipeSettings(was, now string) (why, wasCmds, nowCmds string) {
	split := func(body string) (map[string]bool, string) {
		set := map[string]bool{}
		var rest []string
		for _, l := range strings.Split(body, "\n") {
			if s, ok := strings.CutPrefix(l, settingMark); ok {
				set[s] = true
				continue
			}
			rest = append(rest, l)
		}
		return set, strings.Join(rest, "\n")
	}
	ws, wasCmds := split(was)
	ns, nowCmds := split(now)
	var added []string
	for s := range ns {
		if !ws[s] {
			added = append(added, s)
		}
	}
	sort.Strings(added)
	if len(added) > 0 {
		why = fmt.Sprintf("sets %q, which decides whether or how the runner runs the recipe's commands", truncate(strings.Join(added, "; "), 80))
	}
	return why, wasCmds, nowCmds
}

// recipeWord names what a tool calls its recipe.
func recipeWord(tool string) string {
	switch tool {
	case "make":
		return "target"
	case "npm":
		return "script"
	case "just":
		return "recipe"
	}
	return "task"
}

// commandLines are a body's commands: not its "name: deps" line nor its
// settings.
func commandLines(t shellline.ScriptTarget, body string) []string {
	var out []string
	for i, l := range strings.Split(body, "\n") {
		if i == 0 && strings.HasPrefix(l, t.Name+":") || strings.HasPrefix(l, settingMark) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// recipeDeps are the dependencies on a body's first line.
func recipeDeps(t shellline.ScriptTarget, body string) []string {
	first, _, _ := strings.Cut(body, "\n")
	rest, ok := strings.CutPrefix(first, t.Name+":")
	if !ok {
		return nil
	}
	return strings.Fields(rest)
}

// trivialRecipe: every command proves nothing (true, exit 0, echo) and
// every dependency is such a recipe in the same file. A recipe whose
// commands are skipped by a setting is judged by RecipeSettings.
func trivialRecipe(t shellline.ScriptTarget, file []byte, body string, depth int) bool {
	if body == "" {
		b, ok := ScriptBody(t, file)
		if !ok {
			return false
		}
		body = b
	}
	for _, c := range commandLines(t, body) {
		if strings.TrimSpace(c) != "" && !shellline.Trivial(c) {
			return false
		}
	}
	if depth > 8 {
		return false
	}
	for _, d := range recipeDeps(t, body) {
		sub := shellline.ScriptTarget{Tool: t.Tool, Name: d}
		if _, ok := ScriptBody(sub, file); !ok {
			return false // a recipe this reader does not find
		}
		if !trivialRecipe(sub, file, "", depth+1) {
			return false
		}
	}
	return true
}
