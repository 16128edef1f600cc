// Package recordref keeps session records on a git ref of their own
// (refs/sessiongate/records by default), off the working branch: one file
// per session, sessions/<first two hex digits>/<session id>.json, and one
// commit per batch of records, so a reader can walk only the commits it has
// not seen. Writes use git plumbing only (hash-object, mktree, commit-tree,
// update-ref with the old value), so the work tree, the index and HEAD are
// never touched, and every git call runs with hooks turned off.
// docs/team.md ("Records ref") describes the format and why.
package recordref

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/snapshot"
)

// DefaultRef is the records ref new configs name.
const DefaultRef = "refs/sessiongate/records"

// Dir is the folder of the records ref that holds session records.
const Dir = "sessions"

// MaxRecordBytes bounds one record: a reader skips a larger one, a writer
// refuses to write it.
const MaxRecordBytes = snapshot.MaxRecordBytes

// Errors a reader tells apart.
var (
	ErrNoRef      = errors.New("records ref missing")
	ErrNoRecord   = errors.New("no record for this session on the records ref")
	ErrTooLarge   = errors.New("record too large")
	ErrNotARecord = errors.New("not a record file")
)

// commitIdentity names the writer of records commits: a fixed name, so a
// commit never depends on (or leaks) the local git identity, and git never
// refuses to commit for want of user.name.
var commitIdentity = []string{
	"GIT_AUTHOR_NAME=sessiongate", "GIT_AUTHOR_EMAIL=sessiongate@invalid",
	"GIT_COMMITTER_NAME=sessiongate", "GIT_COMMITTER_EMAIL=sessiongate@invalid",
}

// Compiled on first use: package init runs in every hook process.
var refRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^refs/[A-Za-z0-9._/-]+$`) })

// ValidRef reports whether ref is a ref name records can live on.
func ValidRef(ref string) error {
	if !refRE().MatchString(ref) || strings.Contains(ref, "..") || strings.Contains(ref, "//") ||
		strings.HasSuffix(ref, "/") || strings.HasSuffix(ref, ".lock") || strings.HasSuffix(ref, ".") ||
		strings.Contains(ref, "/.") || strings.HasPrefix(ref, "refs/heads/") || strings.HasPrefix(ref, "refs/tags/") {
		return fmt.Errorf("%q is not a records ref: want refs/<name>/..., outside refs/heads/ and refs/tags/ (e.g. %s)", ref, DefaultRef)
	}
	return nil
}

var idRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
})

// Path is where a session's record lives on the ref.
func Path(id string) (string, error) {
	if !idRE().MatchString(id) {
		return "", fmt.Errorf("session id %q is not a lowercase UUID", id)
	}
	return Dir + "/" + id[:2] + "/" + id + ".json", nil
}

// IDOfPath returns the session id a record path names ("" for any other path).
func IDOfPath(p string) string {
	parts := strings.Split(p, "/")
	if len(parts) != 3 || parts[0] != Dir || !strings.HasSuffix(parts[2], ".json") {
		return ""
	}
	id := strings.TrimSuffix(parts[2], ".json")
	if !idRE().MatchString(id) || id[:2] != parts[1] {
		return ""
	}
	return id
}

// git runs git in dir with hooks off (update-ref would run the
// reference-transaction hook) and the inherited environment, so inside a
// git hook git's GIT_DIR applies.
// pipeGrace is how long git's output is waited for after git was killed
// or exited (exec.Cmd.WaitDelay).
const pipeGrace = 200 * time.Millisecond

func git(ctx context.Context, dir string, stdin []byte, env []string, args ...string) (string, error) {
	full := append([]string{"-c", "core.hooksPath=" + os.DevNull}, args...)
	cmd := gitenv.Command(ctx, dir, env, full...)
	// A push or fetch cut at its budget kills git, but its children
	// (receive-pack and the remote's hooks on a path remote, ssh) keep the
	// output pipes open: without a bound, the wait lasted as long as the
	// slow remote did (TestPushUnattendedSlowRemoteBounded).
	cmd.WaitDelay = pipeGrace
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if out := strings.TrimSpace(stdout.String()); msg == "" && out != "" {
			// Its output alone hid why it failed (a kill, a signal).
			msg = out + " (" + err.Error() + ")"
		}
		if msg == "" {
			msg = err.Error()
		}
		if ctx.Err() != nil {
			msg += " (" + ctx.Err().Error() + ")"
		}
		return stdout.String(), &gitError{args: args, msg: msg}
	}
	return stdout.String(), nil
}

type gitError struct {
	args []string
	msg  string
}

func (e *gitError) Error() string { return "git " + e.args[0] + ": " + e.msg }

// Tip returns the commit the ref points at, "" when it does not exist.
func Tip(ctx context.Context, dir, ref string) (string, error) {
	if err := ValidRef(ref); err != nil {
		return "", err
	}
	out, err := git(ctx, dir, nil, nil, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if err != nil {
		if strings.TrimSpace(out) == "" {
			var ge *gitError
			if errors.As(err, &ge) && ge.msg == "exit status 1" {
				return "", nil
			}
		}
		return "", fmt.Errorf("read %s: %w", ref, err)
	}
	return strings.TrimSpace(out), nil
}

// treeEntry is one line of ls-tree / mktree.
type treeEntry struct {
	mode, typ, oid string
	size           int64 // -1 when unknown
}

// lsTree lists a tree's entries by name ("" tree: none).
func lsTree(ctx context.Context, dir, tree string) (map[string]treeEntry, error) {
	m := map[string]treeEntry{}
	if tree == "" {
		return m, nil
	}
	out, err := git(ctx, dir, nil, nil, "ls-tree", "-z", tree)
	if err != nil {
		return nil, fmt.Errorf("list tree %s: %w", tree, err)
	}
	for _, line := range strings.Split(out, "\x00") {
		if line == "" {
			continue
		}
		meta, name, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("list tree %s: unexpected line %q", tree, line)
		}
		m[name] = treeEntry{mode: f[0], typ: f[1], oid: f[2], size: -1}
	}
	return m, nil
}

// mkTree writes a tree of entries.
func mkTree(ctx context.Context, dir string, entries map[string]treeEntry) (string, error) {
	var b bytes.Buffer
	for name, e := range entries {
		fmt.Fprintf(&b, "%s %s %s\t%s\x00", e.mode, e.typ, e.oid, name)
	}
	out, err := git(ctx, dir, b.Bytes(), nil, "mktree", "-z")
	if err != nil {
		return "", fmt.Errorf("write tree: %w", err)
	}
	return strings.TrimSpace(out), nil
}

// treeOf returns a commit's tree ("" for no commit).
func treeOf(ctx context.Context, dir, commit string) (string, error) {
	if commit == "" {
		return "", nil
	}
	out, err := git(ctx, dir, nil, nil, "rev-parse", "--verify", commit+"^{tree}")
	if err != nil {
		return "", fmt.Errorf("tree of %s: %w", commit, err)
	}
	return strings.TrimSpace(out), nil
}

// setPaths returns tree with each path (slash-separated) set to its blob,
// rewriting only the trees on the way, each once however many records it
// gains: a batch costs two git processes per touched tree, not per record
// (a shard holds a few hundred entries, whatever the total).
func setPaths(ctx context.Context, dir, tree string, blobs map[string]string) (string, error) {
	entries, err := lsTree(ctx, dir, tree)
	if err != nil {
		return "", err
	}
	subs := map[string]map[string]string{}
	for p, oid := range blobs {
		first, rest, nested := strings.Cut(p, "/")
		if !nested {
			entries[first] = treeEntry{mode: "100644", typ: "blob", oid: oid}
			continue
		}
		if subs[first] == nil {
			subs[first] = map[string]string{}
		}
		subs[first][rest] = oid
	}
	for name, sub := range subs {
		old := ""
		if e, ok := entries[name]; ok && e.typ == "tree" {
			old = e.oid
		}
		nsub, err := setPaths(ctx, dir, old, sub)
		if err != nil {
			return "", err
		}
		entries[name] = treeEntry{mode: "040000", typ: "tree", oid: nsub}
	}
	return mkTree(ctx, dir, entries)
}
