package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVerifySignedAcceptance: a protocol change inside the range passes
// verify when a signer listed in accept_signers (as committed at the base)
// signed the acceptance on the records ref, with the base's
// verify.allowed_signers file; an unsigned acceptance (what any process of
// the user, the agent too, can write) and one signed by someone not listed
// fail, naming why. Real ssh-keygen keys, real git verification.
func TestVerifySignedAcceptance(t *testing.T) {
	keygen, err := exec.LookPath("ssh-keygen")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("ssh-keygen is required under CI=true (openssh-client): %v", err)
		}
		t.Skip("no ssh-keygen to sign acceptances: apt-get install openssh-client")
	}
	realBinary(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	keys := filepath.Join(dir, "keys")
	for _, d := range []string{home, keys} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gitconfig := "[user]\n\tname = Dev\n\temail = dev@example.invalid\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n[gpg]\n\tformat = ssh\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	signers := ""
	for _, who := range []string{"alice", "bob"} {
		k := filepath.Join(keys, who)
		if out, err := exec.Command(keygen, "-q", "-t", "ed25519", "-N", "", "-C", who, "-f", k).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
		pub, err := os.ReadFile(k + ".pub")
		if err != nil {
			t.Fatal(err)
		}
		signers += who + "@example.com " + strings.TrimSpace(string(pub)) + "\n"
	}
	w := &ciWorld{dir: dir, remote: filepath.Join(dir, "remote.git"), dev: filepath.Join(dir, "dev")}
	w.env = []string{"HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GITHUB_ACTIONS=", "GITLAB_CI=", "GITHUB_STEP_SUMMARY="}
	w.git(t, dir, "init", "-q", "--bare", w.remote)
	w.git(t, dir, "init", "-q", w.dev)
	w.git(t, w.dev, "remote", "add", "origin", w.remote)
	if err := os.WriteFile(filepath.Join(w.dev, "README.md"), []byte("# project\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.sg(t, w.dev, "init")
	w.setCommand(t, "true")
	// Who may accept, and their keys, as committed on main (the base).
	if err := os.MkdirAll(filepath.Join(w.dev, ".sessiongate"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.dev, ".sessiongate", "allowed_signers"), []byte(signers), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(w.dev, "sessiongate.yaml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b = regexp.MustCompile(`(?m)^accept_signers:.*$`).ReplaceAll(b, []byte("accept_signers: [alice@example.com]"))
	if !strings.Contains(string(b), "alice@example.com") {
		b = append(b, "accept_signers: [alice@example.com]\n"...)
	}
	b = regexp.MustCompile(`(?m)^verify:\n`).ReplaceAll(b, []byte("verify:\n  allowed_signers: .sessiongate/allowed_signers\n"))
	if !strings.Contains(string(b), "allowed_signers:") {
		t.Fatal("no verify: section in the starter sessiongate.yaml to add allowed_signers to")
	}
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	w.sg(t, w.dev, "install")
	w.session(t, "adopt.txt")
	w.git(t, w.dev, "push", "-q", "origin", "main")
	w.main = w.git(t, w.dev, "rev-parse", "HEAD")

	proto := filepath.Join(w.dev, "SESSION-PROTOCOL.md")
	orig, err := os.ReadFile(proto)
	if err != nil {
		t.Fatal(err)
	}
	// branch: a protocol change accepted (by key, or unsigned), then a
	// session under it that commits the change and its work.
	branch := func(name, key string, extra ...string) string {
		w.git(t, w.dev, "checkout", "-q", "-b", name, w.main)
		if err := os.WriteFile(proto, append(append([]byte{}, orig...), []byte("\n<!-- "+name+": wording -->\n")...), 0o644); err != nil {
			t.Fatal(err)
		}
		if key != "" {
			w.git(t, w.dev, "config", "user.signingkey", filepath.Join(keys, key))
		}
		acceptArgs(t, w, append([]string{"--reason", name}, extra...)...)
		w.sessionWith(t, func() {
			w.write(t, name+".txt")
			w.git(t, w.dev, "add", "-A")
			w.git(t, w.dev, "commit", "-q", "-m", "protocol wording and "+name)
		})
		w.git(t, w.dev, "push", "-q", "origin", name, "refs/sessiongate/records")
		return w.git(t, w.dev, "rev-parse", "HEAD")
	}
	signed := branch("signed", "alice", "--sign")
	unsigned := branch("unsigned", "")
	bob := branch("bob", "bob", "--sign")
	const recs = "refs/sessiongate/records:refs/sessiongate/records"
	cases := []struct {
		name string
		tip  string
		code int
		want string
	}{
		{"signed by a listed signer: the change passes", signed, 0, `accepted by alice@example\.com \(signed records commit`},
		{"unsigned acceptance: no proof in CI", unsigned, 1, `an acceptance .*via terminal \(--yes\).* exists, but no signer in accept_signers signed it, which is no proof in CI`},
		{"signed by someone not listed", bob, 1, `an acceptance .*signed.* exists, but no signer in accept_signers signed it`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ci := w.checkout(t, "ci-"+c.name[:6], false, c.tip, "+refs/heads/*:refs/remotes/origin/*", recs)
			code, out, errb := sgBin(t, ci, w.env, "verify", w.main+".."+c.tip)
			if code != c.code || !regexp.MustCompile(c.want).MatchString(out) {
				t.Fatalf("verify: exit %d, want %d matching %s\n%s%s", code, c.code, c.want, out, errb)
			}
		})
	}
}

// acceptArgs runs `protocol accept --yes ARGS` at a terminal (script(1)).
func acceptArgs(t *testing.T, w *ciWorld, args ...string) {
	t.Helper()
	script, err := exec.LookPath("script")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("script(1) is required under CI=true (util-linux): %v", err)
		}
		t.Skipf("script(1) not found: install util-linux to give protocol accept a terminal")
	}
	line := realBinary(t) + " protocol accept --yes"
	for _, a := range args {
		line += " '" + a + "'"
	}
	cmd := exec.Command(script, "-qec", line, "/dev/null")
	cmd.Dir = w.dev
	cmd.Env = sgEnv(w.env)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("protocol accept %v at a terminal: %v\n%s", args, err, out)
	}
}
