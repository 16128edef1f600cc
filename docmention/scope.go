package docmention

import (
	"path"
	"strings"
)

// scriptScopes splits a doc for a script's name: each part is a markdown
// section's own text (to its next heading), paired with the text that
// says whose it is (the section and the sections above it: their own
// text, headings included). A script's flag named in a section about
// another script is not this script's, though the doc names both
// (rjmurillo/ai-agents 2c85d25: CONTRIBUTING.md names a hook 300 lines
// above a template that reads CLAUDE_PROJECT_DIR). Other formats are one
// part.
func scriptScopes(doc, body string) (parts, scopes []string) {
	switch strings.ToLower(path.Ext(doc)) {
	case ".rst", ".adoc", ".asciidoc", ".txt":
		return []string{body}, []string{body}
	}
	type sec struct {
		level int
		text  strings.Builder
	}
	secs := []*sec{{}}
	fence := ""
	for _, l := range strings.SplitAfter(body, "\n") {
		t := strings.TrimSpace(l)
		if fence == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) {
			fence = t[:3]
		} else if fence != "" && strings.HasPrefix(t, fence) {
			fence = ""
		} else if fence == "" && strings.HasPrefix(t, "#") {
			lv := len(t) - len(strings.TrimLeft(t, "#"))
			if lv <= 6 && (len(t) == lv || t[lv] == ' ') {
				secs = append(secs, &sec{level: lv})
			}
		}
		secs[len(secs)-1].text.WriteString(l)
	}
	for i, s := range secs {
		scope := s.text.String()
		lv := s.level
		for j := i - 1; j >= 0 && lv > 0; j-- {
			if secs[j].level < lv {
				scope = secs[j].text.String() + scope
				lv = secs[j].level
			}
		}
		parts = append(parts, s.text.String())
		scopes = append(scopes, scope)
	}
	return parts, scopes
}
