package session

import "testing"

func TestIsUUIDPrefix(t *testing.T) {
	for _, tc := range []struct {
		s  string
		ok bool
	}{
		{"3f1c", true}, {"3f1c2b9e", true}, {"3f1c2b9e-", true}, {"3f1c2b9e-0000-4000-8000-000000000000", true},
		{"3f1c2b9e0", false}, {"3f1c2b9e00004000800000000000000000", false}, {"3f1c-", false},
		{"3F1C", false}, {"3f1c2b9e-0000-4000-8000-0000000000000", false}, {"../x", false}, {"", true},
	} {
		if got := isUUIDPrefix(tc.s); got != tc.ok {
			t.Errorf("isUUIDPrefix(%q) = %v, want %v", tc.s, got, tc.ok)
		}
	}
}
