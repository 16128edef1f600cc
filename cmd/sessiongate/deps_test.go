package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Every process of this binary, each git hook included, runs the package
// init of everything linked into it, so packages nothing calls must not be
// linked: go-git's top-level package links every transport (ssh with its
// known-hosts and agent code, http, git), and goldmark's extension package
// compiles autolink regexps at init. gitrepo opens go-git's storage
// directly and protocolspec reads GFM itself for this reason.
func TestLinksNoUnusedStartupWeight(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("go not found: the dependency check needs the go command")
		}
		t.Skip("go not found: the dependency check needs the go command")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	// Packages, and trees of packages (a trailing slash).
	banned := []string{
		"github.com/go-git/go-git/v5",
		"github.com/go-git/go-git/v5/plumbing/transport/",
		"golang.org/x/crypto/ssh/",
		"github.com/yuin/goldmark/extension", // its ast subpackage is used
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, b := range banned {
			if dep == strings.TrimSuffix(b, "/") || strings.HasSuffix(b, "/") && strings.HasPrefix(dep, b) {
				t.Errorf("the binary links %s, which no command uses", dep)
			}
		}
	}
}
