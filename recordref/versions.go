package recordref

import (
	"context"
	"strings"
)

// versions lists the blobs path held in the history of records commit
// tip, each once, in the order git lists the commits that wrote them:
// oldest first when oldestFirst (log --reverse), else newest first. A
// deletion is no version. One git process; RecordTimes and PinHistory
// read their versions through it.
//
// --full-history: by default a merge TREESAME to one parent is followed
// through that parent only, so a merge onto a side commit (the old tip its
// second parent, a fast-forward push) hid the versions the other parent
// wrote. --raw lists each commit's new blob for the path; merges only
// unite what their parents wrote (-m off), so each version shows once.
func versions(ctx context.Context, dir, tip, path string, oldestFirst bool) ([]string, error) {
	args := []string{"log", "--full-history", "--format=", "--raw", "--no-abbrev", "--no-renames"}
	if oldestFirst {
		args = append(args, "--reverse")
	}
	out, err := git(ctx, dir, nil, nil, append(args, tip, "--", path)...)
	if err != nil {
		return nil, err
	}
	return rawBlobs(out), nil
}

// rawBlobs reads the new blob of each line of `git log --raw --no-abbrev`
// output (":100644 100644 <old> <new> M\tpath"), first listed first, each
// blob once; deletions are skipped.
func rawBlobs(out string) []string {
	var blobs []string
	seen := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		meta, _, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 5 || f[4] == "D" || seen[f[3]] {
			continue
		}
		seen[f[3]] = true
		blobs = append(blobs, f[3])
	}
	return blobs
}
