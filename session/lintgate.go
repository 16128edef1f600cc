package session

import (
	"context"
	"fmt"

	"github.com/sessiongate/sessiongate/lintweakened"
)

// The rules that tell a lint pass under weakened rules are lintweakened's;
// these calls hand it the session and its repository.

// lintSession is what lintweakened needs of s.
func lintSession(s *Session) *lintweakened.Session {
	return &lintweakened.Session{
		ID: s.ID, Worktree: s.Worktree, StartCommit: s.StartCommit, CreatedAt: s.CreatedAt,
		Files: func(ctx context.Context, repo lintweakened.Repo) ([]string, error) {
			r, ok := repo.(Repo)
			if !ok {
				return nil, fmt.Errorf("list the session's files: %T is not the engine's repository", repo)
			}
			return sessionFiles(ctx, r, s)
		},
	}
}

// lintConfigVerdict is lintweakened.Verdict for s; open gives the
// repository, opened only when a lint config is found.
func lintConfigVerdict(ctx context.Context, open func() (Repo, error), s *Session, dir, line string, getenv func(string) string) (fail, note string, err error) {
	if s == nil || open == nil {
		return "", "", nil
	}
	return lintweakened.Verdict(ctx, func() (lintweakened.Repo, error) {
		r, err := open()
		if err != nil {
			return nil, err
		}
		return r, nil
	}, lintSession(s), dir, line, getenv)
}

// lintWeakened is lintweakened.Markdownlint for the gate's session.
func lintWeakened(ctx context.Context, env gateEnv, command string) (string, error) {
	if env.sess == nil {
		return "", nil
	}
	return lintweakened.Markdownlint(ctx, env.repo, lintSession(env.workSession()), command)
}

// workSession is the session whose work a check judges: the earliest
// ABANDONED session this one continues (continuedFrom), else its own.
func (env gateEnv) workSession() *Session {
	if env.continued != nil {
		return env.continued
	}
	return env.sess
}

// envLookup reads NAME from a KEY=VALUE list (a gate's environment).
func envLookup(env []string) func(string) string { return lintweakened.EnvLookup(env) }
