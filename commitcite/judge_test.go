package commitcite_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/commitcite"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// gitRepo is a real repository with two commits, the second "the
// session's", and a blob; it returns the repository and the three full ids.
func gitRepo(t *testing.T) (r *gitrepo.Repo, start, own, blob string) {
	t.Helper()
	dir := gittest.Init(t)
	start = gittest.Commit(t, dir, "start", nil)
	own = gittest.Commit(t, dir, "work", map[string]string{"a.txt": "a\n"})
	blob = gittest.Git(t, dir, "rev-parse", "HEAD:a.txt")
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
