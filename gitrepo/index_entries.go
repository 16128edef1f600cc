package gitrepo

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// stageEntry is one index entry as `git ls-files -s` lists it.
type stageEntry struct {
	mode       uint32
	blob, path string
}

// ownIndexPath is the index file the git processes r runs read, when r
// can name it without asking git (`git rev-parse --git-path index`):
// GIT_INDEX_FILE unset or naming SetIndexFile's file.
func (r *Repo) ownIndexPath() (string, bool) {
	if !r.envIndexIsOwn() {
		return "", false
	}
	if r.indexFile != "" {
		return r.indexFile, true
	}
	return filepath.Join(r.gitDir, "index"), true
}

// indexPath is the index file's path, from git when r cannot name it.
func (r *Repo) indexPath(ctx context.Context) (string, error) {
	if p, ok := r.ownIndexPath(); ok {
		return p, nil
	}
	idx, err := run(ctx, r.root, "rev-parse", "--git-path", "index")
	if err != nil {
		return "", err
	}
	p := strings.TrimSpace(string(idx))
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.root, p)
	}
	return p, nil
}

// stageEntries lists the index's entries, read in process where
// walkIndex takes the index whole (a QA command gate ran `git ls-files
// -s` for ConvertedScripts on every call), else from git.
func (r *Repo) stageEntries(ctx context.Context) ([]stageEntry, error) {
	if p, ok := r.ownIndexPath(); ok && !r.isSHA256() {
		b, release, err := mapIndex(p)
		if os.IsNotExist(err) {
			return nil, nil // nothing tracked yet
		}
		if err == nil {
			var out []stageEntry
			ok := walkIndex(b, func(e *indexEntry) {
				out = append(out, stageEntry{mode: e.mode, blob: hex.EncodeToString(e.id), path: string(e.name)})
			})
			release()
			if ok {
				return out, nil
			}
		}
	}
	b, err := run(ctx, r.root, "ls-files", "-s", "-z")
	if err != nil {
		return nil, fmt.Errorf("list the index: %w", err)
	}
	var out []stageEntry
	for _, e := range splitZ(b) {
		// "MODE OID STAGE\tPATH"
		meta, p, ok := strings.Cut(e, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			continue
		}
		mode, err := strconv.ParseUint(f[0], 8, 32)
		if err != nil {
			continue
		}
		out = append(out, stageEntry{mode: uint32(mode), blob: f[1], path: p})
	}
	return out, nil
}
