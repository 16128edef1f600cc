package agenthook_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestR59H344NewConversationNoWitness (helper 344) plays round 59's rule
// (a CLI of a new conversation hanging from nothing older than the
// session's running CLI is no witness) as a lazy agent would, from the
// conversation's CLI's tool call:
//   - a detached CLI whose process is named like an orphans' adopter
//     (an interpreter run through a link named init, argv[0] claude):
//     ancestry.Oldest stopped at the CLI itself and said 0, "unknown", so
//     the rule was not asked;
//   - (open, SESSIONGATE_PLAY_OPEN=1) a detached CLI started through a
//     tmux server that ran before the session's CLI did: it hangs from
//     something older, as a person's second terminal does;
//   - Cursor's afterShellExecution with an exit_code, sent by hand from
//     the Claude CLI's tool call: Cursor's hooks were never judged by
//     their processes, so any agent's shell could send one. Now one under
//     another agent's CLI is no witness; a detached one still is (open:
//     Cursor's editor's processes were never measured).
func TestR59H344NewConversationNoWitness(t *testing.T) {
	needOwnAncestry(t)
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	py := strings.TrimSpace(string(out))
	if err != nil || py == "" {
		t.Skip("python3 not found")
	}
	dir := t.TempDir()
	cli := filepath.Join(dir, "claude")
	writeFakeClaudeLines(t, cli)
	fakeLines := filepath.Join(dir, "fakelines", "claude")
	if err := os.MkdirAll(filepath.Dir(fakeLines), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFakeClaudeLines(t, fakeLines)
	// The same script, run by an interpreter whose process is named init
	// and whose argv[0] is claude.
	initDir := filepath.Join(dir, "init")
	if err := os.MkdirAll(initDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(py, filepath.Join(initDir, "init")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(fakeLines)
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(initDir, "cli.py")
	if err := os.WriteFile(script, b, 0o644); err != nil {
		t.Fatal(err)
	}
	detach := filepath.Join(dir, "detach.py")
	if err := os.WriteFile(detach, []byte(detachPy), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		open   string // why the hole stays open ("" when closed)
		tmux   bool
		fresh  bool // the tmux server is started by the lazy line itself
		cursor bool
		// detached: the lazy line detaches (setsid -f) what sends the
		// hooks; waits: that waits for the session's CLI to end first.
		detached, waits bool
	}{
		{name: "lazy: a detached CLI named like an adopter"},
		{name: "lazy: a CLI in a tmux server started from the tool call", tmux: true, fresh: true},
		{name: "lazy: a detached CLI through a tmux server older than the session's CLI", tmux: true,
			open: "a CLI through a multiplexer server older than the session's CLI is a person's second terminal's shape"},
		{name: "lazy: Cursor's afterShellExecution sent by hand from the tool call", cursor: true},
		{name: "lazy: Cursor's afterShellExecution sent by a detached shell", cursor: true, detached: true,
			open: "Cursor's hooks are not judged by their processes (its editor's were never measured)"},
		{name: "lazy: a detached CLI that waits for the session's CLI to end", waits: true,
			open: "once no CLI of the session runs, a new CLI is a person's next one's shape"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.open != "" && os.Getenv("SESSIONGATE_PLAY_OPEN") != "1" {
				t.Skipf("open hole (%s); SESSIONGATE_PLAY_OPEN=1 plays it", c.open)
			}
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			tmp := t.TempDir()
			sock := ""
			if c.tmux {
				d, err := os.MkdirTemp("", "tm") // a socket's path is short
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.RemoveAll(d) })
				sock = filepath.Join(d, "s")
				if _, err := exec.LookPath("tmux"); err != nil {
					if os.Getenv("CI") == "true" {
						t.Fatal("tmux not found: CI (.ci/run) installs it")
					}
					t.Skip("tmux not found (apt-get install tmux)")
				}
				t.Cleanup(func() { _ = exec.Command("tmux", "-S", sock, "kill-server").Run() })
			}
			if c.tmux && !c.fresh {
				// The person's tmux server, started before the session's CLI.
				if out, err := exec.Command("tmux", "-S", sock, "new-session", "-d", "-s", "old", "sleep 600").CombinedOutput(); err != nil {
					t.Skipf("tmux: %v %s", err, out)
				}
			}
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff2344"
			r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
			s := r.active()
			file := payloadFiles(t, tmp)
			prompt := file("prompt", golden(t, r, "claude", "UserPromptSubmit", sid))
			fsid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff3344"
			hook := func(event, in string) string {
				return fmt.Sprintf("'%s' agent-hook claude %s < '%s'", binary, event, in)
			}
			own := filepath.Join(tmp, "own")
			if err := os.WriteFile(own, []byte(strings.Join([]string{
				hook("SessionStart", file("start", golden(t, r, "claude", "SessionStart", fsid))) + " > /dev/null",
				hook("UserPromptSubmit", file("fprompt", golden(t, r, "claude", "UserPromptSubmit", fsid))) + " > /dev/null",
				hook("PreToolUse", file("pre", golden(t, r, "claude", "PreToolUse-Bash", fsid))) + " > /dev/null",
				hook("PostToolUse", file("post", golden(t, r, "claude", "PostToolUse-Bash", fsid)))}, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			outFile := filepath.Join(tmp, "post.out")
			lines := []string{fmt.Sprintf("'%s' agent-hook claude UserPromptSubmit < '%s' > /dev/null", binary, prompt)}
			switch {
			case c.fresh:
				// A server of its own: it double-forks, so the CLI under it
				// hangs from nothing older than the session's CLI (a
				// person's second terminal in a tmux server started after
				// the first CLI reads so too: an honest cost).
				lines = append(lines, fmt.Sprintf(`tmux -S '%s' new-session -d "'%s' '%s' > '%s'; tmux -S '%s' wait-for -S done"; tmux -S '%s' wait-for done`, sock, fakeLines, own, outFile, sock, sock))
			case c.tmux:
				lines = append(lines, fmt.Sprintf(`tmux -S '%s' new-window -d "'%s' '%s' > '%s'; tmux -S '%s' wait-for -S done"; tmux -S '%s' wait-for done`, sock, fakeLines, own, outFile, sock, sock))
			case c.cursor:
				base := map[string]any{"conversation_id": "cursor-conv-344", "generation_id": "gen-1", "workspace_roots": []string{r.root}}
				before := file("cbefore", with(base, "hook_event_name", "beforeShellExecution", "command", "true", "cwd", r.root))
				after := file("cafter", with(base, "hook_event_name", "afterShellExecution", "command", "true", "output", "", "exit_code", 0, "duration", 10))
				if c.detached {
					lines = append(lines, fmt.Sprintf(`setsid -f sh -c "'%s' agent-hook cursor beforeShellExecution < '%s' > /dev/null; '%s' agent-hook cursor afterShellExecution < '%s' > '%s.tmp'; mv '%s.tmp' '%s'" < /dev/null > /dev/null 2>&1`, binary, before, binary, after, outFile, outFile, outFile))
					break
				}
				// Under the CLI's sh -c (not one of its hook lines).
				lines = append(lines, fmt.Sprintf("cd . && '%s' agent-hook cursor beforeShellExecution < '%s' > /dev/null && '%s' agent-hook cursor afterShellExecution < '%s' > '%s'", binary, before, binary, after, outFile))
			case c.waits:
				// $PPID: the session's CLI (the line runs under its sh -c).
				lines = append(lines, fmt.Sprintf(`setsid -f sh -c 'while kill -0 "$1" 2>/dev/null; do sleep 0.1; done; "$0" "$2" > "$3.tmp"; mv "$3.tmp" "$3"' '%s' $PPID '%s' '%s' < /dev/null > /dev/null 2>&1`, fakeLines, own, outFile))
			default:
				argv0 := `import os, sys; os.execv(sys.argv[1], ["claude"] + sys.argv[2:])`
				lines = append(lines, fmt.Sprintf(`python3 '%s' '%s' -c '%s' '%s' '%s' '%s' > '%s'`, detach, py, argv0, filepath.Join(initDir, "init"), script, own, outFile))
			}
			sc := filepath.Join(tmp, "script")
			if err := os.WriteFile(sc, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			res := r.run(r.root, nil, nil, cli, sc)
			if res.code != 0 {
				t.Fatalf("exit %d\n%s%s", res.code, res.out, res.err)
			}
			if c.detached || c.waits {
				for i := 0; i < 200; i++ {
					if _, err := os.Stat(outFile); err == nil {
						break
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
			ans, _ := os.ReadFile(outFile)
			evs, err := r.db().ListEvidence(context.Background(), s.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) == 0 {
				t.Fatalf("no evidence: the lazy run was not played (answer %s; stderr %s)", ans, res.err)
			}
			for _, e := range evs {
				if e.Command == "true" && e.ExitCode != nil && *e.ExitCode == 0 {
					t.Errorf("a made-up passing run was kept as observed: %+v (answer %s)", e, ans)
				}
			}
		})
	}
}
