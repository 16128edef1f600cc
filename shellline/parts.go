package shellline

import "strings"

// Parts splits a command line at the shell's command separators. It does
// not parse quotes: a separator inside a quoted string only makes an extra
// part, which errs on the side of seeing a command. The git write judges
// (session's ShellGitWrite, gitalias) read a line by it.
func Parts(cmd string) []string {
	return strings.FieldsFunc(cmd, func(r rune) bool {
		return r == ';' || r == '&' || r == '|' || r == '\n' || r == '(' || r == ')' || r == '`' || r == '{' || r == '}'
	})
}
