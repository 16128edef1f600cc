package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
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

// TestReleaseReproducible builds the host's archive and a windows zip
// twice into two directories: the bytes must match, checksums.txt must
// verify with sha256sum -c, and the archived binary must run and print
// the stamped version.
func TestReleaseReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the release test cross-builds sessiongate")
	}
	need(t, "go")
	need(t, "git")
	sha := need(t, "sha256sum")
	host := runtime.GOOS + "/" + runtime.GOARCH
	targets := []string{host}
	if runtime.GOOS != "windows" {
		targets = append(targets, "windows/amd64")
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
	var dists []string
	for i := range 2 {
		src := filepath.Join(t.TempDir(), "src"+strconv.Itoa(i))
		if out, err := exec.Command("git", "clone", "-q", "--no-hardlinks", "--no-checkout", root(t), src).CombinedOutput(); err != nil {
			t.Fatalf("clone: %v\n%s", err, out)
		}
		if out, err := exec.Command("git", "-C", src, "checkout", "-q", strings.TrimSpace(string(rev))).CombinedOutput(); err != nil {
			t.Fatalf("checkout %s: %v\n%s", rev, err, out)
		}
		d := filepath.Join(t.TempDir(), "dist")
		if _, err := Build(Options{Version: v, Root: src, Dist: d, Targets: targets, Epoch: 1764300000}); err != nil {
			t.Fatalf("build %d: %v", i+1, err)
		}
		dists = append(dists, d)
	}
	for _, name := range []string{ArchiveName(v, runtime.GOOS, runtime.GOARCH), ArchiveName(v, "windows", "amd64"), "checksums.txt"} {
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

	cmd := exec.Command(sha, "-c", "checksums.txt")
	cmd.Dir = dists[0]
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("sha256sum -c checksums.txt: %v\n%s", err, out)
	} else if n := strings.Count(string(out), ": OK"); n != len(targets) {
		t.Errorf("sha256sum -c verified %d archives, want %d:\n%s", n, len(targets), out)
	}

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
	if runtime.GOOS != "windows" {
		names := zipNames(t, filepath.Join(dists[0], ArchiveName(v, "windows", "amd64")))
		if strings.Join(names, ",") != "sessiongate.exe,LICENSE,README.md,CHANGELOG.md" {
			t.Errorf("windows zip holds %v", names)
		}
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
