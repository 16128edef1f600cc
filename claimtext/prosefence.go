package claimtext

import (
	"regexp"
	"strings"
	"sync"
)

// A claim put in a fenced block under Done went unread: fences are left
// out so pasted tool output ("added 120 packages in 3s", "ok  greet
// 0.01s") is no claim, and a session that changed nothing ended COMPLETE,
// clean, verify OK with "Added the optional name argument to greet.sh."
// in an untagged fence (round 62, helper 357). A fence that holds only
// sentences is read as text: untagged or tagged as text or Markdown, no
// line a prompt, every line a sentence (a letter first, three words or
// more, a stop at its end). Tool output rarely ends its lines so.

// proseLineRE is a line of prose: an optional list mark, a letter, at
// least three words, and a sentence's end.
var proseLineRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[-*+]\s+|\d+[.)]\s+)?\pL[^\s]*(?:\s+\S+){2,}[.!]["'”’)\]]*$`)
})

// proseInfo are the info strings of a fence that may hold prose.
var proseInfo = map[string]bool{"": true, "text": true, "txt": true, "plain": true, "plaintext": true, "markdown": true, "md": true}

// fence tracks the fenced blocks of a handoff read line by line.
type fence struct {
	open  string   // the opening mark ("```", "~~~"); "" outside a fence
	info  string   // its info string, lower-cased
	lines []string // the block's lines so far
}

// line reads the next line: in reports whether it is part of a fence
// (its marks included), and prose the block's lines when a fence closed
// holding only sentences (to be read as text).
func (f *fence) line(l string) (in bool, prose []string) {
	t := strings.TrimSpace(l)
	if f.open == "" {
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			f.open, f.info, f.lines = t[:3], strings.ToLower(strings.TrimSpace(t[3:])), nil
			return true, nil
		}
		return false, nil
	}
	if strings.HasPrefix(t, f.open) && strings.TrimSpace(strings.TrimLeft(t, f.open[:1])) == "" {
		lines, info := f.lines, f.info
		f.open, f.lines = "", nil
		if proseBlock(info, lines) {
			return true, lines
		}
		return true, nil
	}
	f.lines = append(f.lines, l)
	return true, nil
}

// proseBlock: the fence holds sentences only.
func proseBlock(info string, lines []string) bool {
	if !proseInfo[info] {
		return false
	}
	n := 0
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if !proseLineRE().MatchString(t) {
			return false
		}
		n++
	}
	return n > 0
}
