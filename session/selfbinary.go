package session

import (
	"bytes"
	"crypto/sha256"
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
	// sum is hashed once, when a file of the binary's size first turns up.
	sumOnce sync.Once
	sum     []byte
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

func fileSum(p string) []byte {
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil
	}
	return h.Sum(nil)
}

// IsSelfBinary reports whether prog (a command word: a path, relative to
// dir, or a name looked up in PATH) runs this sessiongate binary.
func IsSelfBinary(dir, prog string) bool {
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
	self.sumOnce.Do(func() { self.sum = fileSum(mePath) })
	other := fileSum(p)
	return self.sum != nil && bytes.Equal(other, self.sum)
}
