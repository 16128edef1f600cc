package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fakeGPG is a gpg.program that signs anything and calls every signature
// good: what an agent's earlier step can name in the clone's config.
const fakeGPG = `#!/bin/sh
case " $* " in
*" --verify "*)
  cat >/dev/null
  echo "[GNUPG:] NEWSIG"
  echo "[GNUPG:] GOODSIG 0123456789ABCDEF Fake <fake@example.invalid>"
  echo "[GNUPG:] VALIDSIG 0123456789ABCDEF0123456789ABCDEF01234567 2026-01-01 1767225600 0 4 0 1 8 00 0123456789ABCDEF0123456789ABCDEF01234567"
  echo "[GNUPG:] TRUST_ULTIMATE 0 pgp"
  exit 0 ;;
esac
cat >/dev/null
echo "[GNUPG:] SIG_CREATED D 1 8 00 1767225600 0123456789ABCDEF0123456789ABCDEF01234567" >&2
printf -- '-----BEGIN PGP SIGNATURE-----\n\nZmFrZQ==\n-----END PGP SIGNATURE-----\n'
`

// TestVerifyAdvCIJobSigns: code that ran in the job before verify (a test
// step of the branch, a runner keeping its clone) changed the checkout.
// Each route passed on the old code:
//   - origin pointed at a repository whose main holds the hooks-off
//     commit: a branch push is checked against origin/main, so 0 commits;
//   - gpg.program in the clone's config: with --require-signed, commits
//     "signed" by a fake gpg verify.
//
// Both now exit 2 naming the sign. Honest twins: actions/checkout's origin
// in https or ssh form; a signature program in the runner's own global
// config (the job set it up, not the clone); without --require-signed a
// clone-config gpg.program is a warning, not a block.
func TestVerifyAdvCIJobSigns(t *testing.T) {
	t.Parallel()
	w := newCIWorld(t)
	w.qaCmd = "test ! -f broken.txt"
	gpg := filepath.Join(w.dir, "fake-gpg")
	if err := os.WriteFile(gpg, []byte(fakeGPG), 0o755); err != nil {
		t.Fatal(err)
	}
	// The agent's signed branch: an honest session whose commits the
	// fake gpg "signed".
	w.git(t, w.dev, "checkout", "-q", "-b", "fake-signed", w.main)
	w.git(t, w.dev, "config", "gpg.program", gpg)
	w.git(t, w.dev, "config", "commit.gpgsign", "true")
	w.session(t, "signed.txt")
	w.git(t, w.dev, "config", "--unset", "gpg.program")
	w.git(t, w.dev, "config", "--unset", "commit.gpgsign")
	signed := w.git(t, w.dev, "rev-parse", "HEAD")
	// The impostor origin: the same history with main moved to the
	// hooks-off commit.
	fake := filepath.Join(w.dir, "impostor.git")
	w.git(t, w.dir, "clone", "-q", "--mirror", w.remote, fake)
	w.git(t, fake, "update-ref", "refs/heads/main", w.notrailer)
	w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "fake-signed", "refs/sessiongate/records")
	w.git(t, w.dev, "checkout", "-q", "feature")

	home := ""
	for _, kv := range w.env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	for _, c := range []struct {
		name, branch, before, after string
		origin                      string   // set by "an earlier step" ("" keeps actions/checkout's)
		local, global               []string // git config KEY VALUE set before verify
		server, repo                string   // GITHUB_SERVER_URL, GITHUB_REPOSITORY
		args                        []string
		code                        int
		want                        string
	}{
		{name: "origin pointed at an impostor whose main holds the branch", branch: "bad-notrailer", before: w.work2, after: w.notrailer,
			origin: "file://" + fake, server: "file://" + filepath.Dir(w.remote), repo: "remote.git", code: 2,
			want: `origin is file://.*impostor\.git, not the repository this job is for`},
		{name: "honest twin: actions/checkout's origin", branch: "bad-notrailer", before: w.work2, after: w.notrailer,
			server: "file://" + filepath.Dir(w.remote), repo: "remote.git", code: 1, want: `(?m)^FAIL .* sneak a change`},
		{name: "gpg.program in the clone's config, --require-signed", branch: "fake-signed", before: w.main, after: signed,
			local: []string{"gpg.program", gpg}, args: []string{"--require-signed"}, code: 2,
			want: `gpg\.program is set in this clone's own config .*--require-signed`},
		{name: "honest twin: the runner's own global gpg.program", branch: "fake-signed", before: w.main, after: signed,
			global: []string{"gpg.program", gpg}, args: []string{"--require-signed"}, code: 0, want: `(?m)^OK .* add signed\.txt`},
		{name: "honest twin: clone-config gpg.program without --require-signed warns", branch: "fake-signed", before: w.main, after: signed,
			local: []string{"gpg.program", gpg}, code: 0, want: `warning: gpg\.program is set in this clone's own config`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := w.checkout(t, "signs", false, c.after, "+refs/heads/"+c.branch+":refs/remotes/origin/"+c.branch, recsSpec)
			if c.origin != "" {
				w.git(t, dir, "remote", "set-url", "origin", c.origin)
			}
			if len(c.local) > 0 {
				w.git(t, dir, append([]string{"config"}, c.local...)...)
			}
			env := append([]string{}, w.env...)
			if len(c.global) > 0 {
				// The runner's global config: a copy of HOME's with the key.
				h := filepath.Join(w.dir, "home-"+filepath.Base(dir))
				if err := os.MkdirAll(h, 0o755); err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(filepath.Join(home, ".gitconfig"))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(h, ".gitconfig"), b, 0o644); err != nil {
					t.Fatal(err)
				}
				env = append(env, "HOME="+h)
				w.git(t, dir, append([]string{"config", "--file", filepath.Join(h, ".gitconfig")}, c.global...)...)
			}
			env = append(env, "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push",
				"GITHUB_EVENT_PATH="+w.event(t, filepath.Base(dir), pushEvent(c.before, c.after, "refs/heads/"+c.branch)),
				"GITHUB_SERVER_URL="+c.server, "GITHUB_REPOSITORY="+c.repo)
			code, out, errb := sgBin(t, dir, env, append([]string{"verify"}, c.args...)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out, errb)
			}
			if !regexp.MustCompile(c.want).MatchString(out + errb) {
				t.Errorf("output does not match %s:\n%s%s", c.want, out, errb)
			}
		})
	}
}
