//go:build unix

package gitrepo

import (
	"syscall"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// mapIndex maps the index at path read-only. A hook reads megabytes of
// index in a large repository: mapping the page cache costs a few page
// faults where reading it would copy it all into new memory. git replaces
// the index by renaming a new file over it, so the mapping stays whole.
func mapIndex(path string) (b []byte, release func(), err error) {
	f, err := boundedread.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if st.Size() == 0 || st.Size() > 1<<31 {
		b, err := boundedread.File(path, boundedread.LargeLimit)
		return b, func() {}, err
	}
	b, err = syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		b, err := boundedread.File(path, boundedread.LargeLimit)
		return b, func() {}, err
	}
	return b, func() { syscall.Munmap(b) }, nil
}
