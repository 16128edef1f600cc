package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/logfacts"
)

// isSessionLogGlob: a check's glob is on the protocol's session logs
// (.agents/sessions/*.md), as sessionLogGlobs reads them.
func isSessionLogGlob(glob string) bool { return strings.Contains(glob, "sessions/") }

// logContradiction says how a session log the session wrote contradicts
// the session (logfacts.Check: a log brought from another session, round
// 61 helper 353); "" when it agrees or glob is not a session log's.
func logContradiction(ctx context.Context, env gateEnv, glob, rel string) (string, error) {
	if !isSessionLogGlob(glob) {
		return "", nil
	}
	// The agent writes the log: a FIFO or a huge file there is refused.
	text, err := readWorkFile(env.repo.Root(), rel)
	if err != nil {
		return "", err
	}
	cs, err := env.repo.CommitFacts(ctx, env.sess.StartCommit)
	if err != nil {
		return "", err
	}
	mine, _ := ownCommits(env.sess, cs)
	own := make([]string, len(mine))
	for i, c := range mine {
		own[i] = c.SHA
	}
	files, err := sessionFiles(ctx, env.repo, env.sess)
	if err != nil {
		return "", err
	}
	var changed []string
	for _, f := range files {
		if f == rel || env.cfg.isRecord(f) || isPlaceholder(env.repo.Root(), f) {
			continue
		}
		changed = append(changed, f)
	}
	var protocol []byte
	if env.protocol != nil {
		protocol = []byte(env.protocol())
	}
	fd, err := logfacts.Check(ctx, logfacts.Session{Root: env.repo.Root(), Start: env.sess.StartCommit, Own: own, Changed: changed, Protocol: protocol}, rel, text)
	if err != nil || fd == nil {
		return "", err
	}
	return fmt.Sprintf("%s:%d: %s", rel, fd.Line, fd.Msg), nil
}

func contradictsMsg(glob string, why []string) string {
	return fmt.Sprintf("%s matches no log of this session: %s", glob, strings.Join(firstN(why, 3), "; "))
}
