package testrun

import (
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A child script run by the test script (`sh scripts/more.sh ||
// fail=$((fail+1))`) runs in its own process: a helper it defines under
// the parent's helper's name (its own `check`, marking its own count) is
// no redefinition of the parent's, whose checks never call it. Read in
// the parent's place (childChecks), it would read as one (round 48,
// honest pass 51's B3). childOwnHelpers renames such a helper, and every
// call of it, to a name neither script uses, as a child that named its
// helper otherwise would read.

// childOwnHelpers is body (the child's text, parsed as f) with each
// function named in rename defined and called under a fresh name. ok is
// false, and body unchanged, when a name is used otherwise than as a
// definition's name or a plain call's command word (`eval check`, `trap
// check EXIT`, `"check"`, `command check`): what those run is not read
// here.
func childOwnHelpers(body, parent string, f *syntax.File, rename map[string]bool) (string, bool) {
	if len(rename) == 0 {
		return body, true
	}
	type edit struct {
		at   int
		name string
	}
	var edits []edit
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.FuncDecl:
			if x.Name != nil && rename[x.Name.Value] {
				edits = append(edits, edit{int(x.Name.Pos().Offset()), x.Name.Value})
			}
		case *syntax.CallExpr:
			if len(x.Args) > 0 && len(x.Args[0].Parts) == 1 {
				if l, ok := x.Args[0].Parts[0].(*syntax.Lit); ok && rename[l.Value] {
					edits = append(edits, edit{int(l.Pos().Offset()), l.Value})
				}
			}
		}
		return true
	})
	fresh := map[string]string{}
	for name := range rename {
		n := name + "_child"
		for regexp.MustCompile(`\b` + regexp.QuoteMeta(n) + `\b`).MatchString(parent + "\n" + body) {
			n += "_"
		}
		fresh[name] = n
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.at - a.at })
	out := body
	for _, e := range edits {
		if e.at < 0 || e.at+len(e.name) > len(out) || out[e.at:e.at+len(e.name)] != e.name {
			return body, false
		}
		out = out[:e.at] + fresh[e.name] + out[e.at+len(e.name):]
	}
	// No word of the renamed text may still name the helper.
	g, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(out), "")
	if err != nil {
		return body, false
	}
	left := false
	syntax.Walk(g, func(n syntax.Node) bool {
		var v string
		switch x := n.(type) {
		case *syntax.Lit:
			v = x.Value
		case *syntax.SglQuoted:
			v = x.Value
		default:
			return !left
		}
		for name := range rename {
			if regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_])`).MatchString(v) {
				left = true
			}
		}
		return !left
	})
	if left {
		return body, false
	}
	return out, true
}
