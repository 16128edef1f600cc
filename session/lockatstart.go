package session

import (
	"context"

	"github.com/sessiongate/sessiongate/internal/linttrust"
)

// lockAtStart is the linter check's word on package-lock.json as the
// session's start commit held it: an install during the session is proven
// against that lock, never against one the agent wrote. git is asked only
// when the work tree's lock changed during the session.
func lockAtStart(ctx context.Context, env gateEnv) []linttrust.Option {
	if env.sess == nil || env.sess.StartCommit == "" {
		return nil
	}
	return []linttrust.Option{linttrust.LockAt(func() string {
		sums, err := env.repo.SHA256sAt(ctx, env.sess.StartCommit, []string{"package-lock.json"})
		if err != nil {
			return ""
		}
		return sums["package-lock.json"]
	}), linttrust.LockBytesAt(func() []byte {
		b, err := env.repo.ReadAt(ctx, env.sess.StartCommit, "package-lock.json")
		if err != nil {
			return nil
		}
		return b
	})}
}
