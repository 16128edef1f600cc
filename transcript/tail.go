package transcript

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
)

// State is how far a transcript has been read: reading resumes at Offset,
// after checking that the bytes from Start to Offset still hash to
// PrefixSHA256 (a transcript only grows). Pending are the calls read
// without their result yet.
type State struct {
	Start        int64  `json:"start"`
	Offset       int64  `json:"offset"`
	PrefixSHA256 string `json:"prefix_sha256"`
	Pending      []Call `json:"pending,omitempty"`
	// Lines, Calls and Skipped count what was read so far: complete lines,
	// calls that came out, and lines over MaxLine.
	Lines   int64 `json:"lines"`
	Calls   int64 `json:"calls"`
	Skipped int64 `json:"skipped"`
}

// EmptySHA256 is the sha256 of nothing: the prefix of a State that has
// read nothing yet.
const EmptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// NewState is the state of a transcript named when it held size bytes:
// what came before is not this session's.
func NewState(size int64) State {
	return State{Start: size, Offset: size, PrefixSHA256: EmptySHA256}
}

// ErrChanged: the transcript shrank, or bytes already read changed. A
// transcript is appended to, never rewritten; one that was is not the
// agent's record any more.
var ErrChanged = errors.New("transcript changed under what was read")

// ErrNotRegular: the transcript path is a symlink, a folder or a device,
// or the file was swapped while it was opened.
var ErrNotRegular = errors.New("transcript is not the regular file it was")

// MaxRead is the most bytes one Tail takes in after the verified prefix;
// the rest waits for the next call.
const MaxRead = 32 << 20

// Tail reads the complete lines of the transcript at path after st.Offset
// (up to maxBytes; MaxRead when 0), in format, and returns the calls they
// finished and the new state. It first re-hashes the bytes st has read:
// a file that is shorter than st.Offset or whose prefix hashes differently
// returns ErrChanged. A missing file is not an error while nothing was
// read (the agent writes it lazily). The path must be a regular file, not
// a symlink. A last line without its newline is left for the next call.
func Tail(ctx context.Context, path, format string, st State, maxBytes int64) ([]Call, State, error) {
	if maxBytes <= 0 {
		maxBytes = MaxRead
	}
	p, err := NewParser(format)
	if err != nil {
		return nil, st, err
	}
	p.Restore(st.Pending)
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) && st.Offset == st.Start && st.Start == 0 {
		return nil, st, nil
	}
	if err != nil {
		return nil, st, fmt.Errorf("stat transcript: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, st, fmt.Errorf("%w: %s is %s", ErrNotRegular, path, fi.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, st, fmt.Errorf("open transcript: %w", err)
	}
	defer f.Close()
	if ofi, err := f.Stat(); err != nil || !os.SameFile(fi, ofi) {
		return nil, st, fmt.Errorf("%w: %s was replaced while it was opened", ErrNotRegular, path)
	}
	size := fi.Size()
	if size < st.Offset {
		return nil, st, fmt.Errorf("%w: %s is %d bytes, %d were read before", ErrChanged, path, size, st.Offset)
	}
	if _, err := f.Seek(st.Start, io.SeekStart); err != nil {
		return nil, st, fmt.Errorf("seek transcript: %w", err)
	}
	h := sha256.New()
	if n, err := io.CopyN(h, f, st.Offset-st.Start); err != nil {
		return nil, st, fmt.Errorf("%w: reading the %d bytes read before gave %d: %v", ErrChanged, st.Offset-st.Start, n, err)
	}
	if hex.EncodeToString(h.Sum(nil)) != st.PrefixSHA256 {
		return nil, st, fmt.Errorf("%w: the %d bytes of %s read before hash differently now", ErrChanged, st.Offset-st.Start, path)
	}
	out := st
	var calls []Call
	br := bufio.NewReaderSize(io.LimitReader(f, maxBytes), 64<<10)
	var line []byte
	long := false
	for {
		if ctx.Err() != nil {
			break
		}
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 && (err == nil || errors.Is(err, bufio.ErrBufferFull)) {
			h.Write(chunk)
			if !long && len(line)+len(chunk) <= MaxLine+1 {
				line = append(line, chunk...)
			} else {
				long, line = true, line[:0]
			}
			out.Offset += int64(len(chunk))
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			// EOF (or the read limit) in the middle of a line: give back
			// what was taken of it; the next call reads it whole.
			break
		}
		out.Lines++
		if long {
			out.Skipped++
		} else {
			cs := p.Line(bytes.TrimRight(line, "\r\n"))
			calls = append(calls, cs...)
			out.Calls += int64(len(cs))
		}
		out.PrefixSHA256 = hex.EncodeToString(h.Sum(nil))
		line, long = line[:0], false
		st = out // the last complete line
	}
	// Only complete lines count: a partial last line is not in st.
	st.Pending = p.Pending()
	return calls, st, nil
}
