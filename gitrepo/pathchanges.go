package gitrepo

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// PathChange is one file a commit added (A), modified (M) or deleted (D).
type PathChange struct {
	Commit, Status, Path string
}

// PathChanges lists, newest commit first, the changes the commits revs
// select made to paths (pathspecs), in one git process. Merge commits
// list nothing of their own: what they bring is listed at the commits
// that made it. Renames are a delete and an add.
func (r *Repo) PathChanges(ctx context.Context, revs, paths []string) ([]PathChange, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	for _, v := range revs {
		if strings.HasPrefix(v, "-") && v != "--not" {
			return nil, fmt.Errorf("bad revision %q", v)
		}
	}
	args := append([]string{"log", "--no-renames", "--no-ext-diff", "--format=%x1e%H", "--name-status", "-z"}, revs...)
	b, err := run(ctx, r.root, append(append(args, "--"), paths...)...)
	if err != nil {
		return nil, fmt.Errorf("list changes to %s: %w", strings.Join(paths, ", "), err)
	}
	var out []PathChange
	// -z: "\x1e<sha>\x00\n<status>\x00<path>\x00<status>\x00<path>\x00..."
	for _, rec := range strings.Split(string(b), "\x1e") {
		f := strings.Split(rec, "\x00")
		sha := strings.TrimSpace(f[0])
		if sha == "" {
			continue
		}
		for i := 1; i+1 < len(f); i += 2 {
			st := strings.TrimSpace(f[i])
			if st == "" {
				continue
			}
			out = append(out, PathChange{Commit: sha, Status: st[:1], Path: f[i+1]})
		}
	}
	return out, nil
}

// Signer is git's verdict on one commit's signature.
type Signer struct {
	Status string // %G?: G good; B bad; U good, unknown validity; N none; ...
	Name   string // %GS: for ssh, the allowed-signers principal
}

// CommitSigners returns git's verdict on each commit's signature, in one
// git process. allowedSigners, when set, is the ssh allowed-signers file
// to verify with instead of git's gpg.ssh.allowedSignersFile.
func (r *Repo) CommitSigners(ctx context.Context, shas []string, allowedSigners string) (map[string]Signer, error) {
	out := map[string]Signer{}
	var ask []string
	for _, s := range shas {
		if s != "" && !strings.HasPrefix(s, "-") {
			ask = append(ask, s)
		}
	}
	if len(ask) == 0 {
		return out, nil
	}
	args := []string{}
	if allowedSigners != "" {
		args = append(args, "-c", "gpg.ssh.allowedSignersFile="+allowedSigners)
	}
	args = append(append(args, "log", "--no-walk=unsorted", "--format=%H%x1f%G?%x1f%GS%x1e"), ask...)
	b, err := run(ctx, r.root, append(args, "--")...)
	if err != nil {
		return nil, fmt.Errorf("read the signatures of %d commit(s): %w", len(ask), err)
	}
	for _, rec := range strings.Split(string(b), "\x1e") {
		f := strings.Split(strings.TrimSpace(rec), "\x1f")
		if len(f) == 3 {
			out[f[0]] = Signer{Status: f[1], Name: strings.TrimSpace(f[2])}
		}
	}
	return out, nil
}

// DiffZero returns `git diff -U0 --no-renames base tip -- paths` (the
// lines changed, no context), and the files it adds, modifies and deletes.
func (r *Repo) DiffZero(ctx context.Context, base, tip string, paths []string) (patch string, status []PathChange, err error) {
	for _, v := range []string{base, tip} {
		if v == "" || strings.HasPrefix(v, "-") {
			return "", nil, fmt.Errorf("bad revision %q", v)
		}
	}
	// --text: a `-diff` attribute or a NUL byte in a test file made the
	// patch "Binary files differ", hiding an added skip (adversarial pass 4).
	args := []string{"diff", "--no-renames", "--no-ext-diff", "--no-color", "--no-textconv", "--text"}
	ns, err := run(ctx, r.root, slices.Concat(args, []string{"--name-status", "-z", base, tip, "--"}, paths)...)
	if err != nil {
		return "", nil, fmt.Errorf("diff %s..%s: %w", base, tip, err)
	}
	f := strings.Split(strings.Trim(string(ns), "\x00"), "\x00")
	for i := 0; i+1 < len(f); i += 2 {
		if st := strings.TrimSpace(f[i]); st != "" {
			status = append(status, PathChange{Commit: tip, Status: st[:1], Path: f[i+1]})
		}
	}
	b, err := run(ctx, r.root, slices.Concat(args, []string{"-U0", base, tip, "--"}, paths)...)
	if err != nil {
		return "", nil, fmt.Errorf("diff %s..%s: %w", base, tip, err)
	}
	return string(b), status, nil
}
