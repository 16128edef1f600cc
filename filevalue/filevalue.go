// Package filevalue reads the files a shell line takes its operands from
// (`X=$(cat names.txt); rm "$X"`, `read X < f`, `xargs -a f`), so that the
// line's commands can be judged with the values they will run with. It
// needs no session: the agent hook (session) judges the lines it returns
// as the line's own.
package filevalue

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/shellline"
)

// MaxFile bounds a file read for the values a line takes from it: a
// list of names.
const MaxFile = 64 << 10

// Lines returns the commands of lines whose operands come from a file
// (shellline.FileValueLines), with the file's values in their place;
// relative files are read from dir. A file is read only for a line that
// reads one, and only a regular file of at most MaxFile bytes.
func Lines(dir string, lines []string) []string {
	return In("", dir, nil, lines)
}

// blobTime bounds the git call that reads REV:PATH for a line.
const blobTime = 3 * time.Second

// In is Lines for a line run in dir of the work tree root: with root it
// also reads git's REV:PATH for `git show REV:PATH | xargs rm` (one git
// call, only for a line that pipes one on) and knows which files exist,
// and with names (the protected paths) it gives the lines of names a
// program computes that spell one of them (round 23).
func In(root, dir string, names []string, lines []string) []string {
	read := func(p string) (string, bool) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.FromSlash(p))
		}
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return "", false
		}
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxFile {
			unread(p, fi, err)
			return "", false
		}
		b, err := boundedread.File(p, boundedread.DefaultLimit)
		if err != nil {
			unread(p, fi, err)
		}
		return string(b), err == nil
	}
	src := shellline.Sources{Read: read, Names: names}
	if root != "" {
		src.Blob = func(spec string) (string, bool) {
			ctx, cancel := context.WithTimeout(context.Background(), blobTime)
			defer cancel()
			out, err := gitenv.Command(ctx, root, nil, "cat-file", "blob", spec).Output()
			if err != nil || len(out) > MaxFile {
				return "", false
			}
			return string(out), true
		}
		src.Exists = func(rel string) bool {
			_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
			return err == nil
		}
	}
	var inner []string
	for _, l := range lines {
		inner = append(inner, shellline.FileValueLinesFrom(l, src)...)
	}
	return inner
}

// unread logs a file a line takes its values from that is there but was
// not read (a folder, a link loop, over MaxFile): the line's commands are
// then judged without the file's values, and the log says so rather than
// the skip passing unseen. The protected files a line could reach this
// way are still caught at every gate (PROTECTED_CHANGE).
func unread(p string, fi fs.FileInfo, err error) {
	why := ""
	switch {
	case err != nil:
		why = err.Error()
	case !fi.Mode().IsRegular():
		why = "not a regular file (" + fi.Mode().Type().String() + ")"
	default:
		why = fmt.Sprintf("%d bytes, over the %d read for a line's values", fi.Size(), MaxFile)
	}
	slog.Warn("a file a shell line takes its values from was not read: the line is judged without them", "path", p, "why", why)
}
