package shellline

import (
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// PrintsOnly says whether a line of a shell script only prints literal
// text (`echo 'PASS: greet (3 tests)'`, `printf '%s\n' "ok $n"`, to stdout
// or `>&2`): it runs no command and sets no status but 0, so changing or
// removing it cannot make a test script prove less (round 24: an honest
// agent that added checks and updated the printed count was refused).
// body is the script: where it defines or aliases echo or printf, the
// line may run anything and is not judged as a print.
func PrintsOnly(line, body string) bool {
	l := strings.TrimSpace(line)
	for _, r := range []string{"1>&2", ">&2"} {
		if s, ok := strings.CutSuffix(l, r); ok {
			l = strings.TrimSpace(s)
			break
		}
	}
	name, rest, _ := strings.Cut(l, " ")
	if name != "echo" && name != "printf" {
		return false
	}
	// Command substitution, lists, pipes, redirections, a trailing line
	// continuation or a parameter expansion that assigns or exits
	// (${X:=v}, ${X?}) make the line more than a print; printf -v assigns.
	if strings.ContainsAny(rest, "`;&|<>") || strings.HasSuffix(rest, "\\") || strings.Contains(rest, "$(") ||
		(strings.Contains(rest, "${") && strings.ContainsAny(rest, "?=")) ||
		(name == "printf" && strings.HasPrefix(strings.TrimSpace(rest), "-v")) {
		return false
	}
	return !printRedefinedRE.MatchString(body)
}

var printRedefinedRE = lazyregexp.New(`(?m)(^|[\s;{(])(function\s+(echo|printf)\b|(echo|printf)\s*\(\s*\)|alias\s+(echo|printf)=|enable\s+-n)`)
