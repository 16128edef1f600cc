package agenthook_test

import (
	"archive/tar"
	"archive/zip"
	"os"
	"path/filepath"
	"testing"
)

// writeTar writes a tar archive at p holding the named files.
func writeTar(t *testing.T, p string, names ...string) {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	tw := tar.NewWriter(f)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: 2}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte("x\n")); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// writeZip writes a zip archive at p holding the named files.
func writeZip(t *testing.T, p string, names ...string) {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte("x\n")); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestIndirectWritesAtTheHook: writes onto protected files that no
// writer's literal operand names (issue 25, round 18 t4), through the
// real binary with Claude Code's PreToolUse payload for Bash mid-session:
// a script run by eval or fed to a shell, copies and archives whose
// members land at the root, git restoring or patching a protected file
// from another revision, a patch or a stash, positional parameters and
// xargs' input, read/printf -v/arrays, find -regex. Every deny row was
// allowed before; the honest twins stay allowed.
func TestIndirectWritesAtTheHook(t *testing.T) {
	r := newRepo(t, "")
	for _, f := range []string{"src/a.go", "src/b.go", "docs/guide.md", "README.md", "x.txt", "tpl/SESSION-PROTOCOL.md", "tpl/.claude/settings.json", "assets/logo.svg", "assets/site.css"} {
		writeFile(t, filepath.Join(r.root, f), "x\n")
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "files")
	// Patches: one touching the protocol, one touching only src.
	writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), testProtocol+"\nMAY skip.\n")
	writeFile(t, filepath.Join(r.root, "proto.patch"), r.git("diff")+"\n")
	r.git("checkout", "--", "SESSION-PROTOCOL.md")
	writeFile(t, filepath.Join(r.root, "src", "a.go"), "y\n")
	writeFile(t, filepath.Join(r.root, "fix.patch"), r.git("diff")+"\n")
	r.git("checkout", "--", "src/a.go")
	// Stashes: stash@{1} touches the protocol, stash@{0} only src.
	writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), testProtocol+"\nMAY skip.\n")
	r.git("stash", "push", "-q", "-m", "proto")
	writeFile(t, filepath.Join(r.root, "src", "b.go"), "y\n")
	r.git("stash", "push", "-q", "-m", "work")
	// Archives: one holding the protocol, one holding only src.
	writeTar(t, filepath.Join(r.root, "bad.tar"), "SESSION-PROTOCOL.md", "src/c.go")
	writeTar(t, filepath.Join(r.root, "ok.tar"), "src/c.go", "docs/new.md")
	writeZip(t, filepath.Join(r.root, "bad.zip"), ".claude/settings.json")
	writeZip(t, filepath.Join(r.root, "ok.zip"), "assets/icon.png")

	const sid = "indirect-writes"
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	bash := golden(t, r, "claude", "PreToolUse-Bash", sid)
	for _, c := range []struct {
		line string
		deny bool
	}{
		// A script run by eval or fed to a shell.
		{`eval "sed -i s/MUST/MAY/ SESSION-PROTOCOL.md"`, true},
		{`cmd="sed -i s/MUST/MAY/ SESSION-PROTOCOL.md"; eval "$cmd"`, true},
		{`echo 'sed -i s/MUST/MAY/ SESSION-PROTOCOL.md' | sh`, true},
		{`printf 'sed -i s/MUST/MAY/ SESSION-PROTOCOL.md\n' | bash`, true},
		{"sh <<EOF\nsed -i s/MUST/MAY/ SESSION-PROTOCOL.md\nEOF", true},
		{"bash -s <<'EOF'\necho '{}' > .claude/settings.local.json\nEOF", true},
		{`bash <(echo 'sed -i s/MUST/MAY/ SESSION-PROTOCOL.md')`, true},
		{"cat <<'EOF' | sh\nsed -i s/MUST/MAY/ SESSION-PROTOCOL.md\nEOF", true},
		{"cat <<'EOF' | bash\ngo test ./...\nEOF", false},
		{`source <(echo 'sed -i s/MUST/MAY/ SESSION-PROTOCOL.md')`, true},
		{`source /dev/stdin <<< 'sed -i s/MUST/MAY/ SESSION-PROTOCOL.md'`, true},
		{`. /dev/stdin <<< 'rm -f .git/hooks/pre-commit'`, true},
		{`eval "f=SESSION-PROTOCOL.md; sed -i s/MUST/MAY/ \$f"`, true},
		{`eval "echo x >> SESSION-PROTO*.md"`, true},
		{`eval "$(echo sed -i s/MUST/MAY/ SESSION-PROTOCOL.md)"`, true},
		// Positional parameters and xargs' input.
		{`bash -c 'sed -i s/MUST/MAY/ "$1"' _ SESSION-PROTOCOL.md`, true},
		{`sh -c 'echo x >> $1' sh sessiongate.yaml`, true},
		{`xargs -I{} sed -i s/MUST/MAY/ {} <<< SESSION-PROTOCOL.md`, true},
		{`echo SESSION-PROTOCOL.md | xargs sed -i s/MUST/MAY/`, true},
		{`printf '%s\n' SESSION-PROTOCOL.md | xargs -I % sed -i s/MUST/MAY/ %`, true},
		// read, printf -v, arrays, find -regex.
		{`read f <<< SESSION-PROTOCOL.md; sed -i s/MUST/MAY/ $f`, true},
		{`read -r f <<< 'SESSION-PROTOCOL.md' && sed -i s/MUST/MAY/ "$f"`, true},
		{`printf -v f %s SESSION-PROTOCOL.md; sed -i s/MUST/MAY/ "$f"`, true},
		{`a=(SESSION-PROTOCOL.md); sed -i s/MUST/MAY/ ${a[0]}`, true},
		{`a=(README.md SESSION-PROTOCOL.md); sed -i s/MUST/MAY/ "${a[@]}"`, true},
		{`declare -a a=(SESSION-PROTOCOL.md); rm -f "${a[@]}"`, true},
		{`set -- SESSION-PROTOCOL.md; sed -i s/MUST/MAY/ "$1"`, true},
		{`set -- x SESSION-PROTOCOL.md; rm -f "$@"`, true},
		{`mapfile -t a <<< SESSION-PROTOCOL.md; sed -i s/MUST/MAY/ "${a[@]}"`, true},
		{`a[3]=SESSION-PROTOCOL.md; sed -i s/MUST/MAY/ "${a[3]}"`, true},
		{`find . -regex '.*PROTOCOL.*' -delete`, true},
		{`find . -iregex '.*session-protocol.*' -exec sed -i s/MUST/MAY/ {} +`, true},
		// Copies, installs, archives.
		{`rsync x.txt SESSION-PROTOCOL.md`, true},
		{`rsync -a tpl/ .`, true},
		{`rsync -a tpl/ ./`, true},
		{`cp -r tpl/. .`, true},
		{`cp tpl/SESSION-PROTOCOL.md .`, true},
		{`cp -t . tpl/SESSION-PROTOCOL.md`, true},
		{`mv --target-directory=. tpl/SESSION-PROTOCOL.md`, true},
		{`install -m 644 x.txt SESSION-PROTOCOL.md`, true},
		{`install -t . tpl/SESSION-PROTOCOL.md`, true},
		{`install -D x.txt .claude/settings.json`, true},
		// git restoring a protected file from another revision, a patch, a stash.
		{`git checkout HEAD~1 -- SESSION-PROTOCOL.md`, true},
		{`git checkout stash@{1} -- SESSION-PROTOCOL.md`, true},
		{`git restore --source=HEAD~1 SESSION-PROTOCOL.md`, true},
		{`git restore -s stash@{1} -- .`, true},
		{`git show HEAD~1:SESSION-PROTOCOL.md > SESSION-PROTOCOL.md`, true},
		// Archives, patches and stashes: the file the line names is read.
		{`tar xf bad.tar`, true},
		{`tar -xzf bad.tar -C .`, true},
		{`tar --extract --file=bad.tar`, true},
		{`unzip -o bad.zip`, true},
		{`tar cf /tmp/t.tar -C tpl . && tar xf /tmp/t.tar`, true},
		{`(cd tpl && tar cf - .) | tar xf -`, true},
		{`git apply proto.patch`, true},
		{`git apply --index proto.patch`, true},
		{`git am proto.patch`, true},
		{`patch -p1 < proto.patch`, true},
		{`patch -p1 -i proto.patch`, true},
		{"git apply <<'EOF'\ndiff --git a/SESSION-PROTOCOL.md b/SESSION-PROTOCOL.md\n--- a/SESSION-PROTOCOL.md\n+++ b/SESSION-PROTOCOL.md\n@@ -1 +1 @@\n-# Protocol\n+# Protocol (relaxed)\nEOF", true},
		{`git stash pop stash@{1}`, true},
		{`git stash apply 'stash@{1}'`, true},
		// Honest twins.
		{`eval "$(ssh-agent -s)"`, false},
		{`eval "go test ./..."`, false},
		{`cmd="go vet ./..."; eval "$cmd"`, false},
		{`echo 'go test ./...' | sh`, false},
		{"sh <<EOF\necho building\ngo build ./...\nEOF", false},
		{`bash <(echo 'echo hi > /tmp/hi.txt')`, false},
		{`bash -c 'sed -i s/a/b/ "$1"' _ src/a.go`, false},
		{`xargs -I{} sed -i s/a/b/ {} <<< src/a.go`, false},
		{`git ls-files '*.go' | xargs gofmt -l`, false},
		{`echo src/a.go | xargs sed -i s/a/b/`, false},
		{`read f <<< src/a.go; sed -i s/a/b/ "$f"`, false},
		{`printf -v f %s src/a.go; sed -i s/a/b/ "$f"`, false},
		{`a=(src/a.go src/b.go); gofmt -w "${a[@]}"`, false},
		{`set -- src/a.go src/b.go; gofmt -w "$@"`, false},
		{`mapfile -t fs < files.txt; gofmt -w "${fs[@]}"`, false},
		{`find . -regex '.*\.pyc' -delete`, false},
		{`find src -regex '.*_test\.go' -exec sed -i s/a/b/ {} +`, false},
		{`rsync -a assets/ build/assets/`, false},
		{`rsync -av --delete dist/ /tmp/site/`, false},
		{`rsync -a src/ /tmp/backup/src/`, false},
		{`cp -r assets/. build/`, false},
		{`cp -r assets/ build/`, false},
		{`cp assets/*.css public/`, false},
		{`cp -r /tmp/tpl/src .`, false},
		{`install -m 755 build/app /usr/local/bin/app`, false},
		{`install -D -m 644 x.txt build/x.txt`, false},
		{`tar xf ok.tar`, false},
		{`tar xzf /tmp/dist.tgz -C build`, false},
		{`tar -xf ok.tar -C /tmp/x`, false},
		{`unzip -o ok.zip`, false},
		{`unzip -q /tmp/release.zip -d build/`, false},
		{`tar czf /tmp/src.tgz src && tar xzf /tmp/src.tgz -C /tmp/copy`, false},
		{`git checkout -- src/a.go`, false},
		{`git checkout HEAD~1 -- src/a.go`, false},
		{`git checkout HEAD -- SESSION-PROTOCOL.md`, false},
		{`git checkout -- .`, false},
		{`git restore .`, false},
		{`git restore --source=HEAD~1 src/a.go`, false},
		{`git restore -s HEAD~1 -- src/`, false},
		{`git checkout main`, false},
		{`git checkout -b feat/x origin/main`, false},
		{`git show HEAD~1:src/a.go > src/a.go`, false},
		{`git apply fix.patch`, false},
		{`git apply --check proto.patch`, false},
		{`git apply --stat proto.patch`, false},
		{`git am fix.patch`, false},
		{`patch -p1 < fix.patch`, false},
		{`git stash pop`, false},
		{`git stash apply stash@{0}`, false},
		{`git stash show -p stash@{1}`, false},
		{`git stash && git pull --rebase && git stash pop`, false},
		{`tar xf ok.tar && go build ./...`, false},
		{`curl -sL https://example.com/tool.tar.gz | tar xz -C /tmp/tool`, false},
		{`tar cf - src | tar xf - -C /tmp/copy`, false},
		{`git apply --check proto.patch && echo ok`, false},
		{`git apply missing.patch`, false},
		{`git diff > /tmp/d.patch && git apply -R /tmp/d.patch`, false},
		// False blocks before.
		{`find "$TMPDIR" -name '*.md' -delete`, false},
		{`chmod -R u+w *`, false},
		{`name=report; > "$name.json"`, false},
		{`name=report > "$name.json"`, false},
		{`name=report; : > "$name.json"`, false},
	} {
		out, _ := r.hook("claude", "PreToolUse", with(bash, "tool_input", map[string]any{"command": c.line}))
		denied := pathStr(out, "hookSpecificOutput", "permissionDecision") == "deny"
		if why := pathStr(out, "hookSpecificOutput", "permissionDecisionReason"); denied != c.deny {
			t.Errorf("%q: denied %v, want %v (%s)", c.line, denied, c.deny, why)
		}
	}
}
