package recordref

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
)

// Result is one session's record as ReadMany found it.
type Result struct {
	Body []byte
	Path string
	Err  error // ErrNoRecord, ErrNotARecord, ErrTooLarge, or a read error
}

// ReadMany reads the records of many sessions at a records commit with two
// git processes in all (one tree listing, one cat-file --batch), not two
// per session: verify reads every session behind a range this way.
func ReadMany(ctx context.Context, dir, commit string, ids []string) (map[string]Result, error) {
	out := make(map[string]Result, len(ids))
	want := map[string]string{} // path -> id
	for _, id := range ids {
		p, err := Path(id)
		if err != nil {
			out[id] = Result{Err: err}
			continue
		}
		want[p] = id
		out[id] = Result{Path: p, Err: ErrNoRecord}
	}
	if len(want) == 0 {
		return out, nil
	}
	// The whole sessions/ tree in one listing: cheaper than naming
	// thousands of paths on a command line.
	ls, err := git(ctx, dir, nil, nil, "ls-tree", "-r", "-t", "-l", "-z", commit, "--", "sessions/")
	if err != nil {
		return nil, fmt.Errorf("list the records at %.12s: %w", commit, err)
	}
	var blobs []string
	blobID := map[string]string{} // blob -> path (the first; equal records share a blob)
	byBlob := map[string][]string{}
	for _, line := range strings.Split(ls, "\x00") {
		meta, p, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		id, ok := want[p]
		if !ok {
			continue
		}
		f := strings.Fields(meta)
		if len(f) != 4 || f[1] != "blob" || f[0] != "100644" {
			out[id] = Result{Path: p, Err: fmt.Errorf("%s: %w (mode %s)", p, ErrNotARecord, strings.Join(f, " "))}
			continue
		}
		size, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil {
			out[id] = Result{Path: p, Err: fmt.Errorf("%s: size %q: %w", p, f[3], err)}
			continue
		}
		if size > MaxRecordBytes {
			out[id] = Result{Path: p, Err: fmt.Errorf("%s is %d bytes, over the %d-byte limit: %w", p, size, MaxRecordBytes, ErrTooLarge)}
			continue
		}
		if _, seen := blobID[f[2]]; !seen {
			blobID[f[2]] = p
			blobs = append(blobs, f[2])
		}
		byBlob[f[2]] = append(byBlob[f[2]], id)
	}
	if len(blobs) == 0 {
		return out, nil
	}
	bodies, err := catBatch(ctx, dir, blobs)
	if err != nil {
		return nil, err
	}
	for blob, ids := range byBlob {
		for _, id := range ids {
			r := out[id]
			r.Body, r.Err = bodies[blob], nil
			if r.Body == nil {
				r.Err = fmt.Errorf("read %s: blob %s missing", r.Path, blob)
			}
			out[id] = r
		}
	}
	return out, nil
}

// catBatch reads blobs through one `git cat-file --batch`.
func catBatch(ctx context.Context, dir string, blobs []string) (map[string][]byte, error) {
	cmd := gitenv.Command(ctx, dir, nil, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(strings.Join(blobs, "\n") + "\n")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("read records: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("read records: %w", err)
	}
	out := make(map[string][]byte, len(blobs))
	r := bufio.NewReaderSize(stdout, 1<<16)
	var readErr error
	for range blobs {
		hdr, err := r.ReadString('\n')
		if err != nil {
			readErr = fmt.Errorf("read records: cat-file header: %w", err)
			break
		}
		f := strings.Fields(hdr)
		if len(f) == 2 && f[1] == "missing" {
			continue
		}
		if len(f) != 3 {
			readErr = fmt.Errorf("read records: cat-file header %q", hdr)
			break
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || n > MaxRecordBytes {
			readErr = fmt.Errorf("read records: cat-file size %q", f[2])
			break
		}
		body := make([]byte, n+1) // the content and its newline
		if _, err := io.ReadFull(r, body); err != nil {
			readErr = fmt.Errorf("read records: %w", err)
			break
		}
		out[f[0]] = body[:n]
	}
	if readErr != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, readErr
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("read records: git cat-file --batch: %w", err)
	}
	return out, nil
}
