package recordref

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Record is one session record to write.
type Record struct {
	SessionID string
	Body      []byte
}

// casAttempts bounds the retries of a compare-and-swap that keeps losing
// to other writers (worktrees of the same clone write the same ref).
const casAttempts = 64

// Put writes records to ref in one commit on top of the ref's tip and
// moves the ref with update-ref's compare-and-swap; when another writer
// moved it first, Put rebuilds on the new tip and tries again. It returns
// the new commit. A record already on the ref with the same bytes is not
// written again (Put of an unchanged record makes no commit).
func Put(ctx context.Context, dir, ref string, recs []Record) (string, error) {
	if err := ValidRef(ref); err != nil {
		return "", err
	}
	if len(recs) == 0 {
		return "", errors.New("write records: none given")
	}
	paths := make([]string, len(recs))
	for i, r := range recs {
		p, err := Path(r.SessionID)
		if err != nil {
			return "", fmt.Errorf("write record: %w", err)
		}
		if len(r.Body) > MaxRecordBytes {
			return "", fmt.Errorf("write record %s: %d bytes, over the %d-byte limit: %w", p, len(r.Body), MaxRecordBytes, ErrTooLarge)
		}
		paths[i] = p
	}
	oids, err := hashObjects(ctx, dir, recs)
	if err != nil {
		return "", err
	}
	blobs := make(map[string]string, len(recs))
	ids := make([]string, 0, len(recs))
	for i, r := range recs {
		if _, dup := blobs[paths[i]]; !dup {
			ids = append(ids, r.SessionID)
		}
		blobs[paths[i]] = oids[i]
	}
	sort.Strings(ids)
	msg := fmt.Sprintf("sessiongate records: %d session(s)\n\n%s\n", len(ids), strings.Join(ids, "\n"))
	return commitBlobs(ctx, dir, ref, blobs, msg, false)
}

// commitBlobs sets paths to blobs in one commit on top of ref's tip and
// moves ref by compare-and-swap, rebuilding on a new tip when another
// writer moved it first. sign makes the commit with git's own signing
// (commit-tree -S: the user's gpg or ssh key, gpg.format, user.signingkey).
// A tree that does not change makes no commit.
func commitBlobs(ctx context.Context, dir, ref string, blobs map[string]string, msg string, sign bool) (string, error) {
	var lastErr error
	for attempt := 0; attempt < casAttempts; attempt++ {
		if attempt > 0 {
			backoff(ctx, attempt)
		}
		old, err := Tip(ctx, dir, ref)
		if err != nil {
			return "", err
		}
		tree, err := treeOf(ctx, dir, old)
		if err != nil {
			return "", err
		}
		base := tree
		if tree, err = setPaths(ctx, dir, tree, blobs); err != nil {
			return "", fmt.Errorf("write records: %w", err)
		}
		if tree == base {
			return old, nil
		}
		args := []string{"commit-tree", tree, "-m", msg}
		if sign {
			args = append(args, "-S")
		}
		if old != "" {
			args = append(args, "-p", old)
		}
		out, err := git(ctx, dir, nil, commitIdentity, args...)
		if err != nil {
			return "", fmt.Errorf("write records commit: %w", err)
		}
		commit := strings.TrimSpace(out)
		if err := casRef(ctx, dir, ref, commit, old); err != nil {
			lastErr = err
			continue
		}
		return commit, nil
	}
	return "", fmt.Errorf("write records to %s: lost the compare-and-swap %d times to other writers: %w", ref, casAttempts, lastErr)
}

// casRef moves ref from old ("" = must not exist) to new.
func casRef(ctx context.Context, dir, ref, new, old string) error {
	_, err := git(ctx, dir, nil, nil, "update-ref", "-m", "sessiongate records", ref, new, old)
	if err != nil {
		return fmt.Errorf("move %s: %w", ref, err)
	}
	return nil
}

// backoff sleeps a little, more with each attempt, with jitter so that
// writers that collided do not collide again in lockstep.
func backoff(ctx context.Context, attempt int) {
	d := time.Duration(1+rand.IntN(5*min(attempt, 20))) * time.Millisecond
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// hashObjects writes the records' bodies as blobs and returns their ids in
// order: one git process for the whole batch (bodies go through files in a
// temporary folder, which --stdin-paths needs), or --stdin for one record.
func hashObjects(ctx context.Context, dir string, recs []Record) ([]string, error) {
	if len(recs) == 1 {
		out, err := git(ctx, dir, recs[0].Body, nil, "hash-object", "-w", "--stdin")
		if err != nil {
			return nil, fmt.Errorf("write record %s: %w", recs[0].SessionID, err)
		}
		return []string{strings.TrimSpace(out)}, nil
	}
	tmp, err := os.MkdirTemp("", "sessiongate-records-")
	if err != nil {
		return nil, fmt.Errorf("write records: %w", err)
	}
	defer os.RemoveAll(tmp)
	// git reads --stdin-paths from the repository's top, not from here: a
	// relative TMPDIR must be made absolute.
	if tmp, err = filepath.Abs(tmp); err != nil {
		return nil, fmt.Errorf("write records: %w", err)
	}
	var list bytes.Buffer
	for i, r := range recs {
		f := filepath.Join(tmp, strconv.Itoa(i))
		if err := os.WriteFile(f, r.Body, 0o600); err != nil {
			return nil, fmt.Errorf("write record %s: %w", r.SessionID, err)
		}
		list.WriteString(f + "\n")
	}
	out, err := git(ctx, dir, list.Bytes(), nil, "hash-object", "-w", "--no-filters", "--stdin-paths")
	if err != nil {
		return nil, fmt.Errorf("write records: %w", err)
	}
	oids := strings.Fields(out)
	if len(oids) != len(recs) {
		return nil, fmt.Errorf("write records: git hash-object gave %d ids for %d records", len(oids), len(recs))
	}
	return oids, nil
}
