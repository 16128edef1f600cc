package writereach

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"compress/bzip2"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/shellline"
)

// Bounds on what the hook reads of an archive or a patch: it runs once
// per tool call.
const (
	maxMembers    = 20000
	maxPatchBytes = 8 << 20
)

// Members lists the absolute paths an archive extraction or a patch
// (shellline.Unpacks) writes, read from the file on disk: a tar's (plain
// or gzip) or zip's member names under the extraction folder, a patch's
// file names. dir is the folder the line runs in. unknown: the members
// cannot be read (an archive the line makes, one from standard input,
// another compression, a file that is not there): any name.
func Members(dir string, u shellline.Unpack) (paths []string, unknown bool) {
	abs := func(p string) string {
		if p == "" {
			return dir
		}
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(dir, filepath.FromSlash(p))
	}
	dest := abs(u.Dest)
	var names []string
	switch u.Kind {
	case "patch":
		text := u.Text
		if u.File != "" {
			b, err := readHead(abs(u.File), maxPatchBytes)
			if err != nil {
				return nil, false // no patch file: git apply fails, writes nothing
			}
			text = string(b)
		}
		names = shellline.PatchPaths(text, u.Strip)
	case "tar", "zip":
		if u.Made || u.File == "" || u.Renamed {
			return nil, true
		}
		if _, err := os.Stat(abs(u.File)); err != nil {
			return nil, false // not there and not made by the line: tar fails, writes nothing
		}
	}
	switch u.Kind {
	case "tar":
		ns, ok := tarNames(abs(u.File))
		if !ok {
			return nil, true
		}
		names = stripParts(ns, u.Strip)
	case "zip":
		if u.Made {
			return nil, true
		}
		zr, err := zip.OpenReader(abs(u.File))
		if err != nil {
			return nil, true
		}
		defer zr.Close()
		for i, f := range zr.File {
			if i >= maxMembers {
				return nil, true
			}
			if !f.FileInfo().IsDir() { // a folder entry overwrites nothing
				names = append(names, f.Name)
			}
		}
	case "patch":
	default:
		return nil, false
	}
	for _, n := range names {
		paths = append(paths, filepath.Join(dest, filepath.FromSlash(n)))
	}
	return paths, false
}

// tarNames lists a tar archive's member names, plain or gzip-compressed.
func tarNames(p string) ([]string, bool) {
	f, err := boundedread.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	magic, _ := br.Peek(3)
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, false
		}
		defer zr.Close()
		r = zr
	case string(magic) == "BZh":
		r = bzip2.NewReader(br) // round 19: bzip2 is in the standard library
	}
	// xz, zstd, lz4 ... are no tar to tar.NewReader: unknown members.
	tr := tar.NewReader(r)
	var out []string
	for len(out) < maxMembers {
		h, err := tr.Next()
		if err == io.EOF {
			return out, true
		}
		if err != nil {
			return nil, false
		}
		if h.Typeflag != tar.TypeDir { // a folder entry overwrites nothing
			out = append(out, h.Name)
		}
	}
	return nil, false
}

// stripParts drops n leading parts of each member name, as tar's
// --strip-components does (a name with no more parts is not extracted).
func stripParts(names []string, n int) []string {
	if n <= 0 {
		return names
	}
	var out []string
	for _, nm := range names {
		parts := strings.Split(strings.TrimPrefix(nm, "./"), "/")
		if len(parts) > n {
			out = append(out, strings.Join(parts[n:], "/"))
		}
	}
	return out
}

// readHead reads at most n bytes of a file.
func readHead(p string, n int64) ([]byte, error) {
	f, err := boundedread.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}
