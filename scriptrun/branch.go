package scriptrun

import (
	"path"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/syntax"
)

// Taken is a shell script's text as it runs with the literal arguments
// args: the bodies of the top-level `case "$N" in` items the arguments do
// not take are blanked (newlines kept, so line numbers stay), for the
// rules and the scan to judge only what runs. `sh release.sh test` does
// not run the `publish)` item that moves a ref.
//
// It is decided only when nothing can change the arguments or run the
// script again with others: no `shift`, no `set` with operands, no $0 or
// BASH_SOURCE, no `eval`; the case word is exactly $N; every pattern is a
// plain glob of letters, digits and . _ - * ?, or quoted text; the items
// end with ;; (no fall-through); an argument with a slash is not matched.
// Otherwise the text comes back unchanged: every branch is judged.
func Taken(text string, args []string) string {
	if !strings.Contains(text, "case") || !strings.Contains(text, "$") {
		return text // no case on an argument: nothing to decide, no parse
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(text), "")
	if err != nil || rerunsItself.MatchString(text) {
		return text
	}
	undecidable := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			switch c.Args[0].Lit() {
			case "shift", "eval", "source", ".":
				// source/. take arguments of their own and see the
				// caller's when they have none: not followed here.
				undecidable = true
			case "set":
				for _, a := range c.Args[1:] {
					if s := a.Lit(); s == "" || s == "--" || !strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "+") {
						undecidable = true
					}
				}
			}
		}
		return !undecidable
	})
	if undecidable {
		return text
	}
	blank := []byte(text)
	changed := false
	for _, st := range f.Stmts {
		cc, ok := st.Cmd.(*syntax.CaseClause)
		if !ok {
			continue
		}
		n, ok := positional(cc.Word)
		if !ok {
			continue
		}
		arg := ""
		if n <= len(args) {
			arg = args[n-1]
		}
		if strings.Contains(arg, "/") {
			continue
		}
		taken := -1
		for i, it := range cc.Items {
			m, ok := matches(it.Patterns, arg)
			if !ok {
				taken = -2
				break
			}
			if m {
				if it.Op != syntax.Break && i < len(cc.Items)-1 {
					taken = -2 // ;& or ;;& runs on into the next item
				} else {
					taken = i
				}
				break
			}
		}
		if taken == -2 {
			continue
		}
		for i, it := range cc.Items {
			if i == taken || len(it.Stmts) == 0 {
				continue
			}
			from, to := int(it.Stmts[0].Pos().Offset()), int(it.Stmts[len(it.Stmts)-1].End().Offset())
			for k := from; k < to && k < len(blank); k++ {
				if blank[k] != '\n' {
					blank[k] = ' '
				}
			}
			changed = true
		}
	}
	if !changed {
		return text
	}
	return string(blank)
}

// rerunsItself finds what runs the script again, or reads the arguments
// another way: $0, ${0}, BASH_SOURCE.
var rerunsItself = lazyregexp.New(`\$\{?0\b|BASH_SOURCE|\$\{?BASH_ARGV`)

// positional is N for a word that is exactly $N or "$N" (or ${N}).
func positional(w *syntax.Word) (int, bool) {
	if w == nil || len(w.Parts) != 1 {
		return 0, false
	}
	p := w.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok {
		if len(dq.Parts) != 1 {
			return 0, false
		}
		p = dq.Parts[0]
	}
	pe, ok := p.(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Exp != nil || pe.Slice != nil || pe.Repl != nil || pe.Index != nil || pe.Length || pe.Excl || pe.Width || pe.Names != 0 {
		return 0, false
	}
	n, err := strconv.Atoi(pe.Param.Value)
	if err != nil || n < 1 || n > 9 {
		return 0, false
	}
	return n, true
}

var plainGlob = lazyregexp.New(`^[A-Za-z0-9_.*?-]*$`)

// matches reports whether one of a case item's patterns matches arg; ok is
// false when a pattern cannot be decided here.
func matches(pats []*syntax.Word, arg string) (m, ok bool) {
	for _, w := range pats {
		exact, glob := "", ""
		for _, p := range w.Parts {
			switch x := p.(type) {
			case *syntax.Lit:
				if !plainGlob.MatchString(x.Value) {
					return false, false
				}
				glob += x.Value
			case *syntax.SglQuoted:
				if x.Dollar {
					return false, false
				}
				exact += x.Value
			case *syntax.DblQuoted:
				if len(x.Parts) > 1 {
					return false, false
				}
				if len(x.Parts) == 1 {
					l, isLit := x.Parts[0].(*syntax.Lit)
					if !isLit || strings.ContainsAny(l.Value, `$\`+"`") {
						return false, false
					}
					exact += l.Value
				}
			default:
				return false, false
			}
		}
		switch {
		case exact != "" && glob != "":
			return false, false // "pre"* mixes both: not decided
		case exact != "" || glob == "" && len(w.Parts) > 0:
			if exact == arg {
				return true, true
			}
		default:
			hit, err := path.Match(glob, arg)
			if err != nil {
				return false, false
			}
			if hit {
				return true, true
			}
		}
	}
	return false, true
}

var makeDirective = lazyregexp.New(`^-?(?:s?include|ifeq|ifneq|ifdef|ifndef|else|endif|define|endef|vpath)\b`)

// plainSpecial are the special targets that add no recipe to a goal.
var plainSpecial = map[string]bool{".PHONY": true, ".SILENT": true, ".IGNORE": true, ".NOTPARALLEL": true, ".ONESHELL": true,
	".DELETE_ON_ERROR": true, ".POSIX": true, ".EXPORT_ALL_VARIABLES": true, ".PRECIOUS": true, ".INTERMEDIATE": true, ".SECONDARY": true}

var makeRuleRe = lazyregexp.New(`^([^\t#:=][^:=]*?)\s*:([^=].*|)$`)

// RecipesOf are the recipe lines make runs for goals (none: the first
// target), the goals' prerequisites followed: `make -f release.mk test`
// does not run the `publish` target's recipe. When that cannot be decided
// here (a target or prerequisite from a variable or a pattern, an include,
// a recursive make, a double-colon rule, a goal the file does not name)
// every recipe is returned, as Recipes does.
func RecipesOf(text string, goals []string) []Stmt {
	all := Recipes(text)
	if strings.Contains(text, "$(MAKE)") || strings.Contains(text, "${MAKE}") {
		return all
	}
	lines := strings.Split(text, "\n")
	prereqs := map[string][]string{}
	owner := map[int][]string{} // a recipe's line (1-based) -> its rule's targets
	var cur []string
	first := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "\t"):
			owner[i+1] = cur
			for strings.HasSuffix(strings.TrimSpace(lines[i]), `\`) && i+1 < len(lines) {
				i++
			}
			continue
		case strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#"):
			continue
		}
		for strings.HasSuffix(l, `\`) && i+1 < len(lines) {
			i++
			l = strings.TrimSuffix(l, `\`) + " " + lines[i]
		}
		t := strings.TrimSpace(l)
		if makeDirective.MatchString(t) || strings.Contains(t, "::") {
			return all // included rules, conditional recipes, a defined recipe: not followed
		}
		m := makeRuleRe.FindStringSubmatch(l)
		if m == nil {
			cur = nil // a variable or a directive: what follows is no recipe of the last rule
			continue
		}
		if strings.ContainsAny(m[1]+m[2], "$%") {
			return all
		}
		body, _, _ := strings.Cut(m[2], ";")
		if strings.Contains(m[2], ";") {
			return all // an inline recipe: not followed here
		}
		cur = strings.Fields(m[1])
		for _, tg := range cur {
			if strings.HasPrefix(tg, ".") && !plainSpecial[tg] {
				return all // .DEFAULT, suffix rules: recipes for goals no rule names
			}
			prereqs[tg] = append(prereqs[tg], strings.Fields(body)...)
			if first == "" && !strings.HasPrefix(tg, ".") {
				first = tg
			}
		}
	}
	if len(goals) == 0 {
		if first == "" {
			return all
		}
		goals = []string{first}
	}
	runs := map[string]bool{}
	var visit func(string) bool
	visit = func(t string) bool {
		if runs[t] {
			return true
		}
		if _, ok := prereqs[t]; !ok {
			return false
		}
		runs[t] = true
		for _, p := range prereqs[t] {
			if _, ok := prereqs[p]; ok && !visit(p) {
				return false
			}
		}
		return true
	}
	for _, g := range goals {
		if !visit(g) {
			return all // a goal the file does not name: make's own rules, or a file
		}
	}
	var out []Stmt
	for _, st := range all {
		if len(owner[st.Line]) == 0 {
			return all // a recipe line of no rule seen here
		}
		for _, t := range owner[st.Line] {
			if runs[t] {
				out = append(out, st)
				break
			}
		}
	}
	return out
}
