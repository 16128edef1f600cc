package signerfile_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/signerfile"
)

// TestVerifyHistory: the committed signers file judges a commit, and each
// change of the file must be signed under the version before it. Merges
// that keep one side's version are no change (an honest merge of Alice's
// signed change, the merge itself unsigned); an unsigned change, a key
// added by an unsigned commit on a side branch, and a gpg.ssh.program of
// the caller's that says "Good" are refused.
func TestVerifyHistory(t *testing.T) {
	keygen, err := exec.LookPath("ssh-keygen")
	if err != nil {
		t.Skip("no ssh-keygen")
	}
	keys := t.TempDir()
	pub := map[string]string{}
	for _, who := range []string{"alice", "bob", "agent"} {
		k := filepath.Join(keys, who)
		if out, err := exec.Command(keygen, "-q", "-t", "ed25519", "-N", "", "-C", who, "-f", k).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
		b, _ := os.ReadFile(k + ".pub")
		pub[who] = strings.TrimSpace(string(b))
	}
	line := func(name, key string) string { return name + "@example.com " + pub[key] + "\n" }
	signed := func(dir, who string, args ...string) {
		gittest.Git(t, dir, append([]string{"-c", "gpg.format=ssh", "-c", "user.signingkey=" + filepath.Join(keys, who), "commit", "-q", "-S"}, args...)...)
	}
	fake := filepath.Join(keys, "fake-ssh-keygen")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho alice@example.com\necho 'Good \"git\" signature for alice@example.com with ED25519 key SHA256:x'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	signers := []string{"alice@example.com", "bob@example.com"}
	cases := []struct {
		name    string
		do      func(dir string) // after the file's first version, on main
		env     []string
		wantErr string
	}{
		{"honest: Alice signs the protocol", func(dir string) {
			gittest.Write(t, dir, "P.md", "v2\n")
			signed(dir, "alice", "-am", "v2")
		}, nil, ""},
		{"honest: Alice signs Bob in on a branch, an unsigned merge, Bob signs", func(dir string) {
			gittest.Git(t, dir, "switch", "-q", "-c", "side")
			gittest.Write(t, dir, "allowed_signers", line("alice", "alice")+line("bob", "bob"))
			signed(dir, "alice", "-am", "bob signs too")
			gittest.Git(t, dir, "switch", "-q", "main")
			gittest.Commit(t, dir, "other work", map[string]string{"README.md": "x\n"})
			gittest.Git(t, dir, "merge", "-q", "--no-ff", "-m", "merge side", "side")
			gittest.Write(t, dir, "P.md", "v2\n")
			signed(dir, "bob", "-am", "v2")
		}, nil, ""},
		{"lazy: the agent's key added by an unsigned commit on a side branch, merged", func(dir string) {
			gittest.Git(t, dir, "switch", "-q", "-c", "side")
			gittest.Write(t, dir, "allowed_signers", line("alice", "alice")+line("alice", "agent"))
			gittest.Git(t, dir, "commit", "-q", "-am", "signers")
			gittest.Git(t, dir, "switch", "-q", "main")
			gittest.Git(t, dir, "merge", "-q", "--no-ff", "-m", "merge side", "side")
			gittest.Write(t, dir, "P.md", "weak\n")
			signed(dir, "agent", "-am", "weak")
		}, nil, "without a listed signer's signature"},
		{"lazy: the agent's own key, not in the file", func(dir string) {
			gittest.Write(t, dir, "P.md", "weak\n")
			signed(dir, "agent", "-am", "weak")
		}, nil, "not by one of"},
		{"lazy: a gpg.ssh.program of the caller's that says Good", func(dir string) {
			gittest.Write(t, dir, "P.md", "weak\n")
			signed(dir, "agent", "-am", "weak")
		}, []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=gpg.ssh.program", "GIT_CONFIG_VALUE_0=" + fake}, "not by one of"},
		{"lazy: unsigned", func(dir string) {
			gittest.Write(t, dir, "P.md", "weak\n")
			gittest.Git(t, dir, "commit", "-q", "-am", "weak")
		}, nil, "no ssh signature"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := gittest.New(t, map[string]string{"allowed_signers": line("alice", "alice"), "P.md": "v1\n"})
			c.do(dir)
			for _, kv := range c.env {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			sha := gittest.Git(t, dir, "rev-parse", "HEAD")
			who, err := signerfile.Verify(context.Background(), dir, sha, "allowed_signers", signers)
			switch {
			case c.wantErr == "" && err != nil:
				t.Fatalf("refused an honest signature: %v", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Fatalf("got signer %q, err %v; want an error with %q", who, err, c.wantErr)
			}
		})
	}
}
