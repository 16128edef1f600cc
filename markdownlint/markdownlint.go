// Package markdownlint reads what markdownlint's inline comments do to its
// rules, without running the linter: a comment that turns every rule off
// is rules off, not a reviewable exception. It needs no session; the
// engine's lint gate (session/lintweakened.go) asks it about the lines a
// session added.
package markdownlint

import (
	"strings"
	"sync"
)

// DisablesAllRules reports a markdownlint inline comment that turns every
// rule off, for the rest of the file or the whole file.
func DisablesAllRules(line string) bool {
	for rest := line; ; {
		i := strings.Index(rest, "<!--")
		if i < 0 {
			return false
		}
		rest = rest[i+4:]
		end := strings.Index(rest, "-->")
		if end < 0 {
			return false
		}
		f := strings.Fields(rest[:end])
		rest = rest[end+3:]
		if len(f) == 0 {
			continue
		}
		// markdownlint reads its comments without regard to case:
		// <!-- MARKDOWNLINT-DISABLE --> turns every rule off too.
		switch strings.ToLower(f[0]) {
		case "markdownlint-disable", "markdownlint-disable-file":
			if len(f) == 1 || namesNearlyAllRules(f[1:]) {
				return true
			}
		case "markdownlint-configure-file":
			return true
		}
	}
}

// Rules are markdownlint's rules (markdownlint 0.40, as
// markdownlint-cli2 0.24 ships it), each id with its aliases: a disable
// comment may name either.
var Rules = [][]string{
	{"MD001", "heading-increment"},
	{"MD003", "heading-style"},
	{"MD004", "ul-style"},
	{"MD005", "list-indent"},
	{"MD007", "ul-indent"},
	{"MD009", "no-trailing-spaces"},
	{"MD010", "no-hard-tabs"},
	{"MD011", "no-reversed-links"},
	{"MD012", "no-multiple-blanks"},
	{"MD013", "line-length"},
	{"MD014", "commands-show-output"},
	{"MD018", "no-missing-space-atx"},
	{"MD019", "no-multiple-space-atx"},
	{"MD020", "no-missing-space-closed-atx"},
	{"MD021", "no-multiple-space-closed-atx"},
	{"MD022", "blanks-around-headings"},
	{"MD023", "heading-start-left"},
	{"MD024", "no-duplicate-heading"},
	{"MD025", "single-title", "single-h1"},
	{"MD026", "no-trailing-punctuation"},
	{"MD027", "no-multiple-space-blockquote"},
	{"MD028", "no-blanks-blockquote"},
	{"MD029", "ol-prefix"},
	{"MD030", "list-marker-space"},
	{"MD031", "blanks-around-fences"},
	{"MD032", "blanks-around-lists"},
	{"MD033", "no-inline-html"},
	{"MD034", "no-bare-urls"},
	{"MD035", "hr-style"},
	{"MD036", "no-emphasis-as-heading"},
	{"MD037", "no-space-in-emphasis"},
	{"MD038", "no-space-in-code"},
	{"MD039", "no-space-in-links"},
	{"MD040", "fenced-code-language"},
	{"MD041", "first-line-heading", "first-line-h1"},
	{"MD042", "no-empty-links"},
	{"MD043", "required-headings"},
	{"MD044", "proper-names"},
	{"MD045", "no-alt-text"},
	{"MD046", "code-block-style"},
	{"MD047", "single-trailing-newline"},
	{"MD048", "code-fence-style"},
	{"MD049", "emphasis-style"},
	{"MD050", "strong-style"},
	{"MD051", "link-fragments"},
	{"MD052", "reference-links-images"},
	{"MD053", "link-image-reference-definitions"},
	{"MD054", "link-image-style"},
	{"MD055", "table-pipe-style"},
	{"MD056", "table-column-count"},
	{"MD058", "blanks-around-tables"},
	{"MD059", "descriptive-link-text"},
	{"MD060", "table-column-style"},
}

// ruleOfName maps a rule id or alias (upper-cased) to its id.
var ruleOfName = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, r := range Rules {
		for _, n := range r {
			m[strings.ToUpper(n)] = r[0]
		}
	}
	return m
})

// namesNearlyAllRules reports whether the rule names of a disable comment
// cover at least three quarters of markdownlint's rules: listing every
// rule by name is rules off, not a reviewable exception.
func namesNearlyAllRules(names []string) bool {
	seen := map[string]bool{}
	for _, n := range names {
		if id, ok := ruleOfName()[strings.ToUpper(strings.Trim(n, ","))]; ok {
			seen[id] = true
		}
	}
	return len(seen)*4 >= len(Rules)*3
}
