package identity

import (
	"context"
	"testing"
)

func TestNormalizeRemoteURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"git@github.com:o/r.git", "github.com/o/r"},
		{"https://github.com/o/r", "github.com/o/r"},
		{"https://github.com/o/r.git/", "github.com/o/r"},
		{"ssh://git@github.com/o/r.git", "github.com/o/r"},
		{"ssh://git@github.com:22/o/r.git", "github.com/o/r"},
		{"https://user:ghp_token123@GitHub.com/o/r", "github.com/o/r"},
		{"git://example.org/group/sub/r.git", "example.org/group/sub/r"},
		{"github.com:o/r", "github.com/o/r"},
		{"https://gitlab.example.com:8443/g/r.git", "gitlab.example.com/g/r"},
		{"file:///srv/git/r.git", "/srv/git/r"},
		{"/srv/git/r.git/", "/srv/git/r"},
		{"../upstream", "../upstream"},
		{"  ", ""},
		{"", ""},
		{"https://[::1]:3000/o/r", "::1/o/r"},
		{"https://github.com/o/R", "github.com/o/R"}, // paths keep their case
	} {
		if got := NormalizeRemoteURL(c.in); got != c.want {
			t.Errorf("NormalizeRemoteURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseUser(t *testing.T) {
	for _, c := range []struct{ in, name, email string }{
		{"Ann Lee <ann@example.com>", "Ann Lee", "ann@example.com"},
		{"<ann@example.com>", "", "ann@example.com"},
		{"ann@example.com", "", "ann@example.com"},
		{"Ann Lee", "Ann Lee", ""},
		{"  bob  ", "bob", ""},
	} {
		if n, e := ParseUser(c.in); n != c.name || e != c.email {
			t.Errorf("ParseUser(%q) = %q, %q; want %q, %q", c.in, n, e, c.name, c.email)
		}
	}
}

type identityRepo struct {
	origin, name, email string
}

func (r identityRepo) OriginURL() string { return r.origin }
func (r identityRepo) GitUser(context.Context) (string, string) {
	return r.name, r.email
}

func TestWhoRuns(t *testing.T) {
	ctx := context.Background()
	repo := identityRepo{name: "Git Name", email: "git@example.com"}
	t.Setenv(EnvUser, "")
	t.Setenv(EnvHost, "")
	if n, e, h := WhoRuns(ctx, repo); n != "Git Name" || e != "git@example.com" || h == "" {
		t.Errorf("from git: %q %q %q (want git's user and the host name)", n, e, h)
	}
	t.Setenv(EnvUser, "Over Ride <over@example.com>")
	t.Setenv(EnvHost, "ci-runner-7")
	if n, e, h := WhoRuns(ctx, repo); n != "Over Ride" || e != "over@example.com" || h != "ci-runner-7" {
		t.Errorf("overridden: %q %q %q", n, e, h)
	}
}
