package protocolspec

import "strings"

// pathPattern is a path named in prose, in the inference patterns.
const pathPattern = `[A-Za-z0-9_.*\-]+(?:/[A-Za-z0-9_.*\-]+)*/?`

// pathTokens finds what pathPattern finds (FindAllString), by hand: the
// pattern matches nearly every word of a sentence, and the regexp engine
// was most of the read-only rule's time. No backtracking is needed: the
// class holds no '/', so each greedy part takes all it can.
func pathTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if !isPathByte(s[i]) {
			i++
			continue
		}
		j := pathRun(s, i)
		for j+1 < len(s) && s[j] == '/' && isPathByte(s[j+1]) {
			j = pathRun(s, j+1)
		}
		if j < len(s) && s[j] == '/' {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// pathRun is the end of the run of path bytes starting at i.
func pathRun(s string, i int) int {
	for i < len(s) && isPathByte(s[i]) {
		i++
	}
	return i
}

// isPathByte is the pattern's class [A-Za-z0-9_.*\-].
func isPathByte(c byte) bool {
	return isWordByte(c) || c == '.' || c == '*' || c == '-'
}

// NamedPaths lists the paths the requirement's text names, as globs: a
// folder ("dir/") as "dir/**", a template path's variables
// (YYYY-MM-DD-session-NN) as "*". URLs are not paths. Evidence that is a
// path answers such a requirement only with one of them.
func (r Requirement) NamedPaths() []string {
	var out []string
	text := r.Text
	for _, tok := range pathTokens(text) {
		i := strings.Index(text, tok)
		before := text[:i]
		text = text[i+len(tok):]
		if strings.HasSuffix(before, "://") || strings.HasSuffix(before, "@") {
			continue
		}
		p := strings.TrimPrefix(strings.TrimRight(tok, "."), "./")
		if !looksLikePath(p) || !strings.Contains(p, "/") && len(p) < 4 { // "e.g."
			continue
		}
		out = append(out, pathGlob(templateGlob(p)))
	}
	return out
}
