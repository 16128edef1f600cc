package shellline

import "testing"

// TestTouchesRecordsShortRefNames: git completes a push or fetch
// destination short of refs/ with its refs/%s rule, so `git push .
// --delete sessiongate/records` deletes refs/sessiongate/records and `git
// push -f . HEAD~1:sessiongate/records` rewinds it (both tried with real
// git, exit 0). Each lazy row was allowed before; pushing and deleting the
// agent's own branches stays allowed.
func TestTouchesRecordsShortRefNames(t *testing.T) {
	protected := []string{"refs/sessiongate/"}
	for _, c := range []struct {
		line string
		want bool
	}{
		{"git push . --delete sessiongate/records", true},
		{"git push origin --delete sessiongate/records", true},
		{"git push . :sessiongate/records", true},
		{"git push -f . main~3:sessiongate/records", true},
		{"git fetch . +main:sessiongate/records", true},
		// update-ref's -m takes a value; an alias runs its text.
		{"git update-ref -m x -d refs/sessiongate/records", true},
		{"git -c alias.u='update-ref -d refs/sessiongate/records' u", true},
		{"git -c alias.u='!git update-ref -d refs/sessiongate/records' u", true},
		{"git config alias.u 'push . --delete sessiongate/records' && git u", true},
		// Honest.
		{"git push origin --delete feature/login", false},
		{"git push origin :old-branch", false},
		{"git push -u origin HEAD:feature/x", false},
		{"git fetch origin main:main", false},
		{"git update-ref -m 'move' refs/heads/feature HEAD", false},
		{"git -c alias.st=status st", false},
		{"git config alias.pf 'push --force-with-lease'", false},
	} {
		if got := TouchesRecords(c.line, protected) != ""; got != c.want {
			t.Errorf("TouchesRecords(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}
