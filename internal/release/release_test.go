package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// need returns the program's path, skipping the test when it is missing
// (failing under CI=true, where .ci/run installs it).
func need(t *testing.T, prog string) string {
	t.Helper()
	p, err := exec.LookPath(prog)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed (CI=true)", prog)
		}
		t.Skipf("%s is not installed: the release test needs it", prog)
	}
	return p
}

func root(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(wd, "..", "..")
}

func TestCheckVersion(t *testing.T) {
	for _, tt := range []struct {
		v  string
		ok bool
	}{
		{"v0.1.0", true},
		{"v1.2.3-rc.1", true},
		{"0.1.0", false},       // Go module tags carry the v
		{"v1.2", false},        // not a full version
		{"v01.2.3", false},     // leading zero
		{"v1.2.3/../x", false}, // would leave dist/
		{"dev", false},
		{"", false},
	} {
		if err := CheckVersion(tt.v); (err == nil) != tt.ok {
			t.Errorf("CheckVersion(%q) = %v, want ok=%v", tt.v, err, tt.ok)
		}
	}
}

func TestArchiveName(t *testing.T) {
	for _, tt := range []struct{ v, goos, arch, want string }{
		{"v0.1.0", "linux", "amd64", "sessiongate_0.1.0_linux_amd64.tar.gz"},
		{"v0.1.0", "darwin", "arm64", "sessiongate_0.1.0_darwin_arm64.tar.gz"},
		{"v1.0.0-rc.1", "windows", "amd64", "sessiongate_1.0.0-rc.1_windows_amd64.zip"},
	} {
		if got := ArchiveName(tt.v, tt.goos, tt.arch); got != tt.want {
			t.Errorf("ArchiveName(%s, %s, %s) = %s, want %s", tt.v, tt.goos, tt.arch, got, tt.want)
		}
	}
}

// allTargets is the environment variable that makes TestReleaseReproducible
// build every release target from the real source (six cross-builds of
// sessiongate, each its own compile of every dependency); cutting a release
// sets it. Without it the test builds the host's archive from the real
// source and the windows zip from a one-file module (TestReleaseWindowsZip):
// the windows build of sessiongate itself is .ci/run's cross-compile step.
const allTargets = "SESSIONGATE_RELEASE_ALL_TARGETS"

// TestReleaseReproducible builds the host's archive twice, from two clones
// of HEAD at different paths: the bytes must match, checksums.txt must
// verify with sha256sum -c, and the archived binary must run and print the
// stamped version. With SESSIONGATE_RELEASE_ALL_TARGETS=1 every release
// target is built twice and compared.
func TestReleaseReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the release test builds sessiongate")
	}
	need(t, "go")
	need(t, "git")
	sha := need(t, "sha256sum")
	host := runtime.GOOS + "/" + runtime.GOARCH
	targets := []string{host}
	if os.Getenv(allTargets) != "" {
		targets = Targets
	}
	const v = "v0.0.0-test.1"
	// Two clones of HEAD at different paths: a release is built from a
	// commit, and the bytes must not depend on where the checkout is (nor
	// on edits in the working tree while the test runs).
	// Both at one commit, taken once: a commit landing between the two
	// clones would differ in its files and its stamped revision.
	rev, err := exec.Command("git", "-C", root(t), "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-parse HEAD: %v", err)
	}
	var srcs []string
	for i := range 2 {
		src := filepath.Join(t.TempDir(), "src"+strconv.Itoa(i))
		if out, err := exec.Command("git", "clone", "-q", "--no-hardlinks", "--no-checkout", root(t), src).CombinedOutput(); err != nil {
			t.Fatalf("clone: %v\n%s", err, out)
		}
		if out, err := exec.Command("git", "-C", src, "checkout", "-q", strings.TrimSpace(string(rev))).CombinedOutput(); err != nil {
			t.Fatalf("checkout %s: %v\n%s", rev, err, out)
		}
		srcs = append(srcs, src)
	}
	dists := buildTwice(t, v, srcs, targets)
	checkSums(t, sha, dists[0], len(targets))

	// The host archive: its binary runs and says the version it was stamped with.
	bin := extract(t, filepath.Join(dists[0], ArchiveName(v, runtime.GOOS, runtime.GOARCH)))
	for _, args := range [][]string{{"--version"}, {"version"}} {
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", bin, args, err, out)
		}
		if got := strings.TrimSpace(string(out)); got != "sessiongate "+v {
			t.Errorf("sessiongate %v printed %q, want %q", args, got, "sessiongate "+v)
		}
	}
	if runtime.GOOS != "windows" && len(targets) > 1 {
		names := zipNames(t, filepath.Join(dists[0], ArchiveName(v, "windows", "amd64")))
		if strings.Join(names, ",") != "sessiongate.exe,LICENSE,README.md,CHANGELOG.md" {
			t.Errorf("windows zip holds %v", names)
		}
	}
}

// TestReleaseWindowsZip runs Build for windows/amd64 and the host on a
// one-file module laid out as sessiongate's (cmd/sessiongate, the docs at
// the root, a git checkout), from two paths: the zip and the tar.gz are
// byte-identical, checksums.txt verifies, and the zip holds the .exe and
// the docs in order. Cross-building this module compiles the runtime
// alone, not sessiongate's dependencies for a second platform.
func TestReleaseWindowsZip(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the release test cross-builds")
	}
	need(t, "go")
	git := need(t, "git")
	sha := need(t, "sha256sum")
	const v = "v0.0.0-test.2"
	files := map[string]string{
		"go.mod":                  "module example.com/tiny\n\ngo 1.22\n",
		"cmd/sessiongate/main.go": "package main\n\nvar version = \"dev\"\n\nfunc main() { println(\"sessiongate \" + version) }\n",
		"LICENSE":                 "license\n",
		"README.md":               "# tiny\n",
		"CHANGELOG.md":            "# Changelog\n",
	}
	var srcs []string
	for i := range 2 {
		src := filepath.Join(t.TempDir(), "tiny"+strconv.Itoa(i))
		for name, body := range files {
			p := filepath.Join(src, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// One commit, the same bytes and dates in both: -buildvcs=true
		// stamps its revision.
		for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "tiny"}} {
			cmd := exec.Command(git, args...)
			cmd.Dir = src
			cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
				"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid",
				"GIT_AUTHOR_DATE=2025-11-28T00:00:00Z", "GIT_COMMITTER_DATE=2025-11-28T00:00:00Z")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		srcs = append(srcs, src)
	}
	targets := []string{"windows/amd64"}
	if runtime.GOOS != "windows" {
		targets = append(targets, runtime.GOOS+"/"+runtime.GOARCH)
	}
	dists := buildTwice(t, v, srcs, targets)
	checkSums(t, sha, dists[0], len(targets))
	if names := zipNames(t, filepath.Join(dists[0], ArchiveName(v, "windows", "amd64"))); strings.Join(names, ",") != "sessiongate.exe,LICENSE,README.md,CHANGELOG.md" {
		t.Errorf("windows zip holds %v", names)
	}
	if runtime.GOOS != "windows" {
		bin := extract(t, filepath.Join(dists[0], ArchiveName(v, runtime.GOOS, runtime.GOARCH)))
		if out, err := exec.Command(bin).CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "sessiongate "+v {
			t.Errorf("the archived binary printed %q (%v), want %q", out, err, "sessiongate "+v)
		}
	}
}

// releaseTool is this command built once per test process without -race:
// under go test -race, Build's in-process gzip -9 of an 11 MB binary ran
// race-instrumented (a minute of CPU per archive); the command built as
// a maintainer runs it also tests its flags, its module root and
// SOURCE_DATE_EPOCH.
var releaseTool = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "release-tool-")
	if err != nil {
		return "", err
	}
	toolDir = dir
	bin := filepath.Join(dir, "release")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./internal/release: %v\n%s", err, out)
	}
	return bin, nil
})

// toolDir holds releaseTool's binary once built; TestMain removes it.
var toolDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if toolDir != "" {
		os.RemoveAll(toolDir)
	}
	os.Exit(code)
}

// buildTwice runs the release command in each source folder for targets,
// each into a dist folder of its own, and fails the test unless every
// archive and checksums.txt are byte-identical across the two.
func buildTwice(t *testing.T, v string, srcs []string, targets []string) []string {
	t.Helper()
	tool, err := releaseTool()
	if err != nil {
		t.Fatal(err)
	}
	var dists []string
	for i, src := range srcs {
		d := filepath.Join(t.TempDir(), "dist")
		cmd := exec.Command(tool, "-dist", d, "-targets", strings.Join(targets, ","), v)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH=1764300000")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("release build %d in %s: %v\n%s", i+1, src, err, out)
		}
		dists = append(dists, d)
	}
	names := []string{"checksums.txt"}
	for _, tg := range targets {
		goos, goarch, _ := strings.Cut(tg, "/")
		names = append(names, ArchiveName(v, goos, goarch))
	}
	for _, name := range names {
		a, err := os.ReadFile(filepath.Join(dists[0], name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dists[1], name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two builds of one commit (%d and %d bytes)", name, len(a), len(b))
		}
	}
	return dists
}

// checkSums runs sha256sum -c checksums.txt in dist: want archives verify.
func checkSums(t *testing.T, sha, dist string, want int) {
	t.Helper()
	cmd := exec.Command(sha, "-c", "checksums.txt")
	cmd.Dir = dist
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("sha256sum -c checksums.txt: %v\n%s", err, out)
	} else if n := strings.Count(string(out), ": OK"); n != want {
		t.Errorf("sha256sum -c verified %d archives, want %d:\n%s", n, want, out)
	}
}

// extract writes the archive's binary to a temp dir and returns its path,
// checking the archive's entries on the way.
func extract(t *testing.T, archive string) string {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if strings.HasSuffix(archive, ".zip") {
		t.Fatal("extract: host archive is a zip (windows host): not handled")
	}
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var names []string
	bin := ""
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.ModTime.Unix() != 1764300000 {
			t.Errorf("%s: owner %d/%d %q, time %v: not fixed", h.Name, h.Uid, h.Gid, h.Uname, h.ModTime)
		}
		if h.Name == "sessiongate" {
			bin = filepath.Join(t.TempDir(), "sessiongate")
			b, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bin, b, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	if strings.Join(names, ",") != "sessiongate,LICENSE,README.md,CHANGELOG.md" {
		t.Errorf("%s holds %v", filepath.Base(archive), names)
	}
	if bin == "" {
		t.Fatalf("%s has no sessiongate binary", archive)
	}
	return bin
}

func zipNames(t *testing.T, archive string) []string {
	t.Helper()
	zr, err := zip.OpenReader(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	return names
}

// TestReleaseRefusesBadVersion: the command exits 2 and names the problem.
func TestReleaseRefusesBadVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-dist", t.TempDir(), "1.0"}, &out, &errb); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if !strings.Contains(errb.String(), `version "1.0" is not a release version`) {
		t.Errorf("stderr: %s", errb.String())
	}
}
