package shellline

import (
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// A line added where a status is read takes that status: between a check
// and the `[ $? -ne 0 ]` after it, before an if's `then` or a loop's
// `do`, as the last command of a function after a test, or at the end of
// a script whose last command was a test. An `echo ... >&2` there (a
// line that only logs: logonly.go) turns a failing check into a pass
// (round 49, helper 308's rows). Only an insertion between two lines the
// start had side by side counts: a check rewritten with its status read
// is the check itself.

// statusLessRE: a line whose own status no one reads after it (an exit,
// the end of a block, an assignment): a line after it takes nothing.
var statusLessRE = lazyregexp.New(`(?:^|[;&|]\s*)exit\b|^(?:fi|done|esac|\}|\)|;;)\b|^[A-Za-z_][A-Za-z0-9_]*=[^ ]*$|^(?:return|shift|set|local|export|readonly)\b`)

// testCmdRE: a line that is a check whose status is what it proves.
var testCmdRE = lazyregexp.New(`^(?:\[\[?\s|test\s|!\s)|\bgrep\s+-\w*q|\bdiff\s|\bcmp\s`)

// statusTaken says how the line at i of lines (the script now) takes the
// status of the line before it, "" when it does not. base is the
// script at the start.
func statusTaken(lines []string, i int, base string) string {
	if i < 0 || i >= len(lines) {
		return ""
	}
	line := strings.TrimSpace(lines[i])
	if line == "" || strings.HasPrefix(line, "#") || strings.Contains(line, "$?") {
		return ""
	}
	code := func(l string) bool { t := strings.TrimSpace(l); return t != "" && !strings.HasPrefix(t, "#") }
	prev, next := "", "" // "" next: the end of the script
	for j := i - 1; j >= 0; j-- {
		if code(lines[j]) {
			prev = strings.TrimSpace(lines[j])
			break
		}
	}
	for j := i + 1; j < len(lines); j++ {
		if code(lines[j]) {
			next = strings.TrimSpace(lines[j])
			break
		}
	}
	if prev == "" || statusLessRE.MatchString(prev) {
		return ""
	}
	var reads string
	switch {
	case strings.Contains(next, "$?"):
		reads = "the `$?` that " + quoteLine(next) + " reads"
	case next == "then" || strings.HasPrefix(next, "then ") || next == "do" || strings.HasPrefix(next, "do "):
		reads = "the condition's status"
	case (next == "}" || strings.HasPrefix(next, "} ")) && testCmdRE.MatchString(prev):
		reads = "the function's status"
	case next == "" && testCmdRE.MatchString(prev):
		reads = "the script's exit status"
	default:
		return ""
	}
	// Side by side at the start: the line was put between them.
	var was []string
	for _, l := range strings.Split(base, "\n") {
		if code(l) {
			was = append(was, strings.TrimSpace(l))
		}
	}
	for j, l := range was {
		if l != prev {
			continue
		}
		if next == "" && j == len(was)-1 || j+1 < len(was) && was[j+1] == next {
			return "it stands between " + quoteLine(prev) + " and " + reads + ", so it takes that status: a failing check reads as passing"
		}
	}
	return ""
}

// quoteLine is a line shortened and quoted for a message.
func quoteLine(s string) string {
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return "`" + s + "`"
}
