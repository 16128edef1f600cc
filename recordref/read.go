package recordref

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Read returns the record of a session at a records commit (a ref's tip)
// and its path on the ref. A record over MaxRecordBytes is not read
// (ErrTooLarge); a path that is not a regular file is ErrNotARecord.
func Read(ctx context.Context, dir, commit, id string) ([]byte, string, error) {
	p, err := Path(id)
	if err != nil {
		return nil, "", err
	}
	out, err := git(ctx, dir, nil, nil, "ls-tree", "-l", "-z", commit, "--", p)
	if err != nil {
		return nil, p, fmt.Errorf("look up %s: %w", p, err)
	}
	line := strings.TrimRight(out, "\x00")
	if line == "" {
		return nil, p, ErrNoRecord
	}
	meta, _, _ := strings.Cut(line, "\t")
	f := strings.Fields(meta)
	if len(f) != 4 || f[1] != "blob" || f[0] != "100644" {
		return nil, p, fmt.Errorf("%s: %w (mode %s)", p, ErrNotARecord, strings.Join(f, " "))
	}
	size, err := strconv.ParseInt(f[3], 10, 64)
	if err != nil {
		return nil, p, fmt.Errorf("%s: size %q: %w", p, f[3], err)
	}
	if size > MaxRecordBytes {
		return nil, p, fmt.Errorf("%s is %d bytes, over the %d-byte limit: %w", p, size, MaxRecordBytes, ErrTooLarge)
	}
	body, err := git(ctx, dir, nil, nil, "cat-file", "blob", f[2])
	if err != nil {
		return nil, p, fmt.Errorf("read %s: %w", p, err)
	}
	return []byte(body), p, nil
}

// Change is a record a commit added or changed.
type Change struct {
	Commit    string // the records commit
	Path      string
	SessionID string // "" when the path is not a record path
	Blob      string
}

// Changes lists, oldest commit first, the records that the commits
// reachable from tip but not from since (since "" = all) added or changed:
// what an indexer reads to catch up from the last tip it saw. Merge commits
// are skipped: they only unite records their parents already added.
// Oldest means ancestors first (--topo-order): git's default order walks
// by committer date, which the writer sets (GIT_COMMITTER_DATE), and a
// side commit dated 2001 and merged in was listed before the commits it
// descends from, so a clock or schema floor (findFloor) read it as
// written before the floor.
func Changes(ctx context.Context, dir, since, tip string) ([]Change, error) {
	rng := tip
	if since != "" {
		rng = since + ".." + tip
	}
	out, err := git(ctx, dir, nil, nil, "log", "--reverse", "--topo-order", "--no-merges", "--no-renames", "--format=%x1e%H", "--raw", "-z", "--no-abbrev", "--diff-filter=AM", rng, "--")
	if err != nil {
		return nil, fmt.Errorf("list records commits %s: %w", rng, err)
	}
	var chs []Change
	for _, block := range strings.Split(out, "\x1e") {
		if block == "" {
			continue
		}
		parts := strings.Split(block, "\x00")
		commit := strings.TrimSpace(parts[0])
		// --raw -z: ":oldmode newmode old new status\0path\0" per file.
		for i := 1; i+1 < len(parts); i += 2 {
			meta := strings.Fields(strings.TrimSpace(parts[i]))
			if len(meta) != 5 {
				break
			}
			p := parts[i+1]
			chs = append(chs, Change{Commit: commit, Path: p, SessionID: IDOfPath(p), Blob: meta[3]})
		}
	}
	return chs, nil
}

// RecentSessions lists, newest first and once each, the sessions whose
// records the newest n records commits reachable from tip added or
// changed (ancestry order: the writer sets the dates). verify reads these
// for sessions of a branch none of whose commits shipped (a bound: a
// team's ref holds thousands of records).
func RecentSessions(ctx context.Context, dir, tip string, n int) ([]string, error) {
	out, err := git(ctx, dir, nil, nil, "log", "--topo-order", "--no-merges", "--no-renames", "-n", strconv.Itoa(n), "--format=", "--name-only", "-z", tip, "--", Dir)
	if err != nil {
		return nil, fmt.Errorf("list recent records at %.12s: %w", tip, err)
	}
	seen := map[string]bool{}
	var ids []string
	for _, p := range strings.Split(out, "\x00") {
		if id := IDOfPath(strings.TrimSpace(p)); id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// VersionsMatching returns, for each session whose record a diff in the
// newest n records commits reachable from tip added or removed a line
// matching the extended regular expression re (`git log -G`), the record's
// versions those commits wrote, newest first (deletions are no version).
// A record is one line of JSON, so a version carrying a violation code the
// pattern names is found even when a later commit rewrote or deleted it:
// verify reads what the ref once said, not only what its tip says now.
func VersionsMatching(ctx context.Context, dir, tip string, n int, re string) (map[string][][]byte, error) {
	out, err := git(ctx, dir, nil, nil, "log", "--topo-order", "--no-merges", "--no-renames", "-n", strconv.Itoa(n),
		"--format=", "--raw", "--no-abbrev", "-G", re, tip, "--", Dir)
	if err != nil {
		return nil, fmt.Errorf("list records at %.12s matching %s: %w", tip, re, err)
	}
	byID := map[string][]string{}
	var blobs []string
	for _, line := range strings.Split(out, "\n") {
		meta, path, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		id := IDOfPath(strings.TrimSpace(path))
		if !ok || len(f) != 5 || f[4] == "D" || id == "" {
			continue
		}
		byID[id] = append(byID[id], f[3])
		blobs = append(blobs, f[3])
	}
	if len(blobs) == 0 {
		return nil, nil
	}
	bodies, err := catBatch(ctx, dir, blobs)
	if err != nil {
		return nil, fmt.Errorf("read records at %.12s matching %s: %w", tip, re, err)
	}
	res := make(map[string][][]byte, len(byID))
	for id, bs := range byID {
		for _, b := range bs {
			if body, ok := bodies[b]; ok {
				res[id] = append(res[id], body)
			}
		}
	}
	return res, nil
}
