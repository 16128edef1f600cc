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

// A LogCommit is a commit a review of the recent commits must show: its
// id, and its subject (a log run with `--format=%s` shows no ids).
type LogCommit struct{ SHA, Subject string }

// graphRE: the graph and indentation before an entry (`* `, `| * `).
var graphRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[*|/\\_ ]*`) })

// entryID returns the id a line starts a commit's entry with: `ID ...`
// (--oneline, `%h %s`), `commit ID` (the default), behind the graph; ""
// for any other line. A message line (indented four spaces under its
// header) starts none: "This reverts commit ID", `Merge: P1 P2` and ids in
// a body are no entries (round 40's re-check, LA6, LA7).
func entryID(l string) string {
	l = strings.TrimRight(l, "\r")
	g := graphRE().FindString(l)
	if strings.Contains(g, "    ") {
		return "" // a message line, under its header or beside the graph
	}
	// Gemini CLI reports a shell call's output under a label ("Output:
	// 658ff04 chore: ..."), the first line of it.
	rest := strings.TrimPrefix(strings.TrimPrefix(l[len(g):], "Output: "), "commit ")
	rest = strings.TrimLeft(rest, "<>[(- ") // --left-right, `[%h] %s`, `- %h %s`
	m := entryHexRE().FindStringSubmatch(rest)
	if m == nil {
		return ""
	}
	return strings.ToLower(m[1])
}

// entryHexRE: an id at the start of an entry, ended by what is no part of
// a word (`%h|%s`, `%h: %s`, a tab).
var entryHexRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9a-fA-F]{4,64})(?:[^0-9A-Za-z]|$)`) })

// ShowsLog reports whether out shows HEAD (commits[0]) and one of its
// parents (the rest, when there are any), each as an entry of its own.
// Output that starts entries with ids is read by ids alone: a word of
// four or more hex digits that begins a commit's id, at an entry's start.
// Output with no ids (`--format='%s (%an, %ar)'`, HL4) is read by
// subjects: a line that starts with the commit's subject, a line for
// each. `git log --no-walk --format=%h` (L2) and `git log -1` showed one
// commit; a subject or id inside another line (a revert's "This reverts
// commit", two commits named "Update README.md") is no entry.
func ShowsLog(out []byte, commits []LogCommit) bool {
	if len(commits) == 0 {
		return true
	}
	var lines, ids []string
	for _, l := range strings.Split(string(ansiRE().ReplaceAll(out, nil)), "\n") {
		lines = append(lines, l)
		if id := entryID(l); id != "" {
			ids = append(ids, id)
		}
	}
	byID := func(c LogCommit) bool {
		sha := strings.ToLower(c.SHA)
		return slices.ContainsFunc(ids, func(id string) bool { return strings.HasPrefix(sha, id) })
	}
	used := make([]bool, len(lines))
	bySubject := func(c LogCommit) bool {
		subj := strings.TrimSpace(c.Subject)
		if subj == "" {
			return false
		}
		for i, l := range lines {
			if used[i] {
				continue
			}
			// The whole subject, not part of a longer word (`%an: %s`,
			// `%h (%s)` without ids shown).
			for at := 0; ; {
				j := strings.Index(l[at:], subj)
				if j < 0 {
					break
				}
				j += at
				if !wordByte(l, j-1) && !wordByte(l, j+len(subj)) {
					used[i] = true
					return true
				}
				at = j + 1
			}
		}
		return false
	}
	shown := byID
	if len(ids) == 0 {
		shown = bySubject
	}
	if !shown(commits[0]) {
		return false
	}
	return len(commits) == 1 || slices.ContainsFunc(commits[1:], shown)
}

// wordByte reports whether l[i] is a letter or digit (out of range: no).
func wordByte(l string, i int) bool {
	if i < 0 || i >= len(l) {
		return false
	}
	c := l[i]
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// OneCommit reports whether the line's git log shows one commit at most
// (`-1`, `-n 1`, `--max-count=1`, `--no-walk` with one revision), or
// prints parents' ids in HEAD's entry (`%p`, `%P`): either way, no parent
// is shown as an entry of its own (round 40's last re-check: `git log -1
// --format=%h%n%p`, a body line holding the parent's id or subject).
func OneCommit(line string) string {
	calls, _, ok := shellline.Calls(shellline.Unwrap(strings.TrimSpace(line)))
	if !ok {
		return ""
	}
	for _, c := range calls {
		w := shellline.UnwrapCall(c.Words)
		if len(w) < 2 || w[0] != "git" || shellline.GitSub(w) != "log" {
			continue
		}
		revs := 0
		noWalk := false
		for i := shellline.GitSubIndex(w) + 1; i < len(w); i++ {
			a := w[i]
			switch {
			case a == "--":
				i = len(w)
			case a == "-1" || a == "-n1" || a == "--max-count=1" || (a == "-n" || a == "--max-count") && i+1 < len(w) && w[i+1] == "1":
				return "it shows one commit (" + a + ")"
			case a == "--no-walk" || strings.HasPrefix(a, "--no-walk="):
				noWalk = true
			case (strings.HasPrefix(a, "--format=") || strings.HasPrefix(a, "--pretty=")) && (strings.Contains(a, "%p") || strings.Contains(a, "%P")):
				return "its format prints parents' ids in HEAD's entry (%p)"
			case logValueOpts[a]:
				i++
			case !strings.HasPrefix(a, "-"):
				revs++
			}
		}
		if noWalk && revs <= 1 {
			return "it shows one commit (--no-walk)"
		}
	}
	return ""
}

// QuotesOneCommit reports whether a requirement's text quotes a git log
// that shows one commit ("The agent SHOULD run `git log --oneline -1` to
// note starting commit"): HEAD alone answers it.
func QuotesOneCommit(text string) bool {
	i := gitLogRE().FindStringIndex(text)
	if i == nil {
		return false
	}
	quoted, _, _ := strings.Cut(text[i[0]:], "\n")
	prev := ""
	for _, w := range strings.Fields(quoted)[2:] {
		w = strings.Trim(w, "`.,;:()'\"")
		switch {
		case w == "-1" || w == "-n1" || w == "--max-count=1" || w == "--no-walk" || w == "1" && prev == "-n":
			return true
		case !strings.HasPrefix(w, "-") && w != "1" && w != "-n":
			return false // the sentence goes on: the command ended
		}
		prev = w
	}
	return false
}

// logValueOpts are git log's options that may take their value as the next
// word: that word is no revision.
var logValueOpts = map[string]bool{
	"-n": true, "--max-count": true, "--skip": true, "--since": true, "--after": true, "--until": true,
	"--before": true, "--author": true, "--committer": true, "--grep": true, "-S": true, "-G": true,
	"--min-parents": true, "--max-parents": true, "-L": true, "--since-as-filter": true,
}

// logRefOpts are git log's options that log refs the line does not name
// as words (`--all`, `--glob=refs/scratch/*`), revisions read from stdin,
// a reflog, or words after `--end-of-options`: the log of a throwaway ref
// whose commits' subjects are HEAD's ids (round 40's re-check, LA1-LA4).
var logRefOpts = []string{"--all", "--glob", "--branches", "--tags", "--remotes", "--exclude", "--reflog",
	"--stdin", "--end-of-options", "--walk-reflogs", "-g", "--alternate-refs", "--bisect", "--single-worktree", "--indexed-objects", "--exclude-hidden"}

// LogRevs lists the revisions the line's git log names: the tips whose
// history it shows (a range's right side, "" for HEAD) and the ones it
// excludes (`main..`, `^main`, `--not main`); other is the first option
// that logs refs it does not name (logRefOpts), "" when none. A word it
// cannot tell from a path is listed; the caller resolves it. `git log
// --oneline -5 scratch` of a throwaway ref whose commit's subject held
// HEAD's id (round 39's re-check, L3) showed none of HEAD's history.
func LogRevs(line string) (tips, excluded []string, other string) {
	calls, _, ok := shellline.Calls(shellline.Unwrap(strings.TrimSpace(line)))
	if !ok {
		return nil, nil, ""
	}
	for _, c := range calls {
		w := shellline.UnwrapCall(c.Words)
		if len(w) < 2 || w[0] != "git" || shellline.GitSub(w) != "log" {
			continue
		}
		not := false // --not turns the revisions after it around
	words:
		for i := shellline.GitSubIndex(w) + 1; i < len(w); i++ {
			a := w[i]
			name, _, _ := strings.Cut(a, "=")
			switch {
			case a == "--":
				break words
			case a == "":
				if other == "" {
					other = "a word the shell expands" // `--glob=refs/x/*`, `$REF`
				}
			case slices.Contains(logRefOpts, name):
				if other == "" {
					other = name
				}
			case a == "--not":
				not = !not
			case logValueOpts[a]:
				i++
			case strings.HasPrefix(a, "-"):
			case strings.HasPrefix(a, "^"):
				excluded = append(excluded, a[1:])
			case not:
				excluded = append(excluded, a)
			case strings.Contains(a, ".."):
				left, right, _ := strings.Cut(strings.Replace(a, "...", "..", 1), "..")
				if left == "" {
					left = "HEAD"
				}
				excluded = append(excluded, left)
				tips = append(tips, right)
			default:
				tips = append(tips, a)
			}
		}
	}
	return tips, excluded, other
}

// NoMerges reports whether the line's git log leaves merge commits out
// (--no-merges, --max-parents=1): at a merge HEAD it shows neither HEAD
// nor a parent that is a merge, so the newest commits it can show are
// owed instead (round 40's re-check, HLA11).
func NoMerges(line string) bool {
	calls, _, ok := shellline.Calls(shellline.Unwrap(strings.TrimSpace(line)))
	if !ok {
		return false
	}
	for _, c := range calls {
		w := shellline.UnwrapCall(c.Words)
		if len(w) < 2 || w[0] != "git" || shellline.GitSub(w) != "log" {
			continue
		}
		for _, a := range w[shellline.GitSubIndex(w)+1:] {
			if a == "--" {
				break
			}
			if a == "--no-merges" || a == "--max-parents=1" {
				return true
			}
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
