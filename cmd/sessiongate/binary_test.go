package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// binary is sessiongate built once for the package's real-binary tests
// ("" when the go tool is missing: those tests skip, or fail under CI).
var binary string

// coverDir is where the real binary writes its coverage counters when the
// tests run with -cover: the test's own -test.gocoverdir, so `go test
// -cover` merges the CLI flows the binary ran into the package's profile.
var coverDir string

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(buildAndRun(m))
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
		if f := flag.Lookup("test.gocoverdir"); f != nil && f.Value.String() != "" && testing.CoverMode() != "" {
			coverDir = f.Value.String()
			build = append(build, "-cover", "-covermode="+testing.CoverMode(), "-coverpkg=github.com/sessiongate/sessiongate/...")
		}
		var out bytes.Buffer
		cmd := exec.Command("go", append(build, ".")...)
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "build sessiongate: %v\n%s", err, out.String())
			return 1
		}
		binary = bin
	}
	return m.Run()
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

// sgBin runs the real binary in dir with a clean sessiongate environment
// plus env, and returns the exit code, stdout and stderr.
func sgBin(t *testing.T, dir string, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(realBinary(t), args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if len(kv) < 12 || kv[:12] != "SESSIONGATE_" {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, binaryEnv()...)
	cmd.Env = append(cmd.Env, env...)
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
