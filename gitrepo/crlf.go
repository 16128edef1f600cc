package gitrepo

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// maxScriptScan: larger scripts are not read for CRLF line ends.
const maxScriptScan = 1 << 20

// ConvertedScripts lists the tracked shell scripts (*.sh, *.bash) whose
// work-tree bytes hold CRLF line ends that git converts away on the way
// into a commit (core.autocrlf, an eol or text attribute), so status reads
// them clean while they differ from the commit. bash runs each such line
// with a trailing CR: `set -e` fails and the script goes on, every check
// after it too, and the script exits 0. The lazy agent's `git config
// core.autocrlf true`, then a fresh checkout of scripts/test.sh, made
// `npm test` (bash scripts/test.sh) pass a broken change. A script
// committed with CRLF is what the commit holds and is not listed.
func (r *Repo) ConvertedScripts(ctx context.Context) ([]string, error) {
	b, err := run(ctx, r.root, "ls-files", "-s", "-z", "--", "*.sh", "*.bash")
	if err != nil {
		return nil, fmt.Errorf("list tracked shell scripts: %w", err)
	}
	var paths, blobs []string
	for _, e := range splitZ(b) {
		// "MODE OID STAGE\tPATH"
		meta, p, ok := strings.Cut(e, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[0] == "160000" || f[0] == "120000" {
			continue
		}
		abs := filepath.Join(r.root, filepath.FromSlash(p))
		fi, err := os.Lstat(abs)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxScriptScan {
			continue
		}
		body, err := os.ReadFile(abs)
		if err != nil || !bytes.Contains(body, []byte("\r\n")) {
			continue
		}
		paths, blobs = append(paths, p), append(blobs, f[1])
	}
	if len(paths) == 0 {
		return nil, nil
	}
	raw, err := r.hashObjects(ctx, paths, true)
	if err != nil {
		return nil, err
	}
	var out []string
	for i, p := range paths {
		if raw[i] != blobs[i] {
			out = append(out, p)
		}
	}
	return out, nil
}
