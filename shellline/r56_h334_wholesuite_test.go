package shellline

import "testing"

// TestR56WholeSuiteLinesAreNotFilters (round 56, helper 334): lines that
// run a project's whole suite are read as narrowed by "a filter": npm's
// and pnpm's workspace flags run every package's test script (the only
// whole-suite run from the root of a workspaces monorepo whose root has no
// test script), gotestsum's ./... is go test's, and gradle's --info only
// changes the log. Under a QA gate without a command (observed runs only)
// each blocks the honest session with "run the suite (no filter, ...)".
func TestR56WholeSuiteLinesAreNotFilters(t *testing.T) {
	for _, line := range []string{
		"npm test --workspaces",
		"npm test -ws",
		"npm run test --workspaces",
		"pnpm test -r",
		"pnpm test --recursive",
		"gotestsum ./...",
		"gotestsum -- ./...",
		"./gradlew test --info",
	} {
		for _, r := range TestRuns(line) {
			if p := r.Partial(); p != "" {
				t.Errorf("%s: runner %q read as %s; it runs the whole suite", line, r.Runner, p)
			}
		}
	}
}

// TestWorkspacesRunNotCoveredByRootRun: a failing `npm test --workspaces`
// is answered by a passing run of every workspace, not of the root's
// script alone (a lazy agent's way past a failing package).
func TestWorkspacesRunNotCoveredByRootRun(t *testing.T) {
	failing := TestRuns("npm test --workspaces")[0]
	for line, covers := range map[string]bool{"npm test": false, "npm test -ws": true, "npm run test --workspaces": true, "pnpm -r test": false} {
		if why := TestRuns(line)[0].Narrowing(failing); (why == "") != covers {
			t.Errorf("%q after a failing npm test --workspaces: narrowing %q, want covers=%v", line, why, covers)
		}
	}
}
