package testrun

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
)

// RunFolder is a test run's folder (shellline.TestRun.Dir or
// ScriptTarget.Dir) relative to the repository's root, "" the root; false
// when it is unknown (shellline.UnknownDir: `cd $X`, eval) or outside the
// repository. An absolute folder under root is taken relative to it.
func RunFolder(root, d string) (string, bool) {
	if d == shellline.UnknownDir {
		return "", false
	}
	if path.IsAbs(d) || filepath.IsAbs(d) {
		rel, err := filepath.Rel(root, filepath.FromSlash(d))
		if err != nil {
			return "", false
		}
		d = filepath.ToSlash(rel)
	}
	if d = path.Clean(d); d == "." {
		d = ""
	}
	if d == ".." || strings.HasPrefix(d, "../") {
		return "", false
	}
	return d, true
}
