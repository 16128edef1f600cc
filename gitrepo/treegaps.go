package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/ctime"
)

// TreeGaps lists the tracked paths whose work tree lets a test run read
// something the commit does not hold, in ways HiddenFiles and git status
// do not report (lazy-agent pass 16), each with how:
//
//   - A file flagged assume-unchanged and absent from the work tree:
//     status does not look at it, and no sparse checkout sets that flag.
//   - A file flagged skip-worktree and absent from the work tree, unless a
//     sparse checkout that predates since leaves it out. `git update-index
//     --skip-worktree greet_test.go && rm greet_test.go`, or `git
//     sparse-checkout set` during the session, made `go test ./...` pass
//     without the test the commit holds, and status read the tree clean.
//     A sparse checkout a person set before the session is how a large
//     repository is worked on: its absent files are left alone, and so
//     are those of one changed in the session outside the folders the
//     work tree has (cone mode, widened), but never a file the session
//     itself changed (in changed): a cone narrowed mid-session took the
//     broken package out whole.
//   - A path in changed (the session's changes) that is a symbolic link
//     resolving outside the work tree, or to a path git does not track:
//     the commit holds only the link's text, and the tests ran the file it
//     points at (`ln -s /tmp/mine/greet.sh scripts/greet.sh`), which no
//     clone has.
func (r *Repo) TreeGaps(ctx context.Context, since time.Time, changed []string) (map[string]string, error) {
	out := map[string]string{}
	entries, ok := r.indexFlagged(ctx)
	if !ok {
		var err error
		if entries, err = r.lsFlagged(ctx); err != nil {
			return nil, err
		}
	}
	var absent []string
	for p, e := range entries {
		if _, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(p))); err == nil {
			continue // present: HiddenFiles compares its content
		}
		if e.how == "assume-unchanged" {
			// No sparse checkout sets this flag, and git status does not
			// look at the file: `git update-index --assume-unchanged
			// greet_test.go && rm greet_test.go` read clean.
			out[p] = "absent from the work tree and flagged assume-unchanged (git update-index), so git status reads it unchanged and the tests ran without the file the commit holds"
			continue
		}
		if e.how != "skip-worktree" {
			continue
		}
		absent = append(absent, p)
	}
	if len(absent) > 0 {
		sparse, err := r.sparseSince(ctx, since)
		if err != nil {
			return nil, err
		}
		var kept map[string]bool
		if sparse == "" {
			// The person's sparse checkout explains only the files its
			// patterns leave out: `git update-index --skip-worktree
			// greet_test.go && rm greet_test.go` in a checkout sparse
			// about docs/ was excused as the sparse checkout's.
			if kept, err = r.sparseKeeps(ctx, absent); err != nil {
				return nil, err
			}
		}
		mine := map[string]bool{}
		for _, p := range changed {
			mine[p] = true
		}
		for _, p := range absent {
			if mine[p] {
				// The session changed a file its work tree does not hold:
				// no run here read it, whoever's sparse checkout left it
				// out (`git sparse-checkout set shout` in cone mode after
				// committing a broken greet/, round 17).
				out[p] = "changed in the session, but absent from the work tree (flagged skip-worktree: a sparse checkout leaves it out), so no test run here read it"
				continue
			}
			if sparse == "" {
				if kept[p] {
					out[p] = "absent from the work tree and flagged skip-worktree, though the sparse checkout's patterns keep it, so the tests ran without the file the commit holds"
				}
				continue
			}
			if sparse != noSparse {
				// A sparse checkout changed in the session: only a file
				// carved out of a folder the work tree has is taken for
				// hiding. Cone mode never leaves one (it checks out every
				// file of a folder it keeps), so widening a cone mid-session
				// (`git sparse-checkout add src2`) names nothing.
				if _, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(path.Dir(p)))); err != nil {
					continue
				}
			}
			out[p] = "absent from the work tree and flagged skip-worktree (" + sparse + "), so the tests ran without the file the commit holds"
		}
	}
	var links, regular []string
	for _, p := range changed {
		fi, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(p)))
		switch {
		case err != nil:
		case fi.Mode()&os.ModeSymlink != 0:
			links = append(links, p)
		case fi.Mode().IsRegular():
			regular = append(regular, p)
		}
	}
	if err := r.linksAsText(ctx, regular, out); err != nil {
		return nil, err
	}
	if err := r.reencoded(ctx, regular, out); err != nil {
		return nil, err
	}
	if len(links) == 0 {
		return out, nil
	}
	root, err := filepath.EvalSymlinks(r.root)
	if err != nil {
		return nil, fmt.Errorf("resolve the work tree %s: %w", r.root, err)
	}
	for _, p := range links {
		dest, err := filepath.EvalSymlinks(filepath.Join(r.root, filepath.FromSlash(p)))
		if err != nil {
			continue // dangling: the run saw nothing, as a clone does
		}
		rel, err := filepath.Rel(root, dest)
		if err != nil || !filepath.IsLocal(rel) {
			out[p] = "a symbolic link to " + dest + ", outside the repository: the commit holds the link, not what the tests ran"
			continue
		}
		rel = filepath.ToSlash(rel)
		b, err := run(ctx, r.root, "ls-files", "-z", "--", ":(literal)"+rel)
		if err != nil {
			return nil, fmt.Errorf("is %s tracked: %w", rel, err)
		}
		if len(b) == 0 {
			out[p] = "a symbolic link to " + rel + ", which git does not track: the commit holds the link, not what the tests ran"
		}
	}
	return out, nil
}

// noSparse is sparseSince's answer when no sparse checkout is configured.
const noSparse = "no sparse checkout is configured: git update-index set the flag"

// sparseSince says why the work tree's absent skip-worktree files hide
// something: "" when a sparse checkout set up before since leaves them out
// (its pattern file's change time, which no user call sets back, is older).
func (r *Repo) sparseSince(ctx context.Context, since time.Time) (string, error) {
	b, err := run(ctx, r.root, "config", "--type=bool", "--default=false", "core.sparseCheckout")
	if err != nil {
		return "", fmt.Errorf("read core.sparseCheckout: %w", err)
	}
	if strings.TrimSpace(string(b)) != "true" {
		return noSparse, nil
	}
	pat := filepath.Join(r.gitDir, "info", "sparse-checkout")
	ct, err := ctime.Of(pat)
	if err != nil {
		return "a sparse checkout with no pattern file " + pat, nil
	}
	if !since.IsZero() && !ct.Before(since) {
		return "the sparse checkout's patterns changed at " + ct.UTC().Format(time.RFC3339) + ", after the session started", nil
	}
	return "", nil
}

// sparseKeeps reports which of paths the sparse checkout's patterns keep
// in the work tree. The patterns are gitignore patterns (cone mode writes
// a subset), so git check-ignore matches them, in a scratch repository
// whose only exclude file is the pattern file: the repository's own
// .gitignore files must not count.
func (r *Repo) sparseKeeps(ctx context.Context, paths []string) (map[string]bool, error) {
	pats, err := boundedread.File(filepath.Join(r.gitDir, "info", "sparse-checkout"), boundedread.DefaultLimit)
	if err != nil {
		return nil, fmt.Errorf("read the sparse checkout's patterns: %w", err)
	}
	dir, err := os.MkdirTemp("", "sessiongate-sparse-")
	if err != nil {
		return nil, fmt.Errorf("sparse patterns: %w", err)
	}
	defer os.RemoveAll(dir)
	if _, err := run(ctx, dir, "init", "-q"); err != nil {
		return nil, fmt.Errorf("sparse patterns: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), pats, 0o644); err != nil {
		return nil, fmt.Errorf("sparse patterns: %w", err)
	}
	cmd := gitenv.Command(ctx, dir, nil, "-c", "core.excludesFile="+os.DevNull, "check-ignore", "--no-index", "--stdin", "-z")
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\x00") + "\x00")
	b, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) { // 1: none matched
		return nil, fmt.Errorf("match the sparse checkout's patterns: %w", err)
	}
	kept := map[string]bool{}
	for _, p := range splitZ(b) {
		kept[p] = true
	}
	return kept, nil
}

// linksAsText adds to out each of regular (changed files the work tree
// holds as regular files) that the index holds as a symbolic link (mode
// 120000) whose target would be the file's text: with core.symlinks=false
// git stages a file over a link's entry as the link's target, so the
// commit holds a link to a path named by the script's text while the tests
// ran the script (lazy pass 47's A8; status reads clean). A checkout
// without symbolic links (Windows) holds an honest link as a one-line
// file naming its target: only a text no path could be (a line break, a
// NUL, over 1 KB) is taken. At most maxLinkCheck paths, one git process.
func (r *Repo) linksAsText(ctx context.Context, regular []string, out map[string]string) error {
	if len(regular) == 0 {
		return nil
	}
	if len(regular) > maxLinkCheck {
		regular = regular[:maxLinkCheck]
	}
	args := []string{"ls-files", "-s", "-z", "--"}
	for _, p := range regular {
		args = append(args, ":(literal)"+p)
	}
	b, err := run(ctx, r.root, args...)
	if err != nil {
		return fmt.Errorf("read the index's modes: %w", err)
	}
	for _, e := range splitZ(b) {
		meta, p, ok := strings.Cut(e, "\t")
		if !ok || !strings.HasPrefix(meta, "120000 ") {
			continue
		}
		text, err := boundedread.Head(filepath.Join(r.root, filepath.FromSlash(p)), 1025)
		if err != nil {
			continue
		}
		if len(text) > 1024 || bytes.ContainsAny(text, "\n\x00") {
			out[p] = "staged as a symbolic link (mode 120000, core.symlinks=false) whose target is this file's text: the commit holds a link, not the file the tests ran"
		}
	}
	return nil
}

// maxLinkCheck bounds the changed files linksAsText asks git about.
const maxLinkCheck = 256

// reencoded adds to out each of regular that a working-tree-encoding
// attribute set outside the repository's own .gitattributes (in
// .git/info/attributes or the user's attributes file) makes git commit as
// other bytes than the work tree holds: greet.sh re-encoded as IBM037 on
// its way into the commit while the tests ran the script (lazy pass 47's
// A9; status reads clean). A project that commits the attribute (a UTF-16
// resource) declares it where every clone reads it: not asked. Nothing
// runs unless one of those files names the attribute.
func (r *Repo) reencoded(ctx context.Context, regular []string, out map[string]string) error {
	if len(regular) == 0 || !r.localAttributesMention(ctx, "working-tree-encoding") {
		return nil
	}
	if len(regular) > maxLinkCheck {
		regular = regular[:maxLinkCheck]
	}
	args := []string{"check-attr", "-z", "working-tree-encoding", "--"}
	b, err := run(ctx, r.root, append(args, regular...)...)
	if err != nil {
		return fmt.Errorf("read working-tree-encoding attributes: %w", err)
	}
	var set []string
	f := splitZ(b)
	for i := 0; i+2 < len(f); i += 3 {
		if v := f[i+2]; v != "unspecified" && v != "unset" && v != "" {
			set = append(set, f[i])
		}
	}
	if len(set) == 0 {
		return nil
	}
	raw, err := r.hashObjects(ctx, set, true)
	if err != nil {
		return err
	}
	conv, err := r.hashObjects(ctx, set, false)
	if err != nil {
		return err
	}
	for i, p := range set {
		if raw[i] != conv[i] {
			out[p] = "committed through a working-tree-encoding attribute set outside the repository's .gitattributes: the commit holds other bytes than the file the tests ran"
		}
	}
	return nil
}

// localAttributesMention reports whether an attributes file of this clone
// or user that no commit carries (.git/info/attributes, core.attributesFile
// or its default, $XDG_CONFIG_HOME/git/attributes) holds word.
func (r *Repo) localAttributesMention(ctx context.Context, word string) bool {
	files := []string{filepath.Join(r.CommonDir(), "info", "attributes")}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		files = append(files, filepath.Join(x, "git", "attributes"))
	} else if h, err := os.UserHomeDir(); err == nil {
		files = append(files, filepath.Join(h, ".config", "git", "attributes"))
	}
	if r.ConfigMentions(os.Getenv, "attributesfile") {
		if b, err := run(ctx, r.root, "config", "--path", "--get", "core.attributesFile"); err == nil {
			if p := strings.TrimSpace(string(b)); p != "" {
				if !filepath.IsAbs(p) {
					p = filepath.Join(r.root, p)
				}
				files = append(files, p)
			}
		}
	}
	for _, f := range files {
		if b, err := boundedread.File(f, boundedread.DefaultLimit); err == nil && bytes.Contains(bytes.ToLower(b), []byte(word)) {
			return true
		}
	}
	return false
}
