// Package commitcite finds the commit ids a text cites, and whether it
// cites each as committed work (a claim) or names it for context. A
// handoff that says "committed abc1234" where abc1234 is no commit, or an
// older commit than the session's, claims work git does not show; Judge
// reads the ids against the repository (session/reviewflags.go words the
// reviewer flag).
package commitcite

import (
	"regexp"
	"strings"
	"sync"
)

// Cite is one commit id a text names.
type Cite struct {
	ID    string // as written, lower case: 7 to 64 hex digits
	Line  int    // 1-based
	Claim bool   // cited as committed work ("committed abc1234", "Commit SHA: abc1234")
	// Digits: the id has no letter, so it may be a number ("committed
	// 20261201", a date); it is an id only when the repository holds an
	// object it abbreviates (Judge). About 2% of commits abbreviate to 8
	// digits: read as numbers, their claims went unjudged.
	Digits bool
}

var (
	// hexRE is a hex id of 7 to 64 digits standing alone (not part of a
	// path, a URL's word or a longer token).
	hexRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:^|[^0-9a-z/#_.\-])([0-9a-f]{7,64})(?:$|[^0-9a-z_\-])`)
	})
	// before: a commit word at most two words (and a few marks) before
	// the id. Measured on the team's 2,345 session logs (rjmurillo/
	// ai-agents at 70241a0): ids after "committed", "committed as/in",
	// "Commit SHA" or "endingCommit" named a commit at most two days
	// older than the log 1,198 times in 1,198; after a bare "commit" 57
	// of 2,781 named an older one (context: "builds on commit ...").
	claimRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:\bcommitted(?:\s+(?:as|in|to|at))?|\bcommit\s*(?:sha|id|hash)|\bending\s*commit|\bendingCommit)\W{0,8}(?:\w+\W{1,4}){0,1}$`)
	})
	contextRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:commit|commits|sha|head|revert(?:s|ed)?|cherry-pick(?:ed)?|amend(?:ed)?)\b\W{0,8}(?:\w+\W{1,4}){0,2}$`)
	})
)

// Find returns the commit ids text cites after a commit word, in order.
// A word with no digit ("defaced") is no id; one with no letter is marked
// Digits, for the caller to ask the repository.
func Find(text string) []Cite {
	var out []Cite
	for i, line := range strings.Split(text, "\n") {
		for _, m := range hexRE().FindAllStringSubmatchIndex(line, -1) {
			id := strings.ToLower(line[m[2]:m[3]])
			if !strings.ContainsAny(id, "0123456789") {
				continue
			}
			digits := !strings.ContainsAny(id, "abcdef")
			pre := line[max(0, m[2]-48):m[2]]
			switch {
			case claimRE().MatchString(pre):
				out = append(out, Cite{ID: id, Line: i + 1, Claim: true, Digits: digits})
			case contextRE().MatchString(pre):
				out = append(out, Cite{ID: id, Line: i + 1, Digits: digits})
			}
		}
	}
	return out
}
