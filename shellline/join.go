package shellline

import "strings"

// Join shows an argv as one shell line, quoting (in single quotes) the
// words that need it: how a `sessiongate run`'s command is recorded and
// compared with a gate's line.
func Join(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`;&|<>*?()[]{}") {
			parts[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		} else {
			parts[i] = a
		}
	}
	return strings.Join(parts, " ")
}
