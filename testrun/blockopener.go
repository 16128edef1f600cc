package testrun

import "strings"

// blockOpener is the line opening the block that holds lines[i]: the
// nearest non-blank line above it indented less ("" at the top level, or
// none within 200 lines). A skip's guard was read from the line just
// above it only, so `if missing { if ci { t.Fatal() }; t.Skip() }` read as
// a skip no condition guards (round 19: the rule every test here that
// needs a program follows, flagged by verify once it called this rule).
func blockOpener(lines []string, i int) string {
	ind := len(lines[i]) - len(strings.TrimLeft(lines[i], " \t"))
	if ind == 0 {
		return ""
	}
	for j := i - 1; j >= 0 && j >= i-200; j-- {
		t := strings.TrimSpace(lines[j])
		if t == "" || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") {
			continue
		}
		if len(lines[j])-len(strings.TrimLeft(lines[j], " \t")) < ind {
			return lines[j]
		}
	}
	return ""
}
