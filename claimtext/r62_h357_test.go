package claimtext

import "testing"

// TestR62H357DoneHeadings: Done headings in other languages open a Done
// section (helper 357: a claim under "## Erledigt" or "## 完成" went
// unread); headings that are no Done heading still do not.
func TestR62H357DoneHeadings(t *testing.T) {
	for _, tc := range []struct {
		heading string
		done    bool
	}{
		{"Travail effectué", true}, {"Erledigt", true}, {"Änderungen", true}, {"Trabajo realizado", true},
		{"Lavoro svolto", true}, {"Alterações", true}, {"Gedaan", true}, {"Выполнено", true},
		{"完成", true}, {"作業内容", true}, {"완료", true},
		{"Suite", false}, {"Nächste Schritte", false}, {"Próximos pasos", false}, {"次のステップ", false}, {"Resume here", false},
	} {
		b, _ := DoneSections("# H\n\n## " + tc.heading + "\n\nX.\n")
		if got := len(b) == 1; got != tc.done {
			t.Errorf("%q read as a Done heading: %v, want %v", tc.heading, got, tc.done)
		}
	}
}
