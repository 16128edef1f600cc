// Package signerfile judges a commit's ssh signature by the allowed-signers
// file a repository commits (verify.allowed_signers), never by the git
// config of whoever runs the check.
//
// `protocol accept --signed-commit` lets the agent being policed accept a
// protocol change a listed person signed. Git's own verification reads its
// trust from config the agent's shell writes as easily as a person's:
// `gpg.ssh.allowedSignersFile` in .git/config or GIT_CONFIG_COUNT, a
// `gpg.ssh.program` that prints "Good", a GNUPGHOME keyring holding a key
// with a listed person's uid. An agent with its own key, named after a
// listed person in its own allowed-signers file, had its weakened protocol
// accepted. Here the file comes from git (HEAD's blob), the program is
// ssh-keygen, and only an ssh signature counts; every change of the file
// itself must be signed by a listed signer under the version before it, so
// an unsigned commit that puts the agent's key into the file does not
// count either (the file's first version is trusted as committed).
package signerfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
)

// maxChanges bounds the walk over the file's history: a file changed more
// often than this is judged by its last maxChanges changes' signatures and
// refused beyond them.
const maxChanges = 200

// Verify checks that commit sha carries an ssh signature that ssh-keygen
// verifies under the allowed-signers file rel as committed at HEAD, by a
// principal in signers (case-insensitive), and that every change of rel
// on HEAD's history was signed that way under the version before it. It
// returns the principal.
func Verify(ctx context.Context, root, sha, rel string, signers []string) (string, error) {
	rel = filepath.ToSlash(filepath.Clean(rel))
	if filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("verify.allowed_signers %q is not a path inside the repository", rel)
	}
	tmp, err := os.MkdirTemp("", "sessiongate-signers-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	head, err := fileAt(ctx, root, tmp, "HEAD", rel)
	if err != nil {
		return "", fmt.Errorf("read verify.allowed_signers %s at HEAD: %w", rel, err)
	}
	if err := history(ctx, root, tmp, rel, signers); err != nil {
		return "", err
	}
	return signedBy(ctx, root, sha, head, signers)
}

// history checks every commit on HEAD's history that changed rel.
func history(ctx context.Context, root, tmp, rel string, signers []string) error {
	// Topological order: the file's first version comes last.
	out, err := git(ctx, root, "log", "--full-history", "--topo-order", "--format=%H %P", "HEAD", "--", rel)
	if err != nil {
		return fmt.Errorf("read the history of %s: %w", rel, err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) > maxChanges {
		return fmt.Errorf("%s changed %d times: more than the %d changes whose signatures are checked", rel, len(lines), maxChanges)
	}
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		c, parents := f[0], f[1:]
		blob, _ := git(ctx, root, "rev-parse", "-q", "--verify", c+":"+rel)
		var before []string // the parents' versions
		same := false
		for _, p := range parents {
			pb, err := git(ctx, root, "rev-parse", "-q", "--verify", p+":"+rel)
			if err != nil {
				continue
			}
			if strings.TrimSpace(pb) == strings.TrimSpace(blob) {
				same = true // a merge that kept one side's version
			}
			before = append(before, p)
		}
		switch {
		case same:
			continue
		case len(before) == 0 && i == len(lines)-1:
			continue // the file's first version: trusted as committed
		case len(before) == 0:
			// A second root (an unrelated history merged in) or the file
			// deleted and added again: only one first version is taken.
			return fmt.Errorf("%s was added again by %.12s beside or after an earlier version: only its first version is taken unsigned", rel, c)
		}
		prev, err := fileAt(ctx, root, tmp, before[0], rel)
		if err != nil {
			return err
		}
		if _, err := signedBy(ctx, root, c, prev, signers); err != nil {
			return fmt.Errorf("%s was changed by %.12s without a listed signer's signature (judged by the file before it): %w", rel, c, err)
		}
	}
	return nil
}

// signedBy checks one commit's ssh signature under the allowed-signers
// file at path, with ssh-keygen, whatever git's config says.
func signedBy(ctx context.Context, root, sha, path string, signers []string) (string, error) {
	raw, err := git(ctx, root, "cat-file", "commit", sha)
	if err != nil {
		return "", fmt.Errorf("read commit %.12s: %w", sha, err)
	}
	if !bytes.Contains([]byte(raw), []byte("-----BEGIN SSH SIGNATURE-----")) {
		return "", fmt.Errorf("%.12s carries no ssh signature (with verify.allowed_signers only an ssh signature is judged: a gpg keyring is the agent's user's)", sha)
	}
	out, err := git(ctx, root, "-c", "gpg.ssh.allowedSignersFile="+path, "-c", "gpg.ssh.program=ssh-keygen",
		"log", "-1", "--no-walk", "--format=%G?%x00%GS", sha)
	if err != nil {
		return "", fmt.Errorf("verify %.12s: %w", sha, err)
	}
	status, signer, _ := strings.Cut(strings.TrimSpace(out), "\x00")
	if status != "G" || !slices.ContainsFunc(signers, func(s string) bool { return strings.EqualFold(s, signer) }) {
		return "", fmt.Errorf("%.12s is signed by %q (status %s), not by one of accept_signers %v", sha, signer, status, signers)
	}
	return signer, nil
}

// fileAt writes rev:rel into dir and returns its path.
func fileAt(ctx context.Context, root, dir, rev, rel string) (string, error) {
	b, err := gitenv.Command(ctx, root, nil, "cat-file", "blob", rev+":"+rel).Output()
	if err != nil {
		return "", fmt.Errorf("%s has no %s", rev, rel)
	}
	f, err := os.CreateTemp(dir, "allowed_signers-")
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		return "", err
	}
	return f.Name(), nil
}

func git(ctx context.Context, root string, args ...string) (string, error) {
	cmd := gitenv.Command(ctx, root, nil, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", errors.New(msg)
		}
		return "", err
	}
	return string(out), nil
}
