// Package shorten cuts ids and text for display and storage: one short
// commit id and one UTF-8-safe truncation, instead of a copy in each
// package (one of which cut stored messages mid-rune).
package shorten

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// SHA is the first 12 hex digits of a commit id or content hash (a
// "sha256:" prefix dropped); shorter input is returned as it is.
func SHA(s string) string {
	s = strings.TrimPrefix(s, "sha256:")
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// Bytes cuts s to at most n bytes without splitting a rune, and adds mark
// where it cut; s of n bytes or fewer is returned as it is.
func Bytes(s string, n int, mark string) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + mark
}

// Runes cuts s to at most n runes, marking the cut with an ellipsis.
func Runes(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for range n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + "…"
}

// Line joins s's words with single spaces (no line breaks) and cuts it as
// Bytes does.
func Line(s string, n int, mark string) string {
	return Bytes(strings.Join(strings.Fields(s), " "), n, mark)
}

// List joins items with commas, at most n of them, saying how many more
// there are ("a, b and 3 more").
func List(items []string, n int) string {
	if len(items) > n {
		return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
	}
	return strings.Join(items, ", ")
}
