package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/gitrepo"
)

// A range named on the command line (`verify origin/main..HEAD`, the
// documented form for release jobs, Jenkins, CircleCI) is resolved by git,
// which takes refs/tags/NAME before refs/remotes/NAME and only warns. An
// agent that may push tags pushed one named origin/main at its own
// hooks-off commit: in a clone that fetched tags (actions/checkout with
// fetch-depth 0, GitLab's GIT_DEPTH 0) the range began there, leaving that
// commit unchecked and its sessiongate.yaml the trusted base; at a child
// of HEAD it held nothing (round 56, helper 335's F1). A short name that
// means two refs is refused (exit 2), naming both: which one the team
// meant is not for verify to guess.

// refuseAmbiguous returns an *EnvError when a short name in the named
// range matches more than one ref.
func (rg *Range) refuseAmbiguous(ctx context.Context, repo *gitrepo.Repo) error {
	if !rg.named {
		return nil
	}
	for _, name := range rangeNames(rg.Text) {
		refs, err := repo.RefsNamed(ctx, name)
		if err != nil {
			return fmt.Errorf("read the refs %s can mean: %w", name, err)
		}
		if isHex(name) && len(refs) > 0 {
			// A ref named like a commit id: git takes the ref (helper
			// 336's F6, a tag named as the base's short id).
			return envErrorf("cannot check %s: %q is ambiguous, both a commit id and %s (git takes the ref): name the base by its full commit id or delete the ref", rg.Text, name, strings.Join(refs, " and "))
		}
		if len(refs) > 1 {
			return envErrorf("cannot check %s: %q is ambiguous, it names %s (git takes the first): name the one meant in full (%s) or delete the other", rg.Text, name, strings.Join(refs, " and "), strings.Replace(rg.Text, name, refs[len(refs)-1], 1))
		}
	}
	return nil
}

// rangeNames lists the short ref names a range spec holds: "a..b",
// "a...b", "b^!", "a~2..b^" give a and b; commit ids, full refs and HEAD
// are no short names.
func rangeNames(spec string) []string {
	var out []string
	for _, part := range strings.Split(strings.ReplaceAll(spec, "...", ".."), "..") {
		if i := strings.IndexAny(part, "^~:"); i >= 0 {
			part = part[:i]
		}
		if i := strings.Index(part, "@{"); i >= 0 {
			part = part[:i]
		}
		switch {
		case part == "", part == "@", strings.HasPrefix(part, "refs/"), len(part) == 40 && isHex(part):
			continue // a full commit id is taken as one
		case strings.HasSuffix(part, "HEAD") && !strings.Contains(part, "/"):
			continue // HEAD, FETCH_HEAD, ORIG_HEAD: git's own
		}
		out = append(out, part)
	}
	return out
}
