package gitrepo

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"io"
	"path/filepath"
	"strconv"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/session"
)

// maxLooseCommit bounds what ReadLooseCommit inflates: a commit's header
// (tree, parents, author, committer) is small; a huge message is not read.
const maxLooseCommit = 64 << 10

// ReadLooseCommit reads a commit stored as a loose object under commonDir
// (a commit git just made always is): its tree, parents and committer time,
// without starting git. ok is false for anything else (a packed object, a
// SHA-256 repository, a damaged file): the caller asks git.
func ReadLooseCommit(commonDir, sha string) (c session.LandedCommit, parents []string, ok bool) {
	c, parents, _, ok = readLoose(commonDir, sha)
	return c, parents, ok
}

// ReadLooseAuthor is the author of a loose commit as `git log -1
// --format='%an <%ae>'` prints it, without starting git; ok is false where
// ReadLooseCommit's is, and for a commit that names its own encoding (git
// log would convert the name).
func ReadLooseAuthor(commonDir, sha string) (author string, ok bool) {
	_, _, author, ok = readLoose(commonDir, sha)
	return author, ok && author != ""
}

func readLoose(commonDir, sha string) (c session.LandedCommit, parents []string, author string, ok bool) {
	if len(sha) != 40 || !isHexID(sha) {
		return c, nil, "", false
	}
	f, err := boundedread.Open(filepath.Join(commonDir, "objects", sha[:2], sha[2:]))
	if err != nil {
		return c, nil, "", false
	}
	defer f.Close()
	zr, err := zlib.NewReader(bufio.NewReaderSize(f, 4096))
	if err != nil {
		return c, nil, "", false
	}
	defer zr.Close()
	b, err := io.ReadAll(io.LimitReader(zr, maxLooseCommit))
	if err != nil && len(b) < maxLooseCommit {
		return c, nil, "", false
	}
	hdr, body, found := bytes.Cut(b, []byte{0})
	if !found || !bytes.HasPrefix(hdr, []byte("commit ")) {
		return c, nil, "", false
	}
	c.SHA = sha
	encoded := false
	for len(body) > 0 {
		line, rest, _ := bytes.Cut(body, []byte{'\n'})
		body = rest
		if len(line) == 0 {
			break // end of the header
		}
		key, val, _ := bytes.Cut(line, []byte{' '})
		switch string(key) {
		case "tree":
			c.Tree = string(val)
		case "author":
			// "Name <email> 1795467558 +0000": git's %an is the name before
			// the first '<' without trailing spaces, %ae up to the next '>'
			// (split_ident_line).
			if lt := bytes.IndexByte(val, '<'); lt >= 0 {
				if gt := bytes.IndexByte(val[lt:], '>'); gt > 0 {
					author = string(bytes.TrimRight(val[:lt], " \t\n\v\f\r")) + " <" + string(val[lt+1:lt+gt]) + ">"
				}
			}
		case "encoding":
			encoded = true
		case "parent":
			parents = append(parents, string(val))
		case "committer":
			// "Name <email> 1795467558 +0000"
			f := bytes.Fields(val[bytes.LastIndexByte(val, '>')+1:])
			if len(f) != 2 {
				return c, nil, "", false
			}
			t, err := strconv.ParseInt(string(f[0]), 10, 64)
			if err != nil {
				return c, nil, "", false
			}
			c.CommitTime = time.Unix(t, 0)
		}
	}
	if len(c.Tree) != 40 || !isHexID(c.Tree) || c.CommitTime.IsZero() {
		return c, nil, "", false
	}
	for _, p := range parents {
		if len(p) != 40 || !isHexID(p) {
			return c, nil, "", false
		}
	}
	c.Parents = len(parents)
	if encoded {
		author = ""
	}
	return c, parents, author, true
}
