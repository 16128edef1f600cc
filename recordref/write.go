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

// Put writes records to ref in one commit on top of the ref's tip with one
// `git fast-import` (putFastImport), which moves the ref only when the new
// commit contains its tip; when another writer moved it first, Put
// rebuilds on the new tip and tries again. It returns
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
	bodies := make(map[string][]byte, len(recs))
	ids := make([]string, 0, len(recs))
	for i, r := range recs {
		if _, dup := bodies[paths[i]]; !dup {
			ids = append(ids, r.SessionID)
		}
		bodies[paths[i]] = r.Body // the last of a session's records wins
	}
	sort.Strings(ids)
	msg := fmt.Sprintf("sessiongate records: %d session(s)\n\n%s\n", len(ids), strings.Join(ids, "\n"))
	return importBodies(ctx, dir, ref, bodies, msg, "write records")
}

// importBodies sets bodies (path -> content) on ref's tree in one commit
// made by fast-import, retried on the new tip when another writer moved
// the ref first (what names the write in errors).
func importBodies(ctx context.Context, dir, ref string, bodies map[string][]byte, msg, what string) (string, error) {
	var lastErr error
	for attempt := 0; attempt < casAttempts; attempt++ {
		if attempt > 0 {
			backoff(ctx, attempt)
		}
		old, err := putTip(ctx, dir, ref)
		if err != nil {
			return "", err
		}
		commit, err := putFastImport(ctx, dir, ref, old, bodies, msg)
		if errors.Is(err, errLostRace) {
			lastErr = err
			continue
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		return commit, nil
	}
	return "", fmt.Errorf("%s to %s: lost the compare-and-swap %d times to other writers: %w", what, ref, casAttempts, lastErr)
}

// putBlobs sets each path of blobs (path -> blob id) on ref's tree in one
// commit made by commit-tree, moved with update-ref's compare-and-swap and
// rebuilt on the new tip when another writer moved it first. Actor records
// and acceptances go this way (acceptances may be signed, which fast-import
// cannot do); Put's batches go through fast-import. An unchanged tree makes
// no commit.
func putBlobs(ctx context.Context, dir, ref string, blobs map[string]string, msg string) (string, error) {
	return commitBlobs(ctx, dir, ref, blobs, msg, false)
}

// commitBlobs is putBlobs with sign: the commit is made with git's own
// signing (commit-tree -S: the user's gpg or ssh key, gpg.format,
// user.signingkey).
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
