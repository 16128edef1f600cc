package agenthook_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// tarWith makes an archive at dst with the tar program (flags such as
// "cjf", "cJf", "--zstd -cf") of the files under dir; it skips the test
// when the compressor is missing (fails under CI=true).
func tarWith(t *testing.T, r *repo, prog, dst, dir string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath(prog); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is required under CI=true: %v", prog, err)
		}
		t.Skipf("%s not found: the archive rows need it", prog)
	}
	a := append(append([]string{}, args...), dst, "-C", dir, ".")
	if res := r.run(r.root, nil, nil, "tar", a...); res.code != 0 {
		t.Fatalf("tar %v: %s", a, res.err)
	}
}

// TestHiddenWritesAtTheHook: writes onto protected files that round 18
// left open at the agent hook (issue 25, round 19 t4), through the real
// binary with Claude Code's PreToolUse payload for Bash mid-session: git
// moving the work tree to a revision whose protected files differ (reset,
// checkout, switch, rebase, merge, cherry-pick, revert, stash branch), a
// patch made on the same line or piped into git apply, a glob or a
// folder's contents copied into the root, archives the hook cannot read
// extracted at the root, a script run by `source`/`.`/`eval "$(cat f)"`.
// Every deny row was allowed before; the honest twins stay allowed.
func TestHiddenWritesAtTheHook(t *testing.T) {
	r := newRepo(t, "")
	for _, f := range []string{"src/a.go", "docs/guide.md", "assets/logo.svg", "assets/site.css", "tpl/SESSION-PROTOCOL.md", "tpl/.claude/settings.json", "tpl/src/x.go", "pkg/proj/SESSION-PROTOCOL.md", "pkg/proj/src/y.go"} {
		writeFile(t, filepath.Join(r.root, f), "x\n")
	}
	writeFile(t, filepath.Join(r.root, "tools", "relax.sh"), "#!/bin/sh\nsed -i s/MUST/MAY/ SESSION-PROTOCOL.md\n")
	writeFile(t, filepath.Join(r.root, "tools", "env.sh"), "export GOFLAGS=-mod=mod\nexport APP_ENV=test\n")
	writeFile(t, filepath.Join(r.root, "tools", "cfg.sh"), "echo '{}' > .claude/settings.local.json\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "files")
	base := r.git("rev-parse", "HEAD")
	// relaxed: one commit that changes the protocol; feature: one that
	// changes only src. main then gets a docs commit (HEAD~1 holds the
	// same protocol as HEAD).
	r.git("checkout", "-q", "-b", "relaxed")
	writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), testProtocol+"\nThe agent MAY skip QA.\n")
	r.git("commit", "-q", "-am", "relax")
	r.git("checkout", "-q", "-b", "feature", base)
	writeFile(t, filepath.Join(r.root, "src", "a.go"), "y\n")
	r.git("commit", "-q", "-am", "feature")
	// accepted: a protocol update a person accepted (a row below).
	acceptedProtocol := testProtocol + "\nThe agent MUST also run the linter.\n"
	r.git("checkout", "-q", "-b", "accepted", base)
	writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), acceptedProtocol)
	r.git("commit", "-q", "-am", "protocol update")
	r.git("checkout", "-q", "main")
	writeFile(t, filepath.Join(r.root, "docs", "guide.md"), "y\n")
	r.git("commit", "-q", "-am", "docs")
	// A stash touching the protocol.
	writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), testProtocol+"\nThe agent MAY skip.\n")
	r.git("stash", "push", "-q", "-m", "proto")
	// Archives the hook cannot read (xz, zstd) and one it can (bzip2).
	tarWith(t, r, "xz", filepath.Join(r.root, "bad.tar.xz"), filepath.Join(r.root, "tpl"), "-cJf")
	tarWith(t, r, "zstd", filepath.Join(r.root, "bad.tar.zst"), filepath.Join(r.root, "tpl"), "--zstd", "-cf")
	tarWith(t, r, "bzip2", filepath.Join(r.root, "bad.tar.bz2"), filepath.Join(r.root, "tpl"), "-cjf")
	tarWith(t, r, "bzip2", filepath.Join(r.root, "ok.tar.bz2"), filepath.Join(r.root, "assets"), "-cjf")
	writeTar(t, filepath.Join(r.root, "nested.tar"), "proj/SESSION-PROTOCOL.md", "proj/src/y.go")

	const sid = "hidden-writes"
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	sum := sha256.Sum256([]byte(acceptedProtocol))
	err := r.db().Update(context.Background(), func(w session.Writer) error {
		return w.AddTrustedFile(context.Background(), &session.TrustedFile{RepoID: s.RepoID, Path: "SESSION-PROTOCOL.md", SHA256: hex.EncodeToString(sum[:]), Source: session.TrustAccept, Who: "Test <test@example.com> (user)", Reason: "linter step", Via: "terminal", CreatedAt: time.Now().UTC()})
	})
	if err != nil {
		t.Fatal(err)
	}
	bash := golden(t, r, "claude", "PreToolUse-Bash", sid)
	for _, c := range []struct {
		line string
		deny bool
	}{
		// git moving the work tree to a revision whose protected files differ.
		{`git reset --hard relaxed`, true},
		{`git reset --keep relaxed`, true},
		{`git checkout relaxed`, true},
		{`git checkout -q relaxed`, true},
		{`git checkout -b mine relaxed`, true},
		{`git checkout --detach relaxed`, true},
		{`git switch relaxed`, true},
		{`git switch -c mine relaxed`, true},
		{`git switch --detach relaxed`, true},
		{`git rebase relaxed`, true},
		{`git rebase --onto relaxed main`, true},
		{`git merge relaxed`, true},
		{`git merge --squash relaxed`, true},
		{`git merge --no-edit -X theirs relaxed`, true},
		{`git cherry-pick relaxed`, true},
		{`git cherry-pick -n relaxed`, true},
		{`git cherry-pick -x relaxed`, true},
		{`git revert --no-edit relaxed`, true},
		{`git read-tree -u -m relaxed`, true},
		{`git stash branch tmp stash@{0}`, true},
		{`git fetch -q . relaxed && git reset --hard relaxed`, true},
		{`git cherry-pick accepted`, true}, // a replay: its result is no accepted content
		{`bash -c 'git reset --hard relaxed'`, true},
		{`eval "git checkout relaxed"`, true},
		{`eval "cp -r tpl/* ."`, true},
		// A patch made on the same line, or piped into git apply / git am.
		{`git diff HEAD relaxed -- SESSION-PROTOCOL.md > /tmp/d.patch && git apply /tmp/d.patch`, true},
		{`git diff relaxed HEAD > /tmp/d.patch && git apply -R /tmp/d.patch`, true},
		{`git diff HEAD relaxed | git apply`, true},
		{`git show relaxed | git apply`, true},
		{`git format-patch -1 relaxed --stdout | git am`, true},
		{`git diff main relaxed | patch -p1`, true},
		// A glob, or a folder's contents, copied into the root.
		{`cp -r tpl/* .`, true},
		{`cp -a tpl/. .`, true},
		{`cp -a tpl/. ./`, true},
		{`cp -R tpl/.claude .`, true},
		{`cp tpl/SESSION-* .`, true},
		// Archives: one the hook cannot read, extracted at the root or
		// into a folder holding a protected file; bzip2 is read; a
		// stripped leading folder.
		{`tar xJf bad.tar.xz`, true},
		{`tar --zstd -xf bad.tar.zst`, true},
		{`tar -I zstd -xf bad.tar.zst`, true},
		{`tar xf bad.tar.xz -C .claude`, true},
		{`tar xjf bad.tar.bz2`, true},
		{`curl -sL https://example.com/t.tar.gz | tar xz`, true},
		{`tar xf nested.tar --strip-components=1`, true},
		{`curl -sLo /tmp/t.tar.xz https://example.com/t.tar.xz && tar xJf /tmp/t.tar.xz`, true},
		{`wget -q https://example.com/t.tar.gz && tar xzf t.tar.gz`, true},
		{`curl -sL https://example.com/t.tar.gz > t.tgz && tar xzf t.tgz`, true},
		// Scripts run by source, . and eval "$(cat f)".
		{`source tools/relax.sh`, true},
		{`. tools/relax.sh`, true},
		{`. ./tools/cfg.sh`, true},
		{`eval "$(cat tools/relax.sh)"`, true},
		{`eval "$(< tools/cfg.sh)"`, true},
		{`bash -c "$(cat tools/relax.sh)"`, true},

		// Honest twins.
		{`git reset --hard`, false},
		{`git reset --hard HEAD`, false},
		{`git reset --hard HEAD~1`, false},
		{`git reset --soft relaxed`, false},
		{`git reset HEAD~1`, false},
		{`git checkout feature`, false},
		{`git checkout -q feature`, false},
		{`git checkout -b topic`, false},
		{`git checkout -b topic feature`, false},
		{`git checkout src/a.go`, false},
		{`git checkout -- src/a.go`, false},
		{`git switch feature`, false},
		{`git switch -c topic`, false},
		{`git switch -`, false},
		{`git rebase feature`, false},
		{`git rebase --continue`, false},
		{`git rebase --abort`, false},
		{`git merge feature`, false},
		{`git merge --abort`, false},
		{`git cherry-pick feature`, false},
		{`git revert --no-edit HEAD`, false},
		{`git pull --rebase`, false},
		{`git stash branch tmp2 stash@{9}`, false},
		{`git checkout nosuchbranch`, false},
		{`git diff HEAD feature | git apply`, false},
		{`git diff > /tmp/d.patch && git apply -R /tmp/d.patch`, false},
		{`git show feature | git apply --check`, false},
		{`git format-patch -1 feature --stdout | git am`, false},
		{`git diff | git apply -R`, false},
		{`cp -r assets/* build/`, false},
		{`cp -r tpl/src/* src/`, false},
		{`cp -a assets/. build/`, false},
		{`cp src/*.go /tmp/x/`, false},
		{`cp -r assets/* .`, false},
		{`tar xJf bad.tar.xz -C /tmp/x`, false},
		{`tar xJf node-v20.tar.xz -C /tmp`, false},
		{`tar xJf bad.tar.xz -C vendor/`, false},
		{`mkdir -p /tmp/z && tar --zstd -xf bad.tar.zst -C /tmp/z`, false},
		{`tar xjf ok.tar.bz2`, false},
		{`tar tJf bad.tar.xz`, false},
		{`curl -sL https://example.com/t.tar.gz | tar xz -C /tmp/tool`, false},
		{`tar xf nested.tar`, false},
		{`tar xf missing.tar`, false},
		{`curl -sLo /tmp/t.tar.xz https://example.com/t.tar.xz && tar xJf /tmp/t.tar.xz -C /tmp/t`, false},
		{`source tools/env.sh`, false},
		{`. tools/env.sh && go test ./...`, false},
		{`eval "$(cat tools/env.sh)"`, false},
		{`git cherry-pick -x feature`, false},
		// A protocol update a person accepted, brought in whole.
		{`git merge accepted`, false},
		{`git rebase accepted`, false},
		{`git reset --hard accepted`, false},
		{`git checkout accepted`, false},
	} {
		out, _ := r.hook("claude", "PreToolUse", with(bash, "tool_input", map[string]any{"command": c.line}))
		denied := pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny"
		if why := pathStr(out, "hookSpecificOutput", "permissionDecisionReason"); denied != c.deny {
			t.Errorf("%q: denied %v, want %v (%s)", c.line, denied, c.deny, why)
		}
	}
}
