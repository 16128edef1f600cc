package gitrepo

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// indexBlobs returns the blob ids the index at path records for the
// wanted paths (want maps each lower-cased path to its spelling; absent
// paths are missing from the result). ok is false, and the caller asks
// git, for anything but a plain SHA-1 index of versions 2-4, for a
// conflicted entry of a wanted path, and for a wanted path present in
// another case.
func indexBlobs(path string, want map[string]string) (map[string]string, bool) {
	b, release, err := mapIndex(path)
	if err != nil {
		return nil, false
	}
	defer release()
	if len(b) < 12+20 || string(b[:4]) != "DIRC" {
		return nil, false
	}
	version := binary.BigEndian.Uint32(b[4:])
	n := binary.BigEndian.Uint32(b[8:])
	if version < 2 || version > 4 {
		return nil, false
	}
	const hashLen = 20
	end := len(b) - hashLen
	off := 12
	out := map[string]string{}
	lens := map[int]bool{}
	last := "" // the greatest wanted path: entries are sorted by path, and
	// every case variant of a path sorts at or before its lower-case form
	for k := range want {
		lens[len(k)] = true
		last = max(last, k)
	}
	var name []byte // the entry's path; version 4 edits it in place
	for range n {
		start := off
		if off+62 > end {
			return nil, false
		}
		id := b[off+40 : off+40+hashLen]
		flags := binary.BigEndian.Uint16(b[off+60:])
		off += 62
		if flags&0x4000 != 0 {
			if version < 3 || off+2 > end {
				return nil, false
			}
			off += 2
		}
		if version == 4 {
			strip, k := gitVarint(b[off:min(off+10, end)])
			if k == 0 || int(strip) > len(name) {
				return nil, false
			}
			off += k
			i := bytes.IndexByte(b[off:end], 0)
			if i < 0 {
				return nil, false
			}
			name = append(name[:len(name)-int(strip)], b[off:off+i]...)
			off += i + 1
		} else {
			i := bytes.IndexByte(b[off:end], 0)
			if i < 0 {
				return nil, false
			}
			name = b[off : off+i]
			off = start + (off-start+i+8)&^7
		}
		if string(name) > last {
			break // past every wanted path and its case variants
		}
		if !lens[len(name)] {
			continue
		}
		spelled, ok := want[strings.ToLower(string(name))]
		if !ok {
			continue
		}
		if string(name) != spelled || flags&0x3000 != 0 {
			return nil, false // another case, or a merge conflict: ask git
		}
		out[spelled] = hex.EncodeToString(id)
	}
	return out, true
}

// gitBlobID is the SHA-1 object id git gives content as a blob.
func gitBlobID(content []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(content)) + "\x00"))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// stagedProtectedFromIndex answers StagedProtected from the index file
// without running git when it can: when every protected path's index entry
// is exactly its work-tree content (or both are absent), nothing staged
// differs from what the engine reads in the work tree, so no staged change
// is reported. ok is false for anything else (globs, a difference, a
// symlink, an index this reader does not take, no index file named by
// SetIndexFile): the caller asks git.
func (r *Repo) stagedProtectedFromIndex(patterns []string) (map[string]string, bool) {
	if r.indexFile == "" || sha256Repo(r.commonDir) || !r.indexMatchesWorktree(patterns) {
		return nil, false
	}
	return map[string]string{}, true
}

func (r *Repo) indexMatchesWorktree(patterns []string) bool {
	want := map[string]string{}
	for _, p := range patterns {
		if strings.ContainsAny(p, "*?[\\") {
			return false
		}
		want[strings.ToLower(p)] = p
	}
	blobs, ok := indexBlobs(r.indexFile, want)
	if !ok {
		return false
	}
	for _, p := range want {
		abs := filepath.Join(r.root, filepath.FromSlash(p))
		st, err := os.Lstat(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if blobs[p] != "" {
				return false
			}
			continue
		case err != nil || !st.Mode().IsRegular():
			return false
		}
		content, err := os.ReadFile(abs)
		if err != nil || blobs[p] != gitBlobID(content) {
			return false
		}
	}
	return true
}
