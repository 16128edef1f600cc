package recordref

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
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
	type blob struct{ path, oid, id string }
	var blobs []blob
	for _, r := range recs {
		p, err := Path(r.SessionID)
		if err != nil {
			return "", fmt.Errorf("write record: %w", err)
		}
		if len(r.Body) > MaxRecordBytes {
			return "", fmt.Errorf("write record %s: %d bytes, over the %d-byte limit: %w", p, len(r.Body), MaxRecordBytes, ErrTooLarge)
		}
		out, err := git(ctx, dir, r.Body, nil, "hash-object", "-w", "--stdin")
		if err != nil {
			return "", fmt.Errorf("write record %s: %w", p, err)
		}
		blobs = append(blobs, blob{path: p, oid: strings.TrimSpace(out), id: r.SessionID})
	}
	sort.Slice(blobs, func(i, j int) bool { return blobs[i].path < blobs[j].path })
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
		var ids []string
		for _, b := range blobs {
			if tree, err = setPath(ctx, dir, tree, strings.Split(b.path, "/"), b.oid); err != nil {
				return "", fmt.Errorf("write record %s: %w", b.path, err)
			}
			ids = append(ids, b.id)
		}
		if tree == base {
			return old, nil
		}
		msg := fmt.Sprintf("sessiongate records: %d session(s)\n\n%s\n", len(ids), strings.Join(ids, "\n"))
		args := []string{"commit-tree", tree, "-m", msg}
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
