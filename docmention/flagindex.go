package docmention

import "strings"

// namedOn reports whether a flag is named on any of the lines (a script
// that still defines it after the change).
func namedOn(flag string, lines []string) bool {
	for _, l := range lines {
		if word(l, flag) {
			return true
		}
	}
	return false
}

// describedIn reports whether a text names a flag other than in an index
// of flags: a run of three or more flags on one line with nothing but
// punctuation or a placeholder (N, PATH) between them (`--title, --body,
// --base` in a table cell; `tool [--verbose] [--count N] [--quiet]`). An
// index stays true when a kept flag's default or usage changes
// (rjmurillo/ai-agents da23b2a: --base's default; the doc's cell lists the
// script's flags); a sentence about the flag may not.
func describedIn(text, flag string) bool {
	regexps()
	for _, l := range strings.Split(text, "\n") {
		if !word(l, flag) {
			continue
		}
		ms := reDashFlag.FindAllStringSubmatchIndex(l, -1)
		run, in, best := 0, false, 0
		for i, m := range ms {
			if i > 0 && !listGap(l[ms[i-1][3]:m[2]]) {
				if in {
					best = max(best, run)
				}
				run, in = 0, false
			}
			run++
			if l[m[2]:m[3]] == flag {
				in = true
			}
		}
		if in {
			best = max(best, run)
		}
		if best < 3 {
			return true
		}
	}
	return false
}

// listGap: what separates two flags of an index.
func listGap(g string) bool {
	g = strings.Map(func(r rune) rune {
		if strings.ContainsRune(" ,`|[]/()<>=*", r) {
			return -1
		}
		return r
	}, g)
	for _, r := range g {
		if !(r >= 'A' && r <= 'Z' || r == '_' || r == '-') {
			return false
		}
	}
	return len(g) <= 12
}
