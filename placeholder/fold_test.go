package placeholder

import "testing"

// Find sees a template's placeholders through what a reader
// cannot see or tell apart, and passes filled text written as people write.
func TestFindPlaceholdersFolded(t *testing.T) {
	lit := []string{"[what was completed]", "[what the next session should do]", "[SHA]"}
	for _, tt := range []struct {
		name, text string
		want       int // placeholders found
		line       int
	}{
		{"plain", "# H\n\n## Done\n\n[what was completed]\n", 1, 5},
		{"zero-width space", "# H\n\n## Done\n\n[what\u200b was completed]\n", 1, 5},
		{"byte-order mark and case", "\ufeff# H\n\n## Done\n\n[What Was Completed]\n", 1, 5},
		{"fullwidth", "# H\n\n## Done\n\n\uff3bwhat was completed\uff3d\n", 1, 5},
		{"words alone", "# H\n\n## Done\n\n- what was completed\n\n## Next\n\n<!-- what the next session should do -->\n", 2, 5},
		{"one word alone is prose", "# H\n\n## Done\n\nSHA\n", 0, 0},
		{"honest: hint comment above the filling", "# H\n\n## Done\n\n<!-- what was completed -->\nThe name argument.\n", 0, 0},
		{"honest: words in a sentence", "# H\n\n## Done\n\nWhat was completed: the name argument.\n", 0, 0},
		{"honest: a link keeps its text", "# H\n\n## Done\n\n[what was completed](notes.md)\n", 0, 0},
		{"honest: CRLF", "# H\r\n\r\n## Done\r\n\r\nThe name argument.\r\n", 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			found, line := Find(tt.text, lit)
			if len(found) != tt.want || line != tt.line {
				t.Errorf("Find = %q at line %d, want %d at line %d", found, line, tt.want, tt.line)
			}
		})
	}
}
