package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// Without GIT_CONFIG_SYSTEM, every place a git build keeps its system
// configuration is read: a mention in any of them (here the second, as a
// Homebrew git would read it) counts.
func TestConfigMentionsReadsEverySystemPlace(t *testing.T) {
	repo := emptyRepo(t)
	sysDir := t.TempDir()
	first, second := filepath.Join(sysDir, "etc-gitconfig"), filepath.Join(sysDir, "homebrew-gitconfig")
	saved := systemConfigs
	t.Cleanup(func() { systemConfigs = saved })
	systemConfigs = []string{first, second}
	env := map[string]string{"GIT_CONFIG_GLOBAL": os.DevNull, "HOME": t.TempDir()}
	getenv := func(k string) string { return env[k] }
	if repo.ConfigMentions(getenv, "commentchar") {
		t.Fatal("no system configuration at all, yet a mention")
	}
	if err := os.WriteFile(second, []byte("[core]\n\tcommentChar = ;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !repo.ConfigMentions(getenv, "commentchar") {
		t.Error("a comment character in the second system place was missed")
	}
	env["GIT_CONFIG_SYSTEM"] = first // git reads only that one then
	if repo.ConfigMentions(getenv, "commentchar") {
		t.Error("GIT_CONFIG_SYSTEM names a plain file, yet a mention")
	}
	env["GIT_CONFIG_NOSYSTEM"] = "maybe" // git refuses it
	if !repo.ConfigMentions(getenv, "commentchar") {
		t.Error("a GIT_CONFIG_NOSYSTEM git refuses was taken for plain")
	}
}

// The worktree mark trusts a file's bytes only when no configuration git
// reads, and no attributes file outside the tree, can convert them: the
// system ones included, wherever this git's build keeps them.
func TestPlainCheckoutReadsSystemFiles(t *testing.T) {
	repo := emptyRepo(t)
	sysDir := t.TempDir()
	sysConfig, sysAttrs := filepath.Join(sysDir, "gitconfig"), filepath.Join(sysDir, "gitattributes")
	savedC, savedA := systemConfigs, systemAttributes
	t.Cleanup(func() { systemConfigs, systemAttributes = savedC, savedA })
	systemConfigs, systemAttributes = []string{filepath.Join(sysDir, "none"), sysConfig}, []string{sysAttrs}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "")
	t.Setenv("GIT_CONFIG_SYSTEM", "")
	t.Setenv("GIT_ATTR_NOSYSTEM", "")
	if !repo.plainCheckout() {
		t.Fatal("nothing configured, yet not plain")
	}
	os.WriteFile(sysConfig, []byte("[core]\n\tautocrlf = true\n"), 0o644)
	if repo.plainCheckout() {
		t.Error("core.autocrlf in the system configuration was missed")
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "true")
	if !repo.plainCheckout() {
		t.Error("GIT_CONFIG_NOSYSTEM=true: the system configuration was still read")
	}
	os.WriteFile(sysAttrs, []byte("* text=auto\n"), 0o644)
	if repo.plainCheckout() {
		t.Error("the system gitattributes was missed")
	}
	t.Setenv("GIT_ATTR_NOSYSTEM", "1")
	if !repo.plainCheckout() {
		t.Error("GIT_ATTR_NOSYSTEM=1: the system gitattributes was still read")
	}
	t.Setenv("GIT_CONFIG_PARAMETERS", "'core.eol'='crlf'")
	if repo.plainCheckout() {
		t.Error("core.eol passed with git -c was missed")
	}
}

// git reads attributes from a tree instead of the worktree's .gitattributes
// when GIT_ATTR_SOURCE (git --attr-source) or attr.tree names one: that
// tree's attributes can convert a file's bytes (eol=crlf, a filter) though
// no .gitattributes is tracked, so the worktree mark cannot trust them.
func TestPlainCheckoutAttrSource(t *testing.T) {
	repo := emptyRepo(t)
	saved := systemAttributes
	t.Cleanup(func() { systemAttributes = saved })
	systemAttributes = nil
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_ATTR_SOURCE", "")
	if !repo.plainCheckout() {
		t.Fatal("nothing configured, yet not plain")
	}
	t.Setenv("GIT_ATTR_SOURCE", "HEAD")
	if repo.plainCheckout() {
		t.Error("GIT_ATTR_SOURCE names a tree of attributes, yet plain")
	}
	t.Setenv("GIT_ATTR_SOURCE", "")
	gittest.Git(t, repo.Root(), "config", "attr.tree", "HEAD")
	if repo.plainCheckout() {
		t.Error("attr.tree names a tree of attributes, yet plain")
	}
}

// emptyRepo is a new repository with nothing committed.
func emptyRepo(t *testing.T) *Repo {
	t.Helper()
	gittest.Require(t)
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q")
	repo, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return repo
}
