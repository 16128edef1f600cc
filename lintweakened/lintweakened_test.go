package lintweakened

import (
	"context"
	"errors"
	"testing"

	"github.com/sessiongate/sessiongate/owncommit"
)

// fakeRepo holds one file's contents by commit and a linear history,
// newest first, none of it on the default branch.
type fakeRepo struct {
	facts []owncommit.Fact
	file  map[string]string // commit -> contents of the file ("" absent)
}

func (r fakeRepo) Root() string { return "/repo" }
func (r fakeRepo) ExistsAt(_ context.Context, rev, _ string) (bool, error) {
	return r.file[r.resolve(rev)] != "", nil
}
func (r fakeRepo) ReadAt(_ context.Context, rev, _ string) ([]byte, error) {
	return []byte(r.file[r.resolve(rev)]), nil
}

// resolve reads "sha^1" as the next commit in the history.
func (r fakeRepo) resolve(rev string) string {
	for i, f := range r.facts {
		if rev == f.SHA+"^1" && i+1 < len(r.facts) {
			return r.facts[i+1].SHA
		}
	}
	return rev
}
func (r fakeRepo) IsAncestor(_ context.Context, a, b string) (bool, error) {
	if a == "main" || b == "main" || b == "refs/remotes/origin/main" {
		return false, nil
	}
	if r.resolve(a) == a && a != b {
		return false, errors.New("no such commit")
	}
	return true, nil
}
func (r fakeRepo) DefaultBranch(context.Context) (string, error) { return "main", nil }
func (r fakeRepo) CommitFacts(context.Context, string) ([]owncommit.Fact, error) {
	return r.facts, nil
}
func (r fakeRepo) DiffLines(context.Context, string, string) ([]string, []string, []int, error) {
	return nil, nil, nil, nil
}

// TestEarlierSessionChange: the commit that last changed a lint file
// before this session's start is named when another agent session made
// it; a person's commit (no trailer) is the team's.
func TestEarlierSessionChange(t *testing.T) {
	for _, tc := range []struct {
		name, trailer, want string
	}{
		{"an earlier session's commit", "old-session", "c2c2c2c2c2c2 (session old-session)"},
		{"a person's commit", "", ""},
		{"this session's own id", "now", ""},
	} {
		repo := fakeRepo{
			facts: []owncommit.Fact{{SHA: "c3c3c3c3c3c3c3"}, {SHA: "c2c2c2c2c2c2c2", SessionID: tc.trailer}, {SHA: "c1c1c1c1c1c1c1"}},
			file:  map[string]string{"c3c3c3c3c3c3c3": "loose", "c2c2c2c2c2c2c2": "loose", "c1c1c1c1c1c1c1": "strict"},
		}
		got, err := earlierSessionChange(context.Background(), repo, &Session{ID: "now", StartCommit: "c3c3c3c3c3c3c3"}, "/repo/.flake8")
		if err != nil || got != tc.want {
			t.Errorf("%s: got %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

// TestEnvLookup: the last KEY=VALUE of a name wins, as in exec's env.
func TestEnvLookup(t *testing.T) {
	get := EnvLookup([]string{"HOME=/a", "HOMEX=/b", "HOME=/c"})
	if got := get("HOME"); got != "/c" {
		t.Errorf("HOME = %q, want /c", got)
	}
	if got := get("PATH"); got != "" {
		t.Errorf("PATH = %q, want empty", got)
	}
}
