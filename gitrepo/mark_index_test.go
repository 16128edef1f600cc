package gitrepo

import (
	"crypto/sha256"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func reviewIndex(t *testing.T, b []byte) (indexScan, bool) {
	root := t.TempDir()
	git := filepath.Join(root, ".git")
	os.MkdirAll(git, 0o755)
	os.WriteFile(filepath.Join(git, "index"), b, 0o644)
	r := &Repo{root: root, gitDir: git, commonDir: git}
	return r.hashIndex(sha256.New(), nil)
}

// An entry count of 2^31 or more is a negative int where int is 32 bits.
func TestIndexHugeCount(t *testing.T) {
	b := make([]byte, 12+20)
	copy(b, "DIRC")
	binary.BigEndian.PutUint32(b[4:], 2)
	binary.BigEndian.PutUint32(b[8:], 0x80000000)
	if _, ok := reviewIndex(t, b); ok {
		t.Error("accepted")
	}
}

// An extension size of 2^31 or more is negative where int is 32 bits: the
// offset goes back (0xfffffff8: stays put, the loop never ends).
func TestIndexHugeExtension(t *testing.T) {
	b := make([]byte, 12, 12+8+20)
	copy(b, "DIRC")
	binary.BigEndian.PutUint32(b[4:], 2)
	b = append(b, "TREE"...)
	b = binary.BigEndian.AppendUint32(b, 0xfffffff8)
	b = append(b, make([]byte, 20)...)
	done := make(chan struct{})
	go func() { reviewIndex(t, b); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("hashIndex did not return")
	}
}
