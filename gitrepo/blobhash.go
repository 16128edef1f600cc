package gitrepo

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
)

// SHA256sAt returns the hex sha256 of the bytes of each path as committed
// at rev, in one git process however many paths; a path that is absent at
// rev (or is not a file there) is left out. The bytes are hashed as they
// stream, never held: evidence files may be large.
func (r *Repo) SHA256sAt(ctx context.Context, rev string, paths []string) (map[string]string, error) {
	out := map[string]string{}
	if len(paths) == 0 {
		return out, nil
	}
	if strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\n:") {
		return nil, fmt.Errorf("bad revision %q", rev)
	}
	var asked []string
	for _, p := range paths {
		if p != "" {
			asked = append(asked, p)
		}
	}
	args, in := batchRequests(rev, asked)
	cmd := gitenv.Command(ctx, r.root, nil, args...)
	cmd.Stdin = strings.NewReader(in)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("hash files at %.12s: %w", rev, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("hash files at %.12s: %w", rev, err)
	}
	br := bufio.NewReaderSize(stdout, 1<<16)
	var readErr error
	for _, p := range asked {
		if batchMissing(br, rev+":"+p) {
			continue
		}
		hdr, err := br.ReadString('\n')
		if err != nil {
			readErr = fmt.Errorf("hash files at %.12s: cat-file header: %w", rev, err)
			break
		}
		f := strings.Fields(hdr)
		if len(f) == 2 && (f[1] == "missing" || f[1] == "ambiguous") {
			continue
		}
		if len(f) != 3 {
			readErr = fmt.Errorf("hash files at %.12s: cat-file header %q", rev, strings.TrimSpace(hdr))
			break
		}
		n, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			readErr = fmt.Errorf("hash files at %.12s: cat-file size %q", rev, f[2])
			break
		}
		h := sha256.New()
		if _, err := io.CopyN(h, br, n); err != nil {
			readErr = fmt.Errorf("hash files at %.12s: %w", rev, err)
			break
		}
		if _, err := br.Discard(1); err != nil { // the newline after the content
			readErr = fmt.Errorf("hash files at %.12s: %w", rev, err)
			break
		}
		if f[1] == "blob" {
			out[p] = hex.EncodeToString(h.Sum(nil))
		}
	}
	if readErr != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, readErr
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("hash files at %.12s: git cat-file --batch: %w", rev, err)
	}
	return out, nil
}

// batchRequests is the `git cat-file --batch` command line and input that
// ask for rev:p of each path: a line each, or, when a path holds a line
// break (git takes one as a file name), NUL-separated (-z, git 2.38+).
func batchRequests(rev string, paths []string) (args []string, in string) {
	sep, args := "\n", []string{"cat-file", "--batch"}
	if slices.ContainsFunc(paths, func(p string) bool { return strings.ContainsAny(p, "\n\r") }) {
		sep, args = "\x00", append(args, "-z")
	}
	var b strings.Builder
	for _, p := range paths {
		b.WriteString(rev + ":" + p + sep)
	}
	return args, b.String()
}

// batchMissing consumes cat-file's "<spec> missing" (or ambiguous) answer
// for spec when that is what comes next: the answer echoes the name, which
// may hold a newline, so it is matched whole rather than read as a line.
func batchMissing(br *bufio.Reader, spec string) bool {
	for _, tail := range []string{" missing\n", " ambiguous\n"} {
		if b, err := br.Peek(len(spec) + len(tail)); err == nil && string(b) == spec+tail {
			_, _ = br.Discard(len(b))
			return true
		}
	}
	return false
}
