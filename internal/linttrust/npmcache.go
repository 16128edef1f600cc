package linttrust

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// An agent's own `npm ci` after its session started (the usual first step
// on a fresh clone) stamps every file of the linter with a fresh ctime, so
// the ctime rule alone would refuse the honest install. Such a package is
// proven by content instead: package-lock.json (as it was when the session
// started) names each package's tarball by its sha512 ("integrity"); npm
// keeps that tarball in its content-addressed cache (_cacache/content-v2/
// sha512/..), and the installed files must be exactly the tarball's. The
// agent can write the cache too, but not a tarball whose sha512 is the one
// the lock named, so where the file lives does not matter: it is hashed.

// maxTarball bounds a cached tarball read (markdownlint's is ~150 KB).
const maxTarball = 64 << 20

// cacheDirs are the places npm keeps its content cache, most specific
// first: npm_config_cache (npm reads its config from the environment in
// any case), then the platform default.
func cacheDirs() []string {
	var dirs []string
	for _, k := range []string{"npm_config_cache", "NPM_CONFIG_CACHE"} {
		if v := os.Getenv(k); v != "" {
			dirs = append(dirs, filepath.Join(v, "_cacache"))
		}
	}
	if runtime.GOOS == "windows" {
		if v := os.Getenv("LocalAppData"); v != "" {
			dirs = append(dirs, filepath.Join(v, "npm-cache", "_cacache"))
		}
	} else if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".npm", "_cacache"))
	}
	return dirs
}

// tarball returns the cached tarball whose digest integrity (an SRI string
// from package-lock.json: "sha512-<base64>") names, read and hashed.
func tarball(integrity string) ([]byte, error) {
	var sum []byte
	var algo string
	var h hash.Hash
	// An SRI value may list several digests; the strongest one is enough.
	for _, f := range strings.Fields(integrity) {
		a, b64, ok := strings.Cut(f, "-")
		if !ok {
			continue
		}
		d, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			continue
		}
		switch a {
		case "sha512":
			algo, sum, h = a, d, sha512.New()
		case "sha384":
			if h == nil {
				algo, sum, h = a, d, sha512.New384()
			}
		}
	}
	if h == nil {
		return nil, fmt.Errorf("package-lock.json names it by %q, not by a sha512 or sha384 digest", integrity)
	}
	hx := hex.EncodeToString(sum)
	if len(hx) < 5 {
		return nil, errors.New("a digest too short to name a file")
	}
	for _, dir := range cacheDirs() {
		p := filepath.Join(dir, "content-v2", algo, hx[:2], hx[2:4], hx[4:])
		f, err := boundedread.Open(p)
		if err != nil {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(f, maxTarball+1))
		f.Close()
		if err != nil || len(b) > maxTarball {
			continue
		}
		h.Reset()
		h.Write(b)
		if bytes.Equal(h.Sum(nil), sum) {
			return b, nil
		}
	}
	return nil, fmt.Errorf("npm's cache holds no tarball with the digest package-lock.json names (looked in %s)", strings.Join(cacheDirs(), ", "))
}

// proveInstalled returns nil when the package folder dir holds exactly the
// files of the tarball lock names for it (folders of dependencies nested in
// dir/node_modules aside: they are packages of their own), and no file the
// tarball lacks that changed after since; else it says what differs.
func proveInstalled(root, dir string, lock *lockFile, fresh map[string]bool) error {
	if lock == nil {
		return errors.New("no package-lock.json as it was when the session started to prove it against " +
			"(a project whose lock was missing or changed at the session's start cannot prove an install made during it: " +
			"a person installs the linter and commits package.json and package-lock.json outside the session; CI's verify --rerun lints with the job's own install)")
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return fmt.Errorf("%s is outside the project, where package-lock.json says nothing of it", dir)
	}
	entry, ok := lock.Packages[filepath.ToSlash(rel)]
	if !ok || entry.Integrity == "" {
		return fmt.Errorf("package-lock.json has no integrity for %s", filepath.ToSlash(rel))
	}
	tgz, err := tarball(entry.Integrity)
	if err != nil {
		return err
	}
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return fmt.Errorf("read the cached tarball of %s: %w", filepath.ToSlash(rel), err)
	}
	inTar := map[string]bool{}
	tr := tar.NewReader(zr)
	for {
		hd, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read the cached tarball of %s: %w", filepath.ToSlash(rel), err)
		}
		if hd.Typeflag != tar.TypeReg {
			continue
		}
		// npm strips the tarball's first folder ("package/").
		_, name, ok := strings.Cut(hd.Name, "/")
		name = path.Clean(name)
		if !ok || name == "." || strings.HasPrefix(name, "../") || path.IsAbs(name) {
			continue
		}
		inTar[name] = true
		want := sha256.New()
		if _, err := io.Copy(want, tr); err != nil {
			return fmt.Errorf("read the cached tarball of %s: %w", filepath.ToSlash(rel), err)
		}
		got, err := fileSHA256(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(dir, filepath.FromSlash(name)), err)
		}
		if !bytes.Equal(got, want.Sum(nil)) {
			return fmt.Errorf("%s is not the file of the tarball package-lock.json names", filepath.Join(dir, filepath.FromSlash(name)))
		}
	}
	for p := range fresh {
		r, err := filepath.Rel(dir, p)
		if err != nil || strings.HasPrefix(r, "..") {
			continue
		}
		r = filepath.ToSlash(r)
		if r == "." || strings.HasPrefix(r, "node_modules/") || r == "node_modules" || inTar[r] {
			continue
		}
		if st, err := os.Lstat(p); err == nil && st.IsDir() {
			continue
		}
		return fmt.Errorf("%s is not in the tarball package-lock.json names", p)
	}
	return nil
}

func fileSHA256(p string) ([]byte, error) {
	st, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", st.Mode().Type())
	}
	f, err := boundedread.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

func sha256hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
