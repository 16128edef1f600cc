package gitrepo

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// indexBlobs returns the blob ids the index at path records for the
// wanted paths (want maps each lower-cased path to its spelling; absent
// paths are missing from the result). ok is false, and the caller asks
// git, for anything but a plain SHA-1 index of versions 2-4, for a
// conflicted entry of a wanted path, and for a wanted path present in
// another case. Entries under one of prefixes (lower-case folder paths
// ending in "/", compared without case) are returned in under, by their
// spelling; a conflicted one makes ok false too.
func indexBlobs(path string, want map[string]string, prefixes ...string) (out, under map[string]string, ok bool) {
	b, release, err := mapIndex(path)
	if err != nil {
		return nil, nil, false
	}
	defer release()
	if len(b) < 12+20 || string(b[:4]) != "DIRC" {
		return nil, nil, false
	}
	version := binary.BigEndian.Uint32(b[4:])
	n := binary.BigEndian.Uint32(b[8:])
	if version < 2 || version > 4 {
		return nil, nil, false
	}
	const hashLen = 20
	end := len(b) - hashLen
	off := 12
	out, under = map[string]string{}, map[string]string{}
	lens := map[int]bool{}
	last := "" // the greatest wanted path: entries are sorted by path, and
	// every case variant of a path sorts at or before its lower-case form
	for k := range want {
		lens[len(k)] = true
		last = max(last, k)
	}
	for _, p := range prefixes {
		last = max(last, p+"\xff") // every case variant sorts at or before it
	}
	var name []byte // the entry's path; version 4 edits it in place
	for range n {
		start := off
		if off+62 > end {
			return nil, nil, false
		}
		id := b[off+40 : off+40+hashLen]
		flags := binary.BigEndian.Uint16(b[off+60:])
		off += 62
		if flags&0x4000 != 0 {
			if version < 3 || off+2 > end {
				return nil, nil, false
			}
			off += 2
		}
		if version == 4 {
			strip, k := gitVarint(b[off:min(off+10, end)])
			if k == 0 || int(strip) > len(name) {
				return nil, nil, false
			}
			off += k
			i := bytes.IndexByte(b[off:end], 0)
			if i < 0 {
				return nil, nil, false
			}
			name = append(name[:len(name)-int(strip)], b[off:off+i]...)
			off += i + 1
		} else {
			i := bytes.IndexByte(b[off:end], 0)
			if i < 0 {
				return nil, nil, false
			}
			name = b[off : off+i]
			off = start + (off-start+i+8)&^7
		}
		if binary.BigEndian.Uint32(b[start+24:])&0o170000 == 0o040000 {
			return nil, nil, false // a sparse index's folder entry stands for files: ask git
		}
		if string(name) > last {
			break // past every wanted path and its case variants
		}
		if len(prefixes) > 0 {
			lower := strings.ToLower(string(name))
			for _, p := range prefixes {
				if strings.HasPrefix(lower, p) {
					if flags&0x3000 != 0 {
						return nil, nil, false // a merge conflict: ask git
					}
					under[string(name)] = hex.EncodeToString(id)
					break
				}
			}
		}
		if !lens[len(name)] {
			continue
		}
		spelled, ok := want[strings.ToLower(string(name))]
		if !ok {
			continue
		}
		if string(name) != spelled || flags&0x3000 != 0 {
			return nil, nil, false // another case, or a merge conflict: ask git
		}
		out[spelled] = hex.EncodeToString(id)
	}
	return out, under, true
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
//
// Without SetIndexFile (the MCP server, serve) the index is the one git
// reads when GIT_INDEX_FILE is unset (ownIndexPath), and only one
// indexFlagged takes whole: a split index keeps entries in another file
// and a sparse one stands folders for files, so neither is answered here.
func (r *Repo) stagedProtectedFromIndex(ctx context.Context, patterns []string) (map[string]string, bool) {
	path := r.indexFile
	if path == "" {
		own, ok := r.ownIndexPath()
		if !ok || r.isSHA256() {
			return nil, false
		}
		if _, whole := r.indexFlagged(ctx); !whole {
			return nil, false
		}
		path = own
	} else if sha256Repo(r.commonDir) {
		return nil, false
	}
	if !r.indexMatchesWorktree(path, patterns) {
		return nil, false
	}
	return map[string]string{}, true
}

func (r *Repo) indexMatchesWorktree(index string, patterns []string) bool {
	want := map[string]string{}
	var prefixes []string
	for _, p := range patterns {
		if !strings.ContainsAny(p, "*?[\\") {
			want[strings.ToLower(p)] = p
			continue
		}
		// A glob: every file the index or the work tree has under its
		// literal folder (".github/hooks/" for ".github/hooks/*.json")
		// must be in both with the same content. A glob with no folder
		// before its first wildcard would be the whole tree: ask git.
		lit := p[:strings.IndexAny(p, "*?[\\")]
		slash := strings.LastIndexByte(lit, '/')
		if slash < 0 {
			return false
		}
		prefixes = append(prefixes, strings.ToLower(lit[:slash+1]))
	}
	blobs, under, ok := indexBlobs(index, want, prefixes...)
	if !ok {
		return false
	}
	for _, p := range want {
		if !sameAsWorktree(r.root, p, blobs[p]) {
			return false
		}
	}
	for _, prefix := range prefixes {
		files, ok := filesUnder(r.root, prefix)
		if !ok {
			return false
		}
		n := 0
		for name, blob := range under {
			if !strings.HasPrefix(strings.ToLower(name), prefix) {
				continue
			}
			n++
			if !files[name] || !sameAsWorktree(r.root, name, blob) {
				return false
			}
		}
		if n != len(files) {
			return false // a work-tree file the index does not have
		}
	}
	return true
}

// sameAsWorktree reports whether the work tree's file rel is the blob
// ("" = absent) and a regular file.
func sameAsWorktree(root, rel, blob string) bool {
	abs := filepath.Join(root, filepath.FromSlash(rel))
	st, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return blob == ""
	case err != nil || !st.Mode().IsRegular():
		return false
	}
	content, err := boundedread.File(abs, boundedread.LargeLimit)
	return err == nil && blob == gitBlobID(content)
}

// filesUnder lists the files below the folder prefix (slash-terminated,
// lower-case) of the work tree, by their repository paths; ok is false for
// anything but plain folders and regular files, for a folder spelled in
// another case, and past 1,000 entries (git answers then).
func filesUnder(root, prefix string) (map[string]bool, bool) {
	files := map[string]bool{}
	dir := filepath.Join(root, filepath.FromSlash(strings.TrimSuffix(prefix, "/")))
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return files, true
	}
	if err != nil || !st.IsDir() {
		return nil, false
	}
	n := 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n++; n > 1000 {
			return errors.New("too many entries")
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			return errors.New("not a regular file")
		case !strings.HasPrefix(rel, prefix):
			return errors.New("another case")
		}
		files[rel] = true
		return nil
	})
	return files, err == nil
}
