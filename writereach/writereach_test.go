package writereach

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
	"github.com/sessiongate/sessiongate/protect"
	"github.com/sessiongate/sessiongate/shellline"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestCheck: on a real work tree (files, symlinks to the root, to .git
// and to the protocol, a hard link of the protocol), the lines that reach
// a protected file or the git directory past their literal words are
// named, with where; the honest twins are not.
func TestCheck(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"SESSION-PROTOCOL.md", "sessiongate.yaml", ".claude/settings.json", ".git/HEAD", ".git/sessiongate/sessiongate.db", "src/a.go", "docs/a.md", "build/x", "sub/y"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{"self": ".", "g": ".git", "p.md": "SESSION-PROTOCOL.md", "sub/up": ".."} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(filepath.Join(root, "SESSION-PROTOCOL.md"), filepath.Join(root, "docs", "h.md")); err != nil {
		t.Fatal(err)
	}
	patterns := protect.Paths("SESSION-PROTOCOL.md", "", nil)
	for _, c := range []struct {
		line, dir string // dir relative to root
		want      string // the path reached, "" none
		gitDir    bool
	}{
		{`sed -i s/a/b/ SESSION-PROTO*.md`, "", "SESSION-PROTOCOL.md", false},
		{`sed -i s/a/b/ ../*.md`, "sub", "SESSION-PROTOCOL.md", false},
		{`rm -rf .g*/sessiongate`, "", ".git/sessiongate", true},
		{`f=sessiongate; perl -pi -e s/a/b/ $f.yaml`, "", "sessiongate.yaml", false},
		{`find self/ -delete`, "", ".", false},
		{`rm -rf up/.claude`, "sub", ".claude", false},
		{`rm -rf g/hooks`, "", ".git/hooks", true},
		{`rm -f self`, "", "", false}, // the link itself
		{`ln -s "$PWD" s4 && find s4/ -delete`, "", ".", false},
		{`ln -sfn $(pwd) s5; rm -rf s5/.claude`, "", ".claude", false},
		{`ln -s "$PWD" s6 && rm -rf s6/src/x`, "", "", false},
		{`ln -s . s3`, "", "", false},
		{`ln -s . s2 && rm -rf s2/.claude`, "", ".claude", false},
		{`ln -s .git g2 && echo x > g2/hooks/pre-commit`, "", ".git/hooks/pre-commit", true},
		{`echo x >> docs/h.md`, "", "SESSION-PROTOCOL.md", false},
		{`for f in docs/*.md; do echo x >> "$f"; done`, "", "SESSION-PROTOCOL.md", false}, // the hard link is among them
		{`sed -i s/a/b/ src/*.go`, "", "", false},
		{`rm -rf build/* self/build`, "", "", false},
		{`sed -i s/a/b/ *.md`, "sub", "", false},
		{`ln -s src lib && rm -f lib/a.go`, "", "", false},
		{`sed -i s/a/b/ "$f"`, "", "", false},
	} {
		dir := filepath.Join(root, c.dir)
		targets, links, ok := shellline.WriteTargets(c.line)
		writes, wok := shellline.Writes(c.line)
		if !ok || !wok {
			t.Fatalf("%q: does not parse", c.line)
		}
		h := Check(patterns, root, dir, writes, targets, links)
		switch {
		case c.want == "" && h != nil:
			t.Errorf("%q in %s: reaches %s (%s), want nothing", c.line, c.dir, h.Rel, h.How)
		case c.want != "" && h == nil:
			t.Errorf("%q in %s: reaches nothing, want %s", c.line, c.dir, c.want)
		case h != nil && (h.Rel != c.want || h.GitDir != c.gitDir):
			t.Errorf("%q in %s: reaches %s (git dir %v, %s), want %s (git dir %v)", c.line, c.dir, h.Rel, h.GitDir, h.How, c.want, c.gitDir)
		}
	}
}

// BenchmarkCheck times what the agent hook adds per shell call: reading
// the line's targets and links and checking them, for a line with no
// glob, a glob line, and a loop over a glob on a tree of 500 files.
//
//	go test ./writereach -run '^$' -bench Check -count 5
func BenchmarkCheck(b *testing.B) {
	root := b.TempDir()
	for i := 0; i < 500; i++ {
		p := filepath.Join(root, "src", "pkg"+string(rune('a'+i%20)), "f"+itoa(i)+".go")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	patterns := protect.Paths("SESSION-PROTOCOL.md", "", nil)
	for _, c := range []struct{ name, line string }{
		{"plain", "go test ./... 2>&1 | tee test.log && echo done > status.txt"},
		{"glob", "sed -i 's/a/b/' src/*/*.go"},
		{"loop", "for f in src/pkga/*.go docs/*.md; do sed -i 's/a/b/' \"$f\"; done"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				targets, links, _ := shellline.WriteTargets(c.line)
				writes, _ := shellline.Writes(c.line)
				if h := Check(patterns, root, root, writes, targets, links); h != nil {
					b.Fatalf("%q reaches %s", c.line, h.Rel)
				}
			}
		})
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}
