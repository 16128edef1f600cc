package recordref

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"
)

// A violation's push that the agent's own config cannot point away
// (round 28, c2; issue 25 item 8): `git config remote.origin.pushurl
// /dev/null`, `url.<dead>.insteadOf <origin>`, `core.sshCommand true`,
// GIT_SSH_COMMAND=true or a pre-push hook of its own, set before the
// violation, made records_push fail quietly, and the rewind then erased
// the only copy. PushPinned pushes to a URL pinned when the session
// started, from a scratch git dir that borrows the repository's objects
// (alternates) and has no config of its own, with git's global and system
// config and the environment's redirecting variables dropped. What git
// reads from the user's ssh config (~/.ssh/config, keys, agent) stays: it
// is how the person reaches the remote, and the agent cannot redirect a
// URL through it without also holding the host's key.

// pinnedDrop are the variables that redirect a push or a fetch.
var pinnedDrop = []string{"GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSH_VARIANT", "GIT_PROXY_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS",
	"GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS",
	"GIT_EXEC_PATH", "GIT_TEMPLATE_DIR", "GIT_ALLOW_PROTOCOL", "GIT_PROTOCOL_FROM_USER", "GIT_TRACE_PACKET", "HTTP_PROXY", "HTTPS_PROXY",
	"http_proxy", "https_proxy", "ALL_PROXY", "all_proxy", "GIT_SSL_NO_VERIFY", "GIT_CURL_VERBOSE"}

// PinnedEnv is the environment of a pinned push: os.Environ() without
// pinnedDrop and GIT_CONFIG_KEY_/VALUE_ pairs, no global or system config,
// git and ssh never prompting.
func PinnedEnv(environ []string) []string {
	var env []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_") {
			continue
		}
		drop := false
		for _, d := range pinnedDrop {
			drop = drop || name == d
		}
		if !drop {
			env = append(env, kv)
		}
	}
	return append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_TERMINAL_PROMPT=0",
		"GIT_ASKPASS="+os.DevNull, "SSH_ASKPASS="+os.DevNull, "GIT_SSH_COMMAND=ssh -o BatchMode=yes")
}

// PushPinned pushes ref to url as PushUnattended does, through a scratch
// git dir with no config (see above). A rejected push (the remote moved)
// fetches the remote's ref into the scratch dir, brings it into the
// repository and merges (Merge: a union), then pushes again.
func PushPinned(ctx context.Context, dir, url, ref string) (PushResult, error) {
	var res PushResult
	if err := ValidRef(ref); err != nil {
		return res, err
	}
	if url == "" || strings.HasPrefix(url, "-") {
		return res, fmt.Errorf("push records: bad URL %q", url)
	}
	objects, err := git(ctx, dir, nil, nil, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return res, fmt.Errorf("push records: find the repository's objects: %w", err)
	}
	scratch, err := os.MkdirTemp("", "sessiongate-push-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(scratch)
	env := PinnedEnv(os.Environ())
	run := func(args ...string) (string, error) {
		return pinnedGit(ctx, scratch, env, args...)
	}
	if _, err := run("init", "-q", "--bare", "."); err != nil {
		return res, fmt.Errorf("push records: a scratch git dir: %w", err)
	}
	alt := filepath.Join(strings.TrimSpace(objects), "objects") + "\n"
	if err := os.WriteFile(filepath.Join(scratch, "objects", "info", "alternates"), []byte(alt), 0o644); err != nil {
		return res, err
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
		out, err := run("push", "--no-verify", "--porcelain", "--quiet", url, tip+":"+ref)
		if err == nil {
			res.Pushed = true
			return res, nil
		}
		if !rejected(out, err) {
			return res, fmt.Errorf("push %s to %s: %w", ref, url, err)
		}
		if _, err := run("fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-auto-gc", url, "+"+ref+":refs/incoming"); err != nil {
			return res, fmt.Errorf("fetch %s from %s: %w", ref, url, err)
		}
		theirs, err := run("rev-parse", "--verify", "refs/incoming^{commit}")
		if err != nil {
			return res, err
		}
		// Into the repository: its objects then hold the remote's records.
		var nonce [8]byte
		rand.Read(nonce[:])
		tmp := "refs/sessiongate-incoming/" + hex.EncodeToString(nonce[:])
		if _, err := git(ctx, dir, nil, []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull}, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-auto-gc", scratch, "+refs/incoming:"+tmp); err != nil {
			return res, fmt.Errorf("bring the remote's records in: %w", err)
		}
		_, err = Merge(ctx, dir, ref, strings.TrimSpace(theirs))
		git(context.WithoutCancel(ctx), dir, nil, nil, "update-ref", "-d", tmp)
		if err != nil {
			return res, err
		}
		res.Merges++
	}
	return res, fmt.Errorf("push %s to %s: still rejected after %d rounds of fetch and merge", ref, url, pushAttempts)
}

// pinnedGit runs git in the scratch dir with env as its whole
// environment: not gitenv.Env, which keeps the caller's
// GIT_CONFIG_PARAMETERS (a `-c url.X.insteadOf=...` of the agent's).
func pinnedGit(ctx context.Context, scratch string, env []string, args ...string) (string, error) {
	cmd := gitenv.Isolated(ctx, scratch, append(slices.Clone(env), "GIT_DIR="+scratch), append([]string{"-c", "core.hooksPath=" + os.DevNull}, args...)...)
	cmd.WaitDelay = pipeGrace
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return stdout.String(), &gitError{args: args, msg: msg}
	}
	return strings.TrimSpace(stdout.String()), nil
}

// RemoteHeadPinned asks url which branch its HEAD names and the commit
// there (git ls-remote --symref) from a scratch git dir with PinnedEnv's
// environment: the remote's own answer, which nothing in the repository
// (FETCH_HEAD, a remote-tracking ref, refs/remotes/origin/HEAD, the
// config's insteadOf) can forge. branch is "" when HEAD is detached or
// absent. Bounded by remoteAskTimeout: a gate waits no longer on the
// network.
func RemoteHeadPinned(ctx context.Context, url string) (branch, sha string, err error) {
	if url == "" || strings.HasPrefix(url, "-") {
		return "", "", fmt.Errorf("ask the remote: bad URL %q", url)
	}
	ctx, cancel := context.WithTimeout(ctx, remoteAskTimeout)
	defer cancel()
	scratch, err := os.MkdirTemp("", "sessiongate-ask-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(scratch)
	env := PinnedEnv(os.Environ())
	if _, err := pinnedGit(ctx, scratch, env, "init", "-q", "--bare", "."); err != nil {
		return "", "", fmt.Errorf("ask the remote: a scratch git dir: %w", err)
	}
	out, err := pinnedGit(ctx, scratch, env, "ls-remote", "--symref", "--", url, "HEAD")
	if err != nil {
		return "", "", fmt.Errorf("ask %s for its HEAD: %w", url, err)
	}
	for _, l := range strings.Split(out, "\n") {
		left, name, ok := strings.Cut(strings.TrimSpace(l), "\t")
		if !ok || name != "HEAD" {
			continue
		}
		if target, ok := strings.CutPrefix(left, "ref: refs/heads/"); ok {
			branch = target
		} else {
			sha = left
		}
	}
	if branch == "" {
		sha = ""
	}
	return branch, sha, nil
}

// remoteAskTimeout bounds RemoteHeadPinned.
const remoteAskTimeout = 15 * time.Second
