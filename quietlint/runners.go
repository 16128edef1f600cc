package quietlint

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sessiongate/sessiongate/shellline"
)

// Script is a lint line a task runner runs for a line that names it:
// `npm run lint` runs package.json's "lint" script, `make lint` the
// Makefile's recipe, `tox -e lint` the testenv's commands, `pre-commit
// run` the hooks' entries with their args (round 22: the linter's
// arguments moved out of the line into a file the agent edits,
// `"lint": "flake8 --exit-zero src"`, read as nothing before).
type Script struct {
	File   string   // absolute path of the runner's file
	Kind   string   // npm, make, tox, pre-commit
	Target string   // the script, target, env or hook ("" for all hooks)
	Lines  []string // what it runs, with what the line adds (`npm run lint -- --exit-zero`, `make lint FLAGS=...`)
	Base   []string // what the file alone runs
}

// Scripts returns the runner scripts line runs from dir (no higher than
// root), read from the work tree.
func Scripts(line, dir, root string) []Script {
	var out []Script
	for _, words := range shellline.Programs(line) {
		kind, target, at := runnerCall(words)
		if kind == "" {
			continue
		}
		base := dir
		if at != "" {
			base = filepath.Join(dir, at)
			if filepath.IsAbs(at) {
				base = at
			}
		}
		r := configReader{dir: base, root: root, starts: []string{base}}
		if kind == "make" || kind == "pre-commit" {
			r.here = true // make reads the folder's Makefile; pre-commit the repository root's config
		}
		if kind == "pre-commit" {
			r.starts = []string{root}
		}
		f, body := r.up(runnerFiles(kind), nil)
		if f == "" {
			continue
		}
		if lines := ScriptLines(kind, body, target); len(lines) > 0 {
			out = append(out, Script{File: f, Kind: kind, Target: target, Lines: withCallArgs(kind, body, target, words, envAssigns(line), lines), Base: withCallArgs(kind, body, target, words[:1], nil, lines)})
		}
	}
	return out
}

// runnerFiles: the file each runner reads (a switch: nothing built at
// init on the hook path).
func runnerFiles(kind string) []string {
	switch kind {
	case "npm":
		return []string{"package.json"}
	case "make":
		return []string{"GNUmakefile", "makefile", "Makefile"}
	case "tox":
		return []string{"tox.ini"}
	case "pre-commit":
		return []string{".pre-commit-config.yaml", ".pre-commit-config.yml"}
	}
	return nil
}

// runnerCall reads a command's words as a call of a runner's target:
// kind, target, and a folder it is run in (make -C, npm --prefix).
func runnerCall(words []string) (kind, target, at string) {
	if len(words) == 0 {
		return "", "", ""
	}
	name := filepath.Base(words[0])
	args := words[1:]
	switch name {
	case "npm", "yarn", "pnpm", "bun":
		for i := 0; i < len(args); i++ {
			a := args[i]
			if a == "--prefix" || a == "-C" || a == "--dir" || a == "--cwd" {
				if i+1 < len(args) {
					at = args[i+1]
				}
				i++
				continue
			}
			if strings.HasPrefix(a, "-") {
				continue
			}
			if a == "run" || a == "run-script" || a == "rum" || a == "urn" {
				for _, b := range args[i+1:] {
					if !strings.HasPrefix(b, "-") {
						return "npm", b, at
					}
				}
				return "", "", ""
			}
			if name == "npm" {
				if a == "test" || a == "t" || a == "tst" {
					return "npm", "test", at
				}
				return "", "", ""
			}
			if name == "bun" || a == "exec" || a == "dlx" || runsLinter(a) {
				return "", "", "" // a binary, not a script (anyLinter reads it)
			}
			return "npm", a, at // `yarn lint`, `pnpm lint`
		}
	case "make", "gmake":
		var targets []string
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-C" || a == "--directory":
				if i+1 < len(args) {
					at = args[i+1]
				}
				i++
			case a == "-f" || a == "--file" || a == "--makefile":
				return "", "", "" // a file of its own: not followed
			case strings.HasPrefix(a, "-") || strings.Contains(a, "="):
			default:
				targets = append(targets, a)
			}
		}
		if len(targets) == 0 {
			return "make", "", at // the first target
		}
		return "make", targets[0], at
	case "tox":
		for i := 0; i < len(args); i++ {
			if args[i] == "-e" && i+1 < len(args) {
				return "tox", args[i+1], at
			}
			if v, ok := strings.CutPrefix(args[i], "-e"); ok && v != "" {
				return "tox", strings.TrimPrefix(v, "="), at
			}
		}
	case "pre-commit", "prek":
		if len(args) == 0 || args[0] != "run" {
			return "", "", ""
		}
		target := ""
		for i := 1; i < len(args); i++ {
			a := args[i]
			if a == "--files" || a == "--from-ref" || a == "--to-ref" || a == "--hook-stage" || a == "-c" || a == "--config" {
				if a == "-c" || a == "--config" {
					return "", "", "" // a config of its own: not followed
				}
				i++
				if a == "--files" {
					for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
						i++
					}
				}
				continue
			}
			if !strings.HasPrefix(a, "-") && target == "" {
				target = a
			}
		}
		return "pre-commit", target, at
	}
	return "", "", ""
}

func runsLinter(w string) bool {
	p, _ := anyLinter([]string{w, "check", "run"})
	return p != ""
}

// ScriptLines returns the lines a runner's file runs for target.
func ScriptLines(kind string, body []byte, target string) []string {
	switch kind {
	case "npm":
		var pj struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal(body, &pj) != nil {
			return nil
		}
		var out []string
		for _, k := range []string{"pre" + target, target, "post" + target} {
			if v := pj.Scripts[k]; v != "" {
				out = append(out, v)
			}
		}
		return out
	case "make":
		return makeRecipe(string(body), target)
	case "tox":
		return toxCommands(string(body), target)
	case "pre-commit":
		return preCommitHooks(body, target)
	}
	return nil
}

// makeRecipe: the recipe lines of target (the first target when ""),
// after those of its prerequisites (followed to 4 levels), the prefixes
// @, - and + dropped. Variables are not expanded.
func makeRecipe(body, target string) []string {
	type rule struct {
		prereqs, recipe []string
	}
	rules := map[string]*rule{}
	first := ""
	var cur []*rule
	for _, l := range strings.Split(strings.ReplaceAll(body, "\\\n", " "), "\n") {
		if strings.HasPrefix(l, "\t") {
			r := strings.Join(strings.Fields(strings.TrimLeft(strings.TrimSpace(l), "@-+")), " ")
			for _, c := range cur {
				if r != "" {
					c.recipe = append(c.recipe, r)
				}
			}
			continue
		}
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		cur = nil
		head, rest, ok := strings.Cut(t, ":")
		if !ok || strings.Contains(head, "=") || strings.HasPrefix(rest, "=") {
			continue
		}
		rest, _, _ = strings.Cut(rest, ";")
		for _, n := range strings.Fields(head) {
			if strings.HasPrefix(n, ".") || strings.Contains(n, "%") {
				continue
			}
			if first == "" {
				first = n
			}
			r := rules[n]
			if r == nil {
				r = &rule{}
				rules[n] = r
			}
			r.prereqs = append(r.prereqs, strings.Fields(strings.TrimPrefix(rest, ":"))...)
			cur = append(cur, r)
		}
	}
	if target == "" {
		target = first
	}
	var out []string
	seen := map[string]bool{}
	var walk func(n string, depth int)
	walk = func(n string, depth int) {
		r := rules[n]
		if r == nil || seen[n] || depth > 4 {
			return
		}
		seen[n] = true
		for _, p := range r.prereqs {
			walk(p, depth+1)
		}
		out = append(out, r.recipe...)
	}
	walk(target, 0)
	return out
}

// toxCommands: the `commands` of [testenv:target] (continuation lines
// joined), a leading - and {posargs} dropped.
func toxCommands(body, target string) []string {
	var out []string
	section, in, cont := "", false, false
	for _, l := range strings.Split(body, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			section, in, cont = strings.TrimSpace(t[1:len(t)-1]), false, false
			continue
		}
		if section != "testenv:"+target {
			continue
		}
		indented := l != "" && (l[0] == ' ' || l[0] == '\t')
		if k, v, ok := strings.Cut(t, "="); ok && !indented {
			in = strings.TrimSpace(k) == "commands"
			cont = false
			t = strings.TrimSpace(v)
		} else if !indented {
			in = false
		}
		if !in || t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		t = strings.TrimSpace(strings.TrimPrefix(strings.ReplaceAll(t, "{posargs}", ""), "-"))
		if cont && len(out) > 0 {
			out[len(out)-1] += " " + strings.TrimSuffix(t, "\\")
		} else {
			out = append(out, strings.TrimSuffix(t, "\\"))
		}
		cont = strings.HasSuffix(t, "\\")
	}
	return out
}

// preCommitHooks: for each hook (target's, or every one), its entry (a
// local hook's) or its id, with its args, when it runs a linter known here.
func preCommitHooks(body []byte, target string) []string {
	var cfg struct {
		Repos []struct {
			Hooks []struct {
				ID    string   `yaml:"id"`
				Alias string   `yaml:"alias"`
				Entry string   `yaml:"entry"`
				Args  []string `yaml:"args"`
			} `yaml:"hooks"`
		} `yaml:"repos"`
	}
	if yaml.Unmarshal(body, &cfg) != nil {
		return nil
	}
	var out []string
	for _, r := range cfg.Repos {
		for _, h := range r.Hooks {
			if target != "" && h.ID != target && h.Alias != target {
				continue
			}
			cmd := h.Entry
			if cmd == "" {
				cmd = h.ID
				if cmd == "ruff-check" || cmd == "ruff" { // ruff-pre-commit's hook ids
					cmd = "ruff check"
				}
			}
			if p, _ := anyLinter(strings.Fields(cmd + " run")); p == "" {
				if p, _ := anyLinter(strings.Fields(cmd)); p == "" {
					continue
				}
			}
			words := []string{cmd}
			for _, a := range h.Args {
				words = append(words, shQuote(a))
			}
			out = append(out, strings.Join(words, " "))
		}
	}
	return out
}

// loosening are the options that let a linter pass more than without
// them: checks turned off, files left out, findings not failing. --fix is
// not one: eslint, ruff, stylelint and golangci-lint still fail on what
// they cannot fix, and what they fixed is in the tree the run saw
// (`npm run lint -- --fix` was no evidence in round 22); ruff's
// --fix-only exits 0 over what is left, so it is.
var loosening = []string{"--exit-zero", "--ignore", "--extend-ignore", "--disable", "-d", "--exclude", "--extend-exclude",
	"--per-file-ignores", "--ignore-pattern", "--ignore-path", "--ignore-paths", "--ignore-patterns", "--errors-only", "-E",
	"--no-eslintrc", "--no-config-lookup", "--no-inline-config", "--rule", "--severity", "-S", "-e", "--quiet", "--select",
	"--disable-noqa=false", "--issues-exit-code", "--no-error-on-unmatched-pattern", "--fix-only", "--evaluation"}

// tighterWhenHigher and tighterWhenLower are numeric options compared by value.
var (
	tighterWhenHigher = []string{"--fail-under"}
	tighterWhenLower  = []string{"--max-warnings", "--max-line-length", "--max-complexity", "--max-doc-length"}
)

// Loosened says how the lint lines a runner runs now let more pass than
// the ones it ran at the start, or "". A linter the start ran that no
// line runs now, a path it linted left out, an option that turns checks
// off or findings into a pass added or changed, or a limit raised
// (`--max-warnings 0` -> `99999`) loosen; a linter, path or check added,
// or a limit lowered, tighten (an honest tightening pass changes these
// files too).
func Loosened(start, now []string) string {
	type run struct {
		opts  map[string]string
		paths map[string]bool
	}
	read := func(lines []string) map[string]run {
		out := map[string]run{}
		for _, l := range lines {
			for _, words := range shellline.Programs(l) {
				prog, args := anyLinter(words)
				if prog == "" {
					continue
				}
				r, ok := out[prog]
				if !ok {
					r = run{opts: map[string]string{}, paths: map[string]bool{}}
					out[prog] = r
				}
				for i := 0; i < len(args); i++ {
					a := args[i]
					if !strings.HasPrefix(a, "-") {
						if !strings.ContainsAny(a, "$") { // an unexpanded variable is no path
							r.paths[a] = true
						}
						continue
					}
					k, v, has := strings.Cut(a, "=")
					if !has && (valued[prog][k] || optTakesValue(k)) && i+1 < len(args) {
						i++
						v = args[i]
					}
					r.opts[k] = v
				}
			}
		}
		return out
	}
	before, after := read(start), read(now)
	swapped := false // a linter the start did not run came in (flake8 -> ruff): a tool change, judged by its own configs
	for prog := range after {
		if _, ok := before[prog]; !ok {
			swapped = true
		}
	}
	for prog, b := range before {
		a, ok := after[prog]
		if !ok {
			if swapped {
				continue
			}
			return "the script no longer runs " + prog
		}
		for p := range b.paths {
			if !covered(p, a.paths) {
				return prog + " no longer lints " + p
			}
		}
		for k, v := range a.opts {
			old, had := b.opts[k]
			switch {
			case contains(tighterWhenLower, k):
				if n, err := strconv.Atoi(v); err == nil {
					o, err := strconv.Atoi(old)
					if !had || err != nil || o < 0 {
						continue // none before (no limit, or the tool's own): any limit is no looser
					}
					if n < 0 || n > o {
						return prog + " " + k + " raised from " + old + " to " + v
					}
				}
			case contains(tighterWhenHigher, k):
				n, err1 := strconv.ParseFloat(v, 64)
				o, err2 := strconv.ParseFloat(old, 64)
				if err1 == nil && (!had || err2 == nil && n < o) {
					return prog + " " + k + " lowered to " + v
				}
			case contains(loosening, k) && (!had || old != v):
				if k == "--select" && strings.Contains(strings.ToUpper(v), "ALL") {
					continue
				}
				return prog + " gained " + strings.TrimSpace(k+" "+v)
			}
		}
		for k, v := range b.opts {
			if _, still := a.opts[k]; !still && contains(tighterWhenLower, k) {
				return prog + " dropped " + k + " " + v + " (no limit)"
			}
		}
	}
	return ""
}

// optTakesValue: an option read with the next word as its value on the
// linters' command lines (besides valued's).
func optTakesValue(k string) bool {
	switch k {
	case "--max-warnings", "--ignore", "--extend-ignore", "--select", "--extend-select", "--disable", "-d", "--enable",
		"--exclude", "--extend-exclude", "--fail-under", "--max-line-length", "--max-complexity", "--rcfile", "--config",
		"-e", "-S", "--severity", "--ignore-paths", "--ignore-patterns", "--rule", "--per-file-ignores", "--evaluation":
		return true
	}
	return false
}

// shQuote quotes a hook's argument for the line it is read back from.
func shQuote(a string) string {
	if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`;&|<>(){}*?[]#~") {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// covered: path p is linted by a run given paths (itself, a folder
// holding it, or no path: the linter's folder).
func covered(p string, paths map[string]bool) bool {
	if len(paths) == 0 || paths["."] || paths["./"] || paths[p] {
		return true
	}
	clean := strings.TrimPrefix(filepath.ToSlash(filepath.Clean(p)), "./")
	for q := range paths {
		q = strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(filepath.Clean(q)), "./"), "/")
		if q == clean || strings.HasPrefix(clean, q+"/") {
			return true
		}
	}
	return false
}

// withCallArgs applies what the call adds to the lines the file runs:
// npm appends the words after `--` (yarn and pnpm those after the script's
// name) to the script itself; make's VAR=value words override the
// Makefile's variables, which are expanded (round 22: `npm run lint --
// --exit-zero` and `make lint FLAGS=--exit-zero` left the file unchanged).
func withCallArgs(kind string, body []byte, target string, words, envWords, lines []string) []string {
	out := slices.Clone(lines)
	switch kind {
	case "npm":
		var extra []string
		for i, w := range words {
			if w == "--" {
				extra = words[i+1:]
				break
			}
		}
		name := filepath.Base(words[0])
		if extra == nil && name != "npm" {
			for i, w := range words {
				if w == target && i > 0 {
					extra = words[i+1:]
					break
				}
			}
		}
		if len(extra) == 0 {
			return out
		}
		var pj struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal(body, &pj) != nil {
			return out
		}
		for i, l := range out {
			if l == pj.Scripts[target] {
				q := make([]string, len(extra))
				for j, e := range extra {
					q[j] = shQuote(e)
				}
				out[i] = l + " " + strings.Join(q, " ")
				break
			}
		}
	case "make":
		// The environment's (VAR=v before make on the line, as the
		// caller's words[0] carries them) is overridden by the Makefile's
		// assignments but for ?=; the command line's overrides both.
		vars := map[string]string{"MAKE": "make"} // a recipe's $(MAKE) other-target is followed as a call
		for _, w := range envWords {
			if k, v, ok := strings.Cut(w, "="); ok {
				vars[k] = v
			}
		}
		makeVars(vars, string(body))
		for _, w := range words[1:] {
			if k, v, ok := strings.Cut(w, "="); ok && !strings.HasPrefix(w, "-") && k != "" && !strings.ContainsAny(k, " :+?") {
				vars[k] = v
			}
		}
		for i, l := range out {
			for range 3 { // nested references
				for k, v := range vars {
					l = strings.ReplaceAll(strings.ReplaceAll(l, "$("+k+")", v), "${"+k+"}", v)
				}
			}
			out[i] = strings.Join(strings.Fields(l), " ")
		}
	}
	return out
}

// makeVars: the Makefile's simple variable assignments (VAR = v, :=, ::=,
// ?=; += appends).
func makeVars(vars map[string]string, body string) {
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, "\t") {
			continue
		}
		t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "export "))
		i := strings.IndexByte(t, '=')
		if i <= 0 {
			continue
		}
		k, v := strings.TrimSpace(t[:i]), strings.TrimSpace(t[i+1:])
		op := ""
		for _, o := range []string{"::", ":", "?", "+"} {
			if strings.HasSuffix(k, o) {
				op, k = o, strings.TrimSpace(strings.TrimSuffix(k, o))
				break
			}
		}
		if k == "" || strings.ContainsAny(k, " \t:$") {
			continue
		}
		switch {
		case op == "+":
			vars[k] = strings.TrimSpace(vars[k] + " " + v)
		case op == "?":
			if _, ok := vars[k]; !ok {
				vars[k] = v
			}
		default:
			vars[k] = v
		}
	}
}

// envAssigns: the NAME=value words of a line (a variable set for a
// command, `LINTFLAGS=--exit-zero make lint`, or exported before it).
func envAssigns(line string) []string {
	var out []string
	for _, w := range strings.Fields(line) {
		w = strings.TrimPrefix(w, "export ")
		k, _, ok := strings.Cut(w, "=")
		if !ok || k == "" || k[0] >= '0' && k[0] <= '9' {
			continue
		}
		valid := true
		for _, c := range k {
			if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
				valid = false
			}
		}
		if valid {
			out = append(out, strings.Trim(w, `"'`))
		}
	}
	return out
}
