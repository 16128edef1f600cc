package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
)

// A range named by a remote branch (`sessiongate verify origin/main..HEAD`,
// as people write it for commitlint or git log) in a checkout that fetched
// one branch (`actions/checkout`'s default, `git clone --branch X --depth
// 1`, GitLab's detached pipelines) has no origin/main: verify stopped at
// "resolve origin/main: git rev-parse: exit status 1" (lazy pass 49's
// CI-shape log). The branch is fetched into its remote-tracking ref, at
// depth 1 in a shallow clone (Complete deepens from there), and the range
// is read from its commit.

// fetchNamedBase fetches the range's base when it names a branch of a
// configured remote that this clone lacks, and returns the commit it
// fetched; "" when the base resolves, is a commit id, or names no remote.
func (rg *Range) fetchNamedBase(ctx context.Context, repo *gitrepo.Repo, fetch bool) (string, error) {
	if !rg.named || rg.Base == "" || isHex(rg.Base) {
		return "", nil
	}
	if _, err := repo.ResolveRev(ctx, rg.Base); err == nil {
		return "", nil
	}
	remote, branch, ok := strings.Cut(rg.Base, "/")
	if !ok || branch == "" || strings.ContainsAny(branch, "^~:@{}") || remote == "" {
		return "", nil
	}
	if repo.RemoteURL(remote) == "" {
		return "", nil
	}
	ref := "refs/remotes/" + remote + "/" + branch
	what := fmt.Sprintf("its base %s is not in this clone (a checkout of one branch fetches no other)", rg.Base)
	if !fetch {
		return "", &EnvError{Msg: fmt.Sprintf("cannot check every commit of %s (%s): %s and fetching is off (--no-fetch). Fetch it (git fetch origin %s:%s) or name the base by its commit id", rg.Text, rg.How, what, branch, ref)}
	}
	shallow, err := repo.IsShallow(ctx)
	if err != nil {
		return "", err
	}
	var opts []string
	if shallow {
		opts = append(opts, "--depth=1")
	}
	if err := repo.FetchRevs(ctx, remote, opts, "+refs/heads/"+branch+":"+ref); err != nil {
		return "", shallowError(rg, shallow, what, err)
	}
	rg.Fetched = append(rg.Fetched, strings.Join(append(append([]string{"git fetch"}, opts...), remote, branch+":"+ref), " "))
	return repo.ResolveRev(ctx, ref)
}
