package gitrepo

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
)

// BlobsAt returns the bytes of each path as committed at rev, in one git
// process however many paths (ReadAt spawns one per file: verify's rerun
// guard reads every changed test file at both ends of a range); a path
// absent at rev, or not a file there, is left out.
func (r *Repo) BlobsAt(ctx context.Context, rev string, paths []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	var asked []string
	for _, p := range paths {
		if p != "" {
			asked = append(asked, p)
		}
	}
	if len(asked) == 0 {
		return out, nil
	}
	if rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\n:") {
		return nil, fmt.Errorf("bad revision %q", rev)
	}
	args, in := batchRequests(rev, asked)
	cmd := gitenv.Command(ctx, r.root, nil, args...)
	cmd.Stdin = strings.NewReader(in)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("read files at %.12s: %w", rev, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("read files at %.12s: %w", rev, err)
	}
	br := bufio.NewReaderSize(stdout, 1<<16)
	read := func(p string) error {
		if batchMissing(br, rev+":"+p) {
			return nil
		}
		hdr, err := br.ReadString('\n')
		if err != nil {
			return fmt.Errorf("cat-file header: %w", err)
		}
		f := strings.Fields(hdr)
		if len(f) == 2 && (f[1] == "missing" || f[1] == "ambiguous") {
			return nil
		}
		if len(f) != 3 {
			return fmt.Errorf("cat-file header %q", strings.TrimSpace(hdr))
		}
		n, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("cat-file size %q", f[2])
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(br, b); err != nil {
			return err
		}
		if _, err := br.Discard(1); err != nil { // the newline after the content
			return err
		}
		if f[1] == "blob" {
			out[p] = b
		}
		return nil
	}
	for _, p := range asked {
		if err := read(p); err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return nil, fmt.Errorf("read files at %.12s: %w", rev, err)
		}
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("read files at %.12s: git cat-file --batch: %w", rev, err)
	}
	return out, nil
}
