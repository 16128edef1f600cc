package verify_test

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/verify"
)

func TestCheckNamed(t *testing.T) {
	for _, c := range []struct {
		rng, want string // want: "" accepted, else a word of the error
	}{
		{"..HEAD", "has no base"},
		{"  ..HEAD", "has no base"},
		{"HEAD..", "has no head"},
		{"...HEAD", "has no base"},
		{"", "is empty"},
		{" ", "is empty"},
		{"0000000000000000000000000000000000000000..HEAD", `git's "no commit"`},
		{"HEAD~2..0000000000000000000000000000000000000000", `git's "no commit"`},
		{"origin/main..HEAD", ""},
		{"HEAD~2...HEAD", ""},
		{"HEAD", ""},
		{"HEAD^!", ""},
		{"1a2b3c4d..5e6f7a8b", ""},
	} {
		err := verify.CheckNamed(c.rng)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: refused: %v", c.rng, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: want an error with %q, got %v", c.rng, c.want, err)
		}
	}
}
