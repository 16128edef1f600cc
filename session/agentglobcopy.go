package session

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
)

// maxGlobCopyMatches bounds the matches of one copy's source glob the
// hook looks at.
const maxGlobCopyMatches = 10000

// globCopyWrites judges a copy into a folder whose source is a glob
// (shellline.GlobCopies: `cp -r tpl/* .`): each match M lands at
// DIR/base(M), so the glob is expanded on disk, as the shell will, and
// each landing place checked; a folder copied lands with what it holds.
// As in the shell, `*` does not match a leading dot.
func (e *Engine) globCopyWrites(root string, call ToolCall, lines []string) *AgentVerdict {
	if call.Shell == shellline.PowerShell {
		return nil
	}
	var gcs []shellline.GlobCopy
	for _, l := range lines { // the line and the lines it runs (eval, sh -c)
		gcs = append(gcs, shellline.GlobCopies(l)...)
	}
	if len(gcs) == 0 {
		return nil
	}
	dir := root
	if call.Dir != "" && filepath.IsAbs(call.Dir) && len(inWorktree(root, []string{call.Dir})) > 0 {
		dir = call.Dir
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(dir, filepath.FromSlash(p))
	}
	for _, gc := range gcs {
		into := inWorktree(root, []string{abs(gc.Dir)})
		if len(into) == 0 {
			continue // lands outside the work tree
		}
		ms, err := filepath.Glob(abs(gc.Pattern))
		if err != nil {
			continue
		}
		dotted := strings.HasPrefix(filepath.Base(gc.Pattern), ".")
		for i, m := range ms {
			if i >= maxGlobCopyMatches {
				break
			}
			base := filepath.Base(m)
			if strings.HasPrefix(base, ".") && !dotted {
				continue // the shell's * skips it
			}
			dst := filepath.Join(root, filepath.FromSlash(into[0]), base)
			rel, ok := e.ProtectedRel(root, dst)
			if fi, err := os.Stat(m); !ok && err == nil && fi.IsDir() {
				if r := inWorktree(root, []string{dst}); len(r) > 0 && (e.ProtectedBelow(r[0]) || gitDirPath(root, r) != "") {
					rel, ok = r[0], true
				}
			}
			if !ok {
				if g := gitDirPath(root, inWorktree(root, []string{dst})); g != "" {
					rel, ok = g, true
				}
			}
			if ok {
				return &AgentVerdict{Deny: true, Gate: "protected files",
					Reason: fmt.Sprintf("the shell command copies %s into %s; its match %s lands on %s, which may not change during a session: it decides how the session is policed", gc.Pattern, relOr(root, filepath.Join(root, into[0])), relOr(root, m), rel),
					Next:   "copy the files you need by name, or with a glob that does not match it; a person who wants the change makes it and runs `sessiongate protocol accept`"}
			}
		}
	}
	return nil
}
