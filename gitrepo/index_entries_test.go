package gitrepo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gitmemo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestStageEntriesAsGit: the index read in process lists what `git
// ls-files -s` lists (modes, ids, paths, each stage of a conflict), and
// GIT_INDEX_FILE naming another index is read by git.
func TestStageEntriesAsGit(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	root := gittest.New(t, map[string]string{"a.txt": "a\n", "scripts/run.sh": "#!/bin/sh\necho\n", "c.txt": "base\n"})
	gittest.Git(t, root, "update-index", "--chmod=+x", "scripts/run.sh")
	if err := os.Symlink("a.txt", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, root, "add", "-A")
	gittest.Git(t, root, "commit", "-q", "-m", "modes")
	base := strings.TrimSpace(gittest.Git(t, root, "rev-parse", "--abbrev-ref", "HEAD"))
	gittest.Git(t, root, "checkout", "-q", "-b", "other")
	gittest.Write(t, root, "c.txt", "other\n")
	gittest.Git(t, root, "commit", "-q", "-am", "other")
	gittest.Git(t, root, "checkout", "-q", base)
	gittest.Write(t, root, "c.txt", "mine\n")
	gittest.Git(t, root, "commit", "-q", "-am", "mine")
	// Fails on purpose: a conflict leaves three stages of c.txt.
	if out, err := exec.Command("git", "-C", root, "-c", "user.name=t", "-c", "user.email=t@example.com", "merge", "-q", "other").CombinedOutput(); err == nil {
		t.Fatalf("the merge did not conflict:\n%s", out)
	}

	fromGit := func(env []string) []string {
		var out []string
		for _, e := range strings.Split(gittest.GitEnv(t, root, env, "ls-files", "-s", "-z"), "\x00") {
			if e == "" {
				continue
			}
			meta, p, _ := strings.Cut(e, "\t")
			f := strings.Fields(meta)
			out = append(out, f[0]+" "+f[1]+" "+p)
		}
		slices.Sort(out)
		return out
	}
	list := func(r *Repo) []string {
		es, err := r.stageEntries(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range es {
			out = append(out, itoa8(e.mode)+" "+e.blob+" "+e.path)
		}
		slices.Sort(out)
		return out
	}
	r, err := Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.ownIndexPath(); !ok {
		t.Fatal("the repository's own index is not read in process")
	}
	want := fromGit(nil)
	if len(want) < 6 {
		t.Fatalf("the conflict left %d entries: %q", len(want), want)
	}
	if got := list(r); !slices.Equal(got, want) {
		t.Fatalf("in process:\n%s\ngit ls-files -s:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Another index named by GIT_INDEX_FILE: git's answer, not the file r names.
	other := filepath.Join(t.TempDir(), "index")
	gittest.GitEnv(t, root, []string{"GIT_INDEX_FILE=" + other}, "read-tree", "HEAD")
	t.Setenv("GIT_INDEX_FILE", other)
	if _, ok := r.ownIndexPath(); ok {
		t.Fatal("GIT_INDEX_FILE names another index, and r still reads its own")
	}
	if got, want := list(r), fromGit([]string{"GIT_INDEX_FILE=" + other}); !slices.Equal(got, want) {
		t.Fatalf("with GIT_INDEX_FILE, got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	p, err := r.indexPath(ctx)
	if err != nil || p != other {
		t.Fatalf("indexPath = %q, %v; want %q (git's answer)", p, err, other)
	}
}

func itoa8(m uint32) string {
	s := ""
	for m > 0 {
		s = string(rune('0'+m%8)) + s
		m /= 8
	}
	return s
}

// TestChangedFilesMemo: under gitmemo.With a gate's repeated question
// which files changed runs git once; what changes in the work tree after
// the first answer is seen after gitmemo.Forget (a gate's command ran),
// and never without a memo.
func TestChangedFilesMemo(t *testing.T) {
	gittest.Require(t)
	root := gittest.New(t, map[string]string{"a.txt": "a\n"})
	start := strings.TrimSpace(gittest.Git(t, root, "rev-parse", "HEAD"))
	r, err := Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	gittest.Write(t, root, "a.txt", "b\n")
	trace := filepath.Join(t.TempDir(), "trace")
	t.Setenv("GIT_TRACE", trace)
	calls := func() int {
		b, _ := os.ReadFile(trace)
		return strings.Count(string(b), "trace: built-in: git ")
	}
	ctx := gitmemo.With(context.Background())
	steps := []struct {
		name      string
		ctx       context.Context
		write     string // a file written before the step
		forget    bool
		want      []string
		wantCalls bool // the step ran git
	}{
		{"first answer", ctx, "", false, []string{"a.txt"}, true},
		{"asked again: kept", ctx, "", false, []string{"a.txt"}, false},
		{"after a write, still the kept answer", ctx, "new.txt", false, []string{"a.txt"}, false},
		{"after Forget: read anew", ctx, "", true, []string{"a.txt", "new.txt"}, true},
		{"no memo: read every time", context.Background(), "", false, []string{"a.txt", "new.txt"}, true},
	}
	for _, s := range steps {
		if s.write != "" {
			gittest.Write(t, root, s.write, "x\n")
		}
		if s.forget {
			gitmemo.Forget(s.ctx)
		}
		before := calls()
		got, err := r.ChangedFiles(s.ctx, start)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		if !slices.Equal(got, s.want) {
			t.Fatalf("%s: %q, want %q", s.name, got, s.want)
		}
		if ran := calls() > before; ran != s.wantCalls {
			t.Fatalf("%s: ran git %v, want %v", s.name, ran, s.wantCalls)
		}
		got[0] = "mutated" // a caller's copy: the memo's answer stays
	}
}
