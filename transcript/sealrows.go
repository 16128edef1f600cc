package transcript

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// Claude Code 2.1.330 retracts a message in place (performRemoveByUuid,
// after a server-side model fallback: the abandoned attempt's messages,
// tool results included): it reads the file's last 64 KiB, finds the
// last `"uuid":"X"`, and cuts the whole row holding it (from the newline
// before to the newline after), truncating the file there and writing the
// rest back. A row outside those 64 KiB is not cut in place. Sealed by a
// hash of the range alone, such a cut read as TRANSCRIPT_TAMPERED (round
// 25, left open). So the seal also keeps one hash per row of its last
// RowWindow bytes and the hash state of everything before them: a gate
// then tells "the sealed rows with some message rows removed" (the CLI's
// cut, JudgeRetracted) from an edit.

// RowWindow is how far back from a transcript's end Claude Code cuts a row
// in place (jb in 2.1.330's performRemoveByUuid).
const RowWindow = 64 << 10

// Row is one sealed row of the window: where it was, its length with its
// newline, the first 128 bits of its sha256, and whether it is a message
// row (type user or assistant, with a uuid) the CLI could retract.
type Row struct {
	Off int64  `json:"o"`
	Len int64  `json:"n"`
	SHA string `json:"h"`
	Msg bool   `json:"m,omitempty"`
	// Kind of a message row (round 27): "a" an assistant message, "r" a
	// user row carrying tool results, "u" any other user row (a prompt, a
	// <task-notification>); "" in seals kept before it (read as round 26
	// did). Tools are the tool_use ids an "a" row calls or an "r" row
	// answers: the CLI retracts a tool result only with the abandoned
	// attempt's message that called it (xo, the results of the discarded
	// messages' tool uses, in 2.1.330's fallback), never a prompt.
	Kind  string   `json:"k,omitempty"`
	Tools []string `json:"t,omitempty"`
}

func rowOf(off int64, b []byte) Row {
	sum := sha256.Sum256(b)
	r := Row{Off: off, Len: int64(len(b)), SHA: hex.EncodeToString(sum[:16])}
	if !bytes.Contains(b, []byte(`"uuid":"`)) {
		return r
	}
	switch {
	case bytes.Contains(b, []byte(`"type":"assistant"`)):
		r.Msg, r.Kind, r.Tools = true, "a", idsAfter(b, `"type":"tool_use","id":"`)
	case bytes.Contains(b, []byte(`"type":"user"`)):
		r.Msg, r.Kind, r.Tools = true, "u", idsAfter(b, `"tool_use_id":"`)
		if len(r.Tools) > 0 {
			r.Kind = "r"
		}
	}
	return r
}

// idsAfter returns the ids that follow each occurrence of key in a JSON
// row, up to 8 of at most 100 bytes. A quote inside a string value is
// escaped, so key matches only a real key.
func idsAfter(b []byte, key string) []string {
	var out []string
	for len(out) < 8 {
		i := bytes.Index(b, []byte(key))
		if i < 0 {
			break
		}
		b = b[i+len(key):]
		j := bytes.IndexByte(b, '"')
		if j <= 0 || j > 100 {
			break
		}
		out = append(out, string(b[:j]))
		b = b[j:]
	}
	return out
}

// cliRetractable reports whether the cut rows are a set Claude Code's
// fallback retracts: messages, and a user row only when it carries tool
// results of calls whose assistant message is cut too; never a prompt.
// Rows of an older seal (no Kind) are taken as before.
func cliRetractable(cut []Row) bool {
	called := map[string]bool{}
	for _, r := range cut {
		if r.Kind == "a" {
			for _, id := range r.Tools {
				called[id] = true
			}
		}
	}
	for _, r := range cut {
		switch r.Kind {
		case "u":
			return false
		case "r":
			for _, id := range r.Tools {
				if !called[id] {
					return false
				}
			}
		}
	}
	return true
}

// windowRows returns the rows of f that start at or after from (a row
// start) and at or after end-RowWindow, up to end (after a newline).
func windowRows(f *os.File, from, end int64) ([]Row, error) {
	lo := max(from, end-RowWindow-1)
	b := make([]byte, end-lo)
	if _, err := f.ReadAt(b, lo); err != nil && err != io.EOF {
		return nil, err
	}
	start := int64(0)
	if lo > from {
		// lo is inside a row: the first row start after it.
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return nil, nil
		}
		start = int64(i) + 1
	}
	var rows []Row
	for start < int64(len(b)) {
		i := bytes.IndexByte(b[start:], '\n')
		if i < 0 {
			break
		}
		n := int64(i) + 1
		if lo+start >= end-RowWindow {
			rows = append(rows, rowOf(lo+start, b[start:start+n]))
		}
		start += n
	}
	return rows, nil
}

// sealWindow hashes [next.To, end) into h and moves the row window to the
// rows of the last RowWindow bytes before end: rows leaving it go into
// head (the state of [From, first row)). Bytes new since next.To are read
// once; old rows leaving the window (at most RowWindow) once more.
func sealWindow(f *os.File, next *Seal, prevRows []Row, h, head hashState, end int64) error {
	oldTo := next.To
	newRows, err := windowRows(f, oldTo, end)
	if err != nil {
		return err
	}
	var rows []Row
	for _, r := range prevRows {
		if r.Off >= end-RowWindow {
			rows = append(rows, r)
		}
	}
	rows = append(rows, newRows...)
	prevW := next.From
	if len(prevRows) > 0 {
		prevW = prevRows[0].Off
	}
	newW := end
	if len(rows) > 0 {
		newW = rows[0].Off
	}
	buf := make([]byte, 32<<10)
	if newW >= oldTo {
		// Everything before the window, old and new, and the new bytes.
		if err := hashRange(head, f, prevW, oldTo, buf); err != nil {
			return err
		}
		if err := hashRange(io.MultiWriter(h, head), f, oldTo, newW, buf); err != nil {
			return err
		}
		if err := hashRange(h, f, newW, end, buf); err != nil {
			return err
		}
	} else {
		if err := hashRange(head, f, prevW, newW, buf); err != nil {
			return err
		}
		if err := hashRange(h, f, oldTo, end, buf); err != nil {
			return err
		}
	}
	st, err := head.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return err
	}
	next.Rows, next.HeadState = rows, st
	return nil
}

// hashState is a sha256 hash whose state can be saved.
type hashState = interface {
	io.Writer
	Sum([]byte) []byte
}

// hashRange feeds f's bytes [from, to) into h, through buf when given
// (io.Copy would allocate 32 KiB a call on the hook path).
func hashRange(h io.Writer, f *os.File, from, to int64, buf ...[]byte) error {
	if to <= from {
		return nil
	}
	var b []byte
	if len(buf) > 0 {
		b = buf[0]
	}
	_, err := io.CopyBuffer(h, io.NewSectionReader(f, from, to-from), b)
	return err
}

// lastRowIntact reports whether the seal's last row is still where it was
// sealed: a cut before it moved it, and the seal is then not extended
// (it would hash the shifted bytes as if they were new), so the gate
// judges the cut against the seal as it was.
func lastRowIntact(f *os.File, s *Seal) bool {
	if len(s.Rows) == 0 {
		return true
	}
	r := s.Rows[len(s.Rows)-1]
	b := make([]byte, r.Len)
	if _, err := f.ReadAt(b, r.Off); err != nil {
		return false
	}
	return rowOf(r.Off, b).SHA == r.SHA
}

// JudgeRetracted reports whether the file at path is what st's seal
// covered with only message rows of its last RowWindow bytes cut out
// (Claude Code's tombstone removal), rows appended after them allowed. It
// returns how many rows were cut. An edited row, a cut row that is no
// message, a prompt or a tool result whose call stays (cliRetractable),
// a change before the window, a sealed row that shows up again
// after the cut (rows reordered), or another file is no retraction.
func JudgeRetracted(path string, st State) (int, bool) {
	s := st.Seal
	if s == nil || s.Checked || len(s.Rows) == 0 || len(s.HeadState) == 0 {
		return 0, false
	}
	f, fi, err := openRegular(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	if id := fileID(fi); s.File == "" || id != s.File {
		return 0, false // the CLI cuts in place
	}
	head := sha256.New()
	if head.(encoding.BinaryUnmarshaler).UnmarshalBinary(s.HeadState) != nil {
		return 0, false
	}
	w := s.Rows[0].Off
	if fi.Size() < w {
		return 0, false
	}
	fresh := sha256.New()
	if hashRange(fresh, f, s.From, w) != nil || !bytes.Equal(fresh.Sum(nil), head.Sum(nil)) {
		return 0, false
	}
	size := fi.Size()
	readRow := func(at int64) ([]byte, bool) {
		if at >= size {
			return nil, false
		}
		end, err := nextNewline(f, at, size)
		if err != nil || end <= at {
			return nil, false
		}
		b := make([]byte, end-at)
		if _, err := f.ReadAt(b, at); err != nil {
			return nil, false
		}
		return b, true
	}
	pos, cut := w, map[string]bool{}
	var cutRows []Row
	for _, r := range s.Rows {
		if b, ok := readRow(pos); ok && rowOf(pos, b).SHA == r.SHA {
			pos += int64(len(b))
			continue
		}
		if !r.Msg {
			return 0, false
		}
		cut[r.SHA] = true
		cutRows = append(cutRows, r)
	}
	if len(cut) == 0 || !cliRetractable(cutRows) {
		return 0, false
	}
	// What follows is appended since; none of it may be a row cut above
	// (that is a reorder, not a retraction). Read up to a bound.
	for at, n := pos, 0; at < size && n < 4096; n++ {
		b, ok := readRow(at)
		if !ok {
			break
		}
		if cut[rowOf(at, b).SHA] {
			return 0, false
		}
		at += int64(len(b))
	}
	return len(cut), true
}

// nextNewline returns the offset just after the first '\n' at or after
// from in f, from when there is none before to.
func nextNewline(f *os.File, from, to int64) (int64, error) {
	buf := make([]byte, 64<<10)
	for lo := from; lo < to; {
		b := buf[:min(int64(len(buf)), to-lo)]
		n, err := f.ReadAt(b, lo)
		if i := bytes.IndexByte(b[:n], '\n'); i >= 0 {
			return lo + int64(i) + 1, nil
		}
		if err != nil && err != io.EOF {
			return from, fmt.Errorf("read: %w", err)
		}
		if n == 0 {
			break
		}
		lo += int64(n)
	}
	return from, nil
}
