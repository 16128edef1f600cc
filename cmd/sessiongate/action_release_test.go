package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestActionInstallsRelease replays action.yml's install step against a
// local file server standing in for the release host (GitHub's
// releases/latest redirect, releases/download/<tag>/): the archive named
// dist/sessiongate_<version>_<os>_<arch>.tar.gz is installed only when its
// sha256 is the one checksums.txt (sha256sum format) lists; a mismatch
// fails the step and installs nothing; no release means a build from
// source (or an error, for a version asked for by name).
func TestActionInstallsRelease(t *testing.T) {
	for _, p := range []string{"curl", "tar", "gzip", "sha256sum"} {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is required under CI=true: %v", p, err)
			}
			t.Skipf("%s not found: the action's install step needs it", p)
		}
	}
	srv, bin := newReleaseHost(t)
	plat := runtime.GOOS + "_" + runtime.GOARCH
	cases := []struct {
		name, version, ref, releases string
		code                         int
		want                         string
		installed                    bool
	}{
		{"pinned at a tag: that release, checksum matches", "latest", "v1.2.3", "", 0, `installed sessiongate v1\.2\.3 from .*/download/v1\.2\.3/sessiongate_1\.2\.3_` + plat, true},
		{"a version by name, archive named with its v, flat", "v1.2.4", "main", "", 0, `installed sessiongate v1\.2\.4 .*sessiongate_v1\.2\.4_`, true},
		{"not pinned: the newest release (releases/latest)", "latest", "main", "", 0, `installed sessiongate v1\.2\.3 `, true},
		{"checksum mismatch: the step fails, nothing installed", "v1.2.5", "main", "", 1, `sha256 [0-9a-f]{64} does not match checksums\.txt`, false},
		{"a version by name that was never released", "v9.9.9", "main", "", 1, `no release v9\.9\.9 at`, false},
		{"no release at all: build from source", "latest", "main", "/nowhere", 0, `building the action's source`, false},
		{"source", "source", "v1.2.3", "", 0, `building the action's source`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			temp := t.TempDir()
			vals := map[string]string{"github.action_ref": c.ref, "runner.temp": temp}
			inputs := map[string]string{"version": c.version, "releases-url": srv.URL + "/releases" + c.releases}
			code, out := replayActionSteps(t, t.TempDir(), nil, vals, inputs, map[string]bool{"release": true})
			if code != c.code || !regexp.MustCompile(c.want).MatchString(out) {
				t.Fatalf("install step: exit %d, want %d matching %s\n%s", code, c.code, c.want, out)
			}
			got, err := os.ReadFile(filepath.Join(temp, "sessiongate-bin", "sessiongate"))
			switch {
			case c.installed && (err != nil || !bytes.Equal(got, bin)):
				t.Fatalf("the installed binary is not the release's: %v", err)
			case !c.installed && err == nil:
				t.Fatalf("a binary was installed:\n%s", out)
			}
			// The download folder goes when the step ends, pass or fail.
			if left, _ := filepath.Glob(filepath.Join(temp, "sessiongate-release.*")); len(left) > 0 {
				t.Fatalf("the install step left %v behind", left)
			}
			if c.installed {
				if v, err := exec.Command(filepath.Join(temp, "sessiongate-bin", "sessiongate"), "--version").CombinedOutput(); err != nil {
					t.Fatalf("the installed binary does not run: %v\n%s", err, v)
				}
			}
		})
	}
}

// newReleaseHost serves releases as GitHub does (releases/latest redirects
// to the newest tag; releases/download/<tag>/<file>) from a folder: v1.2.3
// (the binary in a folder of the archive), v1.2.4 (flat, the archive named
// with the tag's v) and v1.2.5 (checksums.txt lists a wrong sha256), each
// holding this test's sessiongate binary, whose bytes it returns.
func newReleaseHost(t *testing.T) (*httptest.Server, []byte) {
	t.Helper()
	bin, err := os.ReadFile(realBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	host := t.TempDir()
	// release writes one release: its archive (the binary in a folder, or
	// flat) and checksums.txt, with the archive's sha256 or a wrong one.
	release := func(tag, name string, nested, tamper bool) {
		dir := filepath.Join(host, "download", tag)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		// The archive is made by the tar program (gzip inside), not by
		// archive/tar and compress/gzip in this process: under -race,
		// deflating the 45 MB binary three times in instrumented Go code
		// cost minutes of CPU on the 2-core CI runner.
		stage := t.TempDir()
		inner := "sessiongate"
		if nested {
			inner = strings.TrimSuffix(name, ".tar.gz") + "/sessiongate"
		}
		for _, f := range []struct {
			name string
			body []byte
		}{{"LICENSE", []byte("license\n")}, {inner, bin}} {
			p := filepath.Join(stage, filepath.FromSlash(f.name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.body, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		// gzip -1, not tar -z's -6: the same archive format for the
		// step's tar -xzf, at less than half the CPU (3.4 -> 1.5 s each
		// for the 49 MB binary); the size is not what is tested.
		archive := filepath.Join(t.TempDir(), strings.TrimSuffix(name, ".gz"))
		if out, err := exec.Command("tar", "-cf", archive, "-C", stage, "LICENSE", inner).CombinedOutput(); err != nil {
			t.Fatalf("tar: %v\n%s", err, out)
		}
		if out, err := exec.Command("gzip", "-1", "-n", archive).CombinedOutput(); err != nil {
			t.Fatalf("gzip: %v\n%s", err, out)
		}
		archive += ".gz"
		b, err := os.ReadFile(archive)
		if err != nil {
			t.Fatal(err)
		}
		buf := bytes.NewBuffer(b)
		sum := sha256.Sum256(buf.Bytes())
		if tamper {
			sum[0] ^= 0xff
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		sums := fmt.Sprintf("%s  sessiongate_other_windows_amd64.zip\n%s  %s\n", strings.Repeat("0", 64), hex.EncodeToString(sum[:]), name)
		if err := os.WriteFile(filepath.Join(dir, "checksums.txt"), []byte(sums), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plat := runtime.GOOS + "_" + runtime.GOARCH
	release("v1.2.3", "sessiongate_1.2.3_"+plat+".tar.gz", true, false)
	release("v1.2.4", "sessiongate_v1.2.4_"+plat+".tar.gz", false, false)
	release("v1.2.5", "sessiongate_1.2.5_"+plat+".tar.gz", true, true)
	mux := http.NewServeMux()
	mux.HandleFunc("/releases/latest", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/releases/tag/v1.2.3", http.StatusFound)
	})
	mux.HandleFunc("/releases/tag/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "release page") })
	mux.Handle("/releases/download/", http.StripPrefix("/releases/", http.FileServer(http.Dir(host))))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, bin
}
