package quietlint

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/boundedread"

	"github.com/tailscale/hujson"
	"gopkg.in/yaml.v3"

	"github.com/sessiongate/sessiongate/shellline"
)

// ConfigFinding is a configuration file a linter run reads that makes it
// unable to fail: it tells the linter to exit 0 on findings or turns every
// check off (round 21 c1; the command-line tricks are neverfail.go's).
type ConfigFinding struct {
	Prog string   // the linter
	File string   // absolute path of the file it reads
	Why  string   // what the file sets
	Also []string // the files it brings in that say so (an eslint shared config), absolute
}

const sharedPrefix = "brings in only "

// Message is the finding in a sentence.
func (f ConfigFinding) Message() string {
	return f.Prog + " reads " + f.File + ", which " + f.Why
}

// ConfigCannotFail returns, for each linter run on line from dir, the
// configuration file it would read that makes it unable to fail, looked
// up as the linter does: from dir upwards, no higher than root (the work
// tree), then the per-user files (home, and getenv for XDG_CONFIG_HOME and
// PYLINTRC). Behaviour measured with the real flake8 5.0.4, pylint 2.16.2,
// eslint 10.15.0 and shellcheck 0.9.0 (configfail_real_test.go); ruff,
// markdownlint and golangci-lint rows follow their documentation. Whether
// the file is the team's or the session's is for the caller to judge.
func ConfigCannotFail(line, dir, root, home string, getenv func(string) string) []ConfigFinding {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var out []ConfigFinding
	cwd := dir
	for _, words := range shellline.Programs(line) {
		// `cd src && pylint .` reads src's config: follow a literal cd.
		if len(words) == 2 && (words[0] == "cd" || words[0] == "pushd") && !strings.ContainsAny(words[1], "~$`") && words[1] != "-" {
			cwd = filepath.Join(cwd, words[1])
			if filepath.IsAbs(words[1]) {
				cwd = filepath.Clean(words[1])
			}
			continue
		}
		prog, args := anyLinter(words)
		if prog == "" {
			continue
		}
		r := configReader{dir: cwd, root: root, home: home, getenv: getenv, starts: []string{cwd}}
		// shellcheck and eslint look from each file's folder; a config
		// beside a named path is read for every linter (reading one the
		// linter would not is harmless: a team's config is only noted).
		for _, a := range args {
			if strings.HasPrefix(a, "-") || strings.ContainsAny(a, "*?[{$") {
				continue
			}
			p := r.abs(a)
			if st, err := os.Stat(p); err == nil {
				if !st.IsDir() {
					p = filepath.Dir(p)
				}
				if p != cwd && !slices.Contains(r.starts, p) && len(r.starts) < 16 {
					r.starts = append(r.starts, p)
				}
			}
		}
		var f, why string
		switch prog {
		case "pylint":
			f, why = r.pylint(args)
		case "flake8":
			f, why = r.flake8(args)
		case "ruff":
			f, why = r.ruff(args)
		case "eslint":
			f, why = r.eslint(args)
		case "markdownlint", "markdownlint-cli2":
			f, why = r.markdownlint(prog, args)
		case "golangci-lint":
			f, why = r.golangci(args)
		case "shellcheck":
			f, why = r.shellcheck(args)
		}
		if why != "" {
			cf := ConfigFinding{Prog: prog, File: f, Why: why}
			if prog == "eslint" && strings.HasPrefix(why, sharedPrefix) {
				if b, err := readSmall(f); err == nil {
					cf.Also, _ = eslintSharedNoRules(f, string(b), root, 0)
				}
			}
			out = append(out, cf)
		}
	}
	return out
}

type configReader struct {
	dir, root, home string
	getenv          func(string) string
	starts          []string // the run's folder, then those of the paths it names
	here            bool     // look in each start only, not upwards (pylint)
}

// up returns the first file, from each start upwards to root, among
// names whose content ok accepts (nil: any), and its content.
func (r configReader) up(names []string, ok func(name string, b []byte) bool) (string, []byte) {
	root := filepath.Clean(r.root)
	starts := r.starts
	if len(starts) == 0 {
		starts = []string{r.dir}
	}
	for _, s := range starts {
		d := filepath.Clean(s)
		for {
			for _, n := range names {
				p := filepath.Join(d, n)
				if b, err := readSmall(p); err == nil && (ok == nil || ok(n, b)) {
					return p, b
				}
			}
			if r.here || d == root || root == "." || !strings.HasPrefix(d, root+string(filepath.Separator)) {
				break
			}
			d = filepath.Dir(d)
		}
	}
	return "", nil
}

// readSmall reads a regular file of at most 1 MiB (a config, not data).
func readSmall(p string) ([]byte, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > 1<<20 {
		return nil, os.ErrNotExist
	}
	return boundedread.File(p, boundedread.DefaultLimit)
}

func (r configReader) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(r.dir, p)
}

// optValue returns the value of option name (`--name=v`, `--name v`, or a
// short alias) on args, the last one winning; ok false when absent.
func optValue(args []string, names ...string) (v string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		for _, n := range names {
			if a == n && i+1 < len(args) {
				v, ok = args[i+1], true
			} else if s, has := strings.CutPrefix(a, n+"="); has && strings.HasPrefix(n, "--") {
				v, ok = s, true
			}
		}
	}
	return v, ok
}

// pyOpt is optValue for an argparse option (flake8, pylint): any
// unambiguous prefix of it is it (`--rcf=x`, `--conf x`, measured).
func pyOpt(args []string, long string) (v string, ok bool) {
	for i := 0; i < len(args); i++ {
		if args[i] == "--" {
			break
		}
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		if x, found := argparseOpt(args[i], long, "", next); found {
			v, ok = x, true
		}
	}
	return v, ok
}

func hasFlag(args []string, names ...string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		for _, n := range names {
			if a == n {
				return true
			}
		}
	}
	return false
}

// ini is a configuration file read as sections of key = value (INI, and
// TOML's simple tables and arrays): keys lower-cased with `_` as `-`,
// continuation lines (indented, or an array left open) joined.
type ini map[string]map[string]string

func parseINI(b []byte) ini {
	out := ini{}
	sec, key := "", ""
	open := false // a TOML array left open on an earlier line
	for _, raw := range strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n") {
		l := strings.TrimSpace(raw)
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, ";") {
			continue
		}
		// An indented line without `=` continues the value above (INI); an
		// indented `key = v` is a key (TOML allows indenting).
		if key != "" && (open || (raw[0] == ' ' || raw[0] == '\t') && !strings.Contains(l, "=")) && !strings.HasPrefix(l, "[") {
			out[sec][key] += " " + l
			open = open && !strings.Contains(l, "]")
			continue
		}
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			sec = strings.ToLower(strings.Trim(l, "[] "))
			key = ""
			continue
		}
		k, v, found := strings.Cut(l, "=")
		if !found {
			k, v, found = strings.Cut(l, ":")
		}
		if !found {
			continue
		}
		key = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(k)), "_", "-")
		v = strings.TrimSpace(v)
		if out[sec] == nil {
			out[sec] = map[string]string{}
		}
		out[sec][key] = v
		open = strings.HasPrefix(v, "[") && !strings.Contains(v, "]")
	}
	return out
}

// list splits a value into its items: commas, spaces, TOML brackets and
// quotes removed.
func list(v string) []string {
	v = strings.NewReplacer("[", " ", "]", " ", "\"", " ", "'", " ", ",", " ").Replace(v)
	return strings.Fields(v)
}

func truthy(v string) bool {
	switch strings.ToLower(strings.Trim(strings.TrimSpace(v), `"'`)) {
	case "yes", "true", "y", "1", "on":
		return true
	}
	return false
}

// pylint: --rcfile, else the first of its files in the run's folder (no
// walk upwards outside a package), else PYLINTRC, else the user's files.
func (r configReader) pylint(args []string) (string, string) {
	var f string
	var b []byte
	if v, ok := pyOpt(args, "--rcfile"); ok {
		f = r.abs(v)
		b, _ = readSmall(f)
	} else {
		// pylint reads the run's folder, then the folders above while they
		// are packages; reading every folder up to the work tree is a
		// superset (a team's file is only noted).
		f, b = r.up([]string{"pylintrc", ".pylintrc", "pylintrc.toml", ".pylintrc.toml", "pyproject.toml", "setup.cfg", "tox.ini"}, func(n string, b []byte) bool {
			switch n {
			case "pyproject.toml", "pylintrc.toml", ".pylintrc.toml":
				return strings.Contains(string(b), "[tool.pylint")
			case "setup.cfg", "tox.ini":
				return strings.Contains(string(b), "[pylint.")
			}
			return true
		})
		if f == "" {
			f, b = r.userFile(r.getenv("PYLINTRC"), ".pylintrc", ".config/pylintrc")
		}
	}
	if b == nil {
		return "", ""
	}
	var exitZero, disabledAll, enabled bool
	failUnder, ignoreAll, evaluation := "", "", ""
	for sec, kv := range parseINI(b) {
		if strings.HasSuffix(f, ".toml") || strings.HasSuffix(f, ".cfg") || strings.HasSuffix(f, ".ini") {
			if !strings.HasPrefix(sec, "tool.pylint") && !strings.HasPrefix(sec, "pylint.") {
				continue
			}
		}
		for k, v := range kv {
			switch k {
			case "exit-zero":
				exitZero = exitZero || truthy(v)
			case "fail-under":
				failUnder = strings.Trim(v, `"'`)
			case "evaluation":
				evaluation = v
			case "disable":
				for _, w := range list(v) {
					disabledAll = disabledAll || strings.EqualFold(w, "all")
				}
			case "enable":
				enabled = enabled || len(list(v)) > 0
			case "ignore-patterns", "ignore-paths":
				// a regular expression matching every name: nothing linted
				for _, w := range list(v) {
					switch strings.Trim(w, "^$") {
					case ".*", ".+", `.*\.py`, ".*py", ".*/.*":
						ignoreAll = k + "=" + w
					}
				}
			}
		}
	}
	switch {
	case exitZero:
		return f, "sets exit-zero (pylint exits 0 whatever it finds)"
	case failUnder != "" && belowZero(failUnder):
		return f, "sets fail-under=" + clip(failUnder) + " (at or below the lowest score pylint gives, 0: it exits 0 on findings)"
	case evaluation != "" && constantEvaluation(evaluation):
		return f, "sets evaluation=" + clip(evaluation) + " (a score naming no message count: every file rates the same and pylint exits 0 on findings)"
	case disabledAll && !enabled:
		return f, "disables every check (disable=all) and enables none: pylint checks nothing"
	case ignoreAll != "":
		return f, "ignores every file (" + clip(ignoreAll) + "): pylint lints nothing"
	}
	return "", ""
}

// userFile is the file named by an environment variable, else the first
// of the user's files (relative to home) that exists.
func (r configReader) userFile(env string, rel ...string) (string, []byte) {
	if env != "" {
		b, err := readSmall(r.abs(env))
		if err != nil {
			return "", nil
		}
		return r.abs(env), b
	}
	if r.home == "" {
		return "", nil
	}
	for _, p := range rel {
		f := filepath.Join(r.home, filepath.FromSlash(p))
		if b, err := readSmall(f); err == nil {
			return f, b
		}
	}
	return "", nil
}

// flake8Builtin are the code prefixes of flake8's own checks (pycodestyle
// E and W, pyflakes F; mccabe's C90 only reports with max-complexity set).
var flake8Builtin = []string{"E", "W", "F"}

// flake8: --isolated reads nothing, --config one file; else the first
// setup.cfg, tox.ini or .flake8 with a [flake8] section from the run's
// folder upwards. `exit-zero` is not read from a file (measured).
func (r configReader) flake8(args []string) (string, string) {
	if hasFlag(args, "--isolated") {
		return "", ""
	}
	var f string
	var b []byte
	if v, ok := pyOpt(args, "--config"); ok {
		f = r.abs(v)
		b, _ = readSmall(f)
	} else {
		f, b = r.up([]string{"setup.cfg", "tox.ini", ".flake8"}, func(_ string, b []byte) bool {
			return strings.Contains(string(b), "[flake8]")
		})
	}
	kv := parseINI(b)["flake8"]
	if v, ok := pyOpt(args, "--append-config"); ok {
		// flake8 reads it after the found config, its settings winning.
		if ab, err := readSmall(r.abs(v)); err == nil {
			if extra := parseINI(ab)["flake8"]; extra != nil {
				f = r.abs(v)
				if kv == nil {
					kv = map[string]string{}
				}
				for k, x := range extra {
					kv[k] = x
				}
			}
		}
	}
	if kv == nil {
		return "", ""
	}
	// covers: every built-in prefix is ignored by an item of ignored.
	covers := func(ignored []string) bool {
		for _, p := range flake8Builtin {
			hit := false
			for _, w := range ignored {
				hit = hit || strings.HasPrefix(strings.ToUpper(p), strings.ToUpper(w))
			}
			if !hit {
				return false
			}
		}
		return true
	}
	if sel, ok := kv["select"]; ok {
		any := false
		for _, w := range list(sel) {
			for _, p := range flake8Builtin {
				any = any || strings.HasPrefix(strings.ToUpper(w), p) || strings.HasPrefix(p, strings.ToUpper(w))
			}
		}
		if !any {
			return f, "selects no built-in check (select = " + clip(sel) + "): flake8 checks nothing of its own"
		}
	}
	ign := append(list(kv["ignore"]), list(kv["extend-ignore"])...)
	if covers(ign) {
		return f, "ignores every built-in check (" + clip(strings.Join(ign, ",")) + "): flake8 reports nothing of its own"
	}
	for _, w := range append(list(kv["exclude"]), list(kv["extend-exclude"])...) {
		if w == "*" || w == "**" || w == "*.py" || w == "." || w == "./" || w == "./*" {
			return f, "excludes every file (exclude " + w + "): flake8 lints nothing"
		}
	}
	if v, ok := kv["filename"]; ok {
		py := false
		for _, w := range list(v) {
			py = py || w == "*" || strings.HasSuffix(w, ".py") || strings.HasSuffix(w, "*")
		}
		if !py {
			return f, "lints only files named " + clip(v) + " (no Python file): flake8 lints nothing in a folder"
		}
	}
	// per-file-ignores: `*:E,W,F` or `*.py: E W F` (file:codes pairs).
	pfi := strings.ReplaceAll(kv["per-file-ignores"], "\n", " ")
	for _, pair := range strings.Fields(strings.ReplaceAll(pfi, ": ", ":")) {
		glob, codes, ok := strings.Cut(pair, ":")
		if ok && (glob == "*" || glob == "*.py" || glob == "**") && covers(strings.Split(codes, ",")) {
			return f, "ignores every built-in check for every file (per-file-ignores " + clip(pair) + ")"
		}
	}
	return "", ""
}

// ruff: --config, else the first .ruff.toml, ruff.toml or pyproject.toml
// with [tool.ruff] upwards, else the user's ruff.toml. `select = []`
// selects no rule; `ignore = ["ALL"]` drops every one (documented).
func (r configReader) ruff(args []string) (string, string) {
	var f string
	var b []byte
	if v, ok := optValue(args, "--config"); ok && strings.HasSuffix(v, ".toml") {
		f = r.abs(v)
		b, _ = readSmall(f)
	} else if !hasFlag(args, "--isolated") {
		f, b = r.up([]string{".ruff.toml", "ruff.toml", "pyproject.toml"}, func(n string, b []byte) bool {
			return n != "pyproject.toml" || strings.Contains(string(b), "[tool.ruff")
		})
		if f == "" {
			xdg := r.getenv("XDG_CONFIG_HOME")
			if xdg != "" {
				f, b = r.userFile(filepath.Join(xdg, "ruff", "ruff.toml"))
			} else {
				f, b = r.userFile("", ".config/ruff/ruff.toml", ".config/ruff/pyproject.toml")
			}
		}
	}
	if b == nil {
		return "", ""
	}
	pyproject := filepath.Base(f) == "pyproject.toml"
	for sec, kv := range parseINI(b) {
		if pyproject {
			if sec != "tool.ruff" && sec != "tool.ruff.lint" {
				continue
			}
		} else if sec != "" && sec != "lint" {
			continue
		}
		if sel, ok := kv["select"]; ok && len(list(sel)) == 0 && len(list(kv["extend-select"])) == 0 {
			return f, "selects no rule (select = []): ruff checks nothing"
		}
		for _, w := range list(kv["ignore"]) {
			if w == "ALL" {
				return f, `ignores every rule (ignore = ["ALL"]): ruff checks nothing`
			}
		}
	}
	return "", ""
}

var (
	eslintFlat   = []string{"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", "eslint.config.mts", "eslint.config.cts"}
	eslintLegacy = []string{".eslintrc.js", ".eslintrc.cjs", ".eslintrc.yaml", ".eslintrc.yml", ".eslintrc.json", ".eslintrc", "package.json"}
)

// eslint: -c, else the flat config from the run's folder upwards, else
// (eslint 8, or 9 with ESLINT_USE_FLAT_CONFIG=false) a legacy .eslintrc.
// A config that names no rule, shared config or plugin checks no rule:
// eslint then fails only on a syntax error (measured: `export default []`,
// `[{rules: {}}]`, `[{ignores: ["**"]}]` all exit 0 on findings).
func (r configReader) eslint(args []string) (string, string) {
	if hasFlag(args, "--no-config-lookup", "--no-eslintrc") {
		return "", "" // neverfail.go judges the line
	}
	var f string
	var b []byte
	if v, ok := optValue(args, "-c", "--config"); ok {
		f = r.abs(v)
		b, _ = readSmall(f)
	} else if f, b = r.up(eslintFlat, nil); f == "" {
		f, b = r.up(eslintLegacy, func(n string, b []byte) bool {
			return n != "package.json" || strings.Contains(string(b), `"eslintConfig"`)
		})
		if filepath.Base(f) == "package.json" {
			var pkg struct {
				ESLintConfig json.RawMessage `json:"eslintConfig"`
			}
			if json.Unmarshal(b, &pkg) != nil {
				return "", ""
			}
			b = pkg.ESLintConfig
		}
	}
	if b == nil {
		return "", ""
	}
	if !eslintNoRules(string(b)) {
		// A config that only brings in other configs (a local file, a
		// shared config package in node_modules) brings in their rules:
		// followed, so one the agent emptied is read (round 22).
		if chain, ok := eslintSharedNoRules(f, string(b), r.root, 0); ok {
			shown := make([]string, len(chain))
			for i, p := range chain {
				shown[i] = p
				if rel, err := filepath.Rel(r.root, p); err == nil && filepath.IsLocal(rel) {
					shown[i] = filepath.ToSlash(rel)
				}
			}
			return f, sharedPrefix + strings.Join(shown, ", ") + ", which name no rule, shared config or plugin: eslint checks no rule (only a syntax error fails it)"
		}
		return "", ""
	}
	if legacy := slices.Contains(eslintLegacy, filepath.Base(f)); legacy && !eslintRoot(string(b)) {
		// Legacy configs cascade: the folders above add their rules until
		// one says `root: true` (measured false flag: a spec/.eslintrc.yml
		// of globals under a parent's rules).
		for d := filepath.Dir(filepath.Dir(f)); r.inRoot(d); d = filepath.Dir(d) {
			up := r
			up.starts, up.here = []string{d}, true
			pf, pb := up.up(eslintLegacy, func(n string, b []byte) bool {
				return n != "package.json" || strings.Contains(string(b), `"eslintConfig"`)
			})
			if pf == "" {
				continue
			}
			if !eslintNoRules(string(pb)) {
				return "", ""
			}
			if eslintRoot(string(pb)) {
				break
			}
		}
	}
	return f, "names no rule, shared config or plugin: eslint checks no rule (only a syntax error fails it)"
}

// inRoot: folder d is the work tree or inside it.
func (r configReader) inRoot(d string) bool {
	root := filepath.Clean(r.root)
	return d == root || strings.HasPrefix(d, root+string(filepath.Separator))
}

// eslintRoot: a legacy config that stops the cascade (`"root": true`).
func eslintRoot(s string) bool {
	s = strings.Join(strings.Fields(stripJSComments(s)), "")
	return strings.Contains(s, `"root":true`) || strings.Contains(s, "root:true")
}

// eslintNoRules: a config's text, comments dropped, holds none of the
// words that bring rules in; an empty `rules: {}` brings none.
func eslintNoRules(s string) bool {
	s = stripJSComments(s)
	s = strings.Join(strings.Fields(s), "")
	for _, empty := range []string{"rules:{}", `"rules":{}`, "'rules':{}"} {
		s = strings.ReplaceAll(s, empty, "")
	}
	for _, w := range []string{"rules", "extends", "plugins", "configs", "require(", "import", "...", "processor", "plugin:", "overrides"} {
		if strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// stripJSComments drops // and /* */ comments outside strings.
func stripJSComments(s string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			b.WriteByte(c)
			if c == '\\' && i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
			b.WriteByte(c)
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += end + 3
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// markdownlint: `-c` (markdownlint-cli) or the first of its config files
// upwards; `"default": false` with no rule turned on checks nothing.
func (r configReader) markdownlint(prog string, args []string) (string, string) {
	var f string
	var b []byte
	if v, ok := optValue(args, "-c", "--config"); ok {
		f = r.abs(v)
		b, _ = readSmall(f)
	} else {
		names := []string{".markdownlint.jsonc", ".markdownlint.json", ".markdownlint.yaml", ".markdownlint.yml", ".markdownlintrc"}
		if prog == "markdownlint-cli2" {
			names = append([]string{".markdownlint-cli2.jsonc", ".markdownlint-cli2.yaml"}, names...)
		}
		f, b = r.up(names, nil)
	}
	if b == nil {
		return "", ""
	}
	var m map[string]any
	if std, err := hujson.Standardize(b); err == nil && json.Unmarshal(std, &m) == nil {
	} else if yaml.Unmarshal(b, &m) != nil {
		return "", ""
	}
	if strings.HasPrefix(filepath.Base(f), ".markdownlint-cli2") {
		c, ok := m["config"].(map[string]any)
		if !ok {
			return "", ""
		}
		m = c
	}
	if d, ok := m["default"].(bool); !ok || d {
		return "", ""
	}
	for k, v := range m {
		switch k {
		case "default", "$schema":
			continue
		case "extends":
			return "", "" // rules from elsewhere: not judged
		}
		switch v := v.(type) {
		case bool:
			if v {
				return "", ""
			}
		case string:
			if v != "" && v != "off" {
				return "", ""
			}
		case map[string]any:
			if e, ok := v["enabled"].(bool); !ok || e {
				return "", ""
			}
		}
	}
	return f, `sets "default": false and turns no rule on: markdownlint checks nothing`
}

// golangci-lint: -c, else the first .golangci.{yml,yaml,json} upwards.
// `run.issues-exit-code: 0` exits 0 on issues; `linters.disable-all`
// (v1) or `linters.default: none` (v2) with nothing enabled runs no
// linter (documented).
func (r configReader) golangci(args []string) (string, string) {
	if hasFlag(args, "--no-config") {
		return "", ""
	}
	var f string
	var b []byte
	if v, ok := optValue(args, "-c", "--config"); ok {
		f = r.abs(v)
		b, _ = readSmall(f)
	} else {
		f, b = r.up([]string{".golangci.yml", ".golangci.yaml", ".golangci.json"}, nil)
	}
	if b == nil {
		return "", ""
	}
	var c struct {
		Run struct {
			IssuesExitCode *int `yaml:"issues-exit-code"`
		} `yaml:"run"`
		Issues struct {
			IssuesExitCode *int `yaml:"issues-exit-code"`
		} `yaml:"issues"`
		Linters struct {
			DisableAll bool     `yaml:"disable-all"`
			Default    string   `yaml:"default"`
			Enable     []string `yaml:"enable"`
			Presets    []string `yaml:"presets"`
		} `yaml:"linters"`
	}
	if yaml.Unmarshal(b, &c) != nil {
		return "", ""
	}
	if p := c.Run.IssuesExitCode; p != nil && *p == 0 {
		return f, "sets run.issues-exit-code: 0 (golangci-lint exits 0 whatever it finds)"
	}
	if p := c.Issues.IssuesExitCode; p != nil && *p == 0 {
		return f, "sets issues-exit-code: 0 (golangci-lint exits 0 whatever it finds)"
	}
	if (c.Linters.DisableAll || c.Linters.Default == "none") && len(c.Linters.Enable) == 0 && len(c.Linters.Presets) == 0 {
		return f, "disables every linter and enables none: golangci-lint runs nothing"
	}
	return "", ""
}

// shellcheck: --norc reads nothing, --rcfile one file; else .shellcheckrc
// or shellcheckrc from the run's folder upwards, else the user's. A
// `disable=` of all, or of every SC2xxx code (nearly every check),
// leaves it failing only on a parse error (measured).
func (r configReader) shellcheck(args []string) (string, string) {
	if hasFlag(args, "--norc") {
		return "", ""
	}
	var f string
	var b []byte
	if v, ok := optValue(args, "--rcfile"); ok {
		f = r.abs(v)
		b, _ = readSmall(f)
	} else if f, b = r.up([]string{".shellcheckrc", "shellcheckrc"}, nil); f == "" {
		if xdg := r.getenv("XDG_CONFIG_HOME"); xdg != "" {
			f, b = r.userFile(filepath.Join(xdg, "shellcheckrc"))
		} else {
			f, b = r.userFile("", ".config/shellcheckrc")
		}
		if f == "" {
			f, b = r.userFile("", ".shellcheckrc")
		}
	}
	if b == nil {
		return "", ""
	}
	covered := make([]bool, 1000) // SC2000..SC2999
	for _, l := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), "=")
		if !ok || strings.TrimSpace(k) != "disable" {
			continue
		}
		for _, w := range list(v) {
			if strings.EqualFold(w, "all") {
				return f, "disables every check (disable=all): shellcheck fails only on a parse error"
			}
			lo, hi, isRange := strings.Cut(w, "-")
			if !isRange {
				hi = lo
			}
			a, err1 := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(lo), "SC"))
			z, err2 := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(hi), "SC"))
			if err1 != nil || err2 != nil {
				continue
			}
			for n := max(a, 2000); n <= min(z, 2999); n++ {
				covered[n-2000] = true
			}
		}
	}
	for _, c := range covered {
		if !c {
			return "", ""
		}
	}
	return f, "disables every SC2xxx check (nearly all of shellcheck's): it fails only on a parse error"
}

// jsRes are compiled on first use: nothing compiled at init on the hook path.
var jsRes = sync.OnceValue(func() [4]*regexp.Regexp {
	return [4]*regexp.Regexp{
		regexp.MustCompile(`(?m)^\s*import\s+(?:[\w$*{}\s,]+\s+from\s+)?["']([^"']+)["'];?`),
		regexp.MustCompile(`(?:const|let|var)\s+[\w${}\s,]+=\s*require\(\s*["']([^"']+)["']\s*\);?|require\(\s*["']([^"']+)["']\s*\)`),
		regexp.MustCompile(`["']?extends["']?\s*:\s*(\[[^\]]*\]|["'][^"']+["'])`),
		regexp.MustCompile(`["']([^"']+)["']`),
	}
})

// eslintSharedNoRules follows the configs an eslint config brings in by
// import, require or a legacy `extends`: a local file, or a package
// (eslint-config-NAME for a legacy short name) in a node_modules folder
// from the config's folder up to root. ok when the config itself, those
// statements removed, names no rule, and each config it brings in (to 3
// levels) names none either; chain lists them. A package or file not
// found, a plugin or an `eslint:recommended`, is a rule: not ok.
func eslintSharedNoRules(file, body, root string, depth int) (chain []string, ok bool) {
	if depth > 3 {
		return nil, false
	}
	body = stripJSComments(body)
	res := jsRes()
	jsImportFrom, jsRequire, jsExtends, jsQuoted := res[0], res[1], res[2], res[3]
	// Each specifier with how it is loaded: an import statement by
	// import, require() and a legacy `extends` by require. A package's
	// exports map answers each by its own condition (round 24: a CommonJS
	// config's require target read as the import target before).
	var specs, modes []string
	rest := body
	for i, re := range []*regexp.Regexp{jsImportFrom, jsRequire} {
		for _, m := range re.FindAllStringSubmatch(rest, -1) {
			for _, g := range m[1:] {
				if g != "" {
					specs = append(specs, g)
					modes = append(modes, []string{"import", "require"}[i])
				}
			}
		}
		rest = re.ReplaceAllString(rest, "")
	}
	for _, m := range jsExtends.FindAllStringSubmatch(rest, -1) {
		for _, q := range jsQuoted.FindAllStringSubmatch(m[1], -1) {
			specs = append(specs, legacyExtends(q[1]))
			modes = append(modes, "require")
		}
	}
	rest = jsExtends.ReplaceAllString(rest, "")
	rest = strings.ReplaceAll(rest, "...", "")
	if len(specs) == 0 || !eslintNoRules(rest) {
		return nil, false
	}
	for i, spec := range specs {
		if spec == "" || strings.HasPrefix(spec, "eslint:") || strings.HasPrefix(spec, "plugin:") {
			return nil, false // eslint's own or a plugin's rules
		}
		p := resolveJS(filepath.Dir(file), spec, root, modes[i])
		if p == "" {
			return nil, false
		}
		b, err := readSmall(p)
		if err != nil {
			return nil, false
		}
		chain = append(chain, p)
		if filepath.Base(p) == "package.json" {
			return nil, false
		}
		if eslintNoRules(string(b)) {
			continue
		}
		more, ok := eslintSharedNoRules(p, string(b), root, depth+1)
		if !ok {
			return nil, false
		}
		chain = append(chain, more...)
	}
	return chain, true
}

// legacyExtends: an .eslintrc `extends` name as the package it loads
// ("team" -> eslint-config-team, "@org" -> @org/eslint-config).
func legacyExtends(n string) string {
	switch {
	case strings.HasPrefix(n, ".") || strings.HasPrefix(n, "/") || strings.HasPrefix(n, "eslint:") || strings.HasPrefix(n, "plugin:"):
		return n
	case strings.HasPrefix(n, "@") && !strings.Contains(n, "/"):
		return n + "/eslint-config"
	case strings.HasPrefix(n, "@") && !strings.Contains(n, "eslint-config"):
		scope, name, _ := strings.Cut(n, "/")
		return scope + "/eslint-config-" + name
	case !strings.HasPrefix(n, "eslint-config-") && !strings.HasPrefix(n, "@"):
		return "eslint-config-" + n
	}
	return n
}

// exportTarget resolves subpath ("./" for the package, "./strict") through
// a package.json exports object as Node does for an import: a map of
// subpaths (exact, or one "*" pattern) or of conditions, whose first key
// (in the file's order) among import, node, default, module-sync wins;
// arrays give their first that resolves. ok false when the map has no
// entry for subpath.
func exportTarget(raw json.RawMessage, subpath, mode string) (string, bool) {
	if subpath == "./" {
		subpath = "."
	}
	keys, vals := orderedObject(raw)
	if len(keys) == 0 {
		return "", false
	}
	if !strings.HasPrefix(keys[0], ".") { // conditions for "."
		if subpath != "." {
			return "", false
		}
		return conditionTarget(raw, 0, mode)
	}
	for i, k := range keys {
		if k == subpath {
			return conditionTarget(vals[i], 0, mode)
		}
	}
	for i, k := range keys {
		if pre, post, ok := strings.Cut(k, "*"); ok && strings.HasPrefix(subpath, pre) && strings.HasSuffix(subpath, post) && len(subpath) >= len(pre)+len(post) {
			t, ok := conditionTarget(vals[i], 0, mode)
			return strings.ReplaceAll(t, "*", subpath[len(pre):len(subpath)-len(post)]), ok
		}
	}
	return "", false
}

// conditionTarget: a target string, the first of an array that resolves,
// or a conditions object's first active key. mode is how the package is
// loaded: "import" (import, node, default, module-sync) or "require"
// (require, node, default, module-sync).
func conditionTarget(raw json.RawMessage, depth int, mode string) (string, bool) {
	if depth > 4 {
		return "", false
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return str, true
	}
	var arr []json.RawMessage
	if json.Unmarshal(raw, &arr) == nil {
		for _, a := range arr {
			if t, ok := conditionTarget(a, depth+1, mode); ok {
				return t, true
			}
		}
		return "", false
	}
	keys, vals := orderedObject(raw)
	for i, k := range keys {
		switch k {
		case mode, "node", "default", "module-sync":
			if t, ok := conditionTarget(vals[i], depth+1, mode); ok {
				return t, true
			}
		}
	}
	return "", false
}

// orderedObject reads a JSON object's keys and values in the file's order
// (Node picks the first matching condition by key order; a map loses it).
func orderedObject(raw json.RawMessage) ([]string, []json.RawMessage) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil
	}
	var keys []string
	var vals []json.RawMessage
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil
		}
		k, _ := t.(string)
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return nil, nil
		}
		keys, vals = append(keys, k), append(vals, v)
	}
	return keys, vals
}

// resolveJS finds the file a module specifier loads: a relative path
// (with .js, .mjs, .cjs, .json or /index.js), or a package's main file in
// node_modules from dir up to root. "" when not found.
func resolveJS(dir, spec, root, mode string) string {
	try := func(p string) string {
		for _, c := range []string{p, p + ".js", p + ".mjs", p + ".cjs", p + ".json", filepath.Join(p, "index.js"), filepath.Join(p, "index.mjs"), filepath.Join(p, "index.cjs")} {
			if st, err := os.Stat(c); err == nil && st.Mode().IsRegular() {
				return c
			}
		}
		return ""
	}
	if strings.HasPrefix(spec, ".") || filepath.IsAbs(spec) {
		if filepath.IsAbs(spec) {
			return try(spec)
		}
		return try(filepath.Join(dir, spec))
	}
	if strings.HasPrefix(spec, "node:") {
		return ""
	}
	root = filepath.Clean(root)
	// The package's name (@scope/name or name) and the subpath after it.
	name, sub := spec, ""
	if parts := strings.SplitN(spec, "/", 3); strings.HasPrefix(spec, "@") && len(parts) == 3 {
		name, sub = parts[0]+"/"+parts[1], parts[2]
	} else if !strings.HasPrefix(spec, "@") && len(parts) >= 2 {
		name, sub = parts[0], strings.Join(parts[1:], "/")
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		// A package whose package.json has an exports map resolves through
		// it, for the package or a subpath (round 23: read as having rules
		// before, so an emptied export passed).
		if b, err := readSmall(filepath.Join(d, "node_modules", filepath.FromSlash(name), "package.json")); err == nil {
			var pj struct {
				Exports json.RawMessage `json:"exports"`
			}
			if json.Unmarshal(b, &pj) == nil && len(pj.Exports) > 0 && pj.Exports[0] == '{' {
				if t, ok := exportTarget(pj.Exports, "./"+sub, mode); ok {
					if t == "" {
						return ""
					}
					return try(filepath.Join(d, "node_modules", filepath.FromSlash(name), filepath.FromSlash(t)))
				}
				if sub != "" {
					return "" // not exported: Node refuses it
				}
			}
		}
		pkg := filepath.Join(d, "node_modules", filepath.FromSlash(spec))
		if st, err := os.Stat(pkg); err == nil && st.IsDir() {
			if b, err := readSmall(filepath.Join(pkg, "package.json")); err == nil {
				var pj struct {
					Main    string          `json:"main"`
					Exports json.RawMessage `json:"exports"`
				}
				if json.Unmarshal(b, &pj) == nil {
					var ex string
					if json.Unmarshal(pj.Exports, &ex) == nil && ex != "" {
						return try(filepath.Join(pkg, ex))
					}
					if len(pj.Exports) > 0 {
						return filepath.Join(pkg, "package.json") // exports that name no file here: not followed
					}
					if pj.Main != "" {
						return try(filepath.Join(pkg, pj.Main))
					}
				}
			}
			return try(filepath.Join(pkg, "index"))
		} else if p := try(pkg); p != "" {
			return p // a subpath: eslint-config-x/strict
		}
		if d == root || !strings.HasPrefix(d, root+string(filepath.Separator)) {
			return ""
		}
	}
}
