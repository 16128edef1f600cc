package scriptrun

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// MaxRead bounds what is read of one script: a hook answers each tool
// call, and a script longer than this is judged on its first MaxRead bytes
// (File.Truncated says so).
const MaxRead = 128 << 10

// File is a script as read at the hook.
type File struct {
	Rel       string // the path shown in messages: repository-relative, or as named
	Abs       string
	Lang      Lang
	Text      string
	SHA256    string // of the bytes read
	Truncated bool
	// InRepo is true for a file inside the repository (false: a temp folder).
	InRepo bool
}

// ErrNotThere is a script inside the repository or a temp folder that does
// not exist when the line is judged: the line (or a script before it)
// writes it first, so it cannot be read.
var ErrNotThere = errors.New("does not exist yet")

// ErrBinary is a program file that is no script (a compiled binary).
var ErrBinary = errors.New("is a binary")

// ErrNotText is a file with NUL bytes that is no compiled program: bash
// runs a script with a NUL past its first line, node and perl one in a
// comment, python3 a .pyc; none of them can be read as text.
var ErrNotText = errors.New("is not text (it holds NUL bytes)")

// executable reports whether b starts with a compiled program's magic
// (ELF, Mach-O, a fat Mach-O, PE), or is a SQLite database: data no
// interpreter runs, which a line that queries it (python3 -c "...
// sqlite3.connect('x.db')") names beside the code.
func executable(b []byte) bool {
	for _, m := range []string{"\x7fELF", "\xfe\xed\xfa\xce", "\xfe\xed\xfa\xcf", "\xce\xfa\xed\xfe", "\xcf\xfa\xed\xfe", "\xca\xfe\xba\xbe", "MZ", "SQLite format 3\x00"} {
		if bytes.HasPrefix(b, []byte(m)) {
			return true
		}
	}
	return false
}

// Places are the folders whose scripts are read: the repository and the
// temp folders. A script elsewhere (/usr/bin, ~/.local/bin) is an
// installed tool, not the agent's writing.
type Places struct {
	Root string
	Temp []string
}

// DefaultTemp are the temp folders scripts are read from: $TMPDIR, /tmp,
// /var/tmp, /dev/shm.
func DefaultTemp() []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range []string{os.TempDir(), "/tmp", "/var/tmp", "/dev/shm"} {
		if d == "" || seen[d] {
			continue
		}
		seen[d] = true
		out = append(out, d)
		if r, err := filepath.EvalSymlinks(d); err == nil && !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

// where returns the path shown for abs and whether it is one of the
// places (in the repository: inRepo).
func (pl Places) where(abs string) (rel string, inRepo, ok bool) {
	if r, err := filepath.Rel(pl.Root, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r), true, true
	}
	for _, t := range pl.Temp {
		if r, err := filepath.Rel(t, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return abs, false, true
		}
	}
	return "", false, false
}

// Read reads the script p (relative to dir, the folder the line runs in)
// when it lies in one of the places, links followed. ok is false for a
// file elsewhere (not read, no error). A missing file in a place is
// ErrNotThere; a binary is ErrBinary.
func (pl Places) Read(dir, p string) (f *File, ok bool, err error) {
	if strings.HasPrefix(p, "~/") {
		return nil, false, nil // the home folder: not a place (its tools are the user's)
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, p)
	}
	abs = filepath.Clean(abs)
	rel, inRepo, in := pl.where(abs)
	if !in {
		return nil, false, nil
	}
	real, err := filepath.EvalSymlinks(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, true, fmt.Errorf("%s %w", rel, ErrNotThere)
	case err != nil:
		return nil, true, fmt.Errorf("resolve %s: %w", rel, err)
	}
	// A link is followed to what runs, wherever it points. O_NONBLOCK: a
	// FIFO there is refused below, not waited on (round 28, c1).
	fh, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, true, fmt.Errorf("open %s: %w", rel, err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, true, fmt.Errorf("stat %s: %w", rel, err)
	}
	if !st.Mode().IsRegular() {
		return nil, false, nil // a folder, a fifo: nothing to read
	}
	b, err := io.ReadAll(io.LimitReader(fh, MaxRead+1))
	if err != nil {
		return nil, true, fmt.Errorf("read %s: %w", rel, err)
	}
	f = &File{Rel: rel, Abs: abs, InRepo: inRepo}
	if len(b) > MaxRead {
		b, f.Truncated = b[:MaxRead], true
	}
	// Only a compiled program is skipped: a NUL anywhere in another file
	// once made it "binary" and unread, though bash, node and perl run it.
	if executable(b) {
		return nil, true, fmt.Errorf("%s %w", rel, ErrBinary)
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return nil, true, fmt.Errorf("%s %w", rel, ErrNotText)
	}
	sum := sha256.Sum256(b)
	f.SHA256 = hex.EncodeToString(sum[:])
	f.Text = string(b)
	f.Lang = LangOf(rel, b)
	return f, true, nil
}
