package shellline

import (
	"path"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// globMark prefixes a glob word in a call's words (Writes), so find can
// read its start points' patterns while every other command still sees
// an unknown word ("").
const globMark = "\x00glob:"

// dotGlobOn is a line that lets a glob match dot files: bash's dotglob
// (also set by GLOBIGNORE), zsh's GLOB_DOTS or a (D) qualifier.
var dotGlobOn = lazyregexp.New(`(?i)dotglob|glob_?dots|GLOBIGNORE|\(D\)|\(\.?D`)

// globPattern is a word that is a pathname pattern and nothing the shell
// expands otherwise (no parameter, command or home-folder expansion): its
// text with quotes removed. A quoted part stays literal, so `"."*` is the
// pattern .* (a leading literal dot) as the shell reads it.
func globPattern(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	var b strings.Builder
	glob := false
	for i, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			v := x.Value
			if i == 0 && strings.HasPrefix(v, "~") {
				return "", false // a home folder
			}
			for k := 0; k < len(v); k++ {
				switch c := v[k]; c {
				case '\\':
					if k+1 < len(v) {
						k++
						b.WriteByte(v[k])
					}
				case '*', '?', '[':
					glob = true
					b.WriteByte(c)
				default:
					b.WriteByte(c)
				}
			}
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), glob
}

// globReachesGitDir reports whether a relative glob start point can name
// the work tree's root or its .git (so a walk from it reaches
// .git/sessiongate): a `..` component, a component that matches .git (the
// shell's globs match a leading dot only by a literal dot, unless
// dotGlob), or an absolute or extended pattern, which is not judged.
func globReachesGitDir(g string, dotGlob bool) bool {
	if path.IsAbs(g) || strings.ContainsAny(g, "(){}") {
		return true // extglob, brace or absolute: not read here
	}
	for _, c := range strings.Split(g, "/") {
		switch c {
		case "..":
			return true
		case "", ".":
			continue
		}
		if ok, err := path.Match(c, ".git"); err != nil || ok && (dotGlob || strings.HasPrefix(c, ".")) {
			return true
		}
	}
	return false
}

// maxBraceWords bounds what one word's brace expansion is read as.
const maxBraceWords = 256

// braceWords is a word after the shell's brace expansion: `rm -rf
// {.git,x}/sessiongate` removes .git/sessiongate, which the word read as
// one literal hid. The parsed word is not changed (the parse is shared).
func braceWords(w *syntax.Word) []*syntax.Word {
	cp := &syntax.Word{Parts: slices.Clone(w.Parts)}
	if !syntax.SplitBraces(cp) {
		return []*syntax.Word{w}
	}
	ws := expand.Braces(cp)
	if len(ws) > maxBraceWords {
		return []*syntax.Word{{}} // too many to read: one unknown word
	}
	return ws
}
