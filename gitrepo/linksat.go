package gitrepo

import (
	"context"
	"fmt"
	"strings"
)

// LinksAt lists which of paths are symbolic links in commit rev's tree,
// each with the path it points to (the blob's text): a test file made a
// link runs the tests of the file it names, which a reader of the link's
// blob does not see (verify's rerun guard).
func (r *Repo) LinksAt(ctx context.Context, rev string, paths []string) (map[string]string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("bad revision %q", rev)
	}
	out := map[string]string{}
	if len(paths) == 0 {
		return out, nil
	}
	b, err := run(ctx, r.root, append([]string{"ls-tree", "-z", rev, "--"}, paths...)...)
	if err != nil {
		return nil, fmt.Errorf("ls-tree %s: %w", rev, err)
	}
	for _, e := range splitZ(b) {
		// "<mode> <type> <object>\t<path>"
		meta, p, ok := strings.Cut(e, "\t")
		if !ok || !strings.HasPrefix(meta, "120000 ") {
			continue
		}
		target, err := r.ReadAt(ctx, rev, p)
		if err != nil {
			return nil, fmt.Errorf("read the link %s at %s: %w", p, rev, err)
		}
		out[p] = strings.TrimSpace(string(target))
	}
	return out, nil
}
