package toolneed

import (
	"bytes"
	"regexp"
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

// ShowsCommit reports whether out shows the commit sha: its first seven
// hex digits, the shortest id git prints, in any case.
func ShowsCommit(out []byte, sha string) bool {
	if len(sha) < 7 {
		return false
	}
	return bytes.Contains(bytes.ToLower(out), []byte(strings.ToLower(sha[:7])))
}
