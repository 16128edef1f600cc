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

// TestR59H344ProcFakedNoWitness (helper 344): every witness rule reads
// /proc, and a mount namespace of one's own (`unshare --user
// --map-root-user --mount`, any user's where user namespaces are
// allowed) or a time namespace (`unshare --time --boottime N`) changes
// what /proc says to the processes in it. A lazy agent's shell, inside
// the conversation's CLI's tool call, got a made-up passing run kept as
// observed (exit 0) while that CLI still ran:
//   - an empty tmpfs over /proc: no process is read, so the hook was
//     taken for one on a system whose processes are not read, its CLI's
//     word taken;
//   - a made-up stat bound over the conversation's CLI's
//     /proc/PID/stat (another start time): that CLI read as gone, and a
//     detached CLI named claude as the conversation's only one;
//   - a time namespace: /proc/PID/stat's start time reads shifted by
//     the boottime offset, so the conversation's CLI read as gone (and
//     a clock set back makes every ancestor read older than the
//     session's CLI).
//
// The honest twin: the conversation's CLI's own hooks.
func TestR59H344ProcFakedNoWitness(t *testing.T) {
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
	userns := []string{"unshare", "--user", "--map-root-user"}
	for _, c := range []struct {
		name            string
		lazy            bool
		needs           []string // unshare's options the case needs
		newConversation bool
		// the shell line(s) run in the CLI's tool call: %[1]s the binary,
		// %[2]s the pre payload, %[3]s the post payload, %[4]s the
		// answer's file, %[5]s the detacher, %[6]s the fake claude, %[7]s
		// a scratch directory.
		lines []string
	}{
		{name: "honest: the conversation's CLI's own hooks"},
		{name: "lazy: an empty tmpfs over /proc, no CLI at all", lazy: true, needs: []string{"--mount"}, lines: []string{
			`unshare --user --map-root-user --mount sh -c 'mount -t tmpfs none /proc && "$0" agent-hook claude PreToolUse < "$1" > /dev/null && "$0" agent-hook claude PostToolUse < "$2" > "$3"' '%[1]s' '%[2]s' '%[3]s' '%[4]s'`,
		}},
		{name: "lazy: a made-up stat over the CLI's, a detached CLI", lazy: true, needs: []string{"--mount"}, lines: []string{
			// $PPID: the conversation's CLI (the line runs under its sh -c).
			`printf '%%s (claude) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 7 0 0\n' $PPID > '%[7]s/stat'; unshare --user --map-root-user --mount sh -c 'mount --bind "$0/stat" /proc/$1/stat && python3 "$2" "$3" "$4" agent-hook claude PreToolUse < "$5" > /dev/null && python3 "$2" "$3" "$4" agent-hook claude PostToolUse < "$6" > "$7"' '%[7]s' $PPID '%[5]s' '%[6]s' '%[1]s' '%[2]s' '%[3]s' '%[4]s'`,
		}},
		{name: "lazy: a detached CLI in a time namespace, clock ahead", lazy: true, needs: []string{"--time"}, lines: []string{
			`unshare --user --map-root-user --time --boottime 100000 --fork python3 '%[5]s' '%[6]s' '%[1]s' agent-hook claude PreToolUse < '%[2]s' > /dev/null`,
			`unshare --user --map-root-user --time --boottime 100000 --fork python3 '%[5]s' '%[6]s' '%[1]s' agent-hook claude PostToolUse < '%[3]s' > '%[4]s'`,
		}},
		{name: "lazy: a detached CLI of its own conversation in a time namespace, clock set back", lazy: true, needs: []string{"--time"}, newConversation: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if len(c.needs) > 0 {
				args := append(append(append([]string{}, userns[1:]...), c.needs...), "true")
				if err := exec.Command(userns[0], args...).Run(); err != nil {
					t.Skipf("no %v namespace of one's own here: %v", c.needs, err)
				}
			}
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0344"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			tmp := t.TempDir()
			file := payloadFiles(t, tmp)
			prompt := file("prompt", golden(t, r, "claude", "UserPromptSubmit", sid))
			fsid := sid
			if c.newConversation {
				fsid = "0199aaaa-bbbb-7ccc-8ddd-eeeeffff1344"
			}
			start := file("start", golden(t, r, "claude", "SessionStart", fsid))
			fprompt := file("fprompt", golden(t, r, "claude", "UserPromptSubmit", fsid))
			pre := file("pre", golden(t, r, "claude", "PreToolUse-Bash", fsid))
			post := file("post", golden(t, r, "claude", "PostToolUse-Bash", fsid))
			outFile := filepath.Join(tmp, "post.out")
			lines := []string{fmt.Sprintf("'%s' agent-hook claude UserPromptSubmit < '%s' > /dev/null", binary, prompt)}
			switch {
			case !c.lazy:
				lines = append(lines, fmt.Sprintf("'%s' agent-hook claude PreToolUse < '%s' > /dev/null", binary, pre),
					fmt.Sprintf("'%s' agent-hook claude PostToolUse < '%s'", binary, post))
			case c.newConversation:
				hook := func(event, in string) string {
					return fmt.Sprintf("'%s' agent-hook claude %s < '%s'", binary, event, in)
				}
				own := filepath.Join(tmp, "own")
				if err := os.WriteFile(own, []byte(strings.Join([]string{hook("SessionStart", start) + " > /dev/null",
					hook("UserPromptSubmit", fprompt) + " > /dev/null", hook("PreToolUse", pre) + " > /dev/null",
					hook("PostToolUse", post)}, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				lines = append(lines, fmt.Sprintf("unshare --user --map-root-user --time --boottime -1000 --fork python3 '%s' '%s' '%s' > '%s'", detach, fakeLines, own, outFile))
			default:
				for _, l := range c.lines {
					lines = append(lines, fmt.Sprintf(l, binary, pre, post, outFile, detach, fake, tmp))
				}
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
			observed := 0
			for _, e := range evs {
				if e.Command == "true" && e.ExitCode != nil && *e.ExitCode == 0 {
					observed++
				}
			}
			if c.lazy && observed != 0 {
				t.Errorf("a made-up passing run was kept as observed: %+v (answer %s; stderr %s)", evs, out, res.err)
			}
			if !c.lazy && observed != 1 {
				t.Errorf("honest: evidence %+v, answer %s; want the run of true observed, exit 0", evs, out)
			}
		})
	}
}
