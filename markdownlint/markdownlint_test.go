package markdownlint

import (
	"strings"
	"testing"
)

func TestDisablesAllRules(t *testing.T) {
	for line, want := range map[string]bool{
		"<!-- markdownlint-disable -->":                             true,
		"<!--markdownlint-disable-->":                               true,
		"<!-- markdownlint-disable-file -->":                        true,
		`<!-- markdownlint-configure-file { "default": false } -->`: true,
		// markdownlint-cli2 0.24 honours the comment in any case.
		`<!-- MARKDOWNLINT-DISABLE -->`:                     true,
		`<!-- Markdownlint-Disable-File -->`:                true,
		"text <!-- note --> <!-- markdownlint-disable -->":  true,
		"<!-- markdownlint-disable MD033 -->":               false,
		"<!-- markdownlint-disable-file MD013 MD033 -->":    false,
		"<!-- markdownlint-enable -->":                      false,
		"<!-- markdownlint-capture -->":                     false,
		"Use `<!-- markdownlint-disable` to turn rules off": false,
		"plain text": false,
	} {
		if got := DisablesAllRules(line); got != want {
			t.Errorf("DisablesAllRules(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestNamingRules: a comment that names three quarters of the rules or
// more (by id or alias) turns the rules off as surely as one naming none;
// a targeted exception names fewer.
func TestNamingRules(t *testing.T) {
	names := func(n, col int) string {
		var out []string
		for _, r := range Rules[:n] {
			out = append(out, r[col])
		}
		return strings.Join(out, " ")
	}
	quarter3 := (len(Rules)*3 + 3) / 4 // the fewest that count as all
	cases := []struct {
		name string
		line string
		want bool
	}{
		{"every id", "<!-- markdownlint-disable " + names(len(Rules), 0) + " -->", true},
		{"three quarters by alias", "<!-- markdownlint-disable-file " + names(quarter3, 1) + " -->", true},
		{"one fewer than three quarters", "<!-- markdownlint-disable " + names(quarter3-1, 0) + " -->", false},
		{"ids with commas", "<!-- markdownlint-disable " + strings.ReplaceAll(names(len(Rules), 0), " ", ", ") + " -->", true},
		{"the same rule many times", "<!-- markdownlint-disable " + strings.Repeat("MD033 no-inline-html ", 60) + " -->", false},
		{"ten rules", "<!-- markdownlint-disable " + names(10, 0) + " -->", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := DisablesAllRules(c.line); got != c.want {
				t.Errorf("DisablesAllRules(%.80q...) = %v, want %v", c.line, got, c.want)
			}
		})
	}
}
