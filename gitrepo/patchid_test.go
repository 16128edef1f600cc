package gitrepo_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
)

// TestExactPatchIDs: the ids the hooks record and verify compares are git's
// own `git patch-id --verbatim` of the commit's change (or of the span's
// diff), whatever diff configuration the user has; a whitespace edit, an
// extra line and a different base each make a different id, and an empty
// commit or a merge has none.
func TestExactPatchIDs(t *testing.T) {
	requireGit(t)
	dir := t.TempDir()
	g := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(stdin)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		g("", "add", name)
	}
	g("", "init", "-q", "-b", "main")
	write("a.py", "def f():\n    return 1\n")
	g("", "commit", "-q", "-m", "one")
	base := g("", "rev-parse", "HEAD")
	write("a.py", "def f():\n    return 2\n")
	g("", "commit", "-q", "-m", "two")
	two := g("", "rev-parse", "HEAD")
	write("b.txt", "b\n")
	g("", "commit", "-q", "-m", "three")
	three := g("", "rev-parse", "HEAD")
	// The same change as two, indented differently: a different change.
	g("", "checkout", "-q", "-b", "ws", base)
	write("a.py", "def f():\n\treturn 2\n")
	g("", "commit", "-q", "-m", "two, tabs")
	tabs := g("", "rev-parse", "HEAD")
	g("", "commit", "-q", "--allow-empty", "-m", "empty")
	empty := g("", "rev-parse", "HEAD")
	g("", "merge", "-q", "--no-ff", "-s", "ours", "-m", "merge", three)
	merge := g("", "rev-parse", "HEAD")
	// A user's diff configuration must not change the ids.
	g("", "config", "diff.noprefix", "true")
	g("", "config", "diff.context", "1")
	g("", "config", "diff.algorithm", "histogram")
	verbatim := func(patch string) string { return strings.Fields(g(patch+"\n", "patch-id", "--verbatim") + " x")[0] }
	cases := []struct {
		name string
		in   gitrepo.PatchChange
		want string
	}{
		{"a commit", gitrepo.PatchChange{Commit: two}, verbatim(g("", "-c", "diff.noprefix=false", "-c", "diff.context=3", "show", "--format=", two))},
		{"a span", gitrepo.PatchChange{Commit: three, Base: base}, verbatim(g("", "-c", "diff.noprefix=false", "-c", "diff.context=3", "diff", base, three))},
		{"the root commit", gitrepo.PatchChange{Commit: base}, verbatim(g("", "-c", "diff.noprefix=false", "-c", "diff.context=3", "show", "--format=", base))},
		{"an empty commit", gitrepo.PatchChange{Commit: empty}, ""},
		{"a merge", gitrepo.PatchChange{Commit: merge}, ""},
	}
	repo, err := gitrepo.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var in []gitrepo.PatchChange
	for _, c := range cases {
		in = append(in, c.in)
	}
	in = append(in, gitrepo.PatchChange{Commit: tabs})
	got, err := repo.ExactPatchIDs(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if got[i] != c.want {
			t.Errorf("%s: %q, git patch-id --verbatim says %q", c.name, got[i], c.want)
		}
	}
	if got[0] == "" || got[len(got)-1] == got[0] {
		t.Errorf("a whitespace edit kept the id: %q vs %q", got[len(got)-1], got[0])
	}
	if got[1] == got[0] {
		t.Errorf("the span and its last commit share an id %q", got[0])
	}
	if _, err := repo.ExactPatchIDs(context.Background(), []gitrepo.PatchChange{{Commit: "HEAD"}}); err == nil {
		t.Error("a revision that is not an object id was taken")
	}
	// The span walk: reaches the base through loose single-parent commits,
	// not through a merge.
	if s, ok := repo.SpanCommits(base, three, 10); !ok || len(s) != 2 || s[0] != three || s[1] != two {
		t.Errorf("span %s..%s: %v %v", base, three, s, ok)
	}
	if _, ok := repo.SpanCommits(base, merge, 10); ok {
		t.Error("a span through a merge was taken")
	}
	if _, ok := repo.SpanCommits(base, three, 1); ok {
		t.Error("a span longer than max was taken")
	}
}
