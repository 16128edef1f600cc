// Package testbin gives a test package the sessiongate binary. Eight test
// packages run the real binary; each built it in TestMain (mcpserver once
// per test), a `go build` and a 48 MB link every time. CI builds it once
// and names it in SESSIONGATE_TEST_BINARY; without the variable each
// package builds its own, so `go test ./pkg` alone still works.
package testbin

import (
	"bytes"
	"debug/buildinfo"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Env names a sessiongate binary built once for the whole run (.ci/run).
const Env = "SESSIONGATE_TEST_BINARY"

// mainPath is the package the binary must be built from.
const mainPath = "github.com/sessiongate/sessiongate/cmd/sessiongate"

// Build puts a sessiongate binary at out. With $SESSIONGATE_TEST_BINARY
// set it is a copy of that binary, once the binary is shown to be built
// from the tree as it is now (a stale one would test old code and pass);
// else, saying why on stderr when the variable is set, it is `go build
// args... -o out pkg`, with env added to the go command's environment.
// pkg is relative to the test's working folder.
func Build(out, pkg string, env []string, args ...string) error {
	if prebuilt := os.Getenv(Env); prebuilt != "" {
		root, err := repoRoot(".")
		if err == nil {
			err = check(prebuilt, root, mainPath)
		}
		if err == nil {
			if err := copyFile(prebuilt, out); err != nil {
				return fmt.Errorf("%s=%s: copy to %s: %w", Env, prebuilt, out, err)
			}
			return nil
		}
		// Building from the tree is always right, only slower: say why
		// the prebuilt binary was not taken, and build.
		fmt.Fprintf(os.Stderr, "testbin: not using it, building sessiongate from the tree: %v\n", err)
	}
	cmd := exec.Command("go", append(append([]string{"build"}, args...), "-o", out, pkg)...)
	cmd.Env = append(os.Environ(), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build sessiongate (go build %s): %v\n%s", pkg, err, b)
	}
	return nil
}

// check returns an error unless bin is an executable built by go from
// main package want in the git checkout at root, at the commit checked
// out there, with no change to the tree then or since.
func check(bin, root, want string) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%s=%s: %s; unset it to build from the tree, or rebuild it (.ci/run does)", Env, bin, fmt.Sprintf(format, a...))
	}
	if !filepath.IsAbs(bin) {
		return bad("not an absolute path")
	}
	fi, err := os.Stat(bin)
	if err != nil {
		return bad("%v", err)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return bad("not an executable file (mode %v)", fi.Mode())
	}
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		return bad("no Go build information: %v", err)
	}
	if info.Path != want {
		return bad("built from %q, want %q", info.Path, want)
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	rev := settings["vcs.revision"]
	if rev == "" {
		return bad("no vcs.revision in its build information (built with -buildvcs=false or outside a git checkout)")
	}
	if settings["vcs.modified"] != "false" {
		return bad("built from a tree with uncommitted changes (vcs.modified=%s)", settings["vcs.modified"])
	}
	head, err := git(root, "rev-parse", "HEAD")
	if err != nil {
		return bad("%v", err)
	}
	if head != rev {
		return bad("built from commit %.12s, the checkout is at %.12s", rev, head)
	}
	// Untracked files count: a new .go file changes the build.
	status, err := git(root, "status", "--porcelain")
	if err != nil {
		return bad("%v", err)
	}
	if status != "" {
		return bad("the checkout has changes the binary was not built from:\n%s", status)
	}
	return nil
}

// repoRoot is the top of the git checkout holding dir.
func repoRoot(dir string) (string, error) {
	return git(dir, "rev-parse", "--show-toplevel")
}

func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s in %s: %v: %s", strings.Join(args, " "), dir, err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// copyFile copies, never links: a test that replaces or chmods its
// binary must not touch the shared one.
func copyFile(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
