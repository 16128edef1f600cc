package verify

import (
	"slices"
	"testing"
)

func TestRangeNames(t *testing.T) {
	for spec, want := range map[string][]string{
		"origin/main..HEAD":          {"origin/main"},
		"main...feat":                {"main", "feat"},
		"v1.2^!":                     {"v1.2"},
		"origin/release~3..HEAD^":    {"origin/release"},
		"main@{1}..main":             {"main", "main"},
		"refs/remotes/origin/main..": nil,
		"0123456789abcdef0123..HEAD": {"0123456789abcdef0123"}, // a short id may be a ref's name
		"0123456789abcdef0123456789abcdef01234567..HEAD": nil,
		"FETCH_HEAD..ORIG_HEAD":                          nil,
		"@..@{u}":                                        nil,
	} {
		if got := rangeNames(spec); !slices.Equal(got, want) {
			t.Errorf("rangeNames(%q) = %q, want %q", spec, got, want)
		}
	}
}
