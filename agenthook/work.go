package agenthook

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os/exec"

	"github.com/sessiongate/sessiongate/session"
)

// workState reads the worktree with one git process: `git status
// --porcelain=v2 --branch` names HEAD (# branch.oid) and every changed,
// staged or untracked file, so its sha256 fingerprints the worktree and a
// stop hook learns whether there is work without further git calls.
func workState(ctx context.Context, root string) (session.WorkState, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", root, "--no-optional-locks", "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=normal")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return session.WorkState{}, fmt.Errorf("git status: %v: %s", err, bytes.TrimSpace(errb.Bytes()))
	}
	var ws session.WorkState
	sum := sha256.Sum256(out.Bytes())
	ws.Mark = hex.EncodeToString(sum[:16])
	for _, rec := range bytes.Split(out.Bytes(), []byte{0}) {
		switch {
		case len(rec) == 0:
		case bytes.HasPrefix(rec, []byte("# branch.oid ")):
			if oid := string(rec[len("# branch.oid "):]); oid != "(initial)" {
				ws.Head = oid
			}
		case rec[0] == '#':
		default:
			ws.Dirty = true
		}
	}
	return ws, nil
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
