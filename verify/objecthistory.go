package verify

import "os"

// ObjectHistory makes every git verify starts read commits' parents as
// their objects record them. The checkout is a directory the branch's own
// code can write when it runs first (a test step of the same job, a runner
// that keeps its clone between jobs), and a GitHub Actions step sets the
// next steps' environment ($GITHUB_ENV): a `.git/info/grafts` line, a
// `git replace --graft`, replace refs under GIT_REPLACE_REF_BASE or a
// GIT_GRAFT_FILE that makes main's parent a hooks-off commit took that
// commit out of base..head, and verify passed the rest
// (TestVerifyAdvCIRewrittenHistory). Git has no switch for grafts alone:
// an empty graft file (the null device) replaces the repository's.
// Shallow cut-offs are not grafts: Complete deepens or refuses them.
func ObjectHistory() error {
	if err := os.Unsetenv("GIT_REPLACE_REF_BASE"); err != nil {
		return err
	}
	if err := os.Setenv("GIT_NO_REPLACE_OBJECTS", "1"); err != nil {
		return err
	}
	return os.Setenv("GIT_GRAFT_FILE", os.DevNull)
}
