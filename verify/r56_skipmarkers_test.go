package verify

import "testing"

// TestR56CISkipMarkerAzure: Azure Pipelines (a CI team.md's table lists,
// read as a tip build and the --recheck window) starts no run for a push
// whose head commit says ***NO_CI***, [skip azp], [azp skip], [skip
// azpipelines], [azpipelines skip], [skip azurepipelines] or
// [azurepipelines skip] (besides [skip ci], [ci skip], skip-checks: true).
// ciSkipMarker knows none of them, so a chain of such skipped pushes buries
// a hooks-off commit below the window, as [skip ci] did before
// TestVerifyAdvCISkippedPush's fix. (Matching more only re-checks more.)
func TestR56CISkipMarkerAzure(t *testing.T) {
	for _, msg := range []string{
		"docs: typo ***NO_CI***",
		"docs: typo [skip azp]",
		"docs: typo [AZP SKIP]",
		"docs: typo [skip azpipelines]",
		"docs: typo [azpipelines skip]",
		"docs: typo [skip azurepipelines]",
		"docs: typo [azurepipelines skip]",
	} {
		if got := ciSkipMarker(msg); got == "" {
			t.Errorf("ciSkipMarker(%q) = \"\": Azure Pipelines runs nothing for this push, so the window must reach below it", msg)
		}
	}
}
