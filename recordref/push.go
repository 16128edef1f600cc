package recordref

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
)

// pushAttempts bounds push, fetch, merge, push again: each round loses
// only to a push that landed in between, so a few rounds always suffice in
// practice; the bound keeps a misbehaving remote from looping forever.
const pushAttempts = 8

// PushResult says what Push did.
type PushResult struct {
	Pushed  bool   // the remote's ref now holds Tip
	Skipped bool   // no local records ref: nothing to push
	Tip     string // the commit pushed
	Merges  int    // rounds that fetched and merged the remote's records
}

// Push sends ref to remote (a remote name or URL) with --no-verify (no
// pre-push hook: this runs inside ours). When the remote's ref moved (a
// push from another clone), Push fetches it, merges it into the local ref
// (Merge: a union, nothing lost) and pushes again.
func Push(ctx context.Context, dir, remote, ref string) (PushResult, error) {
	return push(ctx, dir, remote, ref, nil)
}

// noPrompt keeps a push no person waits on from asking for a password or
// a host key: it fails instead (offline, no credentials). The user's own
// ssh command (GIT_SSH_COMMAND, GIT_SSH: a key, a proxy) is kept.
func noPrompt() []string {
	env := []string{"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=" + os.DevNull, "SSH_ASKPASS=" + os.DevNull}
	if os.Getenv("GIT_SSH_COMMAND") == "" && os.Getenv("GIT_SSH") == "" {
		env = append(env, "GIT_SSH_COMMAND=ssh -o BatchMode=yes")
	}
	return env
}

// PushUnattended is Push for a hook that pushes on its own (records_push):
// git and ssh never prompt, so a remote that needs a person's answer fails
// at once instead of waiting for the hook's time limit.
func PushUnattended(ctx context.Context, dir, remote, ref string) (PushResult, error) {
	return push(ctx, dir, remote, ref, noPrompt())
}

func push(ctx context.Context, dir, remote, ref string, env []string) (PushResult, error) {
	var res PushResult
	if err := ValidRef(ref); err != nil {
		return res, err
	}
	if remote == "" || strings.HasPrefix(remote, "-") {
		return res, fmt.Errorf("push records: bad remote %q", remote)
	}
	for attempt := 0; attempt < pushAttempts; attempt++ {
		if attempt > 0 {
			backoff(ctx, attempt)
		}
		tip, err := Tip(ctx, dir, ref)
		if err != nil {
			return res, err
		}
		if tip == "" {
			res.Skipped = true
			return res, nil
		}
		res.Tip = tip
		// An explicit sha:ref pushes exactly the commit merged into (a
		// concurrent writer moving the local ref meanwhile waits for the
		// next push).
		out, err := git(ctx, dir, nil, env, "push", "--no-verify", "--porcelain", "--quiet", remote, tip+":"+ref)
		if err == nil {
			res.Pushed = true
			return res, nil
		}
		if !rejected(out, err) {
			return res, fmt.Errorf("push %s to %s: %w", ref, remote, err)
		}
		remoteTip, err := fetchEnv(ctx, dir, remote, ref, env)
		if err != nil {
			return res, err
		}
		if remoteTip == "" {
			continue // the remote's ref went away meanwhile: just push again
		}
		if _, err := Merge(ctx, dir, ref, remoteTip); err != nil {
			return res, err
		}
		res.Merges++
	}
	return res, fmt.Errorf("push %s to %s: still rejected after %d rounds of fetch and merge", ref, remote, pushAttempts)
}

// rejected reports whether a failed push was refused because the remote's
// ref moved (non-fast-forward, fetch first, or a lost ref lock on the
// server), the cases a fetch and merge resolve.
func rejected(out string, err error) bool {
	text := out + "\n" + err.Error()
	for _, s := range []string{"[rejected]", "fetch first", "non-fast-forward", "cannot lock ref", "failed to update ref", "stale info"} {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

// fetch brings the remote's records ref into a temporary local ref (so
// concurrent pushes from several worktrees never share one) and returns
// its commit ("" when the remote has no such ref).
func fetch(ctx context.Context, dir, remote, ref string) (string, error) {
	return fetchEnv(ctx, dir, remote, ref, nil)
}

func fetchEnv(ctx context.Context, dir, remote, ref string, env []string) (string, error) {
	var nonce [8]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return "", err
	}
	tmp := "refs/sessiongate-incoming/" + hex.EncodeToString(nonce[:])
	defer git(context.WithoutCancel(ctx), dir, nil, nil, "update-ref", "-d", tmp)
	_, err := git(ctx, dir, nil, env, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-auto-gc", remote, "+"+ref+":"+tmp)
	if err != nil {
		var ge *gitError
		if errors.As(err, &ge) && strings.Contains(ge.msg, "couldn't find remote ref") {
			return "", nil
		}
		return "", fmt.Errorf("fetch %s from %s: %w", ref, remote, err)
	}
	out, err := git(ctx, dir, nil, nil, "rev-parse", "--verify", tmp+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("fetch %s from %s: %w", ref, remote, err)
	}
	return strings.TrimSpace(out), nil
}

// Pull fetches the remote's records ref and merges it into the local one
// (a union: nothing local is lost, unlike a forced fetch). It returns the
// local tip afterwards; "" when neither side has records.
func Pull(ctx context.Context, dir, remote, ref string) (string, error) {
	return pull(ctx, dir, remote, ref, false)
}

// PullKeepLocal is Pull merging by MergeKeepLocal: CI merging a fork's
// records into origin's (`records pull --keep-local`).
func PullKeepLocal(ctx context.Context, dir, remote, ref string) (string, error) {
	return pull(ctx, dir, remote, ref, true)
}

func pull(ctx context.Context, dir, remote, ref string, keepLocal bool) (string, error) {
	if err := ValidRef(ref); err != nil {
		return "", err
	}
	if remote == "" || strings.HasPrefix(remote, "-") {
		return "", fmt.Errorf("fetch records: bad remote %q", remote)
	}
	theirs, err := fetch(ctx, dir, remote, ref)
	if err != nil {
		return "", err
	}
	if theirs == "" {
		return Tip(ctx, dir, ref)
	}
	return merge(ctx, dir, ref, theirs, keepLocal)
}

// List returns the session ids with a record at a records commit, sorted.
func List(ctx context.Context, dir, commit string) ([]string, error) {
	out, err := git(ctx, dir, nil, nil, "ls-tree", "-r", "-z", "--name-only", commit, "--", Dir)
	if err != nil {
		return nil, fmt.Errorf("list records at %.12s: %w", commit, err)
	}
	var ids []string
	for _, p := range strings.Split(out, "\x00") {
		if id := IDOfPath(p); id != "" {
			ids = append(ids, id)
		}
	}
	return ids, nil
}
