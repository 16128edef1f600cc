package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/shorten"
)

// A branch's CI (a GitLab merge request, a GitHub or GitLab push to a
// branch) takes its base from where the work forks: the diff base, the
// merge base with the default branch. An agent that branched from a commit
// before a person's protocol change on main ran under the old protocol, and
// the fork point's protocol was that old one, so verify passed the session
// as run under "the repository's" protocol (round 53, left open). The
// branch the work lands on says which protocol binds: one changed there
// since the fork binds a session begun after the change reached it, as a
// named range origin/main..tip already judged (check, heldBefore).

// landsOn is the branch tip a range's work lands on: rev, a commit or a
// remote-tracking ref; branch, the branch to fetch when this clone lacks it.
type landsOn struct {
	rev, branch string
	// fresh: rev was fetched while choosing the range (newBranchRange).
	fresh bool
}

// targetCheck judges a session that ran under the base's protocol when the
// branch its work lands on changed the protocol since the base: a problem
// when the session began after the change reached that branch, a note when
// it began before, or when the branch cannot be read (once).
func (t *protocolTrust) targetCheck(ctx context.Context, sha, start, startedAt string) (problem, note string) {
	if t.target.rev == "" || t.bl.Rev == "" || t.bl.ProtocolPath == "" {
		return "", ""
	}
	tip, why := t.targetTip(ctx)
	if tip == "" {
		if why == "" || t.targetNoted {
			return "", ""
		}
		t.targetNoted = true
		return "", why
	}
	tb := t.targetBL
	if tb.ProtocolSHA == "" || tb.isProtocol(sha) {
		// None there (or unreadable): the base's gates stand.
		return "", ""
	}
	path := tb.ProtocolPath
	// From where the start forks from the target, but never above the base:
	// a start commit on (or above) the target's tip, which the session's
	// commits need not descend from, hid the change.
	from := t.bl.Rev
	if isHex(start) {
		if mb, err := t.repo.MergeBase(ctx, start, tip); err == nil && mb != "" {
			if anc, err := t.repo.IsAncestor(ctx, mb, t.bl.Rev); err == nil && anc {
				from = mb
			}
		}
	}
	landed, when, err := t.repo.FirstLanded(ctx, tip, from, path)
	where := fmt.Sprintf("%s, where the work lands (%s)", t.targetName(), shorten.SHA(tip))
	switch {
	case err == nil && landed == "":
		return fmt.Sprintf("the session ran under protocol sha256 %.12s, the base's; %s at %s differs and no first-parent commit there since %s changed it, so nothing shows the session began before it; rebase onto %s and start a new session there", sha, path, where, shorten.SHA(from), t.targetName()), ""
	case err != nil:
		if t.targetNoted {
			return "", ""
		}
		t.targetNoted = true
		return "", fmt.Sprintf("%s at %s differs from the base's, but git cannot say when it changed there (%v): the session was judged by the base's protocol", path, where, err)
	case when.After(time.Now().Add(landedAhead)):
		return fmt.Sprintf("the session ran under protocol sha256 %.12s, the base's; %s on %s changed it since and git dates that change %s, ahead of this run's clock (a committer date is its writer's word), so it cannot show the session began before the change; rebase onto it and do the work again in a new session", sha, shorten.SHA(landed), where, when.UTC().Format(time.RFC3339)), ""
	}
	started, perr := time.Parse(time.RFC3339Nano, startedAt)
	switch {
	case perr != nil:
		return fmt.Sprintf("the session ran under protocol sha256 %.12s, the base's; %s on %s changed it since, and the record's started_at %q is no time, so it cannot show the session began before the change", sha, shorten.SHA(landed), where, startedAt), ""
	case started.Before(when):
		return "", fmt.Sprintf("the session ran under protocol sha256 %.12s, the base's: it started at %s, before %s changed it on %s (there by %s), and a record keeps the protocol its session ran under", sha, startedAt, shorten.SHA(landed), where, when.UTC().Format(time.RFC3339))
	}
	return fmt.Sprintf("the session ran under protocol sha256 %.12s, the base's (where this work forks), but %s changed %s on %s by %s, and the session started at %s, after that: a session started after a protocol change runs under it (a branch begun from an older commit does not keep the older protocol); rebase onto %s and start a new session there (a branch that never takes %s's protocol, a release branch, names its own range in its CI job: verify origin/<branch>..HEAD)", sha, shorten.SHA(landed), path, where, when.UTC().Format(time.RFC3339), startedAt, t.targetName(), t.targetName()), ""
}

func (t *protocolTrust) targetName() string {
	if t.target.branch != "" {
		return t.target.branch
	}
	return strings.TrimPrefix(t.target.rev, "refs/remotes/")
}

// targetTip resolves the target once, fetching its branch when this clone
// lacks it and fetching is allowed; "" and why when it cannot.
func (t *protocolTrust) targetTip(ctx context.Context) (string, string) {
	if t.targetRead {
		return t.targetSHA, t.targetWhy
	}
	t.targetRead = true
	if !t.target.fresh && !t.noFetch && t.target.branch != "" && t.target.rev == "refs/remotes/origin/"+t.target.branch {
		// A build folder kept between jobs holds the target an earlier job
		// fetched (helper 330's F1): refreshed when it can be; the clone's
		// own is used when not, and a missing one is fetched below.
		_ = t.repo.FetchRevs(ctx, "origin", nil, "+refs/heads/"+t.target.branch+":"+t.target.rev)
	}
	tip, err := t.repo.ResolveRev(ctx, t.target.rev+"^{commit}")
	if (err != nil || tip == "") && t.target.branch != "" && !t.noFetch {
		ref := "refs/remotes/origin/" + t.target.branch
		if ferr := t.repo.FetchRevs(ctx, "origin", nil, "+refs/heads/"+t.target.branch+":"+ref); ferr == nil {
			tip, err = t.repo.ResolveRev(ctx, ref+"^{commit}")
		} else {
			err = ferr
		}
	}
	if err != nil || tip == "" {
		t.targetWhy = fmt.Sprintf("the branch this work lands on (%s) is not in this clone (%v): a protocol change there since the base was not checked; fetch it before verify (git fetch origin %s)", t.targetName(), err, t.targetName())
		return "", t.targetWhy
	}
	if tip == t.bl.Rev {
		return "", ""
	}
	// Its config and protocol, read once: the protocol where the target's
	// own config puts it (a person who moved it to docs/ made it no less
	// binding); without a config there, the base's path at the tip.
	tb, err := BaselineAt(ctx, t.repo, tip)
	if err != nil || tb.Rev == "" {
		tb = &Baseline{Rev: tip}
		if b, err := t.repo.ReadAt(ctx, tip, t.bl.ProtocolPath); err == nil {
			sum := sha256.Sum256(b)
			tb.ProtocolPath, tb.ProtocolSHA, tb.Protocol = t.bl.ProtocolPath, hex.EncodeToString(sum[:]), b
		}
	}
	t.targetSHA, t.targetBL = tip, tb
	return tip, ""
}
