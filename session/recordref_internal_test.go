package session

import "testing"

func TestPortableOrigin(t *testing.T) {
	tests := []struct{ in, want string }{
		{"github.com/o/r", "github.com/o/r"},
		{"gitlab.example.com/group/sub/r", "gitlab.example.com/group/sub/r"},
		{"/srv/git/team", ""},
		{"./team", ""},
		{"../team", ""},
		{"~/repos/team", ""},
		{`C:\repos\team`, ""},
		{`\\server\share\team`, ""},
		{"", ""},
	}
	for _, tc := range tests {
		if got := portableOrigin(tc.in); got != tc.want {
			t.Errorf("portableOrigin(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
