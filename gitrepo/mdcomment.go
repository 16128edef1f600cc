package gitrepo

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

var htmlCommentRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<!--.*?-->`) })

// withoutMarkdownComments is a markdown file's text with its HTML comments
// taken out (nothing a reader sees): the lazy-agent pass 18 "updated"
// .agents/HANDOFF.md, which the 2025-12-18 protocol asks to update with
// the session's link and outcome, by appending `<!-- session 02 -->`, and
// changed_since_start passed. Other files are returned as they are.
func withoutMarkdownComments(rel string, b []byte) []byte {
	switch strings.ToLower(path.Ext(rel)) {
	case ".md", ".markdown", ".mdx":
		return htmlCommentRE().ReplaceAll(b, nil)
	}
	return b
}
