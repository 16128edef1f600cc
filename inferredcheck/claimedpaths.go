package inferredcheck

import (
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/claimtext"
	"github.com/sessiongate/sessiongate/committype"
	"github.com/sessiongate/sessiongate/mdtext"
	"github.com/sessiongate/sessiongate/repopath"
)

// A handoff whose Done names a file the session never touched reports
// work that is not there: lazy pass 43 committed only a handoff saying
// "scripts/greet.sh takes an optional name." (N0: the session changed no
// other file, so names-the-work had nothing to judge), or retitled the
// README and claimed the feature (N0b: the objective's words named the
// work). A Done section that names repository files, none of them changed
// by the session, claims what the diff does not hold, unless it says so
// (a denial: "no change was needed in scripts/greet.sh"), reports what
// was read ("reviewed scripts/greet.sh": an investigation's honest handoff
// names the files it read) or reports a run ("scripts/test.sh: 1
// validation(s) passed": the test script the session ran, unchanged; a
// test file named anywhere in Done is taken as such a report).

// pathTokenRE is a token that reads as a repository path: a folder and a
// name, or a name with an extension.
var pathTokenRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)+|[A-Za-z0-9_\-]+\.[A-Za-z0-9]{1,8}\b`)
})

// excuseRE is a denial, or a verb of reading or finding: the section does
// not claim it changed the files it names.
var excuseRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:no|not|nothing|none|never|neither|nor|without|unchanged|untouched|unable|cannot|couldn't|didn't|wasn't|isn't|doesn't|won't|blocked|already|` +
		`read|reviewed|reviewing|inspected|investigated|checked|examined|looked|found|traced|audited|verified|confirmed|reproduced|explored|studied|` +
		`pass|passes|passed|passing|ran|runs|run|fails|failed|failing|green|succeeded|validations?|tests?)\b|n't\b`)
})

// ClaimedUnchanged returns a repository file a Done section of text names
// while the session changed none of the files that section names, and
// the section neither denies the change nor reports reading ("" when
// none). changed is the session's changed files; own reports the files
// of the check itself (the handoff), never a claim.
func ClaimedUnchanged(root, text string, changed []string, own func(string) bool) string {
	bodies, _ := claimtext.DoneSections(text)
	for _, body := range bodies {
		touched := false
		var claimed []string // unchanged files named in a sentence that claims them
		for _, sentence := range sentenceEndRE().Split(body, -1) {
			// Words inside a path ("test" of scripts/test.sh) are no excuse.
			excused := excuseRE().MatchString(pathTokenRE().ReplaceAllString(sentence, " "))
			for _, tok := range pathTokenRE().FindAllString(sentence, -1) {
				p := strings.TrimRight(strings.TrimPrefix(tok, "./"), ".")
				if p == "" || own(p) || committype.IsTest(p) || mdtext.IsMarkdown(p) {
					// A Markdown file named in Done is read or followed
					// ("Followed SESSION-PROTOCOL.md": helper-285's HD1),
					// not work claimed on it.
					// A test file named in Done reports the run that
					// checked the work, not work on it.
					continue
				}
				if slices.Contains(changed, p) || slices.ContainsFunc(changed, func(c string) bool {
					return strings.HasPrefix(c, strings.TrimSuffix(p, "/")+"/") || !strings.Contains(p, "/") && path.Base(c) == p
				}) {
					touched = true
					continue
				}
				if excused {
					continue
				}
				abs, ok, err := repopath.Resolve(root, p)
				if err != nil || !ok {
					continue
				}
				if _, err := os.Lstat(abs); err == nil {
					claimed = append(claimed, p)
				}
			}
		}
		if !touched && len(claimed) > 0 {
			return claimed[0]
		}
	}
	return ""
}

// sentenceEndRE ends a sentence: a stop followed by space, or a line.
var sentenceEndRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[.!?;](?:\s|$)|\n`) })
