package gitrepo

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// ReadHeadFiles reads HEAD from the files, without a git process: the HEAD file
// of the worktree's git dir, then the loose ref or packed-refs in the common
// dir. ok is false for anything it does not know for sure (reftable, a
// symbolic ref to something other than a branch, a malformed file): the
// caller then asks git.
func ReadHeadFiles(gitDir, commonDir string) (commit, branch string, ok bool) {
	b, err := boundedread.File(filepath.Join(gitDir, "HEAD"), boundedread.DefaultLimit)
	if err != nil {
		return "", "", false
	}
	head := strings.TrimSpace(string(b))
	ref, sym := strings.CutPrefix(head, "ref: ")
	if !sym {
		return head, "", isHexID(head)
	}
	branch, isBranch := strings.CutPrefix(ref, "refs/heads/")
	if !isBranch || branch == ".invalid" || strings.Contains(ref, "..") {
		return "", "", false
	}
	if b, err := boundedread.File(filepath.Join(commonDir, filepath.FromSlash(ref)), boundedread.DefaultLimit); err == nil {
		c := strings.TrimSpace(string(b))
		return c, branch, isHexID(c)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", "", false
	}
	packed, err := boundedread.File(filepath.Join(commonDir, "packed-refs"), boundedread.LargeLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return "", branch, true // unborn branch
	}
	if err != nil {
		return "", "", false
	}
	for _, line := range strings.Split(string(packed), "\n") {
		if sha, name, ok := strings.Cut(line, " "); ok && name == ref && isHexID(sha) {
			return sha, branch, true
		}
	}
	return "", branch, true // unborn branch
}

func isHexID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
