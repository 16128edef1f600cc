// Command release cross-builds sessiongate's release archives:
//
//	go run ./internal/release [-dist DIR] [-targets linux/amd64,...] VERSION
//
// It writes dist/sessiongate_<version>_<os>_<arch>.tar.gz (a .zip for
// windows) and dist/checksums.txt (sha256sum format). action.yml downloads
// exactly these names. The build is reproducible: the same commit and
// SOURCE_DATE_EPOCH give the same bytes (-trimpath, static CGO_ENABLED=0,
// fixed -ldflags with an empty build id, archive entries with fixed times,
// owners and order). It runs no benchmarks and needs only Go and git.
//
// Exit codes: 0 built, 2 usage or environment error (bad version, no git
// checkout, a build that failed).
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Targets are the platforms a release builds.
var Targets = []string{
	"linux/amd64", "linux/arm64",
	"darwin/amd64", "darwin/arm64",
	"windows/amd64", "windows/arm64",
}

// docs go into every archive beside the binary.
var docs = []string{"LICENSE", "README.md", "CHANGELOG.md"}

// semver with a leading v, as Go module tags are (v1.2.3, v1.2.3-rc.1).
var versionRE = regexp.MustCompile(`^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$`)

// Options is one release build.
type Options struct {
	Version string   // v1.2.3
	Root    string   // the module's root (a git checkout)
	Dist    string   // output directory
	Targets []string // os/arch
	Epoch   int64    // SOURCE_DATE_EPOCH: archive entry times
	Log     io.Writer
}

// CheckVersion says what is wrong with a release version.
func CheckVersion(v string) error {
	if !versionRE.MatchString(v) {
		return fmt.Errorf("version %q is not a release version: want vMAJOR.MINOR.PATCH (e.g. v0.1.0 or v1.2.0-rc.1), the git tag the release is cut from", v)
	}
	return nil
}

// ArchiveName is the file a target's archive is written to.
func ArchiveName(version, goos, goarch string) string {
	ext := ".tar.gz"
	if goos == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("sessiongate_%s_%s_%s%s", strings.TrimPrefix(version, "v"), goos, goarch, ext)
}

// Build cross-builds every target and writes the archives and checksums.txt.
func Build(o Options) ([]string, error) {
	if err := CheckVersion(o.Version); err != nil {
		return nil, err
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	for _, d := range docs {
		if _, err := os.Stat(filepath.Join(o.Root, d)); err != nil {
			return nil, fmt.Errorf("release: %s is missing at the module root: %w", d, err)
		}
	}
	if err := os.MkdirAll(o.Dist, 0o755); err != nil {
		return nil, fmt.Errorf("release: create %s: %w", o.Dist, err)
	}
	work, err := os.MkdirTemp("", "sessiongate-release-")
	if err != nil {
		return nil, fmt.Errorf("release: temp dir: %w", err)
	}
	defer os.RemoveAll(work)

	var names []string
	sums := map[string]string{}
	for _, t := range o.Targets {
		goos, goarch, ok := strings.Cut(t, "/")
		if !ok || goos == "" || goarch == "" {
			return nil, fmt.Errorf("release: target %q: want OS/ARCH (e.g. linux/amd64)", t)
		}
		bin := "sessiongate"
		if goos == "windows" {
			bin += ".exe"
		}
		out := filepath.Join(work, goos+"_"+goarch, bin)
		fmt.Fprintf(o.Log, "build %s/%s\n", goos, goarch)
		if err := goBuild(o, goos, goarch, out); err != nil {
			return nil, err
		}
		name := ArchiveName(o.Version, goos, goarch)
		files := []archiveFile{{name: bin, path: out, mode: 0o755}}
		for _, d := range docs {
			files = append(files, archiveFile{name: d, path: filepath.Join(o.Root, d), mode: 0o644})
		}
		var buf bytes.Buffer
		mtime := time.Unix(o.Epoch, 0).UTC()
		if goos == "windows" {
			err = writeZip(&buf, files, mtime)
		} else {
			err = writeTarGz(&buf, files, mtime)
		}
		if err != nil {
			return nil, fmt.Errorf("release: archive %s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(o.Dist, name), buf.Bytes(), 0o644); err != nil {
			return nil, fmt.Errorf("release: write %s: %w", name, err)
		}
		sum := sha256.Sum256(buf.Bytes())
		sums[name] = hex.EncodeToString(sum[:])
		names = append(names, name)
	}
	sort.Strings(names)
	var cs strings.Builder
	for _, n := range names {
		fmt.Fprintf(&cs, "%s  %s\n", sums[n], n) // sha256sum's text format: two spaces
	}
	if err := os.WriteFile(filepath.Join(o.Dist, "checksums.txt"), []byte(cs.String()), 0o644); err != nil {
		return nil, fmt.Errorf("release: write checksums.txt: %w", err)
	}
	return names, nil
}

// goBuild builds one static binary. The environment is the caller's minus
// anything that would change the bytes (GOFLAGS such as -race or
// -buildvcs=false, CGO, a GOEXPERIMENT); the version is stamped with -X.
func goBuild(o Options, goos, goarch, out string) error {
	args := []string{"build", "-trimpath", "-buildvcs=true", "-mod=readonly",
		"-ldflags", "-s -w -buildid= -X main.version=" + o.Version,
		"-o", out, "./cmd/sessiongate"}
	cmd := exec.Command("go", args...)
	cmd.Dir = o.Root
	env := []string{}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOFLAGS", "GOOS", "GOARCH", "CGO_ENABLED", "GOEXPERIMENT", "GOAMD64", "GOARM64", "GOWORK", "GOTOOLCHAIN":
			continue
		}
		env = append(env, kv)
	}
	// GOTOOLCHAIN=local: the go.mod's go line names the toolchain; a
	// download would change what builds the release behind the caller's back.
	cmd.Env = append(env, "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0", "GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("release: go build for %s/%s: %w\n%s", goos, goarch, err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

type archiveFile struct {
	name string
	path string
	mode int64
}

// writeTarGz writes files in the given order with fixed owners and times;
// gzip's header carries no name or time.
func writeTarGz(w io.Writer, files []archiveFile, mtime time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	for _, f := range files {
		b, err := os.ReadFile(f.path)
		if err != nil {
			return err
		}
		h := &tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(b)), ModTime: mtime, Typeflag: tar.TypeReg, Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(b); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// writeZip writes files in the given order with fixed times and modes.
func writeZip(w io.Writer, files []archiveFile, mtime time.Time) error {
	zw := zip.NewWriter(w)
	for _, f := range files {
		b, err := os.ReadFile(f.path)
		if err != nil {
			return err
		}
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: mtime}
		h.SetMode(os.FileMode(f.mode))
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := fw.Write(b); err != nil {
			return err
		}
	}
	return zw.Close()
}

// sourceEpoch is SOURCE_DATE_EPOCH, else the commit time of HEAD, so two
// builds of one commit stamp the same times without being told.
func sourceEpoch(root string) (int64, error) {
	if v := os.Getenv("SOURCE_DATE_EPOCH"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a Unix time in seconds", v)
		}
		return n, nil
	}
	cmd := exec.Command("git", "log", "-1", "--format=%ct")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("release: no SOURCE_DATE_EPOCH and no commit time from git log: %w", err)
	}
	return strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dist := fs.String("dist", "dist", "output directory")
	targets := fs.String("targets", strings.Join(Targets, ","), "comma-separated OS/ARCH list")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./internal/release [-dist DIR] [-targets OS/ARCH,...] VERSION")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(stderr, "release:", err)
		return 2
	}
	epoch, err := sourceEpoch(root)
	if err != nil {
		fmt.Fprintln(stderr, "release:", err)
		return 2
	}
	d := *dist
	if !filepath.IsAbs(d) {
		wd, _ := os.Getwd()
		d = filepath.Join(wd, d)
	}
	names, err := Build(Options{Version: fs.Arg(0), Root: root, Dist: d, Targets: strings.Split(*targets, ","), Epoch: epoch, Log: stderr})
	if err != nil {
		fmt.Fprintln(stderr, "release:", err)
		return 2
	}
	for _, n := range append(names, "checksums.txt") {
		fmt.Fprintln(stdout, filepath.Join(*dist, n))
	}
	return 0
}

// moduleRoot is the directory of go.mod above the working directory.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside the sessiongate module: run from the repository")
	}
	return filepath.Dir(mod), nil
}
