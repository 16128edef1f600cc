package hooks

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
)

// pushRecords sends the records ref along with an allowed push, to the
// same remote: the only hook that touches the network, and only because
// the push it guards does. The nested push runs with --no-verify (no
// recursion into this hook); when another clone pushed records first, it
// fetches, merges (a union) and pushes again. A failure warns and lets the
// code through: the records stay on the local ref and the next push sends
// them (meanwhile CI's verify names the missing record).
func (rt *Runtime) pushRecords(ctx context.Context, repo *hookRepo, cfg *config.Config, args []string, pushed [][]string) {
	ref := cfg.SessionRecord
	if !session.IsRecordRef(ref) {
		return
	}
	for _, f := range pushed {
		if f[2] == ref {
			return // this push sends the records ref itself
		}
	}
	remote := ""
	switch {
	case len(args) > 0 && args[0] != "":
		remote = args[0]
	case len(args) > 1:
		remote = args[1]
	default: // the pre-commit framework passes the remote in its environment
		remote = rt.getenv("PRE_COMMIT_REMOTE_NAME")
		if remote == "" {
			remote = rt.getenv("PRE_COMMIT_REMOTE_URL")
		}
	}
	if remote == "" {
		fmt.Fprintf(rt.Stderr, "sessiongate: warning: session records not pushed: git named no remote to pre-push; push them with `sessiongate records push <remote>` (%s)\n", ref)
		return
	}
	res, err := recordref.Push(ctx, repo.Root(), remote, ref)
	if err != nil {
		fmt.Fprintf(rt.Stderr, "sessiongate: warning: session records (%s) not pushed: %v\n  they stay on the local ref and the next push sends them; `sessiongate records push %s` sends them now\n",
			ref, strings.TrimSpace(err.Error()), remote)
		return
	}
	if res.Merges > 0 {
		fmt.Fprintf(rt.Stderr, "sessiongate: session records merged with %s's (%d round(s)) and pushed\n", remote, res.Merges)
	}
}

// PutRecord writes a session record onto a records ref (session.RecordRefWriter).
func (r *hookRepo) PutRecord(ctx context.Context, ref, id string, body []byte) (string, error) {
	repo, err := r.open(ctx)
	if err != nil {
		return "", err
	}
	return repo.PutRecord(ctx, ref, id, body)
}
