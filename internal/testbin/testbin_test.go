package testbin

import (
	"debug/buildinfo"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) {
	// go build writes its work folders under TMPDIR.
	os.Exit(tmpleak.Run(m.Run))
}

// requireGo skips without the go tool, and fails under CI=true.
func requireGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("the go tool is required under CI=true")
		}
		t.Skip("go not found: install Go to run this test")
	}
}

// TestCheck: a prebuilt binary is used only when it was built from the
// checkout as it is now. The lazy routes are a binary built before the
// last commit, one built from a dirty tree, a tree edited after the
// build, and something else named in the variable.
func TestCheck(t *testing.T) {
	requireGo(t)
	const want = "example.com/m/cmd/tool"
	for _, tt := range []struct {
		name  string
		after func(t *testing.T, repo, bin string) string // edits after the build; returns the path to check
		build func(t *testing.T, repo string)             // edits before the build
		err   string                                      // "" accepts
	}{
		{name: "built from the checkout as it is (the honest CI run)"},
		{name: "a commit since the build", err: "built from commit",
			after: func(t *testing.T, repo, bin string) string {
				gittest.Write(t, repo, "cmd/tool/main.go", "package main\n\nfunc main() { println(2) }\n")
				gittest.Git(t, repo, "commit", "-qam", "change")
				return bin
			}},
		{name: "an edit since the build", err: "changes the binary was not built from",
			after: func(t *testing.T, repo, bin string) string {
				gittest.Write(t, repo, "cmd/tool/main.go", "package main\n\nfunc main() { println(2) }\n")
				return bin
			}},
		{name: "a new untracked file since the build", err: "changes the binary was not built from",
			after: func(t *testing.T, repo, bin string) string {
				gittest.Write(t, repo, "cmd/tool/more.go", "package main\n")
				return bin
			}},
		{name: "built from a dirty tree", err: "uncommitted changes",
			build: func(t *testing.T, repo string) {
				gittest.Write(t, repo, "cmd/tool/main.go", "package main\n\nfunc main() { println(3) }\n")
			}},
		{name: "a file that is not executable", err: "not an executable file",
			after: func(t *testing.T, repo, bin string) string {
				p := filepath.Join(t.TempDir(), "sessiongate")
				if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}},
		{name: "a shell script", err: "no Go build information",
			after: func(t *testing.T, repo, bin string) string {
				p := filepath.Join(t.TempDir(), "sessiongate")
				if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
					t.Fatal(err)
				}
				return p
			}},
		{name: "a relative path", err: "not an absolute path",
			after: func(t *testing.T, repo, bin string) string { return "sessiongate" }},
		{name: "missing", err: "no such file",
			after: func(t *testing.T, repo, bin string) string { return filepath.Join(repo, "nothing") }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			repo := gittest.Init(t)
			gittest.Write(t, repo, "go.mod", "module example.com/m\n\ngo 1.22\n")
			gittest.Write(t, repo, "cmd/tool/main.go", "package main\n\nfunc main() { println(1) }\n")
			gittest.Write(t, repo, ".gitignore", "/bin/\n")
			gittest.Git(t, repo, "add", "-A")
			gittest.Git(t, repo, "commit", "-qm", "tool")
			if tt.build != nil {
				tt.build(t, repo)
			}
			bin := filepath.Join(repo, "bin", "tool")
			cmd := exec.Command("go", "build", "-o", bin, "./cmd/tool")
			cmd.Dir = repo
			cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=true", "GOWORK=off")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			if tt.after != nil {
				bin = tt.after(t, repo, bin)
			}
			err := check(bin, repo, want)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("the honest binary was refused: %v", err)
			case tt.err != "" && err == nil:
				t.Fatalf("accepted; want an error with %q", tt.err)
			case tt.err != "" && !strings.Contains(err.Error(), tt.err):
				t.Fatalf("error %q, want it to say %q", err, tt.err)
			case err != nil && !strings.Contains(err.Error(), Env+"="):
				t.Fatalf("error %q does not name %s", err, Env)
			}
		})
	}
}

// TestCheckWrongMain: a Go binary built from another main package of
// the same checkout is refused.
func TestCheckWrongMain(t *testing.T) {
	requireGo(t)
	repo := gittest.Init(t)
	gittest.Write(t, repo, "go.mod", "module example.com/m\n\ngo 1.22\n")
	gittest.Write(t, repo, "cmd/other/main.go", "package main\n\nfunc main() {}\n")
	gittest.Write(t, repo, ".gitignore", "/bin/\n")
	gittest.Git(t, repo, "add", "-A")
	gittest.Git(t, repo, "commit", "-qm", "other")
	bin := filepath.Join(repo, "bin", "other")
	cmd := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "./cmd/other")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if err := check(bin, repo, "example.com/m/cmd/tool"); err == nil || !strings.Contains(err.Error(), `built from "example.com/m/cmd/other"`) {
		t.Fatalf("got %v, want the other main package named", err)
	}
}

// TestBuildCopies: with the variable set, Build copies the binary (a test
// that rewrites its copy leaves the shared one alone); unset, it builds.
func TestBuildCopies(t *testing.T) {
	requireGo(t)
	gittest.Require(t)
	root, err := repoRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	// Only a clean checkout can prove a prebuilt binary current.
	if st, _ := git(root, "status", "--porcelain"); st != "" {
		t.Skip("the checkout has uncommitted changes: a prebuilt binary cannot be current")
	}
	shared := filepath.Join(t.TempDir(), "sessiongate")
	// -buildvcs=true as .ci/run builds it: a go env file may say false.
	cmd := exec.Command("go", "build", "-buildvcs=true", "-o", shared, "../../cmd/sessiongate")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Setenv(Env, shared)
	copy := filepath.Join(t.TempDir(), "sessiongate")
	if err := Build(copy, "../../cmd/sessiongate", nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copy, []byte("changed"), 0o755); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(shared); err != nil || string(b) == "changed" {
		t.Fatalf("the shared binary changed with the copy (err %v)", err)
	}
}

// TestBuildFallsBack: a variable naming something that cannot be shown
// current (here a shell script that would pass anything) is not used:
// Build builds sessiongate from the tree instead.
func TestBuildFallsBack(t *testing.T) {
	requireGo(t)
	gittest.Require(t)
	fake := filepath.Join(t.TempDir(), "sessiongate")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(Env, fake)
	out := filepath.Join(t.TempDir(), "sessiongate")
	if err := Build(out, "../../cmd/sessiongate", nil); err != nil {
		t.Fatal(err)
	}
	info, err := buildinfo.ReadFile(out)
	if err != nil {
		t.Fatalf("Build left the fake in place of a Go build: %v", err)
	}
	if info.Path != mainPath {
		t.Fatalf("built %q, want %q", info.Path, mainPath)
	}
}
