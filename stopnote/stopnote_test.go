package stopnote_test

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/stopnote"
)

// TestWhyClass: the reason a stop went unchecked reaches the records ref,
// which is pushed, as a fixed phrase: the error text can name local paths.
func TestWhyClass(t *testing.T) {
	for _, c := range []struct{ why, want string }{
		{"no decision within the time limit", "no decision within the time limit"},
		{"record stop: begin write transaction: database is locked (5) (SQLITE_BUSY)", "the database was locked"},
		{"open the database: open /home/someone/work/.git/sessiongate/sessiongate.db: permission denied", "the database could not be opened"},
		{"internal error: runtime error: index out of range", "internal error"},
		{"record stop: begin write transaction: context canceled", "the stop could not be decided"},
	} {
		got := stopnote.WhyClass(c.why)
		if got != c.want {
			t.Errorf("WhyClass(%q) = %q, want %q", c.why, got, c.want)
		}
		if strings.Contains(got, "/") {
			t.Errorf("WhyClass(%q) = %q names a path", c.why, got)
		}
	}
}
