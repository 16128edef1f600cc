// Package godepchange says whether the Go source a `go test` compiles from
// outside the work tree changed after a session started: the toolchain's
// standard library (GOROOT/src/testing made to pass every test) or a
// dependency's files in the module cache (an assertion helper made to
// accept anything). Neither is in the repository, so git shows nothing,
// and go builds whatever the files hold: the module cache's read-only bits
// stop no one who owns them, and an agent running as root owns GOROOT too
// (lazy-agent pass 20).
//
// A file counts as changed when its change time (ctime, which no user can
// set back) is after the session started. A module file extracted in the
// session (a dependency the work added, a cache cleaned and filled again)
// is that new too: go.sum's hash of the module's files then decides (the
// cache's own .ziphash, which `go mod verify` compares with, is a file the
// agent can rewrite along with the source). The toolchain has no such
// record, so its source changed in the session is always named.
package godepchange

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/ctime"
)

// Changed returns why the packages `go test ./...` in root compiles
// cannot be trusted ("" when they can): Go source outside root changed
// after since. goBin is the go program the test run uses and env its
// environment.
func Changed(ctx context.Context, goBin, root string, env []string, since time.Time) (string, error) {
	return ChangedFrom(ctx, goBin, root, env, since, nil, Cache{})
}

// ChangedFrom is Changed that also knows go.sum as committed when the
// session started (startSums; nil: not known). A module whose files
// changed in the session and whose go.sum line for the same version now
// holds another hash was rewritten with its sum: one module@version has
// one hash forever (the checksum database says so to every download), so
// no honest change gives it a second (round 21; round 20 left it open).
// A std whose changed files all lie in a toolchain go downloaded in the
// session is accepted when the checksum database proves its files
// (toolchain.go); cache keeps that verdict between calls.
func ChangedFrom(ctx context.Context, goBin, root string, env []string, since time.Time, startSums []byte, cache Cache) (string, error) {
	out, err := goCmd(ctx, goBin, root, env, "list", "-e", "-deps", "-test",
		"-f", "{{.Dir}}\t{{.Standard}}\t{{with .Module}}{{.Path}}@{{.Version}}{{end}}", "./...")
	if err != nil {
		// A module that does not load fails its test run by itself.
		return "", nil
	}
	absRoot, _ := filepath.Abs(root)
	var std []string
	var mods [][2]string // module folder, path@version
	seen := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 || f[0] == "" || seen[f[0]] || inside(absRoot, f[0]) {
			continue
		}
		seen[f[0]] = true
		if f[1] != "true" && !strings.Contains(f[2], "@v") {
			continue // a local replace: a folder of the person's, not a download
		}
		top := ""
		if f[1] != "true" {
			top = moduleDir(f[0], f[2])
		}
		file, err := changedIn(f[0], since, f[1] != "true", top)
		if err != nil || file == "" {
			continue
		}
		if f[1] == "true" {
			std = append(std, file)
		} else if dir := moduleDir(f[0], f[2]); dir != "" && !seen["mod:"+dir] {
			seen["mod:"+dir] = true
			mods = append(mods, [2]string{dir, f[2]})
		}
	}
	if len(std) > 0 {
		why := ""
		if std, why, err = unproven(ctx, goBin, root, env, std, cache); err != nil {
			return "", err
		}
		if len(std) > 0 {
			return stdWhy(std, why, since), nil
		}
	}
	if len(mods) == 0 {
		return "", nil
	}
	// A module's files new since the start are also what a download in
	// the session leaves (a dependency the work added): go.sum's sum of
	// the module's files decides, not the cache's own .ziphash, which
	// the agent can rewrite with the files (go mod verify reads that).
	sums, err := boundedread.File(filepath.Join(root, "go.sum"), boundedread.DefaultLimit)
	if err != nil {
		return "", nil // no go.sum: go builds no module of the cache
	}
	var modified, resummed []string
	for _, m := range mods {
		dir, mod := m[0], m[1]
		want := sumOf(sums, mod)
		if want == "" {
			continue // go refuses a module go.sum does not list
		}
		if was := sumOf(startSums, mod); was != "" && was != want {
			resummed = append(resummed, mod)
			continue
		}
		got, err := hashDir(dir, mod)
		if err != nil {
			return "", fmt.Errorf("hash %s: %w", dir, err)
		}
		if got != want {
			modified = append(modified, dir)
		}
	}
	if len(resummed) > 0 {
		return fmt.Sprintf("go.sum's hash of %s changed after the session started, with the module's files in the module cache: one module version has one hash, so both were rewritten and go test would build the tests against what was written there; restore go.sum (`git checkout go.sum`), `go clean -modcache` and download it again", list(resummed)), nil
	}
	if len(modified) > 0 {
		return fmt.Sprintf("a dependency in the module cache changed after the session started (%s): its files no longer hash to go.sum's sum, so go test would build the tests against what was written there; `go clean -modcache` and download it again", list(modified)), nil
	}
	return "", nil
}

// unproven returns the changed std files left once those of a downloaded
// toolchain the checksum database proves are dropped, and why the first
// toolchain left was not proven ("" when none was tried).
func unproven(ctx context.Context, goBin, root string, env, std []string, cache Cache) ([]string, string, error) {
	out, err := goCmd(ctx, goBin, root, env, "env", "GOMODCACHE", "GOPATH")
	if err != nil {
		return std, "", nil
	}
	f := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(f) != 2 {
		return std, "", nil
	}
	modcache, gopath := strings.TrimSpace(f[0]), ""
	if paths := filepath.SplitList(strings.TrimSpace(f[1])); len(paths) > 0 {
		gopath = paths[0]
	}
	verdict := map[string]error{}
	var left []string
	why := ""
	for _, file := range std {
		dir, mod := toolchainDir(file, modcache)
		if dir == "" {
			left = append(left, file)
			continue
		}
		err, done := verdict[dir]
		if !done {
			err = provenToolchain(dir, mod, modcache, gopath, cache)
			verdict[dir] = err
		}
		if err != nil {
			left = append(left, file)
			if why == "" {
				why = fmt.Sprintf("; the toolchain %s is not proven: %v", mod, err)
			}
		}
	}
	return left, why, nil
}

// moduleDir is the folder of the module path@version a package folder
// lies in: the module cache spells it path@version (upper case letters
// escaped as !x), so it is the package folder's prefix that ends in
// that last element.
func moduleDir(pkgDir, mod string) string {
	path, ver, ok := strings.Cut(mod, "@")
	if !ok {
		return ""
	}
	last := escape(path[strings.LastIndex(path, "/")+1:]) + "@" + ver
	for d := pkgDir; d != filepath.Dir(d); d = filepath.Dir(d) {
		if filepath.Base(d) == last {
			return d
		}
	}
	return ""
}

// escape is the module cache's spelling of a path element: an upper case
// letter is "!" and its lower case.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// sumOf returns go.sum's h1: sum of the module path@version's files.
func sumOf(sums []byte, mod string) string {
	path, ver, _ := strings.Cut(mod, "@")
	for _, line := range strings.Split(string(sums), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == path && f[1] == ver {
			return f[2]
		}
	}
	return ""
}

// hashDir is go's "h1:" hash of a module's files (golang.org/x/mod's
// dirhash.Hash1 over HashDir): the SHA-256 of the sorted lines
// "SHA256(file)  path@version/name".
func hashDir(dir, mod string) (string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			files = append(files, mod+"/"+filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	h := sha256.New()
	for _, name := range files {
		if strings.Contains(name, "\n") {
			return "", errors.New("file name with a newline")
		}
		b, err := boundedread.File(filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(name, mod+"/"))), boundedread.DefaultLimit)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%x  %s\n", sha256.Sum256(b), name)
	}
	return "h1:" + base64.StdEncoding.EncodeToString(h.Sum(nil)), nil
}

// goCmd runs go in root and returns its output; an error carries the
// output's first line.
func goCmd(ctx context.Context, goBin, root string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, goBin, args...)
	cmd.Dir, cmd.Env = root, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			ee.Stderr = stderr.Bytes()
			msg := strings.TrimSpace(stderr.String() + "\n" + stdout.String())
			return stdout.Bytes(), &goError{ee, msg}
		}
		return nil, err
	}
	return stdout.Bytes(), nil
}

// goError is a go command that exited non-zero, with what it said.
type goError struct {
	*exec.ExitError
	said string
}

func (e *goError) Error() string { return e.said }
func (e *goError) Unwrap() error { return e.ExitError }

// changedIn returns the first file directly in dir whose change time is
// after since ("" for none), or dir itself, or a folder between it and
// top (the module's folder; "" none), when its own change time is: a
// file added, removed or renamed in it, or the folder renamed into place
// with a copy made before the session (its files keep their old change
// times). A symlink is named when it or what it points at changed after
// since, and always when anyLink (a module folder, whose hash against
// go.sum then decides through the link): go builds through a link, and a
// link's target can be swapped without touching the link (round 25
// review: a dependency file replaced by a link to a patched copy was
// never looked at; TestChangedFromSymlinkedFile).
func changedIn(dir string, since time.Time, anyLink bool, top ...string) (string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	after := func(p string) bool {
		for _, at := range []func(string) (time.Time, error){ctime.OfLink, ctime.Of} {
			if ct, err := at(p); err == nil && ct.After(since) {
				return true
			}
		}
		return false
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			if anyLink || after(p) {
				return p, nil
			}
		case e.Type().IsRegular():
			if ct, err := ctime.Of(p); err == nil && ct.After(since) {
				return p, nil
			}
		}
	}
	for d := dir; ; d = filepath.Dir(d) {
		if after(d) {
			return d, nil
		}
		if len(top) == 0 || top[0] == "" || d == top[0] || !inside(top[0], d) || d == filepath.Dir(d) {
			break
		}
	}
	return "", nil
}

func inside(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func list(files []string) string {
	if len(files) > 3 {
		return strings.Join(files[:3], ", ") + fmt.Sprintf(" and %d more", len(files)-3)
	}
	return strings.Join(files, ", ")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// sdkMarker is the empty file golang.org/dl writes into ~/sdk/goX.Y.Z once
// it has checked the archive's SHA-256 (read from dl.google.com, never
// stored) and unpacked it.
const sdkMarker = ".unpacked-success"

// stdWhy says why changed std files are refused. A toolchain golang.org/dl
// installed in the session (every changed file under one GOROOT whose
// marker is newer than the start) is refused too: the SHA-256 it was
// checked against is not on disk, and nothing offline tells its files
// from a patched GOROOT's (the agent can write an archive, files and
// marker alike). So the words say what proves one instead of "reinstall
// Go", which fixed nothing (round 24's open false FAIL; TestSDKInstallRefusedWithAdvice).
func stdWhy(std []string, why string, since time.Time) string {
	msg := fmt.Sprintf("the Go toolchain's own source changed after the session started (%s)%s: go test would build the tests against it", list(std), why)
	root := ""
	for _, f := range std {
		r := gorootOf(f)
		if r == "" || root != "" && r != root {
			root = ""
			break
		}
		root = r
	}
	if root != "" {
		if ct, err := ctime.Of(filepath.Join(root, sdkMarker)); err == nil && ct.After(since) {
			ver := filepath.Base(root)
			return msg + fmt.Sprintf("; it is a Go that golang.org/dl installed in %s during the session (%s is newer than the start), and nothing on this machine proves its files: golang.org/dl checked the archive against a SHA-256 it read from dl.google.com and kept no record of it. Install that Go before the session starts, or switch with GOTOOLCHAIN=%s, whose download the checksum database proves", root, sdkMarker, ver)
		}
	}
	return msg + "; reinstall Go"
}

// gorootOf is the GOROOT a std source file lies in: the folder above the
// nearest "src" folder holding it ("" for none; a wrong guess only keeps
// the plain refusal).
func gorootOf(file string) string {
	for d := filepath.Dir(file); d != filepath.Dir(d); d = filepath.Dir(d) {
		if filepath.Base(d) == "src" {
			return filepath.Dir(d)
		}
	}
	return ""
}
