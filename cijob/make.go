package cijob

import (
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"maps"
	"slices"
	"strings"
)

// dynamicRule keys the rules whose target is a variable or a pattern.
const dynamicRule = "\x00dynamic"

// Makefiles are the names make reads by default, in its order.
var Makefiles = []string{"GNUmakefile", "makefile", "Makefile"}

// makeFile is a Makefile read as far as a CI job's target needs: each
// target's rule lines (a target may have several, and target-specific
// variables are rule lines too) with their recipes, and each variable's
// assignment lines. It is not make: conditionals are read as if every
// branch held, so a change in any branch is a change.
type makeFile struct {
	rules   map[string][]string // target -> its rule lines and recipe lines, in file order
	deps    map[string][]string // target -> prerequisites named on its rule lines
	vars    map[string][]string // variable -> its assignment lines
	first   string              // the default goal
	globals []string            // include lines and special targets that change every recipe
}

var (
	assignRe = lazyregexp.New(`^(?:(?:export|override|private)\s+)*([A-Za-z0-9_.\-]+)\s*(?:[:?+!]|::|:::)?=`)
	varRefRe = lazyregexp.New(`\$[({]([A-Za-z0-9_.\-]+)[)}]|\$([A-Za-z0-9_])|\$[({](?:call|value)\s+([A-Za-z0-9_.\-]+)`)
	// special targets and variables that change how every recipe runs or
	// whether its failure counts (.IGNORE ignores every error).
	specialTargets = []string{".IGNORE", ".ONESHELL", ".DEFAULT", ".POSIX", ".SILENT", ".DELETE_ON_ERROR", ".NOTPARALLEL"}
	specialVars    = []string{"SHELL", ".SHELLFLAGS", "MAKEFLAGS", "MAKE", "MAKEFILES", ".DEFAULT_GOAL", ".RECIPEPREFIX"}
)

func parseMake(b []byte) *makeFile {
	mk := &makeFile{rules: map[string][]string{}, deps: map[string][]string{}, vars: map[string][]string{}}
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n") {
		if n := len(lines); n > 0 && strings.HasSuffix(lines[n-1], "\\") {
			lines[n-1] = strings.TrimSuffix(lines[n-1], "\\") + " " + strings.TrimSpace(l)
			continue
		}
		lines = append(lines, l)
	}
	var current []string // the targets whose recipe follows
	var define string    // inside define NAME ... endef
	for _, l := range lines {
		if define != "" {
			mk.vars[define] = append(mk.vars[define], l)
			if strings.TrimSpace(l) == "endef" {
				define = ""
			}
			continue
		}
		if strings.HasPrefix(l, "\t") {
			for _, t := range current {
				mk.rules[t] = append(mk.rules[t], strings.TrimRight(l, " \t"))
			}
			continue
		}
		s := strings.TrimSpace(l)
		if i := strings.Index(s, "#"); i >= 0 && !strings.Contains(s[:i], "\\") {
			s = strings.TrimSpace(s[:i])
		}
		if s == "" {
			continue
		}
		word, _, _ := strings.Cut(s, " ")
		switch word {
		case "define":
			f := strings.Fields(s)
			if len(f) > 1 {
				define = f[1]
				mk.vars[define] = append(mk.vars[define], s)
			}
			current = nil
			continue
		case "include", "-include", "sinclude", "vpath", "unexport":
			mk.globals = append(mk.globals, s)
			current = nil
			continue
		case "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "export":
			if word != "export" || !assignRe.MatchString(s) {
				continue
			}
		}
		if m := assignRe.FindStringSubmatch(s); m != nil && !ruleBeforeAssign(s) {
			mk.vars[m[1]] = append(mk.vars[m[1]], s)
			current = nil
			continue
		}
		targets, rest, ok := strings.Cut(s, ":")
		if !ok {
			if strings.Contains(s, "$") {
				// A function at the top level (`$(eval $(RULE))`) can
				// define any goal's rule: part of every goal's text.
				mk.globals = append(mk.globals, s)
				current = nil
			}
			continue
		}
		rest = strings.TrimLeft(rest, ":") // double-colon rules
		recipe := ""
		if i := strings.Index(rest, ";"); i >= 0 {
			rest, recipe = rest[:i], strings.TrimSpace(rest[i+1:])
		}
		current = strings.Fields(targets)
		for _, t := range current {
			if strings.ContainsAny(t, "$%") {
				// `$(GOAL):` or `g%:` can be any goal's rule: kept in
				// every goal's text (dynamicRule).
				t = dynamicRule
			}
			mk.rules[t] = append(mk.rules[t], s)
			if !strings.Contains(rest, "=") { // not a target-specific variable
				for _, d := range strings.Fields(strings.ReplaceAll(rest, "|", " ")) {
					mk.deps[t] = append(mk.deps[t], d)
				}
			}
			if recipe != "" {
				mk.rules[t] = append(mk.rules[t], "\t"+recipe)
			}
			if mk.first == "" && t != dynamicRule && !strings.HasPrefix(t, ".") {
				mk.first = t
			}
		}
		for i, t := range current {
			if strings.ContainsAny(t, "$%") {
				current[i] = dynamicRule
			}
		}
		if slices.ContainsFunc(current, func(t string) bool { return slices.Contains(specialTargets, t) }) {
			current = nil // its lines are read by globalText
		}
	}
	return mk
}

// expandSimple replaces $(VAR) and ${VAR} in w by VAR's value where the
// file assigns VAR once, a literal (`include $(CONF)` with `CONF =
// ci.mk` reads ci.mk); anything else is left as it is.
func (mk *makeFile) expandSimple(w string) string {
	return varRefRe.ReplaceAllStringFunc(w, func(ref string) string {
		m := varRefRe.FindStringSubmatch(ref)
		name := m[1] + m[2]
		if m[3] != "" || name == "" || len(mk.vars[name]) != 1 {
			return ref
		}
		a := assignRe.FindStringSubmatchIndex(mk.vars[name][0])
		if a == nil {
			return ref
		}
		v := strings.TrimSpace(mk.vars[name][0][a[1]:])
		if v == "" || strings.ContainsAny(v, "$ \t") {
			return ref
		}
		return v
	})
}

// ruleBeforeAssign reports whether a line with both ':' and '=' is a rule
// (a target-specific variable, `verify: SG = true`) rather than `X := y`.
func ruleBeforeAssign(s string) bool {
	c, e := strings.Index(s, ":"), strings.Index(s, "=")
	return c >= 0 && c < e && !strings.HasPrefix(s[c:], ":=") && !strings.HasPrefix(s[c:], "::=") && !strings.HasPrefix(s[c:], ":::=")
}

// rule returns, as text, what decides what `make target` runs in b: the
// target's rule, those of the prerequisites it names (in turn), whether
// .PHONY lists them, the variables their lines use (in turn), and the
// file's includes and the special targets and variables that change every
// recipe. "" when b has no rule for target.
func makeRule(b []byte, target string) string {
	mk := parseMake(b)
	if target == "" {
		target = mk.first
	}
	if _, ok := mk.rules[target]; !ok {
		return ""
	}
	seen := map[string]bool{}
	var ts []string
	var walk func(t string)
	walk = func(t string) {
		if seen[t] {
			return
		}
		seen[t] = true
		if _, ok := mk.rules[t]; ok {
			ts = append(ts, t)
		}
		for _, d := range mk.deps[t] {
			walk(d)
		}
	}
	walk(target)
	var out []string
	phony := mk.deps[".PHONY"]
	vars := map[string]bool{}
	for _, v := range specialVars {
		vars[v] = true
	}
	for _, t := range ts {
		out = append(out, mk.rules[t]...)
		if slices.Contains(phony, t) {
			out = append(out, ".PHONY: "+t)
		}
	}
	for _, t := range append(slices.Clone(specialTargets), dynamicRule) {
		out = append(out, mk.rules[t]...)
	}
	out = append(out, mk.globals...)
	// the variables the lines use, and those their values use
	queue := slices.Clone(out)
	for len(queue) > 0 {
		l := queue[0]
		queue = queue[1:]
		for _, m := range varRefRe.FindAllStringSubmatch(l, -1) {
			vars[m[1]+m[2]+m[3]] = true // $(call NAME,...) uses NAME
		}
		for v := range vars {
			if vs, ok := mk.vars[v]; ok && !seen["$"+v] {
				seen["$"+v] = true
				queue = append(queue, vs...)
			}
		}
	}
	for _, v := range slices.Sorted(maps.Keys(vars)) {
		out = append(out, mk.vars[v]...)
	}
	return strings.Join(out, "\n")
}

// makeCall is a `make` command line in a CI job: the Makefile it reads
// (relative to the repository) and its goals ("" for the default).
type makeCall struct {
	dir, file string
	goals     []string
}
