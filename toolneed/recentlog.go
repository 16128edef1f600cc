package toolneed

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/shellline"
)

// A requirement to review the recent commits ("Run `git log --oneline -5`
// to review the recent commits") is met by a run that showed them. Lazy
// pass 39 ran git log so that it showed none: `-0`, `--author=nobody`, a
// path no commit touched, `--format=` (blank lines), the output sent to
// /dev/null, or the log of a throwaway ref; the gate counted each, as it
// judged only that git log ran. Such a run must now show the commit HEAD
// is on (its abbreviated id, as `--oneline` prints it).

// gitLogRE: a requirement's text names git log (the parser keeps a code
// span's words, not its backticks).
var gitLogRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bgit\s+log\b`)
})

// AsksLog reports whether r names a git log command to run.
func AsksLog(r protocolspec.Requirement) bool {
	return strings.Contains(r.Text, "git") && gitLogRE().MatchString(r.Text)
}

// RunsLog reports whether a shell line runs git log (under any wrapper
// shellline unwraps, and behind git's global options).
func RunsLog(line string) bool {
	if !strings.Contains(line, "log") {
		return false
	}
	calls, _, ok := shellline.Calls(shellline.Unwrap(strings.TrimSpace(line)))
	if !ok {
		return false
	}
	for _, c := range calls {
		if w := shellline.UnwrapCall(c.Words); len(w) > 1 && w[0] == "git" && shellline.GitSub(w) == "log" {
			return true
		}
	}
	return false
}

// hexRE: a word of four or more hex digits (git's --abbrev takes 4).
var hexRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[0-9a-fA-F]{4,64}\b`) })

// ShowsCommit reports whether out shows the commit sha: a word of at
// least four hex digits (`--abbrev=4`, core.abbrev) that begins it, in
// any case.
func ShowsCommit(out []byte, sha string) bool {
	sha = strings.ToLower(sha)
	for _, w := range hexRE().FindAll(ansiRE().ReplaceAll(out, nil), -1) { // --color=always
		if strings.HasPrefix(sha, strings.ToLower(string(w))) {
			return true
		}
	}
	return false
}

// LogAlone reports whether git log is what the line runs: besides it only
// a `cd` before and a pager or `head` after it. `git log -0 && git
// rev-parse --short HEAD` (round 39's re-check) printed HEAD's id from
// another command.
func LogAlone(line string) bool {
	calls, _, ok := shellline.Calls(shellline.Unwrap(strings.TrimSpace(line)))
	if !ok {
		return false
	}
	logs := 0
	for _, c := range calls {
		w := shellline.UnwrapCall(c.Words)
		switch {
		case len(w) > 1 && w[0] == "git" && shellline.GitSub(w) == "log":
			logs++
		case len(w) == 2 && w[0] == "cd":
		case len(w) >= 1 && (w[0] == "cat" || w[0] == "less" || w[0] == "more" || w[0] == "head") && !slices.ContainsFunc(w[1:], func(a string) bool { return !strings.HasPrefix(a, "-") }):
		default:
			return false
		}
	}
	return logs == 1
}
