package session

import "testing"

func TestDisablesAllRules(t *testing.T) {
	for line, want := range map[string]bool{
		"<!-- markdownlint-disable -->":                             true,
		"<!--markdownlint-disable-->":                               true,
		"<!-- markdownlint-disable-file -->":                        true,
		`<!-- markdownlint-configure-file { "default": false } -->`: true,
		"text <!-- note --> <!-- markdownlint-disable -->":          true,
		"<!-- markdownlint-disable MD033 -->":                       false,
		"<!-- markdownlint-disable-file MD013 MD033 -->":            false,
		"<!-- markdownlint-enable -->":                              false,
		"<!-- markdownlint-capture -->":                             false,
		"Use `<!-- markdownlint-disable` to turn rules off":         false,
		"plain text": false,
	} {
		if got := disablesAllRules(line); got != want {
			t.Errorf("disablesAllRules(%q) = %v, want %v", line, got, want)
		}
	}
}
