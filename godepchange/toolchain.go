package godepchange

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/sumdb"
	"golang.org/x/mod/sumdb/dirhash"

	"github.com/sessiongate/sessiongate/internal/ctime"
)

// A GOTOOLCHAIN switch (`GOTOOLCHAIN=go1.26.0 go test`, or a go.mod
// `toolchain` line) makes go download the toolchain as the module
// golang.org/toolchain@v0.0.1-go1.26.0.<os>-<arch> and extract it into
// the module cache: every std file there is new since the session
// started and read as a patched standard library (round 23's false FAIL).
// Such a toolchain has what GOROOT lacks: a hash of its files in the
// checksum database. go records the signed lookup under
// $GOMODCACHE/cache/download/sumdb/, with the tiles that prove the record
// is in the signed tree; both are checked here offline with
// golang.org/x/mod/sumdb and sum.golang.org's public key, so a lookup the
// agent writes (an h1 of its patched files under a tree head copied from
// another lookup) fails the proof. No lookup (GOSUMDB=off, GONOSUMDB,
// GOFLAGS=-insecure, GONOSUMCHECK) leaves the toolchain unproven, and it
// is refused as before.

// sumGolangOrgKey is sum.golang.org's note verifier key, as
// cmd/go/internal/modfetch/key.go holds it.
const sumGolangOrgKey = "sum.golang.org+033de0ae+Ac4zctda0e5eza+HJyk9SxEdh+s3Ux18htTTAD8OuAn8"

const toolchainModule = "golang.org/toolchain"

// toolchainDir returns the module cache folder of the toolchain module
// file lies in ("" when it lies in none) and that module's path@version.
func toolchainDir(file, modcache string) (dir, mod string) {
	if modcache == "" {
		return "", ""
	}
	base := filepath.Join(modcache, "golang.org")
	rel, err := filepath.Rel(base, file)
	if err != nil || !filepath.IsLocal(rel) {
		return "", ""
	}
	first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	ver, ok := strings.CutPrefix(first, "toolchain@")
	if !ok || !strings.HasPrefix(ver, "v0.0.1-go") {
		return "", ""
	}
	return filepath.Join(base, first), toolchainModule + "@" + ver
}

// Cache keeps a toolchain folder's proven verdict between processes (the
// hook is one process per call; hashing ~11,000 files takes about a
// second). Path is its file; MAC seals each entry (the file is the
// agent's to write, like the database: an entry it writes without the key
// is not read). A zero Cache keeps nothing.
type Cache struct {
	Path string
	MAC  func(text string) (string, error)
}

// cacheKey is the text a proven toolchain's entry seals: the folder, its
// newest change time (any file patched, added or renamed in it moves it:
// ctime cannot be set back) and its count of entries.
func cacheKey(dir string, newest time.Time, n int) string {
	return "toolchain proven\x00" + dir + "\x00" + strconv.FormatInt(newest.UnixNano(), 10) + "\x00" + strconv.Itoa(n)
}

func (c Cache) has(key string) bool {
	if c.Path == "" || c.MAC == nil {
		return false
	}
	b, err := os.ReadFile(c.Path)
	if err != nil {
		return false
	}
	want, err := c.MAC(key)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if line == want {
			return true
		}
	}
	return false
}

func (c Cache) put(key string) {
	if c.Path == "" || c.MAC == nil {
		return
	}
	mac, err := c.MAC(key)
	if err != nil {
		return
	}
	f, err := os.OpenFile(c.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return // no cache: the next call hashes again
	}
	fmt.Fprintln(f, mac)
	f.Close()
}

// newestIn returns the newest change time of dir and everything below it,
// and how many entries there are.
func newestIn(dir string) (time.Time, int, error) {
	var newest time.Time
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		n++
		ct, err := ctime.Of(p)
		if err != nil {
			return err
		}
		if ct.After(newest) {
			newest = ct
		}
		return nil
	})
	return newest, n, err
}

// provenToolchain returns nil when the toolchain module mod extracted in
// dir holds exactly the files whose hash sum.golang.org signed, and why
// not otherwise. gopath is GOPATH's first folder (the sumdb client's
// latest tree head lives under it).
func provenToolchain(dir, mod, modcache, gopath string, cache Cache) error {
	newest, n, err := newestIn(dir)
	if err != nil {
		return err
	}
	key := cacheKey(dir, newest, n)
	if cache.has(key) {
		return nil
	}
	path, ver, _ := strings.Cut(mod, "@")
	want, err := signedSum(path, ver, modcache, gopath)
	if err != nil {
		return err
	}
	got, err := hashToolchain(dir, mod)
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("its files hash to %s, not to the checksum database's %s: a file was changed after go extracted it", got, want)
	}
	cache.put(key)
	return nil
}

// signedSum is the h1: line sum.golang.org signed for path@ver, read from
// the lookup and tiles go cached, checked with the database's key and
// the tiles' proof (never fetched: a hook does not go online).
func signedSum(path, ver, modcache, gopath string) (string, error) {
	ops := &offlineOps{modcache: modcache, gopath: gopath}
	// First the lookup's own tree (the tiles go saved when it was the
	// newest it knew), then go's latest tree head (the tiles go saved
	// when it proved the record in that one).
	var firstErr error
	for _, useLatest := range []bool{false, true} {
		ops.useLatest = useLatest
		lines, err := sumdb.NewClient(ops).Lookup(path, ver)
		if err == nil && ops.security == "" {
			for _, l := range lines {
				if f := strings.Fields(l); len(f) == 3 && f[0] == path && f[1] == ver {
					return f[2], nil
				}
			}
			err = errors.New("the record holds no h1 line")
		}
		if ops.security != "" {
			err = errors.New(ops.security)
		}
		if firstErr == nil {
			firstErr = err
		}
		if ops.missingLookup {
			break
		}
	}
	if ops.missingLookup {
		return "", fmt.Errorf("no checksum database record of %s@%s under %s (downloaded with GOSUMDB=off, GONOSUMDB, GONOSUMCHECK or GOFLAGS=-insecure, or the record was removed): nothing proves its files are the released ones", path, ver, filepath.Join(modcache, "cache", "download", "sumdb"))
	}
	return "", fmt.Errorf("the checksum database record of %s@%s does not check out: %v", path, ver, firstErr)
}

// offlineOps is sumdb.ClientOps over go's own caches and no network.
type offlineOps struct {
	modcache, gopath string
	useLatest        bool
	missingLookup    bool
	security         string
}

func (o *offlineOps) ReadRemote(path string) ([]byte, error) {
	return nil, fmt.Errorf("%s: not in go's cache (read offline)", path)
}

func (o *offlineOps) ReadConfig(file string) ([]byte, error) {
	if file == "key" {
		return []byte(sumGolangOrgKey), nil
	}
	if !o.useLatest || o.gopath == "" {
		return nil, nil // the empty timeline: the lookup's signed tree alone
	}
	b, err := os.ReadFile(filepath.Join(o.gopath, "pkg", "sumdb", filepath.FromSlash(file)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

func (o *offlineOps) WriteConfig(string, []byte, []byte) error { return nil }

func (o *offlineOps) ReadCache(file string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(o.modcache, "cache", "download", "sumdb", filepath.FromSlash(file)))
	if err != nil && strings.Contains(file, "/lookup/") {
		o.missingLookup = true
	}
	return b, err
}

func (o *offlineOps) WriteCache(string, []byte) {}
func (o *offlineOps) Log(string)                {}
func (o *offlineOps) SecurityError(msg string)  { o.security = firstLine(msg) }

// hashToolchain is the module hash of the toolchain's files as the zip
// held them. go copies each _go.mod to go.mod beside it after extracting
// (cmd/go/internal/toolchain): such a copy is left out when it is a byte
// for byte copy, and hashed (so fails) when it is not.
func hashToolchain(dir, mod string) (string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		// go extracts only files (a module zip holds no links). A link
		// hashes as what it points at, and its target can be swapped
		// after the verdict without moving any change time in dir (the
		// cache's key): round 25 review.
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file: go extracts none but files", filepath.ToSlash(rel))
		}
		if d.Name() == "go.mod" && sameFile(p, filepath.Join(filepath.Dir(p), "_go.mod")) {
			return nil
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	prefix := mod + "/"
	named := make([]string, len(files))
	for i, f := range files {
		named[i] = prefix + f
	}
	return dirhash.Hash1(named, func(name string) (io.ReadCloser, error) {
		return os.Open(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(name, prefix))))
	})
}

func sameFile(a, b string) bool {
	x, err := os.ReadFile(a)
	if err != nil {
		return false
	}
	y, err := os.ReadFile(b)
	return err == nil && bytes.Equal(x, y)
}
