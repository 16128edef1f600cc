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

// hashedFiles is a folder of the records ref that holds one JSON file per
// entry, named by the sha256 of its bytes and added in a records commit of
// its own that --sign signs: acceptances (AcceptDir) and person acts
// (ActDir). One writer, one reader and one signature reader serve both.
type hashedFiles struct {
	dir  string // the ref's folder
	what string // for messages and the commit's subject: "acceptance"
	re   func() *regexp.Regexp
}

// newHashedFiles compiles its name pattern on first use: a hook process
// that reads no records pays nothing at start.
func newHashedFiles(dir, what string) hashedFiles {
	return hashedFiles{dir: dir, what: what, re: sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^` + dir + `/([0-9a-f]{64})\.json$`)
	})}
}

// File is one acceptance or act read from the ref.
type File struct {
	Path string
	Body []byte
}

// path is where a file with these bytes lives on the ref.
func (h hashedFiles) path(body []byte) string {
	sum := sha256.Sum256(body)
	return h.dir + "/" + hex.EncodeToString(sum[:]) + ".json"
}

// put writes body onto ref in a commit of its own, signed with the user's
// git signing key (gpg.format, user.signingkey) when sign is set.
func (h hashedFiles) put(ctx context.Context, dir, ref string, body []byte, sign bool) (path, commit string, err error) {
	if err := ValidRef(ref); err != nil {
		return "", "", err
	}
	if len(body) > MaxRecordBytes {
		return "", "", fmt.Errorf("write %s: %d bytes: %w", h.what, len(body), ErrTooLarge)
	}
	out, err := git(ctx, dir, body, nil, "hash-object", "-w", "--stdin")
	if err != nil {
		return "", "", fmt.Errorf("write %s: %w", h.what, err)
	}
	path = h.path(body)
	commit, err = commitBlobs(ctx, dir, ref, map[string]string{path: strings.TrimSpace(out)}, "sessiongate "+h.what+"\n\n"+path+"\n", sign)
	if err != nil {
		if sign {
			return "", "", fmt.Errorf("write a signed %s (git commit-tree -S, with your user.signingkey): %w", h.what, err)
		}
		return "", "", err
	}
	return path, commit, nil
}

// read returns the files at a records commit (a ref's tip) in two git
// processes. Files whose name is not the sha256 of their bytes (edited
// after they were written) and files over the size limit are left out:
// they prove nothing.
func (h hashedFiles) read(ctx context.Context, dir, tip string) ([]File, error) {
	if tip == "" {
		return nil, nil
	}
	ls, err := git(ctx, dir, nil, nil, "ls-tree", "-r", "-z", "-l", tip, "--", h.dir)
	if err != nil {
		return nil, fmt.Errorf("list %ss at %.12s: %w", h.what, tip, err)
	}
	var paths, oids []string
	for _, line := range strings.Split(ls, "\x00") {
		meta, p, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 || f[1] != "blob" || !h.re().MatchString(p) {
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
		return nil, fmt.Errorf("read %ss: %w", h.what, err)
	}
	var out []File
	for i, p := range paths {
		if b, ok := bodies[oids[i]]; ok && h.path(b) == p {
			out = append(out, File{Path: p, Body: b})
		}
	}
	return out, nil
}

// signatures returns, for every file path, the commits of the ref's
// history that added it with git's verification of their signature (one
// git process). allowedSigners, when set, is the ssh allowed-signers file
// git verifies with (gpg.ssh.allowedSignersFile); else git's own
// configuration applies.
func (h hashedFiles) signatures(ctx context.Context, dir, tip, allowedSigners string) (map[string][]Signature, error) {
	if tip == "" {
		return nil, nil
	}
	out := map[string][]Signature{}
	err := signedLog(ctx, dir, tip, allowedSigners, []string{"--diff-filter=A"}, []string{h.dir}, func(sig Signature, p string) {
		if h.re().MatchString(p) {
			out[p] = append(out[p], sig)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("read the %ss' signatures: %w", h.what, err)
	}
	return out, nil
}
