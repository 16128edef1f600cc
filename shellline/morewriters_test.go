package shellline

import (
	"slices"
	"testing"
)

func TestMoreWriters(t *testing.T) {
	for _, c := range []struct {
		line string
		want string // a path Writes lists; "" none of the line's
	}{
		{`sort -o P.md in.txt`, "P.md"},
		{`curl -sLo P.md https://x`, "P.md"},
		{`curl --output=P.md https://x`, "P.md"},
		{`wget -qO P.md https://x`, "P.md"},
		{`wget -qO- https://x`, ""},
		{`sponge P.md`, "P.md"},
		{`patch P.md < x.patch`, "P.md"},
		{`patch -p1 -i x.patch`, ""},
		{`ed -s P.md`, "P.md"},
		{`vim -es -c wq P.md`, "P.md"},
		{`vim P.md`, ""},
		{`awk '{print > "P.md"}' in`, "P.md"},
		{`awk '$1 > 5' in`, ""},
		{`gawk -i inplace 1 P.md`, "P.md"},
		{`sqlite3 x.db ".output P.md" "select 1"`, "P.md"},
		{`git mv -f a/P.md .`, "./P.md"},
		{`git mv a.go b.go`, "b.go"},
		// Round 24 review (c8): git mv's source and git rm's paths leave
		// the work tree (and the next commit).
		{`git mv P.md x.md`, "P.md"},
		{`git mv P.md docs/`, "P.md"},
		{`git rm P.md`, "P.md"},
		{`git rm -q --cached P.md`, "P.md"},
		{`git rm -r docs P.md`, "P.md"},
		{`git update-index --force-remove P.md`, "P.md"},
		{`git rm -r --cached . && git add .`, ""},
		{`git rm -r -q --cached docs`, "docs"},
		{`git rm -q --pathspec-from-file=list.txt`, "."},
		{`git rm -r --cached build`, "build"},
		{`git rm --cached in.txt`, ""},
		{`git update-index --refresh`, ""},
		{`exec 3>P.md`, "P.md"},
		{`echo x 1<>P.md`, "P.md"},
		{`echo x 2>&1`, ""},
	} {
		got, ok := Writes(c.line)
		if !ok {
			t.Fatalf("%q: does not parse", c.line)
		}
		if c.want == "" {
			if slices.Contains(got, "P.md") || slices.Contains(got, "in") {
				t.Errorf("%q: writes %v, want none of P.md", c.line, got)
			}
			continue
		}
		if !slices.Contains(got, c.want) {
			t.Errorf("%q: writes %v, want %s among them", c.line, got, c.want)
		}
	}
}

func TestGitRoutes(t *testing.T) {
	read := func(p string) (string, bool) {
		if p == "o/.git/HEAD" {
			return "ref: refs/heads/main\n", true
		}
		if p == "rev" {
			return "abc123\n", true
		}
		return "", false
	}
	for _, c := range []struct {
		line  string
		moves []string // each move's Args joined, in order
		open  int
	}{
		{`git pull /tmp/x main`, nil, 1},
		{`git pull https://example.com/x.git main`, nil, 1},
		{`git pull origin main`, nil, 0},
		{`git pull o main`, nil, 1},
		{`git fetch /tmp/x main && git reset --hard FETCH_HEAD`, nil, 1},
		{`git fetch /tmp/x main:t && git checkout t`, nil, 1},
		{`git update-ref refs/heads/x abc && git reset --hard x`, []string{"HEAD abc^{commit}"}, 0},
		{`git branch -f x abc; git checkout x`, []string{"HEAD abc^{commit}"}, 0},
		{`git reset --hard $(git rev-parse -q --verify rel)`, []string{"HEAD rel^{commit}"}, 0},
		{`git checkout "$(cat rev)"`, []string{"HEAD abc123^{commit}"}, 0},
		{`R=$(< rev); git merge "$R"`, []string{"HEAD...abc123"}, 0},
		{`git reset --hard $(git log -1 --format=%H x)`, nil, 1},
		{`git reset --hard "$R"`, nil, 1},
		{`git switch --orphan e`, nil, 1},
		{`git checkout --orphan e`, nil, 0},
		{`git -c alias.q='reset --hard' q rel`, []string{"HEAD rel^{commit}"}, 0},
		{`git reset rel -- P.md`, []string{"HEAD rel^{commit}"}, 0},
		{`git config alias.x 'reset --hard' && git x rel`, []string{"HEAD rel^{commit}"}, 0},
		{`git reset HEAD -- P.md`, nil, 0},
		{`git reset --hard rel`, nil, 0}, // literal: GitMoves judges it
		{`git diff $(git merge-base main HEAD)`, nil, 0},
		{`git rebase --autosquash -i $(git merge-base HEAD origin/main)`, nil, 0},
		{`git reset --hard $(git merge-base HEAD old)`, nil, 1},
		{`git rebase $(git merge-base x y)`, nil, 1},
	} {
		ms, open := GitRoutes(c.line, read)
		var got []string
		for _, m := range ms {
			got = append(got, joinWords(m.Args))
		}
		if !slices.Equal(got, c.moves) || len(open) != c.open {
			t.Errorf("%q: moves %q, %d open %v; want %q, %d open", c.line, got, len(open), open, c.moves, c.open)
		}
	}
}

func TestGitRuns(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{`git rebase -x 'make test' main`, []string{"make test"}},
		{`git rebase --exec='cp a b' main`, []string{"cp a b"}},
		{`git filter-branch --tree-filter 'rm -f x' HEAD`, []string{"rm -f x"}},
		{`git bisect run sh -c 'cp a b'`, []string{`'sh' '-c' 'cp a b'`}},
		{`git submodule foreach 'git pull'`, []string{"git pull"}},
		{`git -c alias.q='!cp a b' q`, []string{"cp a b"}},
		{`git rebase main`, nil},
		{`git config alias.y '!cp a b' && git y`, []string{"cp a b"}},
	} {
		if got := GitRuns(c.line); !slices.Equal(got, c.want) {
			t.Errorf("%q: runs %q, want %q", c.line, got, c.want)
		}
	}
}

func joinWords(ws []string) string {
	out := ""
	for i, w := range ws {
		if i > 0 {
			out += " "
		}
		out += w
	}
	return out
}
