package agenthook

import (
	"context"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/session"
)

// workState reads the worktree for a turn mark or a stop: in process when
// it can (gitrepo.WorktreeMark, no git process), asking git whether
// anything is uncommitted only if the stop needs to know and no tracked
// file is seen modified in process; else one git status answers all of it.
func workState(ctx context.Context, repo *gitrepo.Repo) (session.WorkState, error) {
	if st, ok := repo.WorktreeMark(); ok {
		dirty := func(ctx context.Context) (bool, error) {
			if st.Modified {
				return true, nil // a tracked file's bytes differ: no need to ask
			}
			_, _, d, err := repo.WorkStatus(ctx)
			return d, err
		}
		return session.WorkState{Mark: st.Mark, Head: st.Head, Dirty: dirty}, nil
	}
	mark, head, dirty, err := repo.WorkStatus(ctx)
	if err != nil {
		return session.WorkState{}, err
	}
	return session.WorkState{Mark: mark, Head: head, Dirty: func(context.Context) (bool, error) { return dirty, nil }}, nil
}

// workJob is a workState read started early (startWork) or on demand.
type workJob struct {
	repo *gitrepo.Repo
	done chan struct{} // nil: not started
	ws   session.WorkState
	err  error
}

func startWork(ctx context.Context, repo *gitrepo.Repo) *workJob {
	j := &workJob{repo: repo, done: make(chan struct{})}
	go func() {
		defer close(j.done)
		j.ws, j.err = workState(ctx, repo)
	}()
	return j
}

// wait returns the state, reading it now when it was not started early.
func (j *workJob) wait(ctx context.Context) (session.WorkState, error) {
	if j.done == nil {
		j.ws, j.err = workState(ctx, j.repo)
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
