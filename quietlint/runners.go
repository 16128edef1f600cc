package quietlint

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

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
	// Unread says why the runner's file could not be known: the line
	// names it through a variable it does not set (`make -f $F lint`
	// with F exported by an earlier command). Lines and Base are empty.
	Unread string
}

// Scripts returns the runner scripts line runs from dir (no higher than
// root), read from the work tree.
func Scripts(line, dir, root string) []Script {
	var out []Script
	line = withLineVars(line)
	for _, words := range shellline.Programs(line) {
		kind, target, at, named := runnerCall(words)
		if kind == "" {
			continue
		}
		if kind == "make" && named == "" && makeFileVarRE().MatchString(line) {
			named = unsetFile // `--file=${F}` expands to no word at all
		}
		if named == unsetFile || strings.Contains(named, "$") {
			// Round 24: `make -f $F lint` read as the Makefile's lint, a
			// file the agent did not name; what it runs is unknown here.
			out = append(out, Script{Kind: kind, Target: target, Unread: "the file the line names for " + kind + " is a variable the line does not set"})
			continue
		}
		base := dir
		if at != "" {
			base = filepath.Join(dir, at)
			if filepath.IsAbs(at) {
				base = at
			}
		}
		var f string
		var body []byte
		if named != "" {
			// A file named on the line (make -f, pre-commit -c, tox -c) is
			// the one run, wherever it is (round 23: `make -f lint.mk lint`
			// ran a file of the agent's, read as nothing before). make
			// reads it after -C; pre-commit and tox from the caller's folder.
			if kind != "make" {
				base = dir
			}
			if !filepath.IsAbs(named) {
				named = filepath.Join(base, named)
			}
			b, err := readSmall(named)
			if err != nil {
				continue
			}
			f, body = named, b
		} else {
			r := configReader{dir: base, root: root, starts: []string{base}}
			if kind == "make" || kind == "pre-commit" {
				r.here = true // make reads the folder's Makefile; pre-commit the repository root's config
			}
			if kind == "pre-commit" {
				r.starts = []string{root}
			}
			f, body = r.up(runnerFiles(kind), nil)
			if f == "" {
				continue
			}
		}
		baseWords := words[:1]
		if kind == "tox" {
			// The paths a call gives tox's {posargs} are its choice of
			// files, as on a linter's own line; its options are judged.
			if i := slices.Index(words, "--"); i >= 0 {
				baseWords = []string{words[0], "--"}
				for _, w := range words[i+1:] {
					if !strings.HasPrefix(w, "-") {
						baseWords = append(baseWords, w)
					}
				}
			}
		}
		if lines := ScriptLines(kind, body, target); len(lines) > 0 {
			out = append(out, Script{File: f, Kind: kind, Target: target, Lines: withCallArgs(kind, body, target, words, envAssigns(line), lines), Base: withCallArgs(kind, body, target, baseWords, nil, lines)})
		}
	}
	return out
}

// unsetFile stands for a runner file named by a word that expanded to
// nothing: a variable the line does not set.
const unsetFile = "\x00unset"

// makeFileVarRE finds a make call naming its file through a variable.
var makeFileVarRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bg?make\b[^;&|]*\s(?:-f\s*|--file[= ]\s*|--makefile[= ]\s*)["']?\$`)
})

// withLineVars puts the values the line assigns (`F=lint.mk make -f $F`,
// `F=x; make -f "$F"`, `export F=x && ...`) in place of their uses, so a
// file named through a variable is the file read.
func withLineVars(line string) string {
	if !strings.Contains(line, "$") {
		return line
	}
	for _, kv := range envAssigns(line) {
		k, v, _ := strings.Cut(kv, "=")
		v = strings.Trim(strings.TrimRight(v, ";&|"), `"'`)
		if v == "" || strings.ContainsAny(v, "$`") {
			continue
		}
		line = strings.ReplaceAll(line, "${"+k+"}", v)
		line = regexp.MustCompile(`\$`+regexp.QuoteMeta(k)+`\b`).ReplaceAllLiteralString(line, v)
	}
	return line
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
// kind, target, a folder it is run in (make -C, npm --prefix) and a file
// named in place of the runner's own (make -f, pre-commit -c, tox -c).
func runnerCall(words []string) (kind, target, at, file string) {
	if len(words) == 0 {
		return "", "", "", ""
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
						return "npm", b, at, ""
					}
				}
				return "", "", "", ""
			}
			if name == "npm" {
				if a == "test" || a == "t" || a == "tst" {
					return "npm", "test", at, ""
				}
				return "", "", "", ""
			}
			if name == "bun" || a == "exec" || a == "dlx" || runsLinter(a) {
				return "", "", "", "" // a binary, not a script (anyLinter reads it)
			}
			return "npm", a, at, "" // `yarn lint`, `pnpm lint`
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
				if i+1 < len(args) && file == "" {
					file = args[i+1] // make reads the first -f's rules first
					if file == "" {
						file = unsetFile // a variable the line does not set
					}
				}
				i++
			case strings.HasPrefix(a, "--file=") || strings.HasPrefix(a, "--makefile="):
				if file == "" {
					if _, file, _ = strings.Cut(a, "="); file == "" {
						file = unsetFile
					}
				}
			case len(a) > 2 && strings.HasPrefix(a, "-f") && !strings.HasPrefix(a, "--"):
				if file == "" {
					file = a[2:]
				}
			case strings.HasPrefix(a, "-") || strings.Contains(a, "="):
			default:
				targets = append(targets, a)
			}
		}
		if len(targets) == 0 {
			return "make", "", at, file // the first target
		}
		return "make", targets[0], at, file
	case "tox":
		env := ""
		for i := 0; i < len(args) && args[i] != "--"; i++ {
			switch a := args[i]; {
			case (a == "-e" || a == "-c" || a == "--conf" || a == "--configfile") && i+1 < len(args):
				if a == "-e" {
					env = args[i+1]
				} else {
					file = args[i+1]
				}
				i++
			case strings.HasPrefix(a, "-e") && len(a) > 2:
				env = strings.TrimPrefix(a[2:], "=")
			case strings.HasPrefix(a, "-c") && len(a) > 2:
				file = strings.TrimPrefix(a[2:], "=")
			}
		}
		if env != "" {
			return "tox", env, at, file
		}
	case "pre-commit", "prek":
		if len(args) == 0 || args[0] != "run" {
			return "", "", "", ""
		}
		target := ""
		for i := 1; i < len(args); i++ {
			a := args[i]
			if v, ok := strings.CutPrefix(a, "--config="); ok {
				file = v
				continue
			}
			if a == "--files" || a == "--from-ref" || a == "--to-ref" || a == "--hook-stage" || a == "-c" || a == "--config" {
				if (a == "-c" || a == "--config") && i+1 < len(args) {
					file = args[i+1] // a config of its own, read in place of the root's
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
		return "pre-commit", target, at, file
	}
	return "", "", "", ""
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

// toxCommands: the `commands` of [testenv:target], or of [testenv] when
// the env sets none (tox inherits them), with {[section]key} references
// replaced by that section's value and {posargs} by the call's words
// after `--` (its default, `{posargs:src}`, without them); a leading -
// dropped (round 23: `commands = {[testenv]commands}` and an inherited
// [testenv] were read as running nothing, so a loosened [testenv] passed).
func toxCommands(body, target string) []string { return toxCommandsWith(body, target, nil) }

func toxCommandsWith(body, target string, posargs []string) []string {
	ini := toxSections(body)
	toxRefs, toxPosargs := toxRes()[0], toxRes()[1]
	v, ok := ini["testenv:"+target]["commands"]
	if !ok {
		v = ini["testenv"]["commands"]
	}
	for range 4 { // nested references
		v = toxRefs.ReplaceAllStringFunc(v, func(m string) string {
			sub := toxRefs.FindStringSubmatch(m)
			return ini[sub[1]][sub[2]]
		})
	}
	v = toxPosargs.ReplaceAllStringFunc(v, func(m string) string {
		if posargs != nil {
			q := make([]string, len(posargs))
			for j, e := range posargs {
				q[j] = shQuote(e)
			}
			return strings.Join(q, " ")
		}
		def, _ := strings.CutPrefix(strings.Trim(m, "{}"), "posargs")
		return strings.TrimPrefix(def, ":")
	})
	var out []string
	cont := false
	for _, l := range strings.Split(v, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		t = strings.TrimSpace(strings.TrimPrefix(t, "-"))
		if cont && len(out) > 0 {
			out[len(out)-1] += " " + strings.TrimSuffix(t, "\\")
		} else {
			out = append(out, strings.TrimSuffix(t, "\\"))
		}
		cont = strings.HasSuffix(t, "\\")
	}
	for i, l := range out {
		out[i] = strings.Join(strings.Fields(l), " ")
	}
	return out
}

// toxRes: {[section]key} and {posargs[:default]}, compiled on first use
// (not at init: the hook path imports quietlint).
var toxRes = sync.OnceValue(func() [2]*regexp.Regexp {
	return [2]*regexp.Regexp{
		regexp.MustCompile(`\{\[([^\]]+)\]([A-Za-z_][A-Za-z0-9_]*)\}`),
		regexp.MustCompile(`\{posargs(:[^}]*)?\}`),
	}
})

// toxSections reads tox.ini's sections and keys; a key's value keeps its
// continuation lines, one per line.
func toxSections(body string) map[string]map[string]string {
	ini := map[string]map[string]string{}
	section, key := "", ""
	for _, l := range strings.Split(body, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			section, key = strings.TrimSpace(t[1:len(t)-1]), ""
			if ini[section] == nil {
				ini[section] = map[string]string{}
			}
			continue
		}
		if section == "" || t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, ";") {
			continue
		}
		indented := l[0] == ' ' || l[0] == '\t'
		if k, v, ok := strings.Cut(t, "="); ok && !indented {
			key = strings.TrimSpace(k)
			ini[section][key] = strings.TrimSpace(v)
			continue
		}
		if indented && key != "" {
			ini[section][key] += "\n" + t
		}
	}
	return ini
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
	case "tox":
		// tox's words after `--` replace {posargs}.
		for i, w := range words {
			if w == "--" {
				return toxCommandsWith(string(body), target, append([]string{}, words[i+1:]...))
			}
		}
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
