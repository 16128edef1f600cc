package gitenv_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

// fakeGPG is a gpg.program of the agent's: it signs anything, and on
// verification writes a line of its choosing (a forged trailer) where
// git shows it, and leaves a mark that it ran.
const fakeGPG = `#!/bin/sh
touch "$0.ran"
case "$*" in
*--verify*) echo "Session-Id: forged" >&2; echo "[GNUPG:] GOODSIG AAAA Pat <pat@example.com>"; exit 0;;
*) cat >/dev/null; echo "[GNUPG:] SIG_CREATED " >&2; printf -- '-----BEGIN PGP SIGNATURE-----\n\nAAAA\n-----END PGP SIGNATURE-----\n';;
esac
`

// TestCommandPinsProgramConfig: config the agent sets from its shell
// (GIT_CONFIG_COUNT, or git -c, which reaches a hook as
// GIT_CONFIG_PARAMETERS) must not start a program of its inside
// sessiongate's git or write into what sessiongate parses. With
// log.showSignature=true and its own gpg.program, `git log
// --format=%H` ran the program and printed "Session-Id: forged" ahead of
// the commit; a core.fsmonitor program ran on every status. Every lazy
// row failed on the old code. The honest twin: a person's own
// log.showSignature=true and ssh signing key in their global config;
// sessiongate's log reads the commit alone and %G? still verifies.
func TestCommandPinsProgramConfig(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	gpg := filepath.Join(tmp, "gpg")
	if err := os.WriteFile(gpg, []byte(fakeGPG), 0o755); err != nil {
		t.Fatal(err)
	}
	monitor := filepath.Join(tmp, "fsmonitor")
	if err := os.WriteFile(monitor, []byte("#!/bin/sh\ntouch \"$0.ran\"\nprintf '\\0'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	root := gittest.New(t, nil)
	gittest.Git(t, root, "-c", "gpg.program="+gpg, "commit", "-q", "-S", "--allow-empty", "-m", "signed by the agent's gpg")
	head := gittest.Git(t, root, "rev-parse", "HEAD")

	count := func(kv ...string) func(t *testing.T) {
		return func(t *testing.T) {
			t.Setenv("GIT_CONFIG_COUNT", strconv.Itoa(len(kv)/2))
			for i := 0; i < len(kv); i += 2 {
				t.Setenv("GIT_CONFIG_KEY_"+strconv.Itoa(i/2), kv[i])
				t.Setenv("GIT_CONFIG_VALUE_"+strconv.Itoa(i/2), kv[i+1])
			}
		}
	}
	for _, tt := range []struct {
		name string
		set  func(t *testing.T)
		args []string
		ran  string // the program that must not run
	}{
		{"log.showSignature and gpg.program (GIT_CONFIG_COUNT)", count("log.showSignature", "true", "gpg.program", gpg),
			[]string{"log", "-1", "--format=%H"}, gpg},
		{"log.showSignature and gpg.program (git -c on the commit)", func(t *testing.T) {
			t.Setenv("GIT_CONFIG_PARAMETERS", "'log.showsignature'='true' 'gpg.program'='"+gpg+"'")
		}, []string{"log", "-1", "--format=%H"}, gpg},
		{"core.fsmonitor", count("core.fsmonitor", monitor), []string{"status", "--porcelain"}, monitor},
	} {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(tt.ran + ".ran")
			tt.set(t)
			plain := exec.Command("git", tt.args...)
			plain.Dir = root
			if out, err := plain.CombinedOutput(); err != nil {
				t.Fatalf("set-up: plain git: %v %s", err, out)
			}
			if _, err := os.Stat(tt.ran + ".ran"); err != nil {
				t.Fatalf("set-up: plain git did not run %s", filepath.Base(tt.ran))
			}
			os.Remove(tt.ran + ".ran")
			out, err := gitenv.Command(ctx, root, nil, tt.args...).Output()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(tt.ran + ".ran"); err == nil {
				t.Errorf("route gets through: gitenv's git ran the agent's %s", filepath.Base(tt.ran))
			}
			if tt.args[0] == "log" && strings.TrimSpace(string(out)) != head {
				t.Errorf("route gets through: gitenv's git log printed %q, want the commit alone", out)
			}
		})
	}

	t.Run("honest: a person's log.showSignature and ssh signing", func(t *testing.T) {
		if _, err := exec.LookPath("ssh-keygen"); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("ssh-keygen is required under CI=true")
			}
			t.Skip("ssh-keygen not found")
		}
		key := filepath.Join(tmp, "id_ed25519")
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "pat@example.com", "-f", key).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v %s", err, out)
		}
		pub, err := os.ReadFile(key + ".pub")
		if err != nil {
			t.Fatal(err)
		}
		signers := filepath.Join(tmp, "allowed_signers")
		if err := os.WriteFile(signers, []byte("t@example.com "+string(pub)), 0o644); err != nil {
			t.Fatal(err)
		}
		global := filepath.Join(tmp, "gitconfig")
		body := "[log]\n\tshowSignature = true\n[gpg]\n\tformat = ssh\n[gpg \"ssh\"]\n\tallowedSignersFile = " + signers + "\n[user]\n\tsigningKey = " + key + "\n"
		if err := os.WriteFile(global, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv("GIT_CONFIG_GLOBAL", global)
		gittest.Git(t, root, "commit", "-q", "-S", "--allow-empty", "-m", "signed by the person")
		signed := gittest.Git(t, root, "rev-parse", "HEAD")
		if out := gittest.Git(t, root, "log", "-1", "--format=%H"); out == signed {
			t.Fatalf("set-up: plain git shows no signature: %q", out)
		}
		out, err := gitenv.Command(ctx, root, nil, "log", "-1", "--format=%H %G?").Output()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(string(out)); got != signed+" G" {
			t.Errorf("gitenv's git log = %q, want %q (the commit, its good signature)", got, signed+" G")
		}
	})
}
