package session

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/sessiongate/sessiongate/repopath"
)

// maxListed bounds the walk of a folder a requirement asks to list: past
// it the folder's files are not known, and a typed listing is not judged.
const maxListed = 2000

var errTooMany = errors.New("too many files")

// folderFiles are the regular files under folder (relative to it, any
// depth, .git left out); ok false when the folder is not inside the
// repository, is missing, or holds more than maxListed files.
func folderFiles(root, folder string) ([]string, bool) {
	abs, ok, err := repopath.Resolve(root, folder)
	if err != nil || !ok {
		return nil, false
	}
	var out []string
	err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case !d.Type().IsRegular():
			return nil
		case len(out) >= maxListed:
			return errTooMany
		}
		rel, _ := filepath.Rel(abs, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return nil, false
	}
	return out, true
}
