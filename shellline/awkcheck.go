package shellline

import (
	"path"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// awkExitRE: an awk program that exits with a non-zero status somewhere
// (`$0 != "hello" { exit 1 }`): its status is what it checked.
var awkExitRE = lazyregexp.New(`\bexit\s*\(?\s*[1-9]`)

// awkChecks: words (a call's, unquoted) run awk with an inline program
// that may exit non-zero, a check as grep is (isCheck).
func awkChecks(words []string) bool {
	switch path.Base(words[0]) {
	case "awk", "gawk", "mawk", "nawk", "busybox":
	default:
		return false
	}
	args := words[1:]
	if path.Base(words[0]) == "busybox" {
		if len(args) == 0 || args[0] != "awk" {
			return false
		}
		args = args[1:]
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return i+1 < len(args) && awkExitRE.MatchString(args[i+1])
		case a == "-F" || a == "-v":
			i++ // the option's value
		case a == "-f" || strings.HasPrefix(a, "-f") || strings.HasPrefix(a, "--file"):
			return false // the program is in a file
		case strings.HasPrefix(a, "-") && len(a) > 1:
		default:
			return awkExitRE.MatchString(a)
		}
	}
	return false
}
