package shellline

import (
	"reflect"
	"testing"
)

func TestUnpacks(t *testing.T) {
	for _, c := range []struct {
		line string
		want []Unpack
	}{
		{`tar xf a.tar`, []Unpack{{Kind: "tar", File: "a.tar"}}},
		{`tar -xzf a.tgz -C build`, []Unpack{{Kind: "tar", File: "a.tgz", Dest: "build"}}},
		{`cd sub && tar --extract --file=a.tar`, []Unpack{{Kind: "tar", File: "sub/a.tar", Dest: "sub"}}},
		{`tar cf /tmp/t.tar -C tpl . && tar xf /tmp/t.tar`, []Unpack{{Kind: "tar", File: "/tmp/t.tar", Made: true}}},
		{`(cd tpl && tar cf - .) | tar xf -`, []Unpack{{Kind: "tar", Made: true}}},
		{`curl -sL https://x/y.tgz | tar xz`, []Unpack{{Kind: "tar"}}},
		{`tar czf out.tgz src`, nil},
		{`tar tf a.tar`, nil},
		{`unzip -o a.zip -d build`, []Unpack{{Kind: "zip", File: "a.zip", Dest: "build"}}},
		{`unzip -l a.zip`, nil},
		{`git apply x.patch`, []Unpack{{Kind: "patch", File: "x.patch", Strip: 1}}},
		{`git apply --check x.patch`, nil},
		{`git -C . am -p2 x.patch`, []Unpack{{Kind: "patch", File: "x.patch", Strip: 2}}},
		{`patch -p1 < x.patch`, []Unpack{{Kind: "patch", File: "x.patch", Strip: 1}}},
		{`patch --dry-run -p1 < x.patch`, nil},
		{"git apply <<'EOF'\n+++ b/f\nEOF", []Unpack{{Kind: "patch", Text: "+++ b/f\n", Strip: 1}}},
		{`git diff | git apply -R`, nil},
		{`git stash pop`, []Unpack{{Kind: "stash"}}},
		{`git stash apply stash@{2}`, []Unpack{{Kind: "stash", Ref: "stash@{2}"}}},
		{`git stash && git pull && git stash pop`, nil},
		{`git stash show -p`, nil},
	} {
		if got := Unpacks(c.line); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Unpacks(%q) = %+v, want %+v", c.line, got, c.want)
		}
	}
}

func TestPatchPaths(t *testing.T) {
	const p = "diff --git a/SESSION-PROTOCOL.md b/SESSION-PROTOCOL.md\n--- a/SESSION-PROTOCOL.md\n+++ b/SESSION-PROTOCOL.md\n@@ -1 +1 @@\n"
	for _, c := range []struct {
		text  string
		strip int
		want  []string
	}{
		{p, 1, []string{"SESSION-PROTOCOL.md"}},
		{"--- /dev/null\n+++ b/new.go\n", 1, []string{"new.go"}},
		{"diff --git a/x b/y\nrename from x\nrename to y\n", 1, []string{"x", "y"}},
		{"--- src/a.go\n+++ src/a.go\n", -1, []string{"src/a.go", "a.go"}},
	} {
		if got := PatchPaths(c.text, c.strip); !reflect.DeepEqual(got, c.want) {
			t.Errorf("PatchPaths(%q, %d) = %q, want %q", c.text, c.strip, got, c.want)
		}
	}
}

func TestIndirectHelpers(t *testing.T) {
	for _, c := range []struct {
		mode string
		want bool
	}{{"u+w", true}, {"+x", true}, {"a+rX,g+w", true}, {"644", false}, {"-x", false}, {"u=rw", false}, {"u-w", false}, {"", false}} {
		if got := addsOnly(c.mode); got != c.want {
			t.Errorf("addsOnly(%q) = %v", c.mode, got)
		}
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"checkout", "HEAD~1", "--", "P.md"}, []string{"P.md"}},
		{[]string{"checkout", "v1", "P.md"}, []string{"P.md"}},
		{[]string{"checkout", "--", "."}, nil},
		{[]string{"checkout", "HEAD", "--", "P.md"}, nil},
		{[]string{"checkout", "-b", "x", "origin/main"}, nil},
		{[]string{"checkout", "main"}, nil},
		{[]string{"restore", "--source=HEAD~2", "P.md"}, []string{"P.md"}},
		{[]string{"restore", "-s", "v1", "--", "."}, []string{"."}},
		{[]string{"restore", "--staged", "P.md"}, nil},
	} {
		if got := gitRestores(c.args); !reflect.DeepEqual(got, c.want) {
			t.Errorf("gitRestores(%q) = %q, want %q", c.args, got, c.want)
		}
	}
	if got, want := xargsLines([]string{"xargs", "-I{}", "sed", "-i", "s/a/b/", "{}"}, "P.md\n"), []string{"'sed' '-i' 's/a/b/' 'P.md'"}; !reflect.DeepEqual(got, want) {
		t.Errorf("xargsLines -I = %q, want %q", got, want)
	}
	if got, want := xargsLines([]string{"xargs", "rm"}, "a b"), []string{"'rm' 'a' 'b'"}; !reflect.DeepEqual(got, want) {
		t.Errorf("xargsLines = %q, want %q", got, want)
	}
	if got, ok := withParams(`sed -i s/a/b/ "$1"`, []string{"P.md"}); !ok || got != "sed -i s/a/b/ \"P.md\"\n" {
		t.Errorf("withParams = %q, %v", got, ok)
	}
}
