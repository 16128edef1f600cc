package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/nearcopy"
	"github.com/sessiongate/sessiongate/internal/textfold"
)

// copyCandidates caps how many files of a folder StartCopy reads to compare
// without whitespace: a folder of session logs or QA reports holds a few
// hundred.
const copyCandidates = 1000

// copyMaxSize bounds the text compared, white space aside: a work-tree
// file holding more is too large to judge (nearcopy.ErrTooLarge), an
// earlier file larger than it is compared only by its exact bytes.
const copyMaxSize = 1 << 20

// StartCopy reports which file of commit since the work tree's file at rel
// repeats: a file there with the same bytes (anywhere in the tree), or one
// in the same folder (rel itself included) that differs only in
// whitespace, or another file of the folder it nearly copies (the same
// words once ids, dates and numbers are alike: internal/nearcopy). "" when the file is new work, or absent. A gate that asks
// the session to create or change a file does not count a copy of an
// earlier session's file, or an edit that only moved whitespace. known is
// text a file may quote without it being its writer's (the protocol):
// its lines are set aside from both texts before the near-copy test, so
// an earlier file padded with it is still a copy (nearcopy.Source). A
// file holding more than copyMaxSize bytes besides white space is not
// judged: the error wraps nearcopy.ErrTooLarge, and the caller counts it
// as no evidence.
func (r *Repo) StartCopy(ctx context.Context, since, rel string, known ...string) (string, error) {
	if since == "" || strings.HasPrefix(since, "-") {
		return "", nil
	}
	body, err := boundedread.File(filepath.Join(r.root, filepath.FromSlash(rel)), boundedread.DefaultLimit)
	if errors.Is(err, boundedread.ErrTooLarge) {
		// Not read, so not compared: no evidence, rather than new work.
		return "", fmt.Errorf("read %s: %w", rel, nearcopy.ErrTooLarge)
	}
	if err != nil {
		return "", nil // absent, or a folder: nothing to compare
	}
	out, err := run(ctx, r.root, "ls-tree", "-r", "-z", "--full-tree", since)
	if err != nil {
		return "", fmt.Errorf("list %s: %w", since, err)
	}
	dir := path.Dir(rel)
	// Compared as text: an earlier file re-encoded (UTF-16, a byte-order
	// mark) is the same words.
	dec := textfold.Decode(body)
	norm := normalizeSpace(withoutMarkdownComments(rel, dec))
	if len(dec) > copyMaxSize {
		// Padded past the cap with white space (a copy of an earlier
		// handoff and a megabyte of blank lines was never compared, round
		// 30): compared on its text with each run of white space made one.
		dec = squeezeSpace(dec)
	}
	var sameDir []string // object ids, in the order of names
	var names []string
	for _, ent := range bytes.Split(out, []byte{0}) {
		meta, name, ok := bytes.Cut(ent, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) != 3 || f[1] != "blob" {
			continue
		}
		if f[2] == blobID(body, len(f[2])) {
			return string(name), nil
		}
		if path.Dir(string(name)) == dir && len(sameDir) < copyCandidates {
			sameDir = append(sameDir, f[2])
			names = append(names, string(name))
		}
	}
	if len(norm) > copyMaxSize {
		// More text than is compared, white space aside: a file too large
		// to judge is no evidence of new work (an earlier handoff followed
		// by a megabyte of filler was, unread).
		return "", fmt.Errorf("%s holds %d bytes besides white space, over the %d compared: %w", rel, len(norm), copyMaxSize, nearcopy.ErrTooLarge)
	}
	if len(sameDir) == 0 {
		return "", nil
	}
	src := nearcopy.NewSource(strings.Join(known, "\n"))
	text := nearcopy.New(src.Strip(string(dec)))
	i, err := r.firstBlob(ctx, sameDir, func(i int, b []byte) bool {
		// Another file of the folder with ids, dates and numbers changed
		// (an earlier session's log under a new number) is a copy too;
		// rel itself only when white space alone moved (an honest edit
		// of a long file keeps most of its words).
		b = textfold.Decode(b)
		return bytes.Equal(normalizeSpace(withoutMarkdownComments(names[i], b)), norm) || names[i] != rel && text.NearCopyOf(src.Strip(string(b)))
	})
	if err != nil || i < 0 {
		return "", err
	}
	return names[i], nil
}

// blobID is git's object id of a blob with these bytes, in the hash the
// repository uses (an id of 40 hex digits: SHA-1, 64: SHA-256).
func blobID(b []byte, hexLen int) string {
	hdr := "blob " + strconv.Itoa(len(b)) + "\x00"
	if hexLen == 64 {
		h := sha256.New()
		io.WriteString(h, hdr)
		h.Write(b)
		return hex.EncodeToString(h.Sum(nil))
	}
	h := sha1.New()
	io.WriteString(h, hdr)
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

// squeezeSpace is b with each run of white space made one character: a
// newline when the run holds one (two when it holds more, so paragraphs
// stay apart), else a space. Lines and words stay as a reader sees them.
func squeezeSpace(b []byte) []byte {
	out := make([]byte, 0, min(len(b), 2*copyMaxSize))
	for len(b) > 0 {
		i := bytes.IndexFunc(b, unicode.IsSpace)
		if i < 0 {
			return append(out, b...)
		}
		out = append(out, b[:i]...)
		b = b[i:]
		j := bytes.IndexFunc(b, func(r rune) bool { return !unicode.IsSpace(r) })
		if j < 0 {
			j = len(b)
		}
		switch n := bytes.Count(b[:j], []byte{'\n'}); {
		case n > 1:
			out = append(out, '\n', '\n')
		case n == 1:
			out = append(out, '\n')
		default:
			out = append(out, ' ')
		}
		b = b[j:]
	}
	return out
}

// normalizeSpace is b with every run of white space made one space, and
// none at either end.
func normalizeSpace(b []byte) []byte { return bytes.Join(bytes.Fields(b), []byte{' '}) }

// firstBlob reads blobs with one `git cat-file --batch` and returns the
// index of the first that match accepts (-1 when none does). Blobs larger
// than copyMaxSize are skipped.
func (r *Repo) firstBlob(ctx context.Context, ids []string, match func(int, []byte) bool) (int, error) {
	cmd := gitenv.Command(ctx, r.root, nil, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(strings.Join(ids, "\n") + "\n")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return -1, err
	}
	if err := cmd.Start(); err != nil {
		return -1, fmt.Errorf("git cat-file: %w", err)
	}
	found := -1
	br := bufio.NewReader(stdout)
	for i := range ids {
		hdr, err := br.ReadString('\n')
		if err != nil {
			break
		}
		f := strings.Fields(hdr)
		if len(f) != 3 {
			continue // "<id> missing"
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			break
		}
		if n > copyMaxSize {
			if _, err := br.Discard(n + 1); err != nil {
				break
			}
			continue
		}
		b := make([]byte, n+1) // the content and its newline
		if _, err := io.ReadFull(br, b); err != nil {
			break
		}
		if found < 0 && match(i, b[:n]) {
			found = i
		}
	}
	_, _ = io.Copy(io.Discard, br)
	if err := cmd.Wait(); err != nil {
		return -1, fmt.Errorf("git cat-file: %w", err)
	}
	return found, nil
}
