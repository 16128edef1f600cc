package hooks

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestFrameworkPushed: under the pre-commit framework the pushed commit
// comes from its variables, not git's ref lines.
func TestFrameworkPushed(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "root"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	out, _ := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	head := strings.TrimSpace(string(out))
	sha := strings.Repeat("ab", 20)
	for _, tc := range []struct {
		name string
		env  map[string]string
		want []string // the pushed sha, or none
	}{
		{"to_ref named", map[string]string{"PRE_COMMIT": "1", "PRE_COMMIT_TO_REF": sha, "PRE_COMMIT_LOCAL_BRANCH": "refs/heads/x"}, []string{sha}},
		{"a whole history pushed: the local branch resolved", map[string]string{"PRE_COMMIT": "1", "PRE_COMMIT_LOCAL_BRANCH": "refs/heads/main"}, []string{head}},
		{"to_ref not a sha", map[string]string{"PRE_COMMIT": "1", "PRE_COMMIT_TO_REF": "HEAD"}, nil},
		{"a local branch that looks like an option", map[string]string{"PRE_COMMIT": "1", "PRE_COMMIT_LOCAL_BRANCH": "--all"}, nil},
		{"nothing named", map[string]string{"PRE_COMMIT": "1"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := &Runtime{Getenv: func(k string) string { return tc.env[k] }}
			var got []string
			for _, f := range rt.pushedRefs(context.Background(), dir) {
				got = append(got, f[1])
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("pushed %q, want %q", got, tc.want)
			}
		})
	}
}
