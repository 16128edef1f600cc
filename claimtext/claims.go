// Package claimtext reads what a body of text says about itself, without
// running anything or knowing the session: claimed evidence that reports
// its own failure (Failure) or stands in for work (Padding, PaddingPrefix),
// and a filled template section that holds only filler words
// (FillerSection). Claimed bodies are hashed, not kept, so they are read
// once, when recorded; session/ decides what a finding refuses.
package claimtext

import (
	"regexp"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/internal/shorten"
)

// What a claimed body says about itself. Claimed evidence is hashed, not
// kept, so it is read once, when it is recorded: output that reports a
// failure, or a word that stands in for work ("ok", "N/A", "TODO"), is not
// evidence that an unconditional MUST was met.

// failureRules find output that reports its own failure. Each is narrow on
// purpose: "0 errors", "0 failed", "exit 0" and a file named errors.go are
// success, and a false refusal makes an honest agent pad.
var failureRules = sync.OnceValue(func() []struct {
	re   *regexp.Regexp
	what string
} {
	return []struct {
		re   *regexp.Regexp
		what string
	}{
		// "exit code 1", "exited 2", "exit status 1", "rc=1", "returncode: 3", "exit_code=1"
		{regexp.MustCompile(`(?i)\b(?:exit(?:ed)?(?:\s+with)?(?:\s+(?:code|status))?|exit[_-]code|rc|return\s*code|returncode)\s*[=:]?\s*(?:-\s*)?[1-9]\d*\b`), "a non-zero exit"},
		// "6 validation(s) failed", "3 errors", "2 tests failed", "1 failing", "Summary: 4 error(s)"
		{regexp.MustCompile(`(?i)\b[1-9]\d*\s+(?:[a-z][\w-]*(?:\(s\))?\s+){0,2}(?:errors?|error\(s\)|failures?|failed|failing|failure\(s\)|violations?)\b`), "failures or errors"},
		// go test / pytest / build tools shout it ("0 FAILED" is skipped in Failure)
		{regexp.MustCompile(`\b(?:FAILED|FAILURE)\b`), "a failure"},
		{regexp.MustCompile(`(?m)^\s*(?:FAIL|ERROR)\b|^--- FAIL`), "a failure"},
		// git, compilers and shells: a line that starts with the failure
		{regexp.MustCompile(`(?mi)^\s*(?:fatal|error|panic)(?:\[\w+\])?:`), "an error"},
		{regexp.MustCompile(`(?i)npm ERR!|Traceback \(most recent call last\)|command not found|\bnot recognized as (?:an internal|the name of)`), "an error"},
	}
})

// paddingWords are bodies that stand in for evidence: the whole body (after
// trimming punctuation and a leading checkbox) is one of them, or starts
// with a marker that says the work was not done.
var paddingWords = map[string]bool{
	"ok": true, "okay": true, "done": true, "yes": true, "y": true, "x": true, "pass": true, "passed": true,
	"complete": true, "completed": true, "success": true, "true": true, "1": true, "n/a": true, "na": true,
	"none": true, "nothing": true, "todo": true, "tbd": true, "skipped": true, "skip": true, "not applicable": true,
	"not needed": true, "see above": true, "same as above": true, "fixme": true, "-": true, "ditto": true,
	"verified": true, "checked": true, "confirmed": true, "evidence": true, "n.a.": true, "✓": true, "✔": true, "✅": true,
}

// PaddingPrefix matches a body that starts with a marker saying the work
// was not done ("N/A", "TODO", "skipped").
var PaddingPrefix = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:n/a|todo|tbd|fixme|skipped|not applicable)\b`)
})

// negatedCount: a number followed by words that deny the failure after it
// ("4 reported no failures"): the number counts something else.
var negatedCount = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^[1-9]\d*\s+(?:[a-z][\w-]*\s+)*?(?:no|zero|without|never|not)\s+(?:errors?|error\(s\)|failures?|failed|failing|failure\(s\)|violations?)\b`)
})

// fixedThenPassed is a fix or a run again, then a pass: a failure told as
// the start of its own fix (honest pass 47's Q1: the evidence of "fix what
// the checks report" is that story).
var fixedThenPassed = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?is)\b(?:fixed|fixing|corrected|after\s+the\s+fix)\b(.*?)\b(?:passed|passes|passing|green|succeeded)\b`)
})

// notYetRE is what makes a fix or a pass not (yet) so: a denial, a modal
// or a time to come ("not fixed, will rerun ... expect it to pass", "fixed
// nothing, reran: still red though it should pass": round 44's re-check).
//
// "expected" and "to" deny only as a future: "expect it to pass",
// "expected to pass", "to be fixed"; "the check expected \"helo Ada\"" and
// "fixed the expectation to \"hello Ada\"" tell what was wrong and how it
// was fixed (honest pass 48's L4), and quoted text is what a check
// compares, not the story.
var notYetRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:not|nothing|no|never|still|should|will|would|could|expects?|expecting|expected\s+to|once|next|later|then|until|hope\w*)\b|n't\b|\bto\s+(?:be\s+|get\s+)?(?:fix\w*|re-?run\w*|run|pass\w*|try|retry|look|investigate|check|work|do|address|handle|resolve|see|green)\b`)
})

// quotedRE is a quoted span of a claim ("hello Ada", `greet.sh`, 'x').
var quotedRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\"[^\"\n]*\"|`[^`\n]*`|“[^”\n]*”")
})

// notYet: text denies or defers a fix or a pass (notYetRE outside quotes).
func notYet(text string) bool {
	return notYetRE().MatchString(quotedRE().ReplaceAllString(text, "\"\""))
}

// fixedAfter reports whether rest, the text after a failure, tells of a
// fix that then passed, nothing denying or deferring either, with no
// failure after that pass.
func fixedAfter(rest string) bool {
	m := fixedThenPassed().FindStringSubmatchIndex(rest)
	if m == nil {
		return false
	}
	// Between the failure and the pass nothing denies or defers it.
	if notYet(rest[:m[0]]) || notYet(rest[m[2]:m[3]]) {
		return false
	}
	return Failure(rest[m[1]:]) == ""
}

// Failure returns what a claimed body reports of its own failure, or "".
func Failure(body string) string {
	for _, r := range failureRules() {
		for _, ix := range r.re.FindAllStringIndex(body, 8) {
			if strings.HasSuffix(strings.TrimRight(body[:ix[0]], " \t:="), " 0") || strings.TrimRight(body[:ix[0]], " \t:=") == "0" {
				continue // "0 FAILED"
			}
			m := body[ix[0]:ix[1]]
			if negatedCount().MatchString(m) {
				continue // "pytest -n 4 reported no failures", "1 of 1 with no failures"
			}
			if fixedAfter(body[ix[1]:]) {
				continue // "first run: 1 failed; fixed greet.sh; rerun: 1 passed"
			}
			return r.what + " (" + strings.TrimSpace(shorten.Bytes(m, 60, "...")) + ")"
		}
	}
	return ""
}

// Padding returns the padding a claimed body is, or "".
func Padding(body string) string {
	t := strings.TrimSpace(body)
	t = strings.TrimPrefix(strings.TrimPrefix(t, "[x]"), "[X]")
	t = strings.Trim(strings.TrimSpace(t), ".!:;,'\"`*_ ")
	if t == "" || paddingWords[strings.ToLower(t)] {
		return strings.TrimSpace(body)
	}
	if m := PaddingPrefix().FindString(t); m != "" {
		return m
	}
	return ""
}
