package testrun

import (
	"regexp"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/shellline"
)

var (
	expandedName = lazyregexp.New(`\$\{?([A-Za-z_][A-Za-z0-9_]*)`)
	quotedName   = lazyregexp.New(`"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"|\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)
)

// plainExpansions spells `"$x"`, `"${x}"` and `${x}` as `$x`: in a test
// of a count, the same.
func plainExpansions(line string) string {
	return quotedName.ReplaceAllString(line, "$$$1$2")
}

// pairSummedCounts pairs a removed failure test with the added line that
// is the same test of a total the count is summed into (`if [ $fail -gt
// 0 ]` now `if [ $total -gt 0 ]` after `total=$((total+fail)); fail=0`
// per suite: shellline.SumsInto). Paired lines leave both lists.
func pairSummedCounts(removed, added []string, addedAt []int, nowSrc string) ([]string, []string, []int) {
	nowLines := strings.Split(nowSrc, "\n")
	used := make([]bool, len(added))
	var keep []string
	for _, r := range removed {
		paired := false
		for _, v := range varNames(r) {
			for j, a := range added {
				if used[j] {
					continue
				}
				for _, t := range varNames(a) {
					if t == v || plainExpansions(renameVar(r, v, t)) != plainExpansions(a) {
						continue
					}
					if summedAt(nowSrc, nowLines, t, v, a, addedAt[j]) {
						used[j], paired = true, true
						break
					}
				}
				if paired {
					break
				}
			}
			if paired {
				break
			}
		}
		if !paired {
			keep = append(keep, r)
		}
	}
	al, at := unpaired(added, addedAt, used)
	return keep, al, at
}

// summedAt: total carries count to the added line a, at index at of
// nowLines, or (at < 0) to every line of nowSrc that reads as a.
func summedAt(nowSrc string, nowLines []string, total, count, a string, at int) bool {
	// Nor may a check that marks either come after the test (round 48):
	// its failures are tested by nothing.
	if at >= 0 && at < len(nowLines) && strings.TrimSpace(nowLines[at]) == a {
		return shellline.SumsInto(nowSrc, total, count, at+1) && !shellline.MarkedAfter(nowSrc, []string{count, total}, at+1)
	}
	found := false
	for i, l := range nowLines {
		if strings.TrimSpace(l) == a {
			if !shellline.SumsInto(nowSrc, total, count, i+1) || shellline.MarkedAfter(nowSrc, []string{count, total}, i+1) {
				return false
			}
			found = true
		}
	}
	return found
}

// varNames are the variables line expands, each once.
func varNames(line string) []string {
	var out []string
	for _, m := range expandedName.FindAllStringSubmatch(line, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// renameVar is line with each expansion of from (`$from`, `${from}`)
// spelled as to.
func renameVar(line, from, to string) string {
	re := regexp.MustCompile(`\$(\{?)` + regexp.QuoteMeta(from) + `\b`)
	return re.ReplaceAllString(line, "$$${1}"+to)
}
