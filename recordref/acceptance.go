package recordref

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
)

// AcceptDir is the folder of the records ref that holds acceptances: what
// a person accepted with `sessiongate protocol accept` (the protected
// files' sha256s, who, why, how), one file per acceptance, named by the
// sha256 of its bytes so that an edited file no longer matches its name.
// They travel with the records (pre-push, records push/pull) so that CI
// and the other clones see them; a local database row alone is not an
// acceptance (docs/security.md, "Acceptance travels in git").
const AcceptDir = "acceptances"

var accepts = newHashedFiles(AcceptDir, "acceptance")

// AcceptancePath is where an acceptance with these bytes lives on the ref.
func AcceptancePath(body []byte) string { return accepts.path(body) }

// PutAcceptance writes an acceptance onto ref in a commit of its own and
// returns its path and that commit. sign signs the commit with the user's
// own git signing key (gpg.format, user.signingkey): the one form of
// acceptance CI takes as proof of a person, since anyone with a shell
// (the policed agent too) can write unsigned git objects.
func PutAcceptance(ctx context.Context, dir, ref string, body []byte, sign bool) (path, commit string, err error) {
	return accepts.put(ctx, dir, ref, body, sign)
}

// AcceptanceFile is one acceptance read from the ref.
type AcceptanceFile = File

// ReadAcceptances returns the acceptances at a records commit (a ref's
// tip) in two git processes; edited or oversized files are left out.
func ReadAcceptances(ctx context.Context, dir, tip string) ([]AcceptanceFile, error) {
	return accepts.read(ctx, dir, tip)
}

// Signature is git's verdict on a records commit that added acceptances.
type Signature struct {
	Commit string
	Status string // git's %G?: G good, B bad, U good but untrusted key, N none, ...
	Signer string // git's %GS: for ssh, the allowed-signers principal
}

// AcceptanceSignatures returns, for every acceptance path, the commits of
// the ref's history that added it with git's verification of their
// signature (one git process).
func AcceptanceSignatures(ctx context.Context, dir, tip, allowedSigners string) (map[string][]Signature, error) {
	return accepts.signatures(ctx, dir, tip, allowedSigners)
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
	cmd := gitenv.Command(ctx, dir, nil, append(args, paths...)...)
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
