package gitrepo

import "github.com/sessiongate/sessiongate/mdtext"

// withoutMarkdownComments is a markdown file's text without what a reader
// does not see (mdtext.Shown: HTML comments, link reference definitions
// such as `[//]: # (...)`): the lazy-agent pass 18 "updated"
// .agents/HANDOFF.md, which the 2025-12-18 protocol asks to update with
// the session's link and outcome, by appending `<!-- session 02 -->`, and
// changed_since_start passed. Other files are returned as they are.
func withoutMarkdownComments(rel string, b []byte) []byte {
	if !mdtext.IsMarkdown(rel) {
		return b
	}
	return []byte(mdtext.Shown(string(b)))
}
