package transcript

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// A seal is what the agent hook saw of a transcript that no gate has read
// yet. The gates check the bytes they read again (State.PrefixSHA256), but
// bytes written after the last gate read were trusted as found: a lazy
// agent could rewrite a failed sub-agent or MCP result to a passing one, or
// a finished call to a rejection (which a prompt then settles), before any
// gate looked. The hook runs at every tool call, before the agent's shell
// line does, so it hashes what the file gained since its last event (only
// the growth: no re-read of a long transcript) and a later reader checks
// those bytes first (CheckSeal).

// Seal covers the transcript's complete lines from From to To: SHA256 is
// their hash, HashState the sha256 state after them (so the next event
// goes on from To), File the file's identity (device and inode) when they
// were hashed. Checked is set once a gate verified it; the bytes are then
// under the gate's own prefix hash.
type Seal struct {
	From      int64  `json:"from"`
	To        int64  `json:"to"`
	SHA256    string `json:"sha256"`
	HashState []byte `json:"hash_state,omitempty"`
	File      string `json:"file,omitempty"`
	Checked   bool   `json:"checked,omitempty"`
	// Rows are the sealed rows of the last RowWindow bytes before To, and
	// HeadState the sha256 state of [From, Rows[0].Off): what tells
	// Claude Code's in-place cut of a row from an edit (sealrows.go).
	Rows      []Row  `json:"rows,omitempty"`
	HeadState []byte `json:"head_state,omitempty"`
}

// ErrTampered: bytes the hook sealed changed in place, or the file is
// shorter than what was sealed. The agent CLIs append to their
// transcripts; only the agent's shell rewrites one in place.
var ErrTampered = errors.New("transcript bytes the agent hook sealed changed")

// ErrReplaced: the transcript path is another file than the one sealed
// (renamed over it). Claude Code 2.1 rewrites a long transcript this way
// (ReplacedByCLI), which is no violation: the reader starts over at the
// new file's end. Any other rename is the agent's shell.
var ErrReplaced = errors.New("transcript was replaced by another file")

// ClaudeCompactMin is the smallest transcript Claude Code 2.1 compacts by
// rename. Read in its 2.1.330 binary: performCompactTranscript writes
// `<file>.compact.tmp.<hex>` and renames it over the file, and returns
// early below d6a=5242880 bytes. It runs when 20 MiB were appended since
// the last compaction (T9, the backstop) or right after a conversation
// compaction's summary lands (compactAwaitingSummary), so a transcript of
// 5 to 20 MiB can be renamed over too; and only with local GC on
// (CLAUDE_CODE_TRANSCRIPT_LOCAL_GC in -p mode, or a remote session).
const ClaudeCompactMin = 5 << 20

// ReplacedByCLI reports whether the agent CLI itself could have renamed a
// file over the transcript st was read and sealed from: Claude Code, once
// the file held ClaudeCompactMin. Codex, Gemini CLI and Copilot append to
// theirs (Gemini CLI 0.61 renames a new file over its chat recording only
// when it fails to load one at resume, rewriteConversationFile, judged by
// the file it sets aside: geminiSetAside; its .json to .jsonl move is
// another path). A rename the CLI could not have made is the agent's shell.
func ReplacedByCLI(format string, st State) bool {
	held := st.Offset
	if st.Seal != nil {
		held = max(held, st.Seal.To)
	}
	return format == Claude && held >= ClaudeCompactMin
}

// JudgeReplaced turns err, when it is ErrReplaced for a rename the CLI
// could not have made (ReplacedByCLI), into ErrTampered: a copy renamed
// over the transcript (sed -i, os.replace) is a rewrite like one in place.
// Every reader judges a rename alike, so the verdict does not depend on
// which one saw it first. Other errors are returned as they are.
func JudgeReplaced(format, path string, st State, err error) error {
	if !errors.Is(err, ErrReplaced) || ReplacedByCLI(format, st) || format == Gemini && geminiSetAside(path, st) {
		return err
	}
	return fmt.Errorf("%w (%v; of the agent CLIs only Claude Code renames a transcript, once it holds %d MiB, and Gemini CLI one it sets aside as unreadable)", ErrTampered, err, ClaudeCompactMin>>20)
}

// geminiSetAside reports whether the file the hook sealed is now
// `<path>.unreadable-<ms>`, its bytes as read and sealed: Gemini CLI
// 0.61's rewriteConversationFile (a resumed recording it fails to load is
// renamed aside, then `<path>.tmp-<pid>` over the path), round 25. Only
// that file, by its identity, with what was hashed unchanged: a copy set
// aside, or the sealed file edited, is not the CLI's.
func geminiSetAside(path string, st State) bool {
	if st.Seal == nil || st.Seal.File == "" {
		return false
	}
	aside, _ := filepath.Glob(path + ".unreadable-*")
	for _, a := range aside {
		ms := strings.TrimPrefix(a, path+".unreadable-")
		if ms == "" || strings.Trim(ms, "0123456789") != "" {
			continue
		}
		f, fi, err := openRegular(a)
		if err != nil {
			continue
		}
		same := fileID(fi) == st.Seal.File
		f.Close()
		if same && Intact(a, st) == nil {
			return true
		}
	}
	return false
}

// Extend returns the seal of path after st: st.Seal extended by the
// complete lines the file gained, or a new seal from st.Offset when the
// gates verified the old one and read past it. ok is false when there is
// nothing new to seal, or when the file is not the one sealed or shrank
// (the reader finds that; the hook leaves the seal as it was).
func Extend(path string, st State) (*Seal, bool, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	id := fileID(fi)
	cur := st.Seal
	next := &Seal{From: st.Offset, To: st.Offset, File: id}
	h, head := sha256.New(), sha256.New()
	var prevRows []Row
	continued := cur != nil && !(cur.Checked && st.Offset >= cur.To)
	if continued {
		if cur.File != "" && id != "" && cur.File != id {
			return nil, false, nil
		}
		if !lastRowIntact(f, cur) {
			return nil, false, nil // cut before its end: the gate judges it (JudgeRetracted)
		}
		if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(cur.HashState); err != nil {
			return nil, false, fmt.Errorf("the seal of %s does not load: %w", path, err)
		}
		if len(cur.HeadState) > 0 && head.(encoding.BinaryUnmarshaler).UnmarshalBinary(cur.HeadState) == nil {
			prevRows = cur.Rows
		} else {
			head = nil // a seal of an older version: no rows kept
		}
		next.From, next.To = cur.From, cur.To
	}
	size := fi.Size()
	if size <= next.To {
		return nil, false, nil
	}
	end, err := lastNewline(f, next.To, size)
	if err != nil || end <= next.To {
		return nil, false, err
	}
	if head == nil {
		if _, err := io.Copy(h, io.NewSectionReader(f, next.To, end-next.To)); err != nil {
			return nil, false, fmt.Errorf("hash %s: %w", path, err)
		}
	} else if err := sealWindow(f, next, prevRows, h, head, end); err != nil {
		return nil, false, fmt.Errorf("hash %s: %w", path, err)
	}
	next.To = end
	next.SHA256 = hex.EncodeToString(h.Sum(nil))
	if next.HashState, err = h.(encoding.BinaryMarshaler).MarshalBinary(); err != nil {
		return nil, false, err
	}
	return next, true, nil
}

// CheckSeal verifies st.Seal against the file at path: ErrReplaced when it
// is another file, ErrTampered when the sealed bytes are not there as they
// were. A missing or checked seal is nil.
func CheckSeal(path string, st State) error {
	s := st.Seal
	if s == nil || s.Checked || s.To <= s.From {
		return nil
	}
	f, fi, err := openRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return checkSeal(f, fi, path, s)
}

func checkSeal(f *os.File, fi os.FileInfo, path string, s *Seal) error {
	if id := fileID(fi); s.File != "" && id != "" && id != s.File {
		return fmt.Errorf("%w: %s is not the file the agent hook sealed", ErrReplaced, path)
	}
	if fi.Size() < s.To {
		return fmt.Errorf("%w: %s is %d bytes, the agent hook sealed %d", ErrTampered, path, fi.Size(), s.To)
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, s.From, s.To-s.From)); err != nil {
		return fmt.Errorf("hash %s: %w", path, err)
	}
	if hex.EncodeToString(h.Sum(nil)) != s.SHA256 {
		return fmt.Errorf("%w: bytes %d to %d of %s hash differently from when the agent hook saw them", ErrTampered, s.From, s.To, path)
	}
	return nil
}

// Intact checks that what st covers is still in the file at path: the
// bytes the gates read (the prefix hash) and those the hook sealed. For a
// reader that reads the whole file (ClaudeFinished) instead of Tail.
func Intact(path string, st State) error {
	f, fi, err := openRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if st.Seal != nil && !st.Seal.Checked && st.Seal.To > st.Seal.From {
		if err := checkSeal(f, fi, path, st.Seal); err != nil {
			return err
		}
	}
	if fi.Size() < st.Offset {
		return fmt.Errorf("%w: %s is %d bytes, %d were read before", ErrChanged, path, fi.Size(), st.Offset)
	}
	_, err = verify(f, path, st)
	return err
}

// openRegular opens path, which must be a regular file and not a symlink.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("stat transcript: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%w: %s is %s", ErrNotRegular, path, fi.Mode().Type())
	}
	f, err := boundedread.Open(path) // a FIFO swapped in after the Lstat is refused
	if err != nil {
		return nil, nil, fmt.Errorf("open transcript: %w", err)
	}
	ofi, err := f.Stat()
	if err != nil || !os.SameFile(fi, ofi) {
		f.Close()
		return nil, nil, fmt.Errorf("%w: %s was replaced while it was opened", ErrNotRegular, path)
	}
	return f, ofi, nil
}

// lastNewline returns the offset just after the last '\n' in [from, to)
// of f, from when there is none: only complete lines are sealed (an agent
// CLI may still be writing the last one).
func lastNewline(f *os.File, from, to int64) (int64, error) {
	buf := make([]byte, 64<<10)
	for hi := to; hi > from; {
		lo := max(from, hi-int64(len(buf)))
		b := buf[:hi-lo]
		if _, err := f.ReadAt(b, lo); err != nil && !errors.Is(err, io.EOF) {
			return from, err
		}
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			return lo + int64(i) + 1, nil
		}
		hi = lo
	}
	return from, nil
}
