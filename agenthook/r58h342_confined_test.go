package agenthook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/session"
)

// fakeCodexConfined is a stand-in CLI named codex that runs its hooks as
// Codex 0.171.0 does (measured, round 58, helper 342): each in a new
// process session directly under codex, its input on a pipe, with
// neither no_new_privs nor a seccomp filter. argv: SCRIPT, one hook a
// line: `BIN AGENT EVENT PAYLOADFILE [nnp]` (or `sh LINE`, run as a tool
// call); nnp runs that one under
// no_new_privs, as Codex's sandbox runs a tool call (whose process then
// exec'd the hook: `exec python3 forge.py`).
const fakeCodexConfined = `import ctypes, subprocess, sys
for line in open(sys.argv[1]).read().splitlines():
    f = line.split()
    if not f:
        continue
    if f[0] == "sh":
        subprocess.check_call(line[3:], shell=True, stdout=sys.stderr)
        continue
    nnp = len(f) > 4 and f[4] == "nnp"
    def pre():
        if nnp and ctypes.CDLL(None, use_errno=True).prctl(38, 1, 0, 0, 0) != 0:
            raise OSError("prctl(PR_SET_NO_NEW_PRIVS)")
    p = subprocess.Popen([f[0], "agent-hook", f[1], f[2]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True, preexec_fn=pre)
    out, _ = p.communicate(open(f[3], "rb").read())
    sys.stdout.write(out.decode() + "\n")
`

// nnpExec runs its arguments under no_new_privs (exec'd: no process of
// its own stays).
const nnpExec = `import ctypes, os, sys
if ctypes.CDLL(None, use_errno=True).prctl(38, 1, 0, 0, 0) != 0:
    sys.exit("prctl(PR_SET_NO_NEW_PRIVS)")
os.execv(sys.argv[1], sys.argv[1:])
`

// TestR58H342CodexConfinedHook: Codex's sandbox (read-only, `codex
// exec`'s default; workspace-write, the TUI's) runs a tool call under
// no_new_privs and a seccomp filter, which no process can clear; Codex's
// hooks run without either (measured with Codex 0.171.0). A hook that
// runs confined under a CLI whose first prompt's hook did not is a tool
// call's process that exec'd the hook: refused (HOOK_NOT_FROM_CLI),
// nothing observed. Honest twins: the same events unconfined, and a CLI
// whose first prompt's hook was confined too (the whole CLI in a
// sandbox: no verdict).
func TestR58H342CodexConfinedHook(t *testing.T) {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the tests run under an agent CLI (%s): every hook here is that CLI's", p.Name)
	}
	if c, ok := ancestry.Confined(0); !ok || c {
		t.Skipf("no_new_privs and seccomp not read here, or the tests run confined (read %v, confined %v)", ok, c)
	}
	bin := t.TempDir()
	fake := filepath.Join(bin, "codex")
	writeFakeClaude(t, fake)
	b, err := os.ReadFile(fake)
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(string(b), "\n", 2)[0]
	if err := os.WriteFile(fake, []byte(first+"\n"+fakeCodexConfined), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		first    bool // the first prompt's hook (and SessionStart) confined too
		tool     bool // the PreToolUse/PostToolUse pair confined
		want     []string
		observed bool
	}{
		{"honest: Codex's own hooks", false, false, nil, true},
		{"lazy: the pair from a sandboxed tool call's exec'd process", false, true, []string{session.CodeHookNotFromCLI, session.CodeHookNotFromCLI}, false},
		{"honest: the whole CLI confined (its first prompt's hook too)", true, true, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0342"
			dir := t.TempDir()
			var lines []string
			step := func(event string, p map[string]any, nnp bool) {
				f := filepath.Join(dir, fmt.Sprintf("%d.json", len(lines)))
				b, _ := json.Marshal(p)
				if err := os.WriteFile(f, b, 0o644); err != nil {
					t.Fatal(err)
				}
				l := binary + " codex " + event + " " + f
				if nnp {
					l += " nnp"
				}
				lines = append(lines, l)
			}
			base := map[string]any{"session_id": sid, "cwd": r.root}
			step("SessionStart", with(base, "hook_event_name", "SessionStart", "source", "startup"), c.first)
			lines = append(lines, "sh "+binary+" session evidence --phase CONTEXT_RETRIEVAL --type tool_output --value 'read the notes' && "+binary+" session advance --to WORKING")
			step("UserPromptSubmit", with(base, "hook_event_name", "UserPromptSubmit", "prompt", "add hello.txt"), c.first)
			call := with(base, "tool_name", "Bash", "tool_input", map[string]any{"command": "sh test.sh"}, "tool_use_id", "call_342")
			step("PreToolUse", with(call, "hook_event_name", "PreToolUse"), c.tool)
			step("PostToolUse", with(call, "hook_event_name", "PostToolUse", "tool_response", map[string]any{"exit_code": 0, "output": "PASS"}), c.tool)
			script := filepath.Join(dir, "script")
			if err := os.WriteFile(script, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			res := r.run(r.root, nil, nil, fake, script)
			if res.code != 0 {
				t.Fatalf("fake codex: exit %d\n%s%s", res.code, res.out, res.err)
			}
			s := r.active()
			got := slices.DeleteFunc(codesOf(t, r, s.ID), func(c string) bool { return c != session.CodeHookNotFromCLI })
			if !slices.Equal(got, c.want) {
				t.Errorf("violations %v, want %v\n%s", got, c.want, res.out)
			}
			evs, err := r.db().ListEvidence(context.Background(), s.ID)
			if err != nil {
				t.Fatal(err)
			}
			observed := false
			for _, e := range evs {
				observed = observed || e.Origin == session.OriginObserved && e.Command == "sh test.sh"
			}
			if observed != c.observed {
				t.Errorf("`sh test.sh` observed: %v, want %v\n%s", observed, c.observed, res.out)
			}
		})
	}
}

// TestR58H342ConfinedNoCLISeen: Codex's sandbox runs each tool call in a
// PID namespace of its own (measured: the tool call is pid 2 under
// codex-linux-sandbox, pid 1), so a hook its process exec'd sees no codex
// above it. Such an event for a tool call was refused once the CLI is
// not seen (it reads as ended); a prompt, stop or end "may be a
// person's" and was taken. Confined (no_new_privs, a seccomp filter) where
// the conversation's CLI ran its first prompt's hook unconfined, it is a
// sandboxed tool call's: refused whatever the event. Honest twin: a
// person's unconfined Stop by hand.
func TestR58H342ConfinedNoCLISeen(t *testing.T) {
	if p, ok := ancestry.Agent(ancestry.Chain()); ok {
		t.Skipf("the tests run under an agent CLI (%s): every hook here is that CLI's", p.Name)
	}
	if c, ok := ancestry.Confined(0); !ok || c {
		t.Skipf("no_new_privs and seccomp not read here, or the tests run confined (read %v, confined %v)", ok, c)
	}
	bin := t.TempDir()
	fake, nnp := filepath.Join(bin, "codex"), filepath.Join(bin, "nnp")
	writeFakeClaude(t, fake)
	b, err := os.ReadFile(fake)
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(string(b), "\n", 2)[0]
	for p, text := range map[string]string{fake: fakeCodexConfined, nnp: nnpExec} {
		if err := os.WriteFile(p, []byte(first+"\n"+text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name     string
		event    string
		confined bool
		want     []string
	}{
		{"lazy: a confined Stop, no CLI seen", "Stop", true, []string{session.CodeHookNotFromCLI}},
		{"lazy: a confined prompt, no CLI seen", "UserPromptSubmit", true, []string{session.CodeHookNotFromCLI}},
		{"honest: a person's Stop by hand", "Stop", false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, "agent_hooks:\n  timeout: 30s\n")
			sid := "0199aaaa-bbbb-7ccc-8ddd-eeeeffff0343"
			dir := t.TempDir()
			base := map[string]any{"session_id": sid, "cwd": r.root}
			var lines []string
			for i, ev := range []map[string]any{with(base, "hook_event_name", "SessionStart", "source", "startup"), with(base, "hook_event_name", "UserPromptSubmit", "prompt", "add hello.txt")} {
				f := filepath.Join(dir, fmt.Sprintf("%d.json", i))
				b, _ := json.Marshal(ev)
				if err := os.WriteFile(f, b, 0o644); err != nil {
					t.Fatal(err)
				}
				lines = append(lines, binary+" codex "+ev["hook_event_name"].(string)+" "+f)
			}
			script := filepath.Join(dir, "script")
			if err := os.WriteFile(script, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if res := r.run(r.root, nil, nil, fake, script); res.code != 0 {
				t.Fatalf("fake codex: exit %d\n%s%s", res.code, res.out, res.err)
			}
			in, _ := json.Marshal(with(base, "hook_event_name", c.event, "prompt", "go on", "stop_hook_active", false))
			name, args := binary, []string{"agent-hook", "codex", c.event}
			if c.confined {
				name, args = nnp, append([]string{binary}, args...)
			}
			res := r.run(r.root, in, nil, name, args...)
			s := r.active()
			got := slices.DeleteFunc(codesOf(t, r, s.ID), func(c string) bool { return c != session.CodeHookNotFromCLI })
			if !slices.Equal(got, c.want) {
				t.Errorf("violations %v, want %v\nexit %d\n%s%s", got, c.want, res.code, res.out, res.err)
			}
		})
	}
}
