// Package logfacts checks that a session log states facts that agree with
// the session it is judged for, from the log's text and git alone: a log
// brought from another session (round 61, helper 353: the fixtures' real
// session 91 log with its dates, branch and objective changed by sed)
// passed every file gate, because near-copy detection reads only this
// repository's history. Such a log says "Commits This Session: None" while
// the session committed, names nothing the session changed, or says the
// session was abandoned while it is being completed.
//
// It needs no session: the caller passes the starting commit, the
// session's own commits and the files it changed; session/ gates on the
// answer.
package logfacts

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// Session is what git says of the session a log is judged for.
type Session struct {
	// Root is the work tree's top.
	Root string
	// Start is the session's starting commit.
	Start string
	// Own is the session's own commits, full ids, newest first.
	Own []string
	// Changed is the files the session changed, the log itself,
	// sessiongate's records and placeholders left out.
	Changed []string
	// Protocol is the session's protocol text ("" when not known): the
	// paths it names are every log's, not a sign of whose log it is.
	Protocol []byte
}

// Finding is one fact of the log that the session contradicts.
type Finding struct {
	Line int // 1-based line of the log the finding points at
	// What is wrong and what to write, without the file and line.
	Msg string
}

// Check judges the log at rel (repository-relative) with content text.
// nil when the log agrees with the session as far as these rules read.
func Check(ctx context.Context, s Session, rel string, text []byte) (*Finding, error) {
	if ln, claim, ok := Abandoned(text); ok {
		return &Finding{Line: ln, Msg: fmt.Sprintf("says the session was abandoned (%q) while this session is being completed: a session's log says what it did; remove the claim, or do not complete the session", claim)}, nil
	}
	if len(s.Own) == 0 {
		// No commit: nothing for "None" to contradict, and a log
		// written at the start names no work yet.
		return nil, nil
	}
	if ln, claim, ok := CommitsNone(text); ok {
		before, err := committedBeforeLog(ctx, s, rel)
		if err != nil {
			return nil, err
		}
		if before != "" {
			return &Finding{Line: ln, Msg: fmt.Sprintf("the commits section says %q but this session made commit %s before the log was last written: list this session's commits there (`- %s - <subject>`)", claim, short(before), short(before))}, nil
		}
	}
	if paths, _ := Paths(text); len(paths) >= foreignMin {
		exists, err := repoPaths(ctx, s)
		if err != nil {
			return nil, err
		}
		if ln, absent, ok := Foreign(text, s.Protocol, exists); ok {
			return &Finding{Line: ln, Msg: fmt.Sprintf("names %d paths this repository does not hold (%s) of the %d it names: it reads as another project's log; write what this session did, naming its files or commits",
				len(absent), strings.Join(firstN(absent, 3), ", "), len(paths))}, nil
		}
	}
	if len(s.Changed) > 0 && !Names(text, s.Changed, s.Own) {
		return &Finding{Line: workLogLine(text), Msg: fmt.Sprintf("names none of the files this session changed (%s) and none of its commits (%s): it is not this session's log; write what this session did, naming its files or commits",
			strings.Join(firstN(s.Changed, 3), ", "), strings.Join(firstN(shorts(s.Own), 3), ", "))}, nil
	}
	return nil, nil
}

// committedBeforeLog names a commit of the session made before the log's
// content was last written ("" when none): with the log uncommitted (or
// changed since HEAD) any commit of the session is older; with the log
// last changed by commit L of the session, any of its commits L descends
// from. An honest "None" committed with the code in one commit passes.
func committedBeforeLog(ctx context.Context, s Session, rel string) (string, error) {
	st, err := git(ctx, s.Root, "status", "--porcelain", "--untracked-files=all", "--", rel)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(st) != "" {
		return s.Own[0], nil
	}
	last, err := git(ctx, s.Root, "log", "-1", "--format=%H", "HEAD", "--", rel)
	if err != nil {
		return "", err
	}
	last = strings.TrimSpace(last)
	own := map[string]bool{}
	for _, c := range s.Own {
		own[c] = true
	}
	if !own[last] {
		// Last written before the session or by someone else: the
		// freshness gates judge that, not this one.
		return "", nil
	}
	args := []string{"rev-list", last}
	if s.Start != "" {
		args = append(args, "--not", s.Start)
	}
	out, err := git(ctx, s.Root, args...)
	if err != nil {
		return "", err
	}
	for _, c := range strings.Fields(out) {
		if c != last && own[c] {
			return c, nil
		}
	}
	return "", nil
}

func git(ctx context.Context, root string, args ...string) (string, error) {
	cmd := gitenv.Command(ctx, root, nil, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// commitsHeading is a heading of the log's commits section: "## Commits",
// "### Commits This Session", "## Commits Made". A bold label
// ("**Commits**: None") is read the same way, its value on its line.
var (
	commitsHeading = lazyregexp.New(`(?i)^#{1,6}\s+(?:session\s+)?commits?(?:\s+(?:this\s+session|made(?:\s+this\s+session)?|in\s+this\s+session|created|pushed))?\s*:?\s*$`)
	commitsLabel   = lazyregexp.New(`(?i)^\s*(?:[-*]\s+)?\*\*(?:session\s+)?commits?(?:\s+(?:this\s+session|made(?:\s+this\s+session)?|in\s+this\s+session))?:?\*\*:?\s*(.*)$`)
	heading        = lazyregexp.New(`^#{1,6}\s`)
	shaToken       = lazyregexp.New(`(?i)\b[0-9a-f]{7,40}\b`)
	// A claim that this session, not an earlier one, was abandoned.
	abandonedClaim = lazyregexp.New(`(?i)(?:^|[^a-z])(?:this\s+|the\s+|planning\s+)?session\s+(?:was\s+|is\s+|has\s+been\s+)?abandoned\b`)
	otherSession   = lazyregexp.New(`(?i)\b(?:previous|earlier|prior|last|other|another|old|older)\s+(?:planning\s+)?session\s`)
	// A verb or preposition before "the session abandoned ..." that makes
	// it the session this one picks up.
	continuesOther = lazyregexp.New(`(?i)\b(?:continu\w*|resum\w*|pick(?:s|ed|ing)?\s+up|from|of|after|replac\w*|redo\w*|finish\w*|complet\w*)\b[^.;:|]*$`)
	copula         = lazyregexp.New(`(?i)\b(?:was|is|has\s+been)\s`)
	thisSession    = lazyregexp.New(`(?i)\bthis\s`)
	answeredNo     = lazyregexp.New(`(?i)^\s*\??\s*\**\s*[:|]\s*\**\s*(?:no|false|n/a|none)\b`)
)

// noneWords start a commits section that says nothing was committed.
var noneWords = []string{"none", "n/a", "no commits", "no commit", "nothing committed", "not applicable", "(none)", "no changes committed"}

// CommitsNone finds a commits section whose content says no commit was
// made: its line, the claim, true. A section that also holds a commit id
// does not count ("None before; then abc1234").
func CommitsNone(text []byte) (int, string, bool) {
	lines := proseLines(text)
	for i, l := range lines {
		if l.code {
			continue
		}
		if m := commitsLabel.FindStringSubmatch(l.text); m != nil && strings.TrimSpace(m[1]) != "" {
			if v := strings.TrimSpace(m[1]); saysNone(v) && !shaToken.MatchString(v) {
				return l.n, v, true
			}
			continue
		}
		if !commitsHeading.MatchString(strings.TrimSpace(l.text)) {
			continue
		}
		first, firstN, sha := "", 0, false
		for _, b := range lines[i+1:] {
			if !b.code && heading.MatchString(b.text) {
				break
			}
			if shaToken.MatchString(b.text) {
				sha = true
			}
			if first == "" && strings.TrimSpace(b.text) != "" && !strings.HasPrefix(strings.TrimSpace(b.text), "<!--") {
				first, firstN = strings.TrimSpace(b.text), b.n
			}
		}
		if first != "" && saysNone(first) && !sha {
			return firstN, first, true
		}
	}
	return 0, "", false
}

func saysNone(v string) bool {
	v = strings.ToLower(strings.TrimLeft(v, "-*+> _`"))
	for _, w := range noneWords {
		if strings.HasPrefix(v, w) {
			rest := v[len(w):]
			// "none" as a word, not "nonexistent".
			if rest == "" || !isWordByte(rest[0]) {
				return true
			}
		}
	}
	return false
}

// Abandoned finds a line that says this session was abandoned (outside
// code blocks): its line, the line's text, true. "The previous session was
// abandoned" is about another.
func Abandoned(text []byte) (int, string, bool) {
	for _, l := range proseLines(text) {
		if l.code {
			continue
		}
		loc := abandonedClaim.FindStringIndex(l.text)
		if loc == nil {
			continue
		}
		if otherSession.MatchString(l.text[:min(len(l.text), loc[1])]) {
			continue
		}
		m := l.text[loc[0]:loc[1]]
		if !copula.MatchString(m) && !thisSession.MatchString(m) && continuesOther.MatchString(l.text[:loc[0]]) {
			// "Continues the session abandoned on 2025-12-26": the
			// session it picks up, not this one (helper 359).
			continue
		}
		if answeredNo.MatchString(l.text[loc[1]:]) {
			continue // "| Session abandoned? | No |"
		}
		return l.n, strings.TrimSpace(l.text), true
	}
	return 0, "", false
}

// Names reports whether the log names one of the changed files (by path,
// or by base name as a word) or one of the commits (an id prefix of 7 or
// more hex digits).
func Names(text []byte, changed, own []string) bool {
	low := strings.ToLower(string(text))
	for _, f := range changed {
		f = strings.ToLower(f)
		if strings.Contains(low, f) || containsWord(low, path.Base(f)) || namesDir(low, path.Dir(f)) {
			return true
		}
	}
	for _, tok := range shaToken.FindAllString(low, -1) {
		for _, c := range own {
			if strings.HasPrefix(strings.ToLower(c), tok) {
				return true
			}
		}
	}
	return false
}

// namesDir: the log names dir, a changed file's whole folder, as a folder
// ("in `scripts/`"): an honest log describes a session's files by their
// folder (helper 359). The protocol's own folders (.agents/, .claude/,
// .serena/, .github/) are named by every log the protocol's template
// makes, a copied one too, and do not count.
func namesDir(low, dir string) bool {
	if dir == "." || dir == "" || strings.HasPrefix(dir, ".") {
		return false
	}
	for i := 0; ; {
		j := strings.Index(low[i:], dir+"/")
		if j < 0 {
			return false
		}
		at := i + j
		end := at + len(dir) + 1
		before := at == 0 || !isNameByte(low[at-1]) && low[at-1] != '/'
		after := end == len(low) || !isNameByte(low[end])
		if before && after {
			return true
		}
		i = at + 1
	}
}

// containsWord: name occurs in s not inside a longer name
// (enhancement-PROJECT-PLAN.md does not name PROJECT-PLAN.md).
func containsWord(s, name string) bool {
	if name == "" || name == "." || name == "/" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			return false
		}
		at := i + j
		end := at + len(name)
		before := at == 0 || !isNameByte(s[at-1])
		after := end == len(s) || !isWordByte(s[end]) && s[end] != '-'
		if before && after {
			return true
		}
		i = at + 1
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

func isNameByte(b byte) bool { return isWordByte(b) || b == '-' || b == '.' }

type line struct {
	n    int
	text string
	code bool // inside a fenced code block (fences included)
}

func proseLines(text []byte) []line {
	var out []line
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	fence := ""
	for n := 1; sc.Scan(); n++ {
		t := sc.Text()
		trim := strings.TrimSpace(t)
		switch {
		case fence != "":
			if strings.HasPrefix(trim, fence) {
				fence = ""
			}
			out = append(out, line{n, t, true})
			continue
		case strings.HasPrefix(trim, "```"):
			fence = "```"
		case strings.HasPrefix(trim, "~~~"):
			fence = "~~~"
		}
		out = append(out, line{n, t, fence != ""})
	}
	return out
}

// workLogLine points at the log's work section, where the session's files
// belong; 1 when it has none.
func workLogLine(text []byte) int {
	for _, l := range proseLines(text) {
		if !l.code && heading.MatchString(l.text) {
			low := strings.ToLower(l.text)
			if strings.Contains(low, "work log") || strings.Contains(low, "changes") || strings.Contains(low, "files") {
				return l.n
			}
		}
	}
	return 1
}

func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

func shorts(l []string) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = short(s)
	}
	return out
}

func firstN(l []string, n int) []string {
	if len(l) > n {
		return append(l[:n:n], "...")
	}
	return l
}
