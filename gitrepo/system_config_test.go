package gitrepo

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestSystemConfigAsked: a long-lived Repo stamps only the system config
// file its git reads, once git has named it, and the filter cache still
// answers as git does. The git here is a build whose system file is B (a
// wrapper that sets GIT_CONFIG_SYSTEM for the real git and names B when
// asked): a driver written to A, a place another build reads, is not what
// this git reads (answered from the stamps, as git answers); one written to
// B moves the key and is seen. Another PATH (another git) or
// GIT_CONFIG_SYSTEM goes back to every candidate place.
func TestSystemConfigAsked(t *testing.T) {
	gittest.Require(t)
	if stampLen != 40 {
		t.Skip("the config cache needs a change time in the stamp (Linux)")
	}
	old := racyWindow
	racyWindow = 0
	t.Cleanup(func() { racyWindow = old })
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a-gitconfig"), filepath.Join(dir, "b-gitconfig")
	saved := systemConfigs
	t.Cleanup(func() { systemConfigs = saved })
	systemConfigs = []string{a, b}
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	wrapper := "#!/bin/sh\nif [ \"$1 $2 $3\" = \"config --system --edit\" ]; then exec $GIT_EDITOR " + b + "; fi\nGIT_CONFIG_SYSTEM=" + b + " exec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "")
	unsetSystem(t)
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	ctx := context.Background()
	root := gittest.New(t, nil)
	r, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	listed := func() []string { f, _ := r.configFilesFor(configEnv()); return f }
	check := func(name string, hit bool) {
		t.Helper()
		before := r.filterCache.hits
		got, err := r.cleanFilters(ctx)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := r.cleanFiltersFromGit(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: cleanFilters = %v, git says %v", name, got, want)
		}
		if got := r.filterCache.hits > before; got != hit {
			t.Errorf("%s: from the stamps %v, want %v", name, got, hit)
		}
	}
	check("first call", false)
	if f := listed(); !slices.Contains(f, a) || !slices.Contains(f, b) {
		t.Fatalf("before git was asked, the list %v lacks a candidate", f)
	}
	check("second call: a hit, git asked", true)
	if f := listed(); slices.Contains(f, a) || !slices.Contains(f, b) {
		t.Fatalf("after git named %s, the list is %v", b, f)
	}
	check("the list changed: stamped again", false)
	check("unchanged", true)
	os.WriteFile(a, []byte("[filter \"x\"]\n\tclean = cat\n"), 0o644)
	check("a driver where this git does not read", true)
	os.WriteFile(b, []byte("[filter \"y\"]\n\tclean = cat\n"), 0o644)
	check("a driver in the file this git reads", false)
	check("kept", true)
	t.Setenv("PATH", strings.TrimPrefix(os.Getenv("PATH"), bin+string(os.PathListSeparator)))
	if f := listed(); !slices.Contains(f, a) {
		t.Errorf("another PATH (another git): the list %v lacks %s", f, a)
	}
}

// TestSystemConfigAskedOfRealGit: the git on this machine names the system
// file it reads, and it is the one `git config --system --show-origin`
// lists its settings from (when it has any), among the candidate places.
func TestSystemConfigAskedOfRealGit(t *testing.T) {
	gittest.Require(t)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "")
	unsetSystem(t)
	ctx := context.Background()
	r, err := Open(ctx, gittest.New(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	r.askSystemConfig(ctx)
	got := r.systemConfigFiles()
	if len(got) != 1 || !slices.Contains(systemConfigs, got[0]) {
		t.Fatalf("git named %v, want one of %v", got, systemConfigs)
	}
	out, _ := exec.Command("git", "config", "--system", "--show-origin", "--list").Output()
	if line, _, _ := strings.Cut(string(out), "\n"); line != "" && !strings.HasPrefix(line, "file:"+got[0]+"\t") {
		t.Errorf("git config --show-origin lists %q, asked %s", line, got[0])
	}
	t.Logf("this git reads %s", got[0])
}

// unsetSystem unsets GIT_CONFIG_SYSTEM for the test: set, even empty, it
// names the file git reads.
func unsetSystem(t *testing.T) {
	t.Setenv("GIT_CONFIG_SYSTEM", "")
	os.Unsetenv("GIT_CONFIG_SYSTEM")
}
