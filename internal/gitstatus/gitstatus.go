// Package gitstatus reads the entries of `git status --porcelain -z`
// (gitrepo's Status) without a repository or a session.
package gitstatus

import "strings"

// Split sorts Status entries into the paths of tracked files that
// differ from HEAD (in the index or the work tree) and untracked paths.
// An entry is "XY PATH"; one that is not of that shape (the origin of a
// rename, which -z gives as an entry of its own) is passed over unless its
// third character is a space.
func Split(status []string) (tracked, untracked []string) {
	for _, st := range status {
		switch {
		case strings.HasPrefix(st, "??"):
			if len(st) > 3 {
				untracked = append(untracked, strings.TrimSpace(st[3:]))
			}
		case len(st) >= 4 && st[2] == ' ':
			tracked = append(tracked, strings.TrimSpace(st[3:]))
		}
	}
	return tracked, untracked
}
