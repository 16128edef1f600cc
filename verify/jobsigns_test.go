package verify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The origin check compares what actions/checkout and GitLab runners
// write with what the job says: forms that name the same repository
// match, another repository (or none) does not.
func TestOriginMismatch(t *testing.T) {
	gh := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "acme/app"}
	gl := map[string]string{"GITLAB_CI": "true", "CI_REPOSITORY_URL": "https://gitlab-ci-token:secret@gitlab.example.com/group/app.git", "CI_PROJECT_URL": "https://gitlab.example.com/group/app"}
	for _, c := range []struct {
		name, origin string
		env          map[string]string
		bad          bool
	}{
		{"actions/checkout https", "https://github.com/acme/app", gh, false},
		{"ssh form with .git", "git@github.com:acme/app.git", gh, false},
		{"case and trailing slash", "https://GitHub.com/Acme/App/", gh, false},
		{"another repository", "https://github.com/agent/app", gh, true},
		{"another host", "https://github.example/acme/app", gh, true},
		{"no origin", "", gh, true},
		{"GitLab clone URL with a token", "https://gitlab-ci-token:secret@gitlab.example.com/group/app.git", gl, false},
		{"GitLab URL without the token", "https://gitlab.example.com/group/app.git", gl, false},
		{"GitLab fork", "https://gitlab.example.com/agent/app.git", gl, true},
		{"CI says nothing", "https://anywhere.example/x", map[string]string{"GITHUB_ACTIONS": "true"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := originMismatch(c.origin, func(k string) string { return c.env[k] })
			if (msg != "") != c.bad {
				t.Fatalf("originMismatch(%q) = %q, want mismatch %v", c.origin, msg, c.bad)
			}
			if strings.Contains(msg, "secret") {
				t.Errorf("the message shows the token: %s", msg)
			}
		})
	}
}

// A PATH folder inside the checkout is a sign; the runner's own folders
// are not.
func TestPathShadow(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "node_modules", ".bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	for _, c := range []struct {
		name, path string
		sign       bool
	}{
		{"runner folders only", outside + string(os.PathListSeparator) + "/usr/bin", false},
		{"a folder of the checkout first", bin + string(os.PathListSeparator) + "/usr/bin", true},
		{"a sibling whose name starts like the checkout", root + "-other" + string(os.PathListSeparator) + "/usr/bin", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := pathShadow(root, c.path); (got != "") != c.sign {
				t.Fatalf("pathShadow(%q) = %q, want a sign: %v", c.path, got, c.sign)
			}
		})
	}
}
