package gitrepo_test

import (
	"context"
	"github.com/sessiongate/sessiongate/identity"
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestIdentity: two clones of one origin, one over ssh and one over https
// with credentials in the URL, have the same normalized origin; the user
// is what git resolves, including a conditional include.
func TestIdentity(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	work := filepath.Join(home, "work")
	gittest.Write(t, home, ".gitconfig", "[user]\n\tname = Home Name\n\temail = home@example.com\n"+
		"[includeIf \"gitdir:"+work+"/\"]\n\tpath = "+filepath.Join(home, "work.gitconfig")+"\n")
	gittest.Write(t, home, "work.gitconfig", "[user]\n\temail = ann@work.example\n")

	var origins []string
	for i, u := range []string{"git@github.com:o/proj.git", "https://ann:tok123@github.com/o/proj"} {
		dir := filepath.Join(work, []string{"a", "b"}[i])
		gittest.Git(t, home, "init", "-q", dir)
		gittest.Git(t, dir, "remote", "add", "origin", u)
		r, err := gitrepo.Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		origins = append(origins, identity.NormalizeRemoteURL(r.OriginURL()))
		name, email := r.GitUser(ctx)
		if name != "Home Name" || email != "ann@work.example" {
			t.Errorf("GitUser = %q, %q; want the global name and the included work email", name, email)
		}
	}
	if origins[0] != "github.com/o/proj" || origins[1] != origins[0] {
		t.Errorf("origins %q: want both github.com/o/proj", origins)
	}
	plain := filepath.Join(home, "plain")
	gittest.Git(t, home, "init", "-q", plain)
	os.Remove(filepath.Join(home, ".gitconfig"))
	r, err := gitrepo.Open(ctx, plain)
	if err != nil {
		t.Fatal(err)
	}
	if r.OriginURL() != "" {
		t.Errorf("no origin: %q", r.OriginURL())
	}
	if n, e := r.GitUser(ctx); n != "" || e != "" {
		t.Errorf("no user configured: %q %q", n, e)
	}
}
