package agenthook

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/sessiongate/sessiongate/session"
)

// workState reads the worktree with one git process: `git status
// --porcelain=v2 --branch` names HEAD (# branch.oid) and every changed,
// staged or untracked file (each untracked file, not just its folder).
// The mark hashes that output with each named file's size and times, so
// a second edit of an already-changed file, or of an untracked one, moves
// the mark although git's line for it stays the same.
func workState(ctx context.Context, root string) (session.WorkState, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", root, "--no-optional-locks", "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return session.WorkState{}, fmt.Errorf("git status: %v: %s", err, bytes.TrimSpace(errb.Bytes()))
	}
	var ws session.WorkState
	h := sha256.New()
	h.Write(out.Bytes())
	recs := bytes.Split(out.Bytes(), []byte{0})
	for i := 0; i < len(recs); i++ {
		rec := recs[i]
		switch {
		case len(rec) == 0:
		case bytes.HasPrefix(rec, []byte("# branch.oid ")):
			if oid := string(rec[len("# branch.oid "):]); oid != "(initial)" {
				ws.Head = oid
			}
		case rec[0] == '#':
		default:
			ws.Dirty = true
			fmt.Fprintf(h, "\x00%s", fileStamp(root, changedPath(rec)))
			if rec[0] == '2' {
				i++ // a rename's record is followed by its original path
			}
		}
	}
	ws.Mark = hex.EncodeToString(h.Sum(nil)[:16])
	return ws, nil
}

// changedPath is the path of one porcelain v2 record: the last of its
// space-separated fields ("1", "2" and "u" records have 8, 9 and 10 fields
// before the path, which may itself hold spaces) or what follows "? ".
func changedPath(rec []byte) string {
	fields := map[byte]int{'1': 8, '2': 9, 'u': 10, '?': 1, '!': 1}[rec[0]]
	p := rec
	for range fields {
		_, rest, ok := bytes.Cut(p, []byte{' '})
		if !ok {
			return ""
		}
		p = rest
	}
	return string(p)
}

// fileStamp is a file's size, modification and change times and mode, or
// "gone" (deleted files are named by git too).
func fileStamp(root, rel string) string {
	if rel == "" {
		return ""
	}
	fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return "gone"
	}
	return fmt.Sprintf("%d %d %d %o", fi.Size(), fi.ModTime().UnixNano(), changeTime(fi), fi.Mode())
}

// workJob is a workState read started early (startWork) or on demand.
type workJob struct {
	root string
	done chan struct{} // nil: not started
	ws   session.WorkState
	err  error
}

func startWork(ctx context.Context, root string) *workJob {
	j := &workJob{root: root, done: make(chan struct{})}
	go func() {
		defer close(j.done)
		j.ws, j.err = workState(ctx, root)
	}()
	return j
}

// wait returns the state, reading it now when it was not started early.
func (j *workJob) wait(ctx context.Context) (session.WorkState, error) {
	if j.done == nil {
		j.ws, j.err = workState(ctx, j.root)
		j.done = make(chan struct{})
		close(j.done)
	}
	select {
	case <-j.done:
		return j.ws, j.err
	case <-ctx.Done():
		return session.WorkState{}, ctx.Err()
	}
}
