package gitrepo

import "time"

// RacyEntryCount is how many entries Status compares by content, for
// BenchmarkStatusRacy's report.
func RacyEntryCount(r *Repo, since time.Time) int {
	e, _ := r.racyEntries(since)
	return len(e)
}
