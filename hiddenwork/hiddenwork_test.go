package hiddenwork

import (
	"context"
	"reflect"
	"testing"
	"time"
)

type fake struct {
	hidden     map[string]string
	statHidden []string
	crlf       []string
	gaps       map[string]string
}

func (f fake) HiddenFiles(context.Context) (map[string]string, error) {
	m := map[string]string{}
	for k, v := range f.hidden {
		m[k] = v
	}
	return m, nil
}
func (f fake) StatHiddenFiles(context.Context) ([]string, error) { return f.statHidden, nil }

type withExtras struct{ fake }

func (f withExtras) ConvertedScripts(context.Context) ([]string, error) { return f.crlf, nil }
func (f withExtras) TreeGaps(_ context.Context, _ time.Time, changed []string) (map[string]string, error) {
	if len(changed) == 0 {
		return nil, nil
	}
	return f.gaps, nil
}

// TestList: each way git status hides a change is listed with its how,
// sorted, documentation left out; the session's files are asked for only
// by a Repo that reports tree gaps.
func TestList(t *testing.T) {
	base := fake{
		hidden:     map[string]string{"greet_test.go": "skip-worktree", "README.md": "assume-unchanged"},
		statHidden: []string{"greet.go", "greet_test.go"},
		crlf:       []string{"check.sh"},
		gaps:       map[string]string{"data/link": "a changed link out of git"},
	}
	asked := 0
	changed := func() ([]string, error) { asked++; return []string{"greet.go"}, nil }
	for _, tc := range []struct {
		name  string
		repo  Repo
		want  []string
		asked int
	}{
		{"status-hidden and stat-kept", base, []string{
			"greet.go: its stat data (size, mtime, inode) was kept, so git status reads it unchanged",
			"greet_test.go: skip-worktree"}, 0},
		{"with CRLF scripts and tree gaps", withExtras{base}, []string{
			"check.sh: its work tree has CRLF line ends that git converts away (core.autocrlf or an eol attribute), so bash ran each line with a trailing CR",
			"data/link: a changed link out of git",
			"greet.go: its stat data (size, mtime, inode) was kept, so git status reads it unchanged",
			"greet_test.go: skip-worktree"}, 1},
	} {
		asked = 0
		got, err := List(context.Background(), tc.repo, time.Now(), changed, []string{"*.md"})
		if err != nil || !reflect.DeepEqual(got, tc.want) || asked != tc.asked {
			t.Errorf("%s: List = %q, %v (changed asked %d times); want %q (%d)", tc.name, got, err, asked, tc.want, tc.asked)
		}
	}
}
