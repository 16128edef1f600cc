package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/session"
)

// treeHooksOff maps commits without a Session-Id trailer to the session
// whose record in the tree lists them, for records kept in the tree (no
// records ref, so no actor record maps a hooks-off commit: round 23 left
// those commits failing verify as "no record of who made it"). A record
// lists its session's commits by hash, passing or BYPASS; the mapping
// only names the session, and checkCommit then judges the commit as that
// session's, as the ref's mapping does: a BYPASS fails. A record that
// lists it as passing wins over one that lists it as a BYPASS; two of the
// same kind map it to neither. The records read are kept in records.
func (s source) treeHooksOff(ctx context.Context, bare []string, records map[string]*recordCheck) (map[string]string, error) {
	if s.ref != "" || len(bare) == 0 || s.tip == "" {
		return nil, nil
	}
	prefix, suffix, ok := strings.Cut(s.template, "{session_id}")
	if !ok {
		return nil, nil
	}
	dir := prefix[:strings.LastIndex(prefix, "/")+1]
	args := []string{"ls-tree", "-r", "--name-only", "-z", s.tip}
	if dir != "" {
		args = append(args, "--", dir)
	}
	out, err := gitenv.Command(ctx, s.repo.Root(), nil, args...).Output()
	if err != nil {
		return nil, fmt.Errorf("list the session records in the tree at %.12s: %w", s.tip, err)
	}
	// passing: records that list the commit as passing its pre-commit;
	// bypassed: as a BYPASS. A passing listing wins (another session's
	// reconciliation may have charged the same commit); two of a kind
	// map the commit to neither.
	passing, bypassed := map[string][]string{}, map[string][]string{}
	for _, p := range strings.Split(string(out), "\x00") {
		if !strings.HasPrefix(p, prefix) || !strings.HasSuffix(p, suffix) || len(p) <= len(prefix)+len(suffix) {
			continue
		}
		id := p[len(prefix) : len(p)-len(suffix)]
		if session.ValidateID(id) != nil {
			continue
		}
		rc := records[id]
		if rc == nil {
			rc = loadTreeRecord(ctx, s.repo, s.tip, s.template, id)
			records[id] = rc
		}
		if rc.ids == nil {
			continue // a record that fails its own checks maps nothing
		}
		for _, sha := range bare {
			switch h := sumHex(sha); {
			case rc.bypassed[h]:
				bypassed[sha] = append(bypassed[sha], id)
			case rc.commits[h]:
				passing[sha] = append(passing[sha], id)
			}
		}
	}
	mapped := map[string]string{}
	for _, sha := range bare {
		if ids := passing[sha]; len(ids) > 0 {
			if len(ids) == 1 {
				mapped[sha] = ids[0]
			}
		} else if ids := bypassed[sha]; len(ids) == 1 {
			mapped[sha] = ids[0]
		}
	}
	return mapped, nil
}
