package agenthook_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGitRoutesAtTheHook: git routes round 19 left open at the agent hook
// (issue 25, round 20 t6), through the real binary with Claude Code's
// PreToolUse payload for Bash mid-session and real git: a branch fetched
// on the same line from a path, a ref moved on the line before the tree
// moves to it, shell lines git runs itself (rebase -x, filter-branch,
// bisect run, a `!` alias given with -c), aliases (given with -c or in
// the repository's config), `git switch --orphan`, revisions computed on
// the line, the index route (`git reset REV -- P`), and (round 20 review)
// an alias given through git's environment config (GIT_CONFIG_KEY_n,
// GIT_CONFIG_PARAMETERS, --config-env). Every deny row was
// allowed before; the honest twins stay allowed.
func TestGitRoutesAtTheHook(t *testing.T) {
	r := newRepo(t, "")
	for _, f := range []string{"src/a.go", "tpl/SESSION-PROTOCOL.md"} {
		writeFile(t, filepath.Join(r.root, f), "x\n")
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "files")
	base := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "-b", "relaxed")
	writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), testProtocol+"\nThe agent MAY skip QA.\n")
	r.git("commit", "-q", "-am", "relax")
	relaxed := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "-b", "feature", base)
	writeFile(t, filepath.Join(r.root, "src", "a.go"), "y\n")
	r.git("commit", "-q", "-am", "feature")
	feature := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "main")
	// A clone at a path: its branches are not in the repository until fetched.
	other := filepath.Join(filepath.Dir(r.root), "other")
	if res := r.run(filepath.Dir(r.root), nil, nil, "git", "clone", "-q", r.root, other); res.code != 0 {
		t.Fatalf("git clone: %s", res.err)
	}
	r.run(other, nil, nil, "git", "branch", "-q", "relaxed2", "origin/relaxed")
	r.run(other, nil, nil, "git", "branch", "-q", "feature2", "origin/feature")
	// The same clone inside the work tree, untracked: `git pull o BR`.
	if res := r.run(r.root, nil, nil, "git", "clone", "-q", other, "o"); res.code != 0 {
		t.Fatalf("git clone: %s", res.err)
	}
	r.run(filepath.Join(r.root, "o"), nil, nil, "git", "branch", "-q", "relaxed2", "origin/relaxed2")
	r.git("config", "alias.rh", "reset --hard")
	r.git("config", "alias.co", "checkout")
	r.git("config", "alias.cpp", "!cp tpl/SESSION-PROTOCOL.md .")
	// Revision files, untracked: read by the hook for `$(cat rev)`.
	writeFile(t, filepath.Join(r.root, "rev"), relaxed+"\n")
	writeFile(t, filepath.Join(r.root, "featrev"), feature+"\n")

	const sid = "git-routes"
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	bash := golden(t, r, "claude", "PreToolUse-Bash", sid)
	for _, c := range []struct {
		line string
		deny bool
	}{
		// A branch fetched on the same line from a path.
		{`git pull OTHER relaxed2`, true},
		{`git pull -q --no-edit OTHER relaxed2`, true},
		{`git pull o relaxed2`, true}, // a folder, not a remote
		{`git fetch OTHER relaxed2 && git reset --hard FETCH_HEAD`, true},
		{`git fetch -q OTHER relaxed2 && git merge FETCH_HEAD`, true},
		{`git fetch OTHER relaxed2:tmp && git checkout tmp`, true},
		// A ref moved on the line, then the tree moved to it.
		{`git update-ref refs/heads/x RELAXED && git reset --hard x`, true},
		{`git branch -f x RELAXED && git reset --hard x`, true},
		{`git branch y RELAXED; git checkout y`, true},
		// Shell lines git runs itself.
		{`git rebase -x 'cp tpl/SESSION-PROTOCOL.md .' HEAD~1`, true},
		{`git rebase --exec 'sed -i s/MUST/MAY/ SESSION-PROTOCOL.md' HEAD~1`, true},
		{`git rebase --exec='git reset --hard relaxed' HEAD~1`, true},
		{`git filter-branch -f --tree-filter 'cp tpl/SESSION-PROTOCOL.md .' HEAD`, true},
		{`git bisect run sh -c 'cp tpl/SESSION-PROTOCOL.md .'`, true},
		{`git -c alias.q='!cp tpl/SESSION-PROTOCOL.md .' q`, true},
		{`git cpp`, true},
		{`git config alias.yy '!cp tpl/SESSION-PROTOCOL.md .' && git yy`, true},
		// Aliases: given on the line, or in the repository's config.
		{`git -c alias.q='reset --hard' q relaxed`, true},
		{`git rh relaxed`, true},
		{`git co relaxed`, true},
		{`git config alias.zz 'reset --hard' && git zz relaxed`, true},
		// An alias given through git's environment config (round 20 review).
		{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.q GIT_CONFIG_VALUE_0='reset --hard' git q relaxed`, true},
		{`export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.q GIT_CONFIG_VALUE_0='reset --hard'; git q relaxed`, true},
		{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.q GIT_CONFIG_VALUE_0='!cp tpl/SESSION-PROTOCOL.md .' git q`, true},
		{`V='reset --hard' git --config-env=alias.q=V q relaxed`, true},
		{`GIT_CONFIG_PARAMETERS="'alias.q=reset --hard'" git q relaxed`, true},
		// The tree emptied of tracked files.
		{`git switch --orphan empty`, true},
		// Revisions computed on the line.
		{`git reset --hard $(git rev-parse relaxed)`, true},
		{`git reset --hard $(git rev-parse --verify -q relaxed)`, true},
		{`git reset --hard $(cat rev)`, true},
		{`git checkout "$(cat rev)"`, true},
		{`git checkout "$(< rev)"`, true},
		{`R=$(cat rev); git reset --hard "$R"`, true},
		{`git reset --hard $(git log -1 --format=%H relaxed)`, true},
		{"git checkout `cat rev`", true},
		// The index route.
		{`git reset relaxed -- SESSION-PROTOCOL.md && git checkout -- SESSION-PROTOCOL.md`, true},
		{`git reset -q relaxed SESSION-PROTOCOL.md`, true},

		// Honest twins.
		{`git pull`, false},
		{`git pull --rebase`, false},
		{`git pull origin main`, false},
		{`git fetch OTHER feature2`, false},
		{`git fetch -q OTHER relaxed2 && git log --oneline FETCH_HEAD`, false},
		{`git fetch origin && git status`, false},
		{`git update-ref refs/heads/x FEATURE && git reset --hard x`, false},
		{`git branch -f topic FEATURE && git checkout topic`, false},
		{`git branch topic && git checkout topic`, false},
		{`git rebase -x 'go test ./...' feature`, false},
		{`git rebase --exec 'make test' HEAD~1`, false},
		{`git submodule foreach git pull`, false},
		{`git bisect run go test ./...`, false},
		{`git -c alias.q='reset --hard' q feature`, false},
		{`git co feature`, false},
		{`git rh feature`, false},
		{`git config alias.zz 'reset --hard' && git zz feature`, false},
		{`git checkout --orphan gh-pages`, false},
		{`git switch -c topic2`, false},
		{`git reset --hard $(git rev-parse feature)`, false},
		{`git checkout "$(cat featrev)"`, false},
		{`F=$(cat featrev); git reset --hard "$F"`, false},
		{`git reset --soft $(git merge-base main HEAD)`, false},
		{`git diff $(git merge-base main HEAD)`, false},
		{`git log --oneline $(git merge-base main feature)..feature`, false},
		{`git reset feature -- src/a.go`, false},
		{`git reset HEAD -- SESSION-PROTOCOL.md`, false},
		{`git reset -q HEAD~1`, false},
		{`git checkout -- src/a.go`, false},
		{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0='*' git status`, false},
		{`GIT_CONFIG_PARAMETERS="'core.pager=cat'" git log -1`, false},
	} {
		line := strings.NewReplacer("OTHER", other, "RELAXED", relaxed, "FEATURE", feature).Replace(c.line)
		out, _ := r.hook("claude", "PreToolUse", with(bash, "tool_input", map[string]any{"command": line}))
		denied := pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny"
		if why := pathStr(out, "hookSpecificOutput", "permissionDecisionReason"); denied != c.deny {
			t.Errorf("%q: denied %v, want %v (%s)", c.line, denied, c.deny, why)
		}
	}
}
