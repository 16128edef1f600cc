package transcript

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"hash"
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
	// HashState is the sha256 state after the bytes read (so a long
	// transcript's prefix hash goes on without reading it again), and
	// WindowSHA256 the hash of the last VerifyWindow bytes read: past
	// FullVerify bytes only that window is checked again.
	HashState    []byte `json:"hash_state,omitempty"`
	WindowSHA256 string `json:"window_sha256,omitempty"`
	// Witnessed counts, by Call.Witness, the hook witnesses this
	// transcript's shell lines used up (Gemini CLI and Copilot, whose hooks
	// name no call id: a witness is a command line seen, used once).
	// Package transcript only keeps it; package session fills it.
	Witnessed map[string]int `json:"witnessed,omitempty"`
	// Runs counts, by CommandDigest of the trimmed command line, the
	// finished shell lines read so far (Gemini CLI and Copilot): a gate
	// compares them with the runs their post-tool hook saw finish, to
	// wait for a transcript written after the call returned. Package
	// transcript only keeps it; package session fills it.
	Runs map[string]int `json:"runs,omitempty"`
	// Seal is what the agent hook saw of the file past what was read
	// (seal.go): nil until a hook event sealed some.
	Seal *Seal `json:"seal,omitempty"`
}

// FullVerify and VerifyWindow bound the append-only check: up to FullVerify
// bytes read, every one is hashed again at each read; past it, the last
// VerifyWindow bytes (about 3 ms), which is where a rewrite that keeps
// line boundaries would have to start to change what is read next.
var (
	FullVerify   int64 = 16 << 20
	VerifyWindow int64 = 1 << 20
)

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
	// O_NONBLOCK: a FIFO swapped in after the Lstat is refused, not waited on.
	f, err := boundedread.Open(path)
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
	h, err := verify(f, path, st)
	if err != nil {
		return nil, st, err
	}
	if _, err := f.Seek(st.Offset, io.SeekStart); err != nil {
		return nil, st, fmt.Errorf("seek transcript: %w", err)
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
		if out.Offset-out.Start > FullVerify {
			if b, err := h.(encoding.BinaryMarshaler).MarshalBinary(); err == nil {
				out.HashState = b
			}
		}
		st = out // the last complete line
	}
	// Only complete lines count: a partial last line is not in st.
	st.Pending = p.Pending()
	if st.Offset-st.Start > FullVerify {
		w, err := windowHash(f, st)
		if err != nil {
			return nil, st, fmt.Errorf("hash the transcript's last bytes: %w", err)
		}
		st.WindowSHA256 = w
	}
	return calls, st, nil
}

// verify checks that the bytes st has read are still there, and returns the
// sha256 of them, ready to go on: all of them hashed again up to
// FullVerify, else the last VerifyWindow bytes against WindowSHA256 and the
// hash resumed from HashState.
func verify(f *os.File, path string, st State) (hash.Hash, error) {
	h := sha256.New()
	if st.Offset-st.Start > FullVerify && len(st.HashState) > 0 && st.WindowSHA256 != "" {
		if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(st.HashState); err != nil {
			return nil, fmt.Errorf("%w: the saved hash state of %s does not load: %v", ErrChanged, path, err)
		}
		if hex.EncodeToString(h.Sum(nil)) != st.PrefixSHA256 {
			return nil, fmt.Errorf("%w: the saved hash state of %s is not of the bytes read", ErrChanged, path)
		}
		w, err := windowHash(f, st)
		if err != nil || w != st.WindowSHA256 {
			return nil, fmt.Errorf("%w: the last %d bytes of %s read before hash differently now", ErrChanged, VerifyWindow, path)
		}
		return h, nil
	}
	if _, err := f.Seek(st.Start, io.SeekStart); err != nil {
		return nil, fmt.Errorf("seek transcript: %w", err)
	}
	if n, err := io.CopyN(h, f, st.Offset-st.Start); err != nil {
		return nil, fmt.Errorf("%w: reading the %d bytes read before gave %d: %v", ErrChanged, st.Offset-st.Start, n, err)
	}
	if hex.EncodeToString(h.Sum(nil)) != st.PrefixSHA256 {
		return nil, fmt.Errorf("%w: the %d bytes of %s read before hash differently now", ErrChanged, st.Offset-st.Start, path)
	}
	return h, nil
}

// windowHash is the sha256 of the last VerifyWindow bytes st has read.
func windowHash(f *os.File, st State) (string, error) {
	from := max(st.Start, st.Offset-VerifyWindow)
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, from, st.Offset-from)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
