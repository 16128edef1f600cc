// Package filevalue reads the files a shell line takes its operands from
// (`X=$(cat names.txt); rm "$X"`, `read X < f`, `xargs -a f`), so that the
// line's commands can be judged with the values they will run with. It
// needs no session: the agent hook (session) judges the lines it returns
// as the line's own.
package filevalue

import (
	"os"
	"path/filepath"

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
	read := func(p string) (string, bool) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.FromSlash(p))
		}
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxFile {
			return "", false
		}
		b, err := os.ReadFile(p)
		return string(b), err == nil
	}
	var inner []string
	for _, l := range lines {
		inner = append(inner, shellline.FileValueLines(l, read)...)
	}
	return inner
}
