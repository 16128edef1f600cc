package verify

import (
	"slices"
	"strings"
)

// notCleanMark is in checkCommit's warning for a commit of a session that
// ended COMPLETE but not clean (session.PhaseNotClean: a failing gate
// skipped, a mandatory gate that checked nothing).
const notCleanMark = " is COMPLETE, not clean: "

// notCleanOf returns the not-clean warnings of crs, each once: a squash or
// rebase of a session's commits passes on their verdict, so it carries
// their warning instead of reading OK (issue 25: a failed gate is never
// shown as clean anywhere).
func notCleanOf(crs ...CommitReport) []string {
	var out []string
	for _, cr := range crs {
		if cr.Status != "warn" {
			continue
		}
		for _, p := range cr.Problems {
			if strings.Contains(p, notCleanMark) && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// statusOf is the status of a commit that passes on note: WARN when note
// carries a not-clean warning (notCleanOf), else OK.
func statusOf(note string) string {
	if strings.Contains(note, notCleanMark) {
		return "warn"
	}
	return "ok"
}

// beforeNotClean inserts note into ps before the first not-clean warning,
// so the reason a commit passes reads first and its session's verdict
// after it.
func beforeNotClean(ps []string, note string) []string {
	i := slices.IndexFunc(ps, func(p string) bool { return strings.Contains(p, notCleanMark) })
	if i < 0 {
		return append(ps, note)
	}
	return slices.Insert(ps, i, note)
}
