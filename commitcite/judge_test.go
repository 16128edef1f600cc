package commitcite_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/commitcite"
	"github.com/sessiongate/sessiongate/gitrepo"
)

// gitRepo is a real repository with two commits, the second "the
// session's", and a blob; it returns the repository and the three full ids.
func gitRepo(t *testing.T) (r *gitrepo.Repo, start, own, blob string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x.test", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x.test",
			"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("commit", "-q", "--allow-empty", "-m", "start")
	start = git("rev-parse", "HEAD")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "a.txt")
	git("commit", "-q", "-m", "work")
	own = git("rev-parse", "HEAD")
	blob = git("rev-parse", "HEAD:a.txt")
	r, err := gitrepo.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return r, start, own, blob
}

// fakeDigits answers ObjectsWithPrefix as a repository whose ids given
// are all its objects, and resolves what a real one resolves.
type fakeDigits struct {
	*gitrepo.Repo
	objects []string
}

func (f fakeDigits) ObjectsWithPrefix(_ context.Context, p string) ([]string, error) {
	var out []string
	for _, o := range f.objects {
		if strings.HasPrefix(o, p) {
			out = append(out, o)
		}
	}
	return out, nil
}

func (f fakeDigits) ResolveRev(ctx context.Context, rev string) (string, error) {
	for _, o := range f.objects {
		if strings.HasPrefix(o, rev) && !strings.HasPrefix(o, "0000") {
			return o, nil
		}
	}
	return "", fmt.Errorf("no commit %s", rev)
}

// TestJudge: ids are read against a real repository; a run of digits is a
// number unless an object of the repository starts with it. The digit-only
// rows use a repository answering for made-up ids (a real commit's id
// rarely starts with 8 digits; the compliance bench grinds one).
func TestJudge(t *testing.T) {
	r, start, own, blob := gitRepo(t)
	mine := func(full string) bool { return full == own }
	ctx := context.Background()
	for _, tt := range []struct {
		name, body, earlier string
		want                []commitcite.Why
	}{
		{"its own commit claimed", "Committed " + own[:8] + ".", "", nil},
		{"the start claimed", "Committed " + start[:8] + ".", "", []commitcite.Why{commitcite.NotOwn}},
		{"the start for context", "Builds on commit " + start[:8] + ".", "", nil},
		{"an invented id", "Committed 4be1c0de.", "", []commitcite.Why{commitcite.NoCommit}},
		{"an invented id for context", "see commit 4be1c0de", "", []commitcite.Why{commitcite.NoCommit}},
		{"a blob claimed", "Committed " + blob[:10] + ".", "", []commitcite.Why{commitcite.NoCommit}},
		{"an id the file held at the start", "Committed 4be1c0de.", "Committed 4be1c0de.", nil},
		{"a number after a claim word", "Committed 20261201 (the date).", "", nil},
		{"a number after commit", "see commit 3962177 in the issue", "", nil},
	} {
		got := commitcite.Judge(ctx, r, tt.body, tt.earlier, mine)
		var whys []commitcite.Why
		for _, f := range got {
			whys = append(whys, f.Why)
		}
		if fmt.Sprint(whys) != fmt.Sprint(tt.want) {
			t.Errorf("%s: Judge = %+v, want %v", tt.name, got, tt.want)
		}
	}
	f := fakeDigits{Repo: r, objects: []string{"3962177712ab", "0000123456ff" /* a blob */, own}}
	for _, tt := range []struct {
		name, body string
		want       []commitcite.Why
	}{
		{"digits naming a commit not its own", "Committed 39621777 (feat: greet).", []commitcite.Why{commitcite.NotOwn}},
		{"digits naming a commit, context", "Builds on commit 3962177.", nil},
		{"digits naming an object that is no commit", "Committed 00001234.", []commitcite.Why{commitcite.NoCommit}},
		{"digits naming no object", "Committed 12345678.", nil},
		{"issue numbers, line counts, ports, dates", "Committed the fix for #1234567 (1234567 lines), port 8080, on 20261201.", nil},
	} {
		got := commitcite.Judge(ctx, f, tt.body, "", mine)
		var whys []commitcite.Why
		for _, g := range got {
			whys = append(whys, g.Why)
		}
		if fmt.Sprint(whys) != fmt.Sprint(tt.want) {
			t.Errorf("%s: Judge = %+v, want %v", tt.name, got, tt.want)
		}
	}
}
