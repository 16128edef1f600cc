// Package selfbinary tells whether a command word runs this sessiongate
// binary under any name (a copy, a link): the person commands an agent may
// not run are denied by what runs, not by what it is called. It reads
// files only, no session, so the agent hook can ask it directly.
package selfbinary

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// The agent could run sessiongate under another name (`cp $(which
// sessiongate) /tmp/x`, a symlink) so that no check of the name sees its
// person commands. A program is the sessiongate binary when it is the
// running executable's file, or has its size and sha256: the size is
// compared first, so only a file of the binary's exact size is hashed.

var self struct {
	once sync.Once
	info os.FileInfo
	path string
}

func selfBinary() (os.FileInfo, string) {
	self.once.Do(func() {
		p, err := os.Executable()
		if err != nil {
			return
		}
		if fi, err := os.Stat(p); err == nil {
			self.info, self.path = fi, p
		}
	})
	return self.info, self.path
}

// sameSamples compares two files of the same size at 16 evenly spaced
// 64 KiB windows (the first and last included): a hook has a time limit,
// and hashing two whole binaries under load took longer than it. A file
// that matches the binary at every window is the binary for this purpose
// (a build edited only between the windows still runs as sessiongate).
func sameSamples(a, b string, size int64) bool {
	fa, err := os.Open(a)
	if err != nil {
		return false
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false
	}
	defer fb.Close()
	const win, n = 64 << 10, 16
	ba, bb := make([]byte, win), make([]byte, win)
	for k := int64(0); k < n; k++ {
		off := (size - win) * k / (n - 1)
		if off < 0 {
			off = 0
		}
		na, ea := fa.ReadAt(ba, off)
		nb, eb := fb.ReadAt(bb, off)
		if na != nb || (ea != nil && ea != io.EOF) || (eb != nil && eb != io.EOF) || !bytes.Equal(ba[:na], bb[:nb]) {
			return false
		}
	}
	return true
}

// Is reports whether prog (a command word: a path, relative to
// dir, or a name looked up in PATH) runs this sessiongate binary.
func Is(dir, prog string) bool {
	if prog == "" {
		return false
	}
	me, mePath := selfBinary()
	if me == nil {
		return false
	}
	p := prog
	if strings.ContainsRune(prog, '/') {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
	} else if lp, err := exec.LookPath(prog); err == nil {
		p = lp
	} else {
		return false
	}
	fi, err := os.Stat(p) // a symlink is followed
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != me.Size() {
		return false
	}
	if os.SameFile(fi, me) {
		return true
	}
	return sameSamples(mePath, p, fi.Size())
}
