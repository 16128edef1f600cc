package session

import (
	"net/url"
	"slices"
	"strings"
)

// The content a PROTECTED_CHANGE was about (F1). A person changes
// sessiongate.yaml on main and accepts it there; a session on a feature
// branch that merges main mid-session meets main's content at its next
// gate as an unaccepted change and records a HIGH PROTECTED_CHANGE, which
// failed verify even after a person accepted it in that clone: the
// record said nothing of the content, so main's config and an agent's
// edit looked alike. guardProtected now appends, with each such violation
// and in the same transaction, one TokProtectContent event naming every
// changed file and the sha256 of its content then. verify
// (verify/basecontent.go) lets the violations pass only when every
// PROTECTED_CHANGE of the record has its event and every file each names
// holds exactly the content the range's base holds: main's, which no
// agent commits to. An agent's own edit, a branch of its own merged, or
// an old main revision merged carries another content and still fails.

// TokProtectContent (+ ":" + ProtectContentFiles' list) is the event that
// names a PROTECTED_CHANGE violation's files and contents.
const TokProtectContent = "protect:content"

// Marks in a TokProtectContent list for a file without a comparable content.
const (
	protectContentDeleted = "-" // the file was deleted
	protectContentUnknown = "!" // git hides the file's content (update-index flags, a filter)
)

// ProtectContentToken is the TokProtectContent event token for changes:
// "protect:content:" then "path=sha256" pairs, sorted and comma-separated,
// paths query-escaped (no "," or "=" left in them).
func ProtectContentToken(changes []ProtectedChange) string {
	var pairs []string
	for _, c := range changes {
		sha := c.SHA256
		switch {
		case c.Hidden != "":
			sha = protectContentUnknown
		case sha == "":
			sha = protectContentDeleted
		}
		p := url.QueryEscape(c.Path) + "=" + sha
		if !slices.Contains(pairs, p) {
			pairs = append(pairs, p)
		}
	}
	slices.Sort(pairs)
	return TokProtectContent + ":" + strings.Join(pairs, ",")
}

// ProtectContentFile is one file a TokProtectContent event names.
type ProtectContentFile struct {
	Path string
	// SHA256 is the hex sha256 of its content; "" when it was deleted or
	// git hid it (Comparable says which).
	SHA256     string
	Comparable bool // false: git hid its content, nothing can equal it
}

// ParseProtectContent reads a TokProtectContent event token; ok is false
// for any other token or a malformed one.
func ParseProtectContent(token string) (files []ProtectContentFile, ok bool) {
	rest, found := strings.CutPrefix(token, TokProtectContent+":")
	if !found || rest == "" {
		return nil, false
	}
	for _, pair := range strings.Split(rest, ",") {
		esc, sha, found := strings.Cut(pair, "=")
		p, err := url.QueryUnescape(esc)
		if !found || err != nil || p == "" {
			return nil, false
		}
		f := ProtectContentFile{Path: p, SHA256: sha, Comparable: true}
		switch {
		case sha == protectContentDeleted:
			f.SHA256 = ""
		case sha == protectContentUnknown:
			f.SHA256, f.Comparable = "", false
		case len(sha) != 64 || strings.Trim(sha, "0123456789abcdef") != "":
			return nil, false
		}
		files = append(files, f)
	}
	return files, true
}
