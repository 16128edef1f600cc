package web

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// TestVerdictPendingNotApplicable: a complete session without violations
// or failed gates reads clean, unless a not-applicable mark waits for a
// person; an accepted or checked mark does not hold it back.
func TestVerdictPendingNotApplicable(t *testing.T) {
	s := &session.Session{State: session.StateComplete}
	for _, c := range []struct {
		name    string
		marks   []session.NAMark
		clean   bool
		pending string
	}{
		{"no marks", nil, true, ""},
		{"checked", []session.NAMark{{Phase: "A", Requirement: "A.r", Standing: session.NAChecked}}, true, ""},
		{"accepted", []session.NAMark{{Phase: "A", Requirement: "A.r", Standing: session.NAAccepted}}, true, ""},
		{"pending", []session.NAMark{{Phase: "A", Requirement: "A.r", Standing: session.NAPending}, {Phase: "B", Standing: session.NAPending}}, false, "2 N/A pending acceptance"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := SessionDetail{Session: s, NotApplicable: c.marks}.Verdict()
			if (v.Class == "v-clean") != c.clean || !strings.Contains(v.Text, c.pending) {
				t.Fatalf("verdict %+v, want clean=%v naming %q", v, c.clean, c.pending)
			}
		})
	}
}
