package agenthook_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// detachPy runs its arguments detached from every ancestor (a new
// session, double fork: the grandchild is re-parented to init), relaying
// the grandchild's stdout: `setsid -f` that waits.
const detachPy = `import os, sys
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.close(r)
    os.setsid()
    if os.fork() == 0:
        os.dup2(w, 1)
        os.close(w)
        os.execv(sys.argv[1], sys.argv[1:])
    os._exit(0)
os.close(w)
os.waitpid(pid, 0)
out = b""
while True:
    b = os.read(r, 65536)
    if not b:
        break
    out += b
sys.stdout.buffer.write(out)
`

// TestR58H343DetachedCLINoWitness (helper 343): a "CLI" the agent's shell
// started and detached (setsid and a double fork: it is re-parented to
// init) has no agent above it, so nestedWitness took it for the
// conversation's own CLI and its made-up pair for the conversation was
// recorded as observed, exit 0, while the conversation's CLI still ran.
// Now a CLI other than the one the conversation's prompts came from,
// while that one still runs, is no witness either: its run is kept with
// status unknown. A detached CLI that sends a prompt first does not make
// itself the witness. In a PID namespace of its own (`unshare --user
// --pid --fork --mount-proc`, any user's where user namespaces are
// allowed) every process outside reads as gone: a CLI kept from another
// PID namespace is taken to run. One detached process that plays a
// conversation of its own (a new id) was its witness until round 59:
// while the session's CLI runs, a CLI hanging from nothing older than it
// is no witness (session.EarlierLiveCLI). Honest twins: the
// conversation's own CLI's hook here, a second terminal's CLI in
// TestR59SecondTerminalWitnessed.
func TestR58H343DetachedCLINoWitness(t *testing.T) {
	needOwnAncestry(t)
	dir := t.TempDir()
	cli := filepath.Join(dir, "claude")
	writeFakeClaudeLines(t, cli)
	fake := filepath.Join(dir, "fake", "claude")
	if err := os.MkdirAll(filepath.Dir(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFakeClaude(t, fake)
	fakeLines := filepath.Join(dir, "fakelines", "claude")
	if err := os.MkdirAll(filepath.Dir(fakeLines), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFakeClaudeLines(t, fakeLines)
	detach := filepath.Join(dir, "detach.py")
	if err := os.WriteFile(detach, []byte(detachPy), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name              string
		lazy, promptFirst bool
		newConversation   bool // one detached process plays it all
		pidns             bool // in a PID namespace of its own (unshare)
	}{
		{"honest: the conversation's CLI's own hooks", false, false, false, false},
		{"lazy: a detached CLI under no agent", true, false, false, false},
		{"lazy: a detached CLI that sends a prompt first", true, true, false, false},
		{"lazy: a detached CLI that plays a conversation of its own", true, true, true, false},
		{"lazy: a CLI in a PID namespace of its own", true, true, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.pidns {
				if err := exec.Command("unshare", "--user", "--map-root-user", "--pid", "--fork", "--mount-proc", "true").Run(); err != nil {
					if os.Getenv("CI") == "true" {
						t.Fatalf("CI (root, util-linux) makes a PID namespace: %v", err)
					}
					t.Skipf("no PID namespace of one's own here: %v", err)
				}
			}
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0343"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			tmp := t.TempDir()
			file := payloadFiles(t, tmp)
			prompt := file("prompt", golden(t, r, "claude", "UserPromptSubmit", sid))
			fsid := sid // the session id the lazy CLI's events carry
			if c.newConversation {
				fsid = "0199aaaa-bbbb-7ccc-8ddd-eeeeffff1343"
			}
			start := file("start", golden(t, r, "claude", "SessionStart", fsid))
			fprompt := file("fprompt", golden(t, r, "claude", "UserPromptSubmit", fsid))
			pre := file("pre", golden(t, r, "claude", "PreToolUse-Bash", fsid))
			post := file("post", golden(t, r, "claude", "PostToolUse-Bash", fsid))
			// The conversation's CLI (one process, alive throughout) sends
			// the prompt, then its tool call runs the lines below.
			lines := []string{fmt.Sprintf("'%s' agent-hook claude UserPromptSubmit < '%s' > /dev/null", binary, prompt)}
			outFile := filepath.Join(tmp, "post.out")
			if c.lazy {
				run := func(event, in, out string) string {
					if c.pidns {
						// sh is the namespace's init, the "CLI" under it.
						return fmt.Sprintf(`unshare --user --map-root-user --pid --fork --mount-proc sh -c '"$0" "$@"; exit $?' '%s' '%s' agent-hook claude %s < '%s' > '%s'`, fake, binary, event, in, out)
					}
					return fmt.Sprintf("python3 '%s' '%s' '%s' agent-hook claude %s < '%s' > '%s'", detach, fake, binary, event, in, out)
				}
				switch {
				case c.newConversation:
					// One process for all its events, as a CLI is: each
					// event from a process of its own would read as
					// another CLI of the conversation while the first
					// (a zombie nobody reaps, in some containers) runs.
					hook := func(event, in string) string {
						return fmt.Sprintf("'%s' agent-hook claude %s < '%s'", binary, event, in)
					}
					own := filepath.Join(tmp, "own")
					if err := os.WriteFile(own, []byte(strings.Join([]string{hook("SessionStart", start) + " > /dev/null",
						hook("UserPromptSubmit", fprompt) + " > /dev/null", hook("PreToolUse", pre) + " > /dev/null",
						hook("PostToolUse", post)}, "\n")+"\n"), 0o644); err != nil {
						t.Fatal(err)
					}
					lines = append(lines, fmt.Sprintf("python3 '%s' '%s' '%s' > '%s'", detach, fakeLines, own, outFile))
				case c.promptFirst:
					lines = append(lines, run("UserPromptSubmit", fprompt, "/dev/null"))
					fallthrough
				default:
					lines = append(lines, run("PreToolUse", pre, "/dev/null"), run("PostToolUse", post, outFile))
				}
			} else {
				lines = append(lines, fmt.Sprintf("'%s' agent-hook claude PreToolUse < '%s' > /dev/null", binary, pre),
					fmt.Sprintf("'%s' agent-hook claude PostToolUse < '%s'", binary, post))
			}
			script := filepath.Join(tmp, "script")
			if err := os.WriteFile(script, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			res := r.run(r.root, nil, nil, cli, script)
			if res.code != 0 {
				t.Fatalf("exit %d\n%s%s", res.code, res.out, res.err)
			}
			out := res.out
			if c.lazy {
				b, _ := os.ReadFile(outFile)
				out = string(b)
			}
			evs, err := r.db().ListEvidence(context.Background(), s.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != 1 || evs[0].Command != "true" || evs[0].ExitCode == nil {
				t.Fatalf("evidence %+v, want the one run of true (answer %s)", evs, out)
			}
			got := *evs[0].ExitCode
			if c.lazy {
				if got != -1 || !strings.Contains(evs[0].Ref, "not witnessed") || !strings.Contains(out, "not taken as observed") {
					t.Errorf("detached: exit %d, ref %q, answer %s; want -1, not witnessed, said", got, evs[0].Ref, out)
				}
			} else if got != 0 || strings.Contains(out, "not taken") {
				t.Errorf("honest: exit %d, answer %s; want 0, nothing said", got, out)
			}
		})
	}
}
