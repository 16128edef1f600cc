package gitrepo

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
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
	var in strings.Builder
	var asked []string
	for _, p := range paths {
		// One request a line: a path with a newline cannot be asked (and
		// git could not hold it as one file name here anyway).
		if p == "" || strings.ContainsAny(p, "\n\r") {
			continue
		}
		asked = append(asked, p)
		in.WriteString(rev + ":" + p + "\n")
	}
	cmd := exec.CommandContext(ctx, "git", "cat-file", "--batch")
	cmd.Dir = r.root
	cmd.Stdin = strings.NewReader(in.String())
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
