package gitrepo

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// Git LFS's own driver (`filter.lfs.clean = git-lfs clean -- %f`) was
// trusted by name and command: a person's LFS stores a pointer, not the
// file, so the work tree and the commit always differ. sessiongate's git
// runs with the caller's PATH, so the lazy agent wrote that line into
// .git/config, put a `git-lfs` of its own first on PATH (`sed s/+/-/`),
// and the commit held another add.go than the one the tests read (pass 6
// left it open). Real Git LFS is checked by its output instead: the blob
// git would store for the file must be the LFS pointer of the file's own
// bytes (oid sha256 and size), which only a filter that stores the file
// unchanged produces.

// lfsDriver marks Git LFS's driver in cleanFilters' answer.
const lfsDriver = "Git LFS (git-lfs clean)"

// lfsCheckMax bounds the files read for the pointer check: LFS holds
// assets of any size, and a file past it is taken for one (code that
// large is not written to hide a change).
const lfsCheckMax = 8 << 20

// lfsPointerOf reports whether blob (the id git computes for p with its
// filters) is the Git LFS pointer of p's work-tree bytes.
func (r *Repo) lfsPointerOf(p, blob string) (bool, error) {
	b, err := boundedread.File(filepath.Join(r.root, filepath.FromSlash(p)), boundedread.LargeLimit)
	if err != nil {
		return false, fmt.Errorf("read %s for its LFS pointer: %w", p, err)
	}
	sum := sha256.Sum256(b)
	ptr := fmt.Sprintf("version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d\n", hex.EncodeToString(sum[:]), len(b))
	head := fmt.Sprintf("blob %d\x00", len(ptr))
	var id string
	switch len(blob) {
	case 40:
		h := sha1.Sum([]byte(head + ptr))
		id = hex.EncodeToString(h[:])
	case 64:
		h := sha256.Sum256([]byte(head + ptr))
		id = hex.EncodeToString(h[:])
	default:
		return false, nil
	}
	return id == blob, nil
}
