package recordref

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// AcceptDir is the folder of the records ref that holds acceptances: what
// a person accepted with `sessiongate protocol accept` (the protected
// files' sha256s, who, why, how), one file per acceptance, named by the
// sha256 of its bytes so that an edited file no longer matches its name.
// They travel with the records (pre-push, records push/pull) so that CI
// and the other clones see them; a local database row alone is not an
// acceptance (docs/security.md, "Acceptance travels in git").
const AcceptDir = "acceptances"

var acceptRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^` + AcceptDir + `/([0-9a-f]{64})\.json$`)
})

// AcceptancePath is where an acceptance with these bytes lives on the ref.
func AcceptancePath(body []byte) string {
	sum := sha256.Sum256(body)
	return AcceptDir + "/" + hex.EncodeToString(sum[:]) + ".json"
}

// PutAcceptance writes an acceptance onto ref in a commit of its own and
// returns its path and that commit. sign signs the commit with the user's
// own git signing key (gpg.format, user.signingkey): the one form of
// acceptance CI takes as proof of a person, since anyone with a shell
// (the policed agent too) can write unsigned git objects.
func PutAcceptance(ctx context.Context, dir, ref string, body []byte, sign bool) (path, commit string, err error) {
	if err := ValidRef(ref); err != nil {
		return "", "", err
	}
	if len(body) > MaxRecordBytes {
		return "", "", fmt.Errorf("write acceptance: %d bytes: %w", len(body), ErrTooLarge)
	}
	out, err := git(ctx, dir, body, nil, "hash-object", "-w", "--stdin")
	if err != nil {
		return "", "", fmt.Errorf("write acceptance: %w", err)
	}
	path = AcceptancePath(body)
	msg := "sessiongate acceptance\n\n" + path + "\n"
	commit, err = commitBlobs(ctx, dir, ref, map[string]string{path: strings.TrimSpace(out)}, msg, sign)
	if err != nil {
		if sign {
			return "", "", fmt.Errorf("write a signed acceptance (git commit-tree -S, with your user.signingkey): %w", err)
		}
		return "", "", err
	}
	return path, commit, nil
}

// AcceptanceFile is one acceptance read from the ref.
type AcceptanceFile struct {
	Path string
	Body []byte
}

// ReadAcceptances returns the acceptances at a records commit (a ref's
// tip) in two git processes. Files whose name is not the sha256 of their
// bytes (edited after they were written) and files over the size limit
// are left out: they prove nothing.
func ReadAcceptances(ctx context.Context, dir, tip string) ([]AcceptanceFile, error) {
	if tip == "" {
		return nil, nil
	}
	ls, err := git(ctx, dir, nil, nil, "ls-tree", "-r", "-z", "-l", tip, "--", AcceptDir)
	if err != nil {
		return nil, fmt.Errorf("list acceptances at %.12s: %w", tip, err)
	}
	var paths, oids []string
	for _, line := range strings.Split(ls, "\x00") {
		meta, p, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 || f[1] != "blob" || !acceptRE().MatchString(p) {
			continue
		}
		if n, err := strconv.Atoi(f[3]); err != nil || n > MaxRecordBytes {
			continue
		}
		paths, oids = append(paths, p), append(oids, f[2])
	}
	if len(oids) == 0 {
		return nil, nil
	}
	bodies, err := catBatch(ctx, dir, oids)
	if err != nil {
		return nil, fmt.Errorf("read acceptances: %w", err)
	}
	var out []AcceptanceFile
	for i, p := range paths {
		b, ok := bodies[oids[i]]
		if !ok || AcceptancePath(b) != p {
			continue
		}
		out = append(out, AcceptanceFile{Path: p, Body: b})
	}
	return out, nil
}

// Signature is git's verdict on a records commit that added acceptances.
type Signature struct {
	Commit string
	Status string // git's %G?: G good, B bad, U good but untrusted key, N none, ...
	Signer string // git's %GS: for ssh, the allowed-signers principal
}

// AcceptanceSignatures returns, for every acceptance path, the commits of
// the ref's history that added it with git's verification of their
// signature (one git process). allowedSigners, when set, is the ssh
// allowed-signers file git verifies with (gpg.ssh.allowedSignersFile);
// else git's own configuration applies.
func AcceptanceSignatures(ctx context.Context, dir, tip, allowedSigners string) (map[string][]Signature, error) {
	if tip == "" {
		return nil, nil
	}
	out := map[string][]Signature{}
	err := signedLog(ctx, dir, tip, allowedSigners, []string{"--diff-filter=A"}, []string{AcceptDir}, func(sig Signature, p string) {
		if acceptRE().MatchString(p) {
			out[p] = append(out[p], sig)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("read the acceptances' signatures: %w", err)
	}
	return out, nil
}

// signedLog runs one `git log --name-only` over the records ref's history
// at tip, limited to paths, with git's verdict on each commit's signature
// (allowedSigners, when set, is the ssh allowed-signers file), and calls
// each for every path a commit names, newest commit first.
func signedLog(ctx context.Context, dir, tip, allowedSigners string, extra, paths []string, each func(Signature, string)) error {
	args := []string{"-c", "core.hooksPath=/dev/null"}
	if allowedSigners != "" {
		args = append(args, "-c", "gpg.ssh.allowedSignersFile="+allowedSigners)
	}
	args = append(args, "log", "--no-renames")
	args = append(args, extra...)
	args = append(args, "--name-only", "--format=%x1e%H%x1f%G?%x1f%GS", tip, "--")
	cmd := exec.CommandContext(ctx, "git", append(args, paths...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	for _, rec := range strings.Split(string(b), "\x1e") {
		head, files, _ := strings.Cut(rec, "\n")
		f := strings.Split(head, "\x1f")
		if len(f) != 3 {
			continue
		}
		sig := Signature{Commit: f[0], Status: f[1], Signer: strings.TrimSpace(f[2])}
		for _, p := range strings.Fields(files) {
			each(sig, p)
		}
	}
	return nil
}
