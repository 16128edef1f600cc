package gitrepo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
)

// A change fingerprint names what a commit changed without its content:
// for every path it changes, the modes and blob ids before and after
// ("<old mode> <new mode> <old blob> <new blob>\t<path>", one a line,
// sorted by path). A patch id holds no line numbers, so the same hunk at
// a second spot with the same context matched it; blob ids name the whole
// file, so only the same files before and after do. verify compares a
// rewritten commit's fingerprint with one its session recorded
// (verify/rewrites.go). "" means none: a merge, an empty change, or one
// past MaxChangePaths.

// MaxChangePaths bounds a fingerprint: a commit of more paths records
// none (its rewrite then fails closed in CI, as before fingerprints).
const MaxChangePaths = 2000

// diff-tree is plumbing; no renames (a rename is a delete and an add, two
// paths each with its blobs), every path of the commit (-r), raw output
// NUL-separated so no path is quoted.

// ChangePrint returns commit's change fingerprint, after a first line
// "parent <sha256 of its first parent's id>" ("parent -" for a root
// commit) that places it in its session's run (records hash commit ids):
// one git process.
func (r *Repo) ChangePrint(ctx context.Context, commit string) (string, error) {
	if !hexRev(commit) {
		return "", fmt.Errorf("change fingerprint: bad commit %q", commit)
	}
	args := []string{"diff-tree", "-r", "--raw", "-z", "--no-renames", "--root", "--format=%P", commit, "--"}
	out, err := run(ctx, r.root, args...)
	if err != nil {
		return "", fmt.Errorf("change fingerprint of %s: %w", commit, err)
	}
	head, rest, _ := bytes.Cut(out, []byte{0})
	parents := strings.Fields(string(head))
	if len(parents) > 1 {
		return "", fmt.Errorf("change fingerprint of %s: a merge", commit)
	}
	parent := "-"
	if len(parents) == 1 {
		sum := sha256.Sum256([]byte(parents[0]))
		parent = hex.EncodeToString(sum[:])
	}
	p, err := ParseChangePrint(bytes.TrimLeft(rest, "\n"))
	if err != nil || p == "" {
		return "", err
	}
	return "parent " + parent + "\n" + p, nil
}

// ChangePrints returns the fingerprints of commits, in one git process
// (diff-tree --stdin).
func (r *Repo) ChangePrints(ctx context.Context, commits []string) (map[string]string, error) {
	prints := make(map[string]string, len(commits))
	if len(commits) == 0 {
		return prints, nil
	}
	var in bytes.Buffer
	for _, c := range commits {
		if !hexRev(c) {
			return nil, fmt.Errorf("change fingerprints: bad commit %q", c)
		}
		in.WriteString(c + "\n")
	}
	args := []string{"diff-tree", "--stdin", "-r", "--raw", "-z", "--no-renames", "--root", "--always"}
	// Through gitenv like every other git: a replace ref or graft would
	// make a hooks-off commit read as a recorded one's change.
	cmd := gitenv.Command(ctx, r.root, nil, append(slices.Clip(statHonest), args...)...)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("change fingerprints: git diff-tree: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	// --stdin -z prints each commit id NUL-terminated, then its entries,
	// each ":meta" then its path.
	fields := bytes.Split(out, []byte{0})
	cur := ""
	var body []byte
	flush := func() {
		if cur != "" {
			p, err := ParseChangePrint(body)
			if err != nil {
				p = "" // no fingerprint: its rewrite fails closed
			}
			prints[cur] = p
		}
	}
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		switch {
		case len(f) == 0:
		case f[0] == ':' && i+1 < len(fields):
			body = append(append(append(append(body, f...), 0), fields[i+1]...), 0)
			i++
		default:
			flush()
			cur, body = string(f), nil
		}
	}
	flush()
	return prints, nil
}

// ParseChangePrint makes a fingerprint of `git diff-tree -r --raw -z`
// output.
func ParseChangePrint(out []byte) (string, error) {
	fields := bytes.Split(bytes.TrimRight(out, "\x00"), []byte{0})
	var lines []string
	for i := 0; i+1 < len(fields); i += 2 {
		meta, path := string(fields[i]), string(fields[i+1])
		if meta == "" {
			i-- // a stray separator: realign on the next field
			continue
		}
		f := strings.Fields(strings.TrimPrefix(meta, ":"))
		if !strings.HasPrefix(meta, ":") || len(f) != 5 {
			return "", fmt.Errorf("change fingerprint: git diff-tree printed %q", meta)
		}
		if strings.ContainsAny(path, "\n\t") {
			return "", fmt.Errorf("change fingerprint: a path with a newline or tab")
		}
		lines = append(lines, f[0]+" "+f[1]+" "+f[2]+" "+f[3]+"\t"+path)
		if len(lines) > MaxChangePaths {
			return "", fmt.Errorf("change fingerprint: more than %d paths", MaxChangePaths)
		}
	}
	slices.SortFunc(lines, func(a, b string) int {
		return strings.Compare(a[strings.IndexByte(a, '\t'):], b[strings.IndexByte(b, '\t'):])
	})
	return strings.Join(lines, "\n"), nil
}

// CommitsWithBlob returns the commits reachable from rev that change path
// and, when blob is not "", add or remove that blob there (git log
// --find-object), newest first, with their trailers: the few commits whose
// change fingerprint can equal one that writes blob at path, without
// taking every commit's fingerprint.
func (r *Repo) CommitsWithBlob(ctx context.Context, rev, blob, path string) ([]Commit, error) {
	if !hexRev(rev) || (blob != "" && !hexRev(blob)) || path == "" {
		return nil, fmt.Errorf("commits with a blob: bad arguments %q %q %q", rev, blob, path)
	}
	args := []string{"log", "--format=%x1e%H%x1f%s%x1f%(trailers:only,unfold)%x1f"}
	if blob != "" {
		args = append(args, "--find-object="+blob)
	}
	b, err := run(ctx, r.root, append(args, rev, "--", ":(literal)"+path)...)
	if err != nil {
		return nil, fmt.Errorf("commits with blob %s at %s: %w", blob, path, err)
	}
	out, err := parseLog(string(b))
	if err != nil {
		return nil, fmt.Errorf("commits with blob %s at %s: %w", blob, path, err)
	}
	return out, nil
}
