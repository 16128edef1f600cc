package gateprog

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/shellline"
)

// `npx jest` where the work tree's node_modules has no jest runs the one
// npm installed into its npx cache (<cache>/_npx/<hash>/node_modules),
// outside the work tree and outside PATH: a package planted there during
// the session answered for the tests (round 27 left it open). Every cache
// entry holding the bin is judged: one made since the start counts only
// when its lock's integrity names a tarball in npm's content cache whose
// files are the package's, byte for byte (what npm itself extracted);
// one from before, by the package rules (a file rewritten alone).

// maxTarball bounds the tarball read to compare an npx package.
const maxTarball = 64 << 20

// npxWhy judges the npx cache's packages a line's `npx X`, `npm exec X`
// or `npm x X` runs when root's node_modules/.bin has no X.
func npxWhy(line, root string, env []string, since time.Time) string {
	calls, _, ok := shellline.Calls(shellline.Unwrap(line))
	if !ok {
		return ""
	}
	for _, c := range calls {
		w := shellline.StripWrappers(c.Words)
		if len(w) < 2 {
			continue
		}
		args := w[1:]
		switch filepath.Base(w[0]) {
		case "npx":
		case "npm":
			if args[0] != "exec" && args[0] != "x" {
				continue
			}
			args = args[1:]
		default:
			continue
		}
		bin := ""
		for _, a := range args {
			if a == "--" {
				continue
			}
			if !strings.HasPrefix(a, "-") {
				bin = npxBinName(a)
				break
			}
		}
		if bin == "" || root != "" && exists(filepath.Join(root, "node_modules", ".bin", bin)) {
			continue
		}
		cache := npmCache(env)
		if cache == "" {
			continue
		}
		links, _ := filepath.Glob(filepath.Join(cache, "_npx", "*", "node_modules", ".bin", bin))
		for _, l := range links {
			if why := npxEntryWhy(cache, l, env, since); why != "" {
				return why
			}
		}
	}
	return ""
}

// npxBinName is the bin a package spec runs by default: its name without
// scope or version (`jest@29` and `@jest/core` run jest and core).
func npxBinName(spec string) string {
	scoped := strings.HasPrefix(spec, "@")
	s := strings.TrimPrefix(spec, "@")
	if i := strings.Index(s, "@"); i >= 0 {
		s = s[:i]
	}
	if scoped {
		if i := strings.Index(s, "/"); i >= 0 {
			s = s[i+1:]
		}
	}
	if strings.ContainsAny(s, "/:") {
		return ""
	}
	return s
}

// npmCache is npm's cache folder: npm_config_cache, else ~/.npm.
func npmCache(env []string) string {
	home, cache := "", ""
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch strings.ToLower(k) {
		case "npm_config_cache":
			cache = v
		case "home":
			if k == "HOME" {
				home = v
			}
		}
	}
	if cache == "" && home != "" {
		cache = filepath.Join(home, ".npm")
	}
	return cache
}

func npxEntryWhy(cache, link string, env []string, since time.Time) string {
	if why := judge(filepath.Base(link), link, "", env, since); why != "" {
		return why
	}
	real, err := filepath.EvalSymlinks(link)
	if err != nil {
		return ""
	}
	pdir := npmPackageOf(real)
	if pdir == "" {
		return fmt.Sprintf("%s (what npx runs from its cache) is no package's bin", link)
	}
	entry := filepath.Dir(filepath.Dir(filepath.Dir(link))) // _npx/<hash>
	made := changed(filepath.Join(entry, "package.json"), since, false) || changed(filepath.Join(pdir, "package.json"), since, false)
	if !made {
		return npmPackageWhy(pdir, real, since)
	}
	if why := npxIntegrity(cache, entry, pdir); why != "" {
		return fmt.Sprintf("npx's cache entry %s was made after the session started and %s", entry, why)
	}
	return ""
}

// npxIntegrity checks an npx cache entry's package against the tarball
// its lock's integrity names in npm's content cache.
func npxIntegrity(cache, entry, pdir string) string {
	rel, err := filepath.Rel(entry, pdir)
	if err != nil {
		return "its package is outside it"
	}
	b, err := boundedread.File(filepath.Join(entry, "package-lock.json"), 16<<20)
	if err != nil {
		return "has no package-lock.json (npm writes one)"
	}
	var lock struct {
		Packages map[string]struct {
			Integrity string `json:"integrity"`
		} `json:"packages"`
	}
	if json.Unmarshal(b, &lock) != nil {
		return "its package-lock.json does not parse"
	}
	integ := lock.Packages[filepath.ToSlash(rel)].Integrity
	alg, sum, ok := strings.Cut(integ, "-")
	if !ok || alg != "sha512" {
		return fmt.Sprintf("its lock gives %s no sha512 integrity", rel)
	}
	raw, err := base64.StdEncoding.DecodeString(sum)
	if err != nil {
		return fmt.Sprintf("its lock's integrity for %s does not decode", rel)
	}
	h := hex.EncodeToString(raw)
	tgz := filepath.Join(cache, "_cacache", "content-v2", "sha512", h[:2], h[2:4], h[4:])
	data, err := boundedread.File(tgz, maxTarball)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, boundedread.ErrTooLarge) {
		return fmt.Sprintf("no tarball in npm's cache has %s's integrity (npm fetches it before it installs)", rel)
	}
	if err != nil {
		return fmt.Sprintf("its tarball %s cannot be read: %v", tgz, err)
	}
	if got := sha512.Sum512(data); !bytes.Equal(got[:], raw) {
		return fmt.Sprintf("the tarball %s does not have its integrity", tgz)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return fmt.Sprintf("the tarball %s is not gzip", tgz)
	}
	tr := tar.NewReader(zr)
	for {
		hd, err := tr.Next()
		if err == io.EOF {
			return ""
		}
		if err != nil {
			return fmt.Sprintf("the tarball %s does not read", tgz)
		}
		if hd.Typeflag != tar.TypeReg {
			continue
		}
		// npm strips the tarball's first folder ("package/").
		_, name, ok := strings.Cut(hd.Name, "/")
		if !ok || !filepath.IsLocal(name) {
			continue
		}
		want, err := io.ReadAll(io.LimitReader(tr, maxTarball))
		if err != nil {
			return fmt.Sprintf("the tarball %s does not read", tgz)
		}
		have, err := boundedread.File(filepath.Join(pdir, filepath.FromSlash(name)), maxTarball)
		if err != nil || !bytes.Equal(have, want) {
			return fmt.Sprintf("%s is not the file its tarball holds (%s)", filepath.Join(pdir, name), rel)
		}
	}
}
