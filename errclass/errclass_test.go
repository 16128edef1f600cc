package errclass_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/sessiongate/sessiongate/errclass"
)

// TestOf: a failure is classed by the sentinels it wraps, however deep,
// and the message of Invalidf/Refusedf is the message alone. The engine's
// own sentinels are tested through session.Classify (session/errclass_test.go).
func TestOf(t *testing.T) {
	errGone := errors.New("session not found")
	errEnded := errors.New("session ended")
	invalid, refused := []error{errGone}, []error{errEnded}
	cases := []struct {
		name string
		err  error
		want errclass.Class
		msg  string // "" to skip the message check
	}{
		{"invalidf", errclass.Invalidf("unknown phase %q", "NOPE"), errclass.Invalid, `unknown phase "NOPE"`},
		{"refusedf", errclass.Refusedf("end: %s", "still starting"), errclass.Refused, "end: still starting"},
		{"wrapped invalid", fmt.Errorf("record evidence: %w", errclass.Invalidf("empty")), errclass.Invalid, "record evidence: empty"},
		{"a listed invalid sentinel", fmt.Errorf("load: %w", errGone), errclass.Invalid, ""},
		{"a listed refused sentinel", fmt.Errorf("advance: %w", errEnded), errclass.Refused, ""},
		{"both: invalid wins", errors.Join(errclass.Refusedf("no"), errGone), errclass.Invalid, ""},
		{"anything else", errors.New("database is locked"), errclass.Internal, ""},
		{"nil", nil, errclass.Internal, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := errclass.Of(c.err, invalid, refused); got != c.want {
				t.Errorf("Of(%v) = %s, want %s", c.err, got, c.want)
			}
			if c.msg != "" && c.err.Error() != c.msg {
				t.Errorf("message %q, want %q", c.err.Error(), c.msg)
			}
		})
	}
}

func TestClassString(t *testing.T) {
	for c, want := range map[errclass.Class]string{errclass.Internal: "internal", errclass.Invalid: "invalid", errclass.Refused: "refused", errclass.Class(9): "internal"} {
		if got := c.String(); got != want {
			t.Errorf("Class(%d).String() = %q, want %q", int(c), got, want)
		}
	}
}
