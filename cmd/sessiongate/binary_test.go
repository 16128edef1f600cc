package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/testbin"
	"github.com/sessiongate/sessiongate/internal/testshare"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

// binary is sessiongate built once for the package's real-binary tests
// ("" when the go tool is missing: those tests skip, or fail under CI).
var binary string

// coverDir is where the real binary writes its coverage counters when the
// tests run with -cover. The go command merges only the test binary's own
// counters into the profile (go.dev/issue/57924: the pods must share its
// meta-data hash), so TestMain converts these with `go tool covdata
// textfmt` and appends them to -test.coverprofile: the CLI flows the
// scripts run count toward `go test -coverprofile` (use -coverpkg=./...).
var coverDir string

func TestMain(m *testing.M) {
	flag.Parse()
	// TestScripts shards its scripts itself.
	testshare.Apply("TestScripts")
	// A temp folder of the package's own, removed at the end; a leak
	// fails CI (tmpleak).
	os.Exit(tmpleak.Run(func() int { return buildAndRun(m) }))
}

func buildAndRun(m *testing.M) int {
	defer pgCluster.Close()
	if _, err := exec.LookPath("go"); err == nil {
		dir, err := os.MkdirTemp("", "sessiongate-cli-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		// The binary sits alone in its folder, which the scripts put first
		// on PATH: `sessiongate` resolves as it does for a user.
		bin := filepath.Join(dir, "bin", "sessiongate")
		build := []string{"build", "-o", bin}
		if testing.CoverMode() != "" {
			coverDir = filepath.Join(dir, "cover")
			if err := os.Mkdir(coverDir, 0o755); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			build = append(build, "-cover", "-covermode="+testing.CoverMode(), "-coverpkg=github.com/sessiongate/sessiongate/...")
		}
		if coverDir == "" {
			// CI's one build (SESSIONGATE_TEST_BINARY) when set.
			if err := testbin.Build(bin, ".", nil); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		} else {
			var out bytes.Buffer
			cmd := exec.Command("go", append(build, ".")...)
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				fmt.Fprintf(os.Stderr, "build sessiongate: %v\n%s", err, out.String())
				return 1
			}
		}
		binary = bin
	}
	code := m.Run()
	removeCITemplate()
	if coverDir != "" {
		if err := appendBinaryCoverage(coverDir); err != nil {
			fmt.Fprintln(os.Stderr, "sessiongate binary coverage:", err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}

// appendBinaryCoverage adds the real binary's counters to the test's
// coverage profile, when there is one.
func appendBinaryCoverage(dir string) error {
	f := flag.Lookup("test.coverprofile")
	if f == nil || f.Value.String() == "" {
		return nil
	}
	profile := f.Value.String()
	if od := flag.Lookup("test.outputdir"); od != nil && od.Value.String() != "" && !filepath.IsAbs(profile) {
		profile = filepath.Join(od.Value.String(), profile)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) == 0 {
		return err // no run of the binary
	}
	txt := filepath.Join(dir, "binary.out")
	if out, err := exec.Command("go", "tool", "covdata", "textfmt", "-i="+dir, "-o="+txt).CombinedOutput(); err != nil {
		return fmt.Errorf("go tool covdata textfmt: %v\n%s", err, out)
	}
	b, err := os.ReadFile(txt)
	if err != nil {
		return err
	}
	// Drop the "mode:" line: the profile already has one.
	if i := bytes.IndexByte(b, '\n'); i >= 0 && bytes.HasPrefix(b, []byte("mode:")) {
		b = b[i+1:]
	}
	pf, err := os.OpenFile(profile, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := pf.Write(b); err != nil {
		pf.Close()
		return err
	}
	return pf.Close()
}

// realBinary returns the built binary or skips (fails under CI=true).
func realBinary(t *testing.T) string {
	t.Helper()
	if binary == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("the go tool is required under CI=true to build sessiongate")
		}
		t.Skip("go not found: cannot build sessiongate for the real-binary tests")
	}
	return binary
}

// binaryEnv is what every run of the real binary gets on top of its
// environment: the coverage folder when the tests measure coverage.
func binaryEnv() []string {
	if coverDir == "" {
		return nil
	}
	return []string{"GOCOVERDIR=" + coverDir}
}

// sgEnv is the environment of a run of the real binary: the test's own
// without SESSIONGATE_ variables (a developer's session must not leak in),
// binaryEnv, then extra.
func sgEnv(extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SESSIONGATE_") {
			env = append(env, kv)
		}
	}
	return append(append(env, binaryEnv()...), extra...)
}

// sgBin runs the real binary in dir with a clean sessiongate environment
// plus env, and returns the exit code, stdout and stderr.
func sgBin(t *testing.T, dir string, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(realBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = sgEnv(env)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run sessiongate %v: %v", args, err)
	}
	return code, out.String(), errb.String()
}
