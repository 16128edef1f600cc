package recordref

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// ActDir is the folder of the records ref that holds person acts (session
// terminate and delete, protocol accept): one file per act, named by the
// sha256 of its bytes like an acceptance, added in a records commit of its
// own that `--sign` signs. verify reads them to see removals no commit of
// its range names (docs/security.md, "Ending a session is a person's act").
const ActDir = "acts"

var actRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^` + ActDir + `/([0-9a-f]{64})\.json$`)
})

// ActPath is where an act with these bytes lives on the ref.
func ActPath(body []byte) string {
	sum := sha256.Sum256(body)
	return ActDir + "/" + hex.EncodeToString(sum[:]) + ".json"
}

// PutAct writes a person act onto ref in a commit of its own, signed with
// the user's git signing key when sign is set.
func PutAct(ctx context.Context, dir, ref string, body []byte, sign bool) (path, commit string, err error) {
	if err := ValidRef(ref); err != nil {
		return "", "", err
	}
	if len(body) > MaxRecordBytes {
		return "", "", fmt.Errorf("write person act: %d bytes: %w", len(body), ErrTooLarge)
	}
	out, err := git(ctx, dir, body, nil, "hash-object", "-w", "--stdin")
	if err != nil {
		return "", "", fmt.Errorf("write person act: %w", err)
	}
	path = ActPath(body)
	commit, err = commitBlobs(ctx, dir, ref, map[string]string{path: strings.TrimSpace(out)}, "sessiongate person act\n\n"+path+"\n", sign)
	if err != nil {
		if sign {
			return "", "", fmt.Errorf("write a signed person act (git commit-tree -S, with your user.signingkey): %w", err)
		}
		return "", "", err
	}
	return path, commit, nil
}

// ActFile is one act read from the ref.
type ActFile struct {
	Path string
	Body []byte
}

// ReadActs returns the acts at a records commit in two git processes;
// files whose name is not the sha256 of their bytes are left out.
func ReadActs(ctx context.Context, dir, tip string) ([]ActFile, error) {
	if tip == "" {
		return nil, nil
	}
	ls, err := git(ctx, dir, nil, nil, "ls-tree", "-r", "-z", "-l", tip, "--", ActDir)
	if err != nil {
		return nil, fmt.Errorf("list person acts at %.12s: %w", tip, err)
	}
	var paths, oids []string
	for _, line := range strings.Split(ls, "\x00") {
		meta, p, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 || f[1] != "blob" || !actRE().MatchString(p) {
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
		return nil, fmt.Errorf("read person acts: %w", err)
	}
	var out []ActFile
	for i, p := range paths {
		if b, ok := bodies[oids[i]]; ok && ActPath(b) == p {
			out = append(out, ActFile{Path: p, Body: b})
		}
	}
	return out, nil
}

// ActSignatures returns, for every act path, the records commits that
// added it with git's verdict on their signature (one git process).
func ActSignatures(ctx context.Context, dir, tip, allowedSigners string) (map[string][]Signature, error) {
	if tip == "" {
		return nil, nil
	}
	out := map[string][]Signature{}
	err := signedLog(ctx, dir, tip, allowedSigners, []string{"--diff-filter=A"}, []string{ActDir}, func(sig Signature, p string) {
		if actRE().MatchString(p) {
			out[p] = append(out[p], sig)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("read the person acts' signatures: %w", err)
	}
	return out, nil
}
