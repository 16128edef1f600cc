package session

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"

	"github.com/sessiongate/sessiongate/shellline"
)

// maxValueFile bounds a file the hook reads for the values a line takes
// from it (`X=$(cat f)`, `read X < f`, `xargs -a f`): a list of names.
const maxValueFile = 64 << 10

// blobTime bounds the git call that reads REV:PATH for a line.
const blobTime = 3 * time.Second

// fileValueWrites judges the commands of a line whose written operands it
// reads from a file (round 21, shellline.FileValueLines) as the line's
// own: `X=$(cat names.txt); rm "$X"` is judged as `rm SESSION-PROTOCOL.md`
// when that is what names.txt holds. No git call and no spawn; a file is
// read only for a line that reads one.
func (e *Engine) fileValueWrites(root string, call ToolCall, lines []string) *AgentVerdict {
	if call.Shell == shellline.PowerShell {
		return nil
	}
	dir := root
	if call.Dir != "" && filepath.IsAbs(call.Dir) && len(inWorktree(root, []string{call.Dir})) > 0 {
		dir = call.Dir
	}
	read := func(p string) (string, bool) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.FromSlash(p))
		}
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxValueFile {
			return "", false
		}
		b, err := os.ReadFile(p)
		return string(b), err == nil
	}
	// blob reads git's REV:PATH for `git show REV:PATH | xargs rm`
	// (round 23): one git call, only for a line that pipes one on.
	blob := func(spec string) (string, bool) {
		ctx, cancel := context.WithTimeout(context.Background(), blobTime)
		defer cancel()
		out, err := gitenv.Command(ctx, root, nil, "cat-file", "blob", spec).Output()
		if err != nil || len(out) > maxValueFile {
			return "", false
		}
		return string(out), true
	}
	src := shellline.Sources{Read: read, Blob: blob, Names: ProtectedPaths(e.Config, "")}
	var inner []string
	for _, l := range lines {
		inner = append(inner, shellline.FileValueLinesFrom(l, src)...)
	}
	if len(inner) == 0 {
		return nil
	}
	return e.innerWrites(root, call, inner)
}
