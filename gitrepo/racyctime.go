package gitrepo

import (
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"time"
)

// Git keeps an entry's ctime to the second and reads a file's content only
// when its stat data differs from the entry, or when the entry is racy by
// mtime (not older than the index file). A rewrite in place at the same
// size, with its mtime set back (`touch -d @$m`), in the second of the
// `git update-index --refresh` that recorded the entry keeps every field
// git compares: status reads it clean though its content changed (issue
// 25, "same second"). Git's racy rule does not catch it, the mtime being
// old. The entry's ctime does, in part: it falls in the second the index
// was written, until git writes the index again (`git add`, a commit),
// after which nothing in the index tells the entry from any other. What
// stays true is that the hidden rewrite happened during the session, so
// its entry's ctime is not older than the session's start: StatusSince
// compares by content the entries whose ctime is, the files the session
// touched (a few outside a checkout of the whole tree).

// racyEntry is an index entry whose stat data cannot tell a change made
// in the second the index was written.
type racyEntry struct{ path, blob string }

// racyEntries lists the index's regular-file entries whose ctime second
// is not older than since's or the index file's, whichever is first (and
// whose mtime is older than the index, or git reads them itself). ok is false, and the caller
// compares every file by content, for an index this reader does not take
// (indexFlagged's rules: another index named in the environment, SHA-256,
// split or sparse).
func (r *Repo) racyEntries(since time.Time) ([]racyEntry, bool) {
	if !r.envIndexIsOwn() || r.isSHA256() {
		return nil, false
	}
	path := r.indexFile
	if path == "" {
		path = filepath.Join(r.gitDir, "index")
	}
	st, err := os.Stat(path)
	if os.IsNotExist(err) {
		return nil, true // nothing tracked
	}
	if err != nil {
		return nil, false
	}
	b, release, err := mapIndex(path)
	if err != nil {
		return nil, false
	}
	defer release()
	idx := uint32(st.ModTime().Unix())
	from := idx
	if !since.IsZero() && since.Unix() < int64(idx) {
		from = uint32(max(since.Unix(), 0))
	}
	return parseRacyEntries(b, idx, from)
}

// parseRacyEntries is racyEntries on an index's bytes (SHA-1 ids) written
// in the second indexSec: the entries whose ctime second is from or later.
func parseRacyEntries(b []byte, indexSec, from uint32) ([]racyEntry, bool) {
	var out []racyEntry
	ok := walkIndex(b, func(e *indexEntry) {
		// Regular files at stage 0 git compares: links and submodules
		// change their stat data when rewritten, a conflict is in status
		// already, and flagged entries are HiddenFiles'.
		if e.mode&0o170000 != 0o100000 || e.flags&0x3000 != 0 || e.flags&ceValid != 0 || e.ext&ceSkipWorktree != 0 {
			return
		}
		// git reads an entry whose mtime is this recent itself (racy git).
		if e.ctime >= from && e.mtime < indexSec {
			out = append(out, racyEntry{path: string(e.name), blob: hex.EncodeToString(e.id)})
		}
	})
	if !ok {
		return nil, false
	}
	return out, true
}

// racyChanged lists the tracked files whose content differs from their
// index entry while their stat data cannot say so: the racy entries,
// hashed as a commit would (clean filters and conversions applied), or,
// for an index racyEntries does not read, every tracked file
// (StatHiddenFiles).
func (r *Repo) racyChanged(ctx context.Context, since time.Time) ([]string, error) {
	return r.racyCompare(ctx, since, true)
}

// racyCompare is racyChanged; without full, an index racyEntries does not
// read compares nothing (the hook path stays short: the end compares every
// file, StatHiddenFiles).
func (r *Repo) racyCompare(ctx context.Context, since time.Time, full bool) ([]string, error) {
	racy, ok := r.racyEntries(since)
	if !ok {
		if !full {
			return nil, nil
		}
		return r.StatHiddenFiles(ctx)
	}
	var paths, blobs []string
	for _, e := range racy {
		if fi, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(e.path))); err != nil || !fi.Mode().IsRegular() {
			continue // deleted or replaced: status lists it
		}
		paths, blobs = append(paths, e.path), append(blobs, e.blob)
	}
	if len(paths) == 0 {
		return nil, nil
	}
	ids, err := r.hashObjects(ctx, paths, false)
	if err != nil {
		return nil, err
	}
	var out []string
	for i, id := range ids {
		if id != blobs[i] {
			out = append(out, paths[i])
		}
	}
	return out, nil
}
