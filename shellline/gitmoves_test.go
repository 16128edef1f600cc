package shellline

import (
	"reflect"
	"testing"
)

// TestGitMoves: the git query each line leads to (round 19, t4), and the
// lines that lead to none.
func TestGitMoves(t *testing.T) {
	for _, c := range []struct {
		line string
		want []GitMove // What not compared
	}{
		{`git reset --hard relaxed`, []GitMove{{Args: []string{"HEAD", "relaxed^{commit}"}}}},
		{`git reset -q --keep v1.2`, []GitMove{{Args: []string{"HEAD", "v1.2^{commit}"}}}},
		{`git checkout relaxed`, []GitMove{{Args: []string{"HEAD", "relaxed^{commit}"}}}},
		{`git checkout -b x relaxed`, []GitMove{{Args: []string{"HEAD", "relaxed^{commit}"}}}},
		{`git switch -`, []GitMove{{Args: []string{"HEAD", "@{-1}^{commit}"}}}},
		{`git switch --detach relaxed`, []GitMove{{Args: []string{"HEAD", "relaxed^{commit}"}}}},
		{`git read-tree -u -m relaxed`, []GitMove{{Args: []string{"HEAD", "relaxed^{commit}"}}}},
		{`git merge --no-edit -X theirs relaxed`, []GitMove{{Args: []string{"HEAD...relaxed"}}}},
		{`git merge -m "take it" relaxed`, []GitMove{{Args: []string{"HEAD...relaxed"}}}},
		{`git rebase --onto relaxed main`, []GitMove{{Args: []string{"HEAD...relaxed"}}}},
		{`git rebase`, []GitMove{{Args: []string{"HEAD...@{upstream}"}}}},
		{`git pull origin main`, []GitMove{{Args: []string{"HEAD...origin/main"}}}},
		{`git pull . relaxed`, []GitMove{{Args: []string{"HEAD...relaxed"}}}},
		{`git cherry-pick -x a1 b2`, []GitMove{{Log: true, Args: []string{"--no-walk", "-m", "--first-parent", "a1", "b2"}}}},
		{`git revert -m 1 abc`, []GitMove{{Log: true, Args: []string{"--no-walk", "-m", "--first-parent", "abc"}}}},
		{`git diff HEAD relaxed -- P.md | git apply`, []GitMove{{Args: []string{"HEAD", "relaxed"}, Paths: []string{"P.md"}}}},
		{`git diff --cached | git apply -R`, []GitMove{{Args: []string{"--cached"}}}},
		{`git show relaxed | git apply`, []GitMove{{Log: true, Args: []string{"--no-walk", "-m", "--first-parent", "relaxed"}}}},
		{`git format-patch -1 relaxed --stdout | git am`, []GitMove{{Log: true, Args: []string{"-1", "relaxed"}}}},
		{`git format-patch main --stdout | git am`, []GitMove{{Log: true, Args: []string{"main..HEAD"}}}},
		{`git diff A B | patch -p1`, []GitMove{{Args: []string{"A", "B"}}}},
		{`git diff A B > /tmp/d.patch && git apply -R /tmp/d.patch`, []GitMove{{Args: []string{"A", "B"}}}},
		{`cd sub && git diff A B > d.patch && patch -p1 -i d.patch`, []GitMove{{Args: []string{"A", "B"}}}},
		// None: no revision, HEAD, a new branch at HEAD, paths, aborts,
		// options only, a word not literal or an option.
		{`git reset --hard`, nil},
		{`git reset --hard HEAD`, nil},
		{`git reset HEAD~1`, nil},
		{`git reset --soft relaxed`, nil},
		{`git checkout -b topic`, nil},
		{`git checkout -- src/a.go`, nil},
		{`git checkout relaxed -- src/a.go`, nil},
		{`git switch --orphan x`, nil},
		{`git merge --abort`, nil},
		{`git rebase --continue`, nil},
		{`git cherry-pick --abort`, nil},
		{`git checkout "$BR"`, nil},
		{`git diff --output=/tmp/x A B | git apply`, []GitMove{{Args: []string{"A", "B"}}}},
		{`git diff A B C | git apply`, nil},
		{`git diff A B > /tmp/d.patch`, nil},
		{`git show feature | git apply --check`, nil},
		{`git pull https://example.com/r.git main`, nil},
		{`echo git reset --hard x`, nil},
		{`go test ./...`, nil},
	} {
		got := GitMoves(c.line)
		for i := range got {
			got[i].What, got[i].Target = "", ""
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %+v, want %+v", c.line, got, c.want)
		}
	}
}

// TestGlobCopies: glob sources of copies into a folder.
func TestGlobCopies(t *testing.T) {
	for _, c := range []struct {
		line string
		want []GlobCopy
	}{
		{`cp -r tpl/* .`, []GlobCopy{{Pattern: "tpl/*", Dir: "."}}},
		{`cp tpl/SESSION-* ./`, []GlobCopy{{Pattern: "tpl/SESSION-*", Dir: "."}}},
		{`cp -t . tpl/*.md`, []GlobCopy{{Pattern: "tpl/*.md", Dir: "."}}},
		{`cd tpl && cp -r * ..`, nil}, // .. is no copy into the line's folder: Writes judges it
		{`cd build && cp ../tpl/* .`, []GlobCopy{{Pattern: "tpl/*", Dir: "build"}}},
		{`rsync -a "tpl/"* .`, []GlobCopy{{Pattern: "tpl/*", Dir: "."}}},
		{`cp -r assets/* build/`, nil},
		{`cp tpl/a.md .`, nil},
		{`echo tpl/* .`, nil},
	} {
		if got := GlobCopies(c.line); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %+v, want %+v", c.line, got, c.want)
		}
	}
}

// TestUnpacksTarOptions: round 19's tar options.
func TestUnpacksTarOptions(t *testing.T) {
	for _, c := range []struct {
		line    string
		n       int
		strip   int
		renamed bool
	}{
		{`tar xf a.tar --strip-components=1`, 1, 1, false},
		{`tar --strip-components 2 -xf a.tar`, 1, 2, false},
		{`tar xf a.tar --transform 's,^x,,'`, 1, 0, true},
		{`bsdtar -xf a.tar -s ',^x,,'`, 1, 0, true},
		{`tar xOf a.tar SESSION-PROTOCOL.md`, 0, 0, false},
		{`tar -xf a.tar --to-stdout`, 0, 0, false},
		{`git stash branch tmp stash@{1}`, 1, 0, false},
		{`curl -sLo t.tar.xz https://x/t.tar.xz && tar xJf t.tar.xz`, 1, 0, false},
	} {
		us := Unpacks(c.line)
		if len(us) != c.n {
			t.Errorf("%q: %d unpacks, want %d", c.line, len(us), c.n)
			continue
		}
		if c.n == 0 {
			continue
		}
		u := us[0]
		if c.line[0] == 'c' && !u.Made {
			t.Errorf("%q: a download on the line is not made", c.line)
		}
		if u.Kind == "stash" {
			if u.Ref != "stash@{1}" {
				t.Errorf("%q: ref %q", c.line, u.Ref)
			}
			continue
		}
		if u.Strip != c.strip || u.Renamed != c.renamed {
			t.Errorf("%q: strip %d renamed %v, want %d %v", c.line, u.Strip, u.Renamed, c.strip, c.renamed)
		}
	}
}
