package gitrepo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestParkedWork: what the clean-work-tree check reads of the refs
// (session/parked.go). A branch's own new commit counts; a backup of
// HEAD's commit before an amend, a commit a remote-tracking ref holds, and
// a host's review or sessiongate's refs do not; the stash lists its
// entries.
func TestParkedWork(t *testing.T) {
	ctx := context.Background()
	repo := emptyRepo(t)
	dir := repo.Root()
	git := func(args ...string) string {
		return strings.TrimSpace(gittest.Git(t, dir, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...))
	}
	write := func(rel, body string) {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "a\n")
	git("add", "-A")
	git("commit", "-q", "-m", "init")
	start := git("rev-parse", "HEAD")
	write("a.txt", "a\nb\n")
	git("commit", "-qam", "feat: b")
	git("branch", "backup")                          // HEAD's commit, then amended
	git("commit", "-q", "--amend", "-m", "feat: b!") // same change
	git("switch", "-q", "-c", "parking")
	write("README.md", "parked\n")
	git("add", "-A")
	git("commit", "-q", "-m", "docs: parked")
	parked := git("rev-parse", "HEAD")
	git("switch", "-q", "-")
	git("update-ref", "refs/pull/7/head", parked)
	git("update-ref", "refs/sessiongate/records", parked)
	git("tag", "kept", parked)

	tips, err := repo.BranchTips(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"refs/heads/backup", "refs/heads/parking", "refs/tags/kept"} {
		if tips[ref] == "" {
			t.Errorf("BranchTips left out %s: %v", ref, tips)
		}
	}
	for _, ref := range []string{"refs/pull/7/head", "refs/sessiongate/records"} {
		if _, ok := tips[ref]; ok {
			t.Errorf("BranchTips holds %s, a ref no work is parked on", ref)
		}
	}
	for ref, want := range map[string]int{"refs/heads/backup": 0, "refs/heads/parking": 1} {
		if n, err := repo.NewOnBranch(ctx, tips[ref], []string{start}, "", nil); err != nil || n != want {
			t.Errorf("NewOnBranch(%s) = %d, %v; want %d", ref, n, err, want)
		}
	}
	// Another session's commit (its trailer, from its own hooks in its own
	// worktree) is that session's work, not parked by session "self".
	git("switch", "-q", "-c", "other-session")
	write("other.txt", "theirs\n")
	git("add", "-A")
	git("commit", "-q", "-m", "feat: theirs\n\nSession-Id: 11111111-2222-3333-4444-555555555555")
	other := git("rev-parse", "HEAD")
	git("switch", "-q", "-")
	if n, err := repo.NewOnBranch(ctx, other, []string{start}, "self", nil); err != nil || n != 0 {
		t.Errorf("NewOnBranch of another session's commit = %d, %v; want 0", n, err)
	}
	if n, err := repo.NewOnBranch(ctx, other, []string{start}, "11111111-2222-3333-4444-555555555555", nil); err != nil || n != 1 {
		t.Errorf("NewOnBranch of the session's own commit = %d, %v; want 1", n, err)
	}
	// Cherry-picked onto HEAD with a conflict resolved: another patch,
	// the same author and author date.
	git("switch", "-q", "-c", "spike", start)
	write("a.txt", "a\nspike\n")
	git("commit", "-qam", "feat: spike")
	spike := git("rev-parse", "HEAD")
	git("switch", "-q", "-")
	pick := exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@example.com", "cherry-pick", spike)
	pick.Dir = dir
	if out, err := pick.CombinedOutput(); err == nil {
		t.Fatalf("the cherry-pick did not conflict: %s", out)
	}
	write("a.txt", "a\nb\nspike, merged\n")
	git("add", "a.txt")
	gittest.GitEnv(t, dir, []string{"GIT_EDITOR=true"}, "-c", "user.name=t", "-c", "user.email=t@example.com", "cherry-pick", "--continue")
	if n, err := repo.NewOnBranch(ctx, spike, []string{start}, "", nil); err != nil || n != 0 {
		t.Errorf("NewOnBranch of a branch cherry-picked with a conflict resolved = %d, %v; want 0", n, err)
	}
	git("update-ref", "refs/remotes/origin/parking", parked) // pushed: a remote holds it
	if n, err := repo.NewOnBranch(ctx, parked, []string{start}, "", nil); err != nil || n != 0 {
		t.Errorf("NewOnBranch of a pushed branch = %d, %v; want 0", n, err)
	}
	// A remote-tracking ref written by hand over the session's own commit
	// hides nothing (P3); the session's recorded push of it does; a
	// person's fetched commit, with no trailer of the session's, stays
	// theirs; a recorded push of a commit gone from the repository is
	// ignored.
	const self = "11111111-2222-3333-4444-555555555555"
	git("update-ref", "refs/remotes/origin/other-session", other)
	for _, c := range []struct {
		name   string
		tip    string
		pushed []string
		want   int
	}{
		{"the session's commit under a remote-tracking ref it wrote", other, nil, 1},
		{"the session's commit under a remote-tracking ref, pushed by its hooks", other, []string{other}, 0},
		{"the session's commit, a missing commit recorded as pushed", other, []string{"0123456789abcdef0123456789abcdef01234567"}, 1},
		{"a fetched commit without the session's trailer", parked, nil, 0},
	} {
		if n, err := repo.NewOnBranch(ctx, c.tip, []string{start}, self, c.pushed); err != nil || n != c.want {
			t.Errorf("NewOnBranch, %s = %d, %v; want %d", c.name, n, err, c.want)
		}
	}

	if s, err := repo.Stashes(ctx); err != nil || len(s) != 0 {
		t.Fatalf("Stashes of no stash = %v, %v", s, err)
	}
	write("a.txt", "changed\n")
	git("stash", "push", "-q")
	if s, err := repo.Stashes(ctx); err != nil || len(s) != 1 || s[0] != git("rev-parse", "stash@{0}") {
		t.Errorf("Stashes = %v, %v; want stash@{0}", s, err)
	}

	// The same change popped and stashed again on another commit: another
	// entry, the same key; another change: another key.
	first := git("rev-parse", "stash@{0}")
	write("scratch.txt", "a person's note\n")
	git("stash", "push", "-q", "-u", "--", "scratch.txt")
	withU := git("rev-parse", "stash@{0}")
	git("stash", "pop", "-q")
	git("commit", "-q", "--allow-empty", "-m", "chore: moved on")
	git("stash", "push", "-q", "-u", "--", "scratch.txt")
	again := git("rev-parse", "stash@{0}")
	key := func(c string) string {
		k, err := repo.StashKey(ctx, c)
		if err != nil {
			t.Fatalf("StashKey(%.7s): %v", c, err)
		}
		return k
	}
	if again == withU || key(again) != key(withU) {
		t.Errorf("a change stashed again: entries %.7s and %.7s, keys %q and %q; want two entries, one key", withU, again, key(withU), key(again))
	}
	if key(first) == key(withU) || key(first) == "" {
		t.Errorf("two changes share a key: %q", key(first))
	}

	// Worktrees: a linked one's folder, HEAD and whether it holds changes.
	if w := repo.Worktrees(); len(w) != 0 {
		t.Errorf("Worktrees of none = %v", w)
	}
	park := filepath.Join(t.TempDir(), "park")
	git("worktree", "add", "-q", "--detach", park, "HEAD")
	names := repo.Worktrees()
	if len(names) != 1 {
		t.Fatalf("Worktrees = %v, want one", names)
	}
	d, h, dirty, err := repo.LinkedWorktree(ctx, names[0], nil)
	if err != nil || filepath.Base(d) != "park" || h != git("rev-parse", "HEAD") || dirty {
		t.Errorf("LinkedWorktree = %q, %q, %v, %v; want park at HEAD, clean", d, h, dirty, err)
	}
	if err := os.WriteFile(filepath.Join(park, "a.txt"), []byte("parked\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, dirty, err := repo.LinkedWorktree(ctx, names[0], nil); err != nil || !dirty {
		t.Errorf("LinkedWorktree after an edit: dirty %v, %v; want dirty", dirty, err)
	}
	// Files hidden from git status by info/exclude, a worktree's own
	// core.excludesFile, or an untracked .gitignore that ignores itself
	// are changes; a file the committed .gitignore ignores is not (W3, W4).
	pgit := func(args ...string) string {
		return gittest.Git(t, park, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	}
	pwrite := func(rel, body string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(park, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(park, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pgit("checkout", "-q", "a.txt")
	pwrite(".gitignore", "build/\n")
	pgit("add", ".gitignore")
	pgit("commit", "-q", "-m", "chore: ignore build")
	pwrite("build/out.bin", "x")
	// Tools that write a .gitignore into their own folder: a virtualenv
	// (Python 3.13), a cache the committed .gitignore ignores.
	pwrite(".venv/.gitignore", "*\n")
	pwrite("build/cache/.gitignore", "*\n")
	if _, _, dirty, err := repo.LinkedWorktree(ctx, names[0], nil); err != nil || dirty {
		t.Fatalf("LinkedWorktree with a file the committed .gitignore ignores: dirty %v, %v; want clean", dirty, err)
	}
	git("config", "extensions.worktreeConfig", "true")
	hide := filepath.Join(t.TempDir(), "hide")
	for _, c := range []struct {
		name, file string
		setup      func()
	}{
		{"info/exclude", "notes.md", func() {
			if err := os.MkdirAll(filepath.Join(dir, ".git", "info"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte("notes.md\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"a worktree's core.excludesFile", "notes2.md", func() {
			if err := os.WriteFile(hide, []byte("notes2.md\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			pgit("config", "--worktree", "core.excludesFile", hide)
		}},
		{"a .gitignore that ignores itself", "sub/notes.md", func() { pwrite("sub/.gitignore", "*\n") }},
		{"a .gitignore that ignores itself in a folder info/exclude hides", "hid/notes.md", func() {
			if err := os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte("notes.md\nhid\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			pwrite("hid/.gitignore", "*\n")
		}},
	} {
		c.setup()
		pwrite(c.file, "parked\n")
		if st := pgit("status", "--porcelain", "-uall"); st != "" {
			t.Fatalf("%s: git status shows %q; the row wants the file hidden from it", c.name, st)
		}
		if _, _, dirty, err := repo.LinkedWorktree(ctx, names[0], nil); err != nil || !dirty {
			t.Errorf("%s: LinkedWorktree dirty %v, %v; want dirty", c.name, dirty, err)
		}
		if err := os.Remove(filepath.Join(park, c.file)); err != nil {
			t.Fatal(err)
		}
	}
	// A person's exclude line that stood at the start, and a folder a test
	// runner makes, hide nothing the session parked.
	for _, d := range []string{"sub", "hid"} {
		if err := os.RemoveAll(filepath.Join(park, d)); err != nil {
			t.Fatal(err)
		}
	}
	pwrite("notes.md", "mine\n")
	pwrite(".venv/lib/x.py", "")
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte("notes.md\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, dirty, err := repo.LinkedWorktree(ctx, names[0], []string{"notes.md", "notes2.md"}); err != nil || dirty {
		t.Errorf("LinkedWorktree with the start's exclude lines: dirty %v, %v; want clean", dirty, err)
	}
	if _, _, dirty, err := repo.LinkedWorktree(ctx, names[0], []string{"notes2.md"}); err != nil || !dirty {
		t.Errorf("LinkedWorktree with notes.md's exclude line new: dirty %v, %v; want dirty", dirty, err)
	}
	if _, _, _, err := repo.LinkedWorktree(ctx, "../x", nil); err == nil {
		t.Error("LinkedWorktree took a name with a path in it")
	}

	// HeadAndParents: HEAD and its parent, with their subjects.
	shas, subjects, err := repo.HeadAndParents(ctx)
	if err != nil || len(shas) != 2 || shas[0] != git("rev-parse", "HEAD") || subjects[0] != "chore: moved on" || subjects[1] != "feat: spike" {
		t.Errorf("HeadAndParents = %v, %q, %v", shas, subjects, err)
	}
}
