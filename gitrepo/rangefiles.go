package gitrepo

import (
	"context"
	"fmt"
	"strings"
)

// RangeFiles lists the files changed between the merge base of base and
// tip and tip (`git diff --name-status base...tip`), renames as a delete
// and an add: what a range's work touched, for verify --rerun's {changed}.
func (r *Repo) RangeFiles(ctx context.Context, base, tip string) ([]PathChange, error) {
	for _, v := range []string{base, tip} {
		if v == "" || strings.HasPrefix(v, "-") || strings.Contains(v, ".") {
			return nil, fmt.Errorf("bad revision %q", v)
		}
	}
	b, err := run(ctx, r.root, "diff", "--no-renames", "--no-ext-diff", "--no-textconv", "--name-status", "-z", base+"..."+tip, "--")
	if err != nil {
		return nil, fmt.Errorf("diff %s...%s: %w", base, tip, err)
	}
	var out []PathChange
	f := strings.Split(strings.Trim(string(b), "\x00"), "\x00")
	for i := 0; i+1 < len(f); i += 2 {
		if st := strings.TrimSpace(f[i]); st != "" {
			out = append(out, PathChange{Commit: tip, Status: st[:1], Path: f[i+1]})
		}
	}
	return out, nil
}
