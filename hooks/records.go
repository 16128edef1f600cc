package hooks

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/boundedread"
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
func (rt *Runtime) pushRecords(ctx context.Context, repo *gitrepo.Repo, cfg *config.Config, args []string, pushed [][]string) {
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

// doctorRecords reports the records ref (local reads only: doctor never
// touches the network) and whether anything pushes it.
func doctorRecords(ctx context.Context, loc hooksLocation, cfg *config.Config) []Finding {
	ref := cfg.SessionRecord
	if !session.IsRecordRef(ref) {
		return nil
	}
	var out []Finding
	tip, err := recordref.Tip(ctx, loc.Root, ref)
	switch {
	case err != nil:
		out = append(out, Finding{"records ref", Fail, err.Error(), "check session_record in sessiongate.yaml"})
	case tip == "":
		out = append(out, Finding{"records ref", OK, ref + ": no records in this clone yet (session_end writes the first)", ""})
	default:
		ids, err := recordref.List(ctx, loc.Root, tip)
		if err != nil {
			out = append(out, Finding{"records ref", Fail, err.Error(), "`git fsck`; `sessiongate records pull` brings the remote's copy"})
		} else {
			out = append(out, Finding{"records ref", OK, fmt.Sprintf("%s: %d session record(s) at %.12s", ref, len(ids), tip), ""})
		}
	}
	b, err := readHook(filepath.Join(loc.Dir, "pre-push"))
	framework := false
	if fb, ferr := boundedread.File(filepath.Join(loc.Root, ".pre-commit-config.yaml"), boundedread.DefaultLimit); ferr == nil && bytes.Contains(fb, []byte("sessiongate-pre-push")) {
		framework = true
	}
	if (err != nil || !IsOurs(b)) && !framework {
		out = append(out, Finding{"records push", Warn, "no sessiongate pre-push hook: git push does not send " + ref + ", so CI's verify will not find the records",
			"sessiongate install (or --hooks pre-push); meanwhile `sessiongate records push` after a push"})
	}
	return out
}
