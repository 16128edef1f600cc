package hooks_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tailscale/hujson"
)

// claudeSettings is a user's Claude Code settings with comments, trailing
// commas, their own hooks and other keys.
const claudeSettings = `{
    // team settings
    "permissions": {"allow": ["Bash(ls:*)"]},
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "./guard.sh"}]
            }
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "./notify.sh"}]}], // theirs
    },
}
`

// hookCommands lists each event's hook commands in order.
func hookCommands(t *testing.T, b []byte) map[string][]string {
	t.Helper()
	std, err := hujson.Standardize(b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	var doc struct {
		Hooks map[string][]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(std, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for ev, entries := range doc.Hooks {
		for _, e := range entries {
			var g struct {
				Command string `json:"command"`
				Hooks   []struct {
					Command string `json:"command"`
				} `json:"hooks"`
			}
			if err := json.Unmarshal(e, &g); err != nil {
				t.Fatal(err)
			}
			if g.Command != "" {
				out[ev] = append(out[ev], g.Command)
			}
			for _, h := range g.Hooks {
				out[ev] = append(out[ev], h.Command)
			}
		}
	}
	return out
}

func TestInstallAgents(t *testing.T) {
	r := newRepo(t)
	settings := filepath.Join(r.root, ".claude", "settings.json")
	writeFile(t, settings, claudeSettings)
	out := r.sg(r.root, "install", "--agent", "claude,cursor,gemini")
	if !strings.Contains(out, "updated") || !strings.Contains(out, ".cursor/hooks.json") {
		t.Fatalf("install output: %s", out)
	}
	b := []byte(readFile(t, settings))
	for _, keep := range []string{"// team settings", "// theirs", `"Bash(ls:*)"`} {
		if !strings.Contains(string(b), keep) {
			t.Errorf("install dropped %q:\n%s", keep, b)
		}
	}
	cmds := hookCommands(t, b)
	if got := cmds["PreToolUse"]; len(got) != 2 || got[0] != "./guard.sh" || got[1] != "sessiongate agent-hook claude PreToolUse" {
		t.Errorf("PreToolUse hooks %v: theirs first, then ours", got)
	}
	if got := cmds["Stop"]; len(got) != 2 || got[0] != "./notify.sh" {
		t.Errorf("Stop hooks %v", got)
	}
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "SessionEnd"} {
		if got := cmds[ev]; len(got) != 1 || got[0] != "sessiongate agent-hook claude "+ev {
			t.Errorf("%s hooks %v", ev, got)
		}
	}
	for _, p := range []string{".claude/settings.json", ".cursor/hooks.json", ".gemini/settings.json"} {
		if body := readFile(t, filepath.Join(r.root, p)); strings.Contains(body, r.root) || strings.Contains(body, filepath.Dir(binary)) {
			t.Errorf("%s holds a machine-local path:\n%s", p, body)
		}
	}
	// Claude Code's machine-local config: the same hooks by absolute
	// path, ignored by git so it is never committed.
	local := hookCommands(t, []byte(readFile(t, filepath.Join(r.root, ".claude", "settings.local.json"))))
	if got := local["Stop"]; len(got) != 1 || got[0] != binary+" agent-hook claude Stop" {
		t.Errorf("settings.local.json Stop hooks %v, want %s by path", got, binary)
	}
	if res := r.run(r.root, nil, "git", "check-ignore", "-q", ".claude/settings.local.json"); res.code != 0 {
		t.Errorf("git does not ignore .claude/settings.local.json: exit %d %s", res.code, res.err)
	}
	cursor := readFile(t, filepath.Join(r.root, ".cursor", "hooks.json"))
	var cdoc struct {
		Version int                          `json:"version"`
		Hooks   map[string][]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(cursor), &cdoc); err != nil || cdoc.Version != 1 || len(cdoc.Hooks["beforeShellExecution"]) != 1 {
		t.Fatalf("cursor hooks.json: %v\n%s", err, cursor)
	}
	gem := hookCommands(t, []byte(readFile(t, filepath.Join(r.root, ".gemini", "settings.json"))))
	if got := gem["AfterAgent"]; len(got) != 1 || got[0] != "sessiongate agent-hook gemini AfterAgent" {
		t.Fatalf("gemini AfterAgent %v", got)
	}

	// doctor: the configs run `sessiongate` from PATH; it says when that
	// finds nothing.
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	res := r.run(r.root, []string{"PATH=" + filepath.Dir(gitPath)}, binary, "doctor")
	if res.code != 1 || !strings.Contains(res.out, "FAIL  agent PATH") || !strings.Contains(res.out, "ok    agent claude") {
		t.Errorf("doctor without sessiongate on PATH: exit %d\n%s", res.code, res.out)
	}
	res = r.run(r.root, []string{"PATH=" + filepath.Dir(binary) + string(os.PathListSeparator) + filepath.Dir(gitPath)}, binary, "doctor")
	if !strings.Contains(res.out, "ok    agent PATH") || !strings.Contains(res.out, "ok    agent claude local") {
		t.Errorf("doctor with sessiongate on PATH:\n%s", res.out)
	}
	// Without the local config a shim on PATH answers Claude Code: doctor
	// says so.
	localPath := filepath.Join(r.root, ".claude", "settings.local.json")
	localBody := readFile(t, localPath)
	if err := os.Remove(localPath); err != nil {
		t.Fatal(err)
	}
	res = r.run(r.root, nil, binary, "doctor")
	if !strings.Contains(res.out, "warn  agent claude local") {
		t.Errorf("doctor without .claude/settings.local.json:\n%s", res.out)
	}
	writeFile(t, localPath, localBody)

	// Twice: nothing changes.
	before := readFile(t, settings)
	out = r.sg(r.root, "install", "--agent", "claude,cursor,gemini")
	if strings.Count(out, "unchanged") < 7 || readFile(t, settings) != before {
		t.Fatalf("second install changed something:\n%s", out)
	}

	// Uninstall removes exactly ours: the user's file comes back byte for
	// byte; files that held only ours go.
	r.sg(r.root, "uninstall", "--agent", "claude,cursor,gemini")
	if got := readFile(t, settings); got != claudeSettings {
		t.Fatalf("after uninstall:\n%s\nwant the original:\n%s", got, claudeSettings)
	}
	for _, p := range []string{".cursor/hooks.json", ".gemini/settings.json", ".claude/settings.local.json"} {
		if _, err := os.Stat(filepath.Join(r.root, p)); !os.IsNotExist(err) {
			t.Errorf("%s still there after uninstall (%v)", p, err)
		}
	}
	// The git hooks install wrote are not touched by uninstall --agent.
	if _, err := os.Stat(filepath.Join(r.root, ".git", "hooks", "pre-commit")); err != nil {
		t.Errorf("uninstall --agent removed the git hooks: %v", err)
	}
}

// TestInstallAgentsRefusesUnparseable: one config that does not parse
// refuses the whole install: no agent config and no git hook is written.
func TestInstallAgentsRefusesUnparseable(t *testing.T) {
	cases := map[string]struct{ path, body, why string }{
		"syntax":         {".gemini/settings.json", "{\"hooks\": {\"BeforeTool\": [}\n", "cannot be parsed"},
		"hooks array":    {".claude/settings.json", `{"hooks": {"Stop": {"command": "x"}}}`, "hooks.Stop that is not an array"},
		"cursor version": {".cursor/hooks.json", `{"version": 2, "hooks": {}}`, `"version": 2`},
		"top level":      {".claude/settings.json", `[1, 2]`, "not a JSON object"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			r := newRepo(t)
			p := filepath.Join(r.root, filepath.FromSlash(c.path))
			writeFile(t, p, c.body)
			res := r.run(r.root, nil, binary, "install", "--agent", "claude,cursor,gemini")
			if res.code != 2 || !strings.Contains(res.err, c.why) || !strings.Contains(res.err, "nothing was changed") {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", res.code, res.err, c.why)
			}
			if readFile(t, p) != c.body {
				t.Fatal("the unparseable file was changed")
			}
			for _, other := range []string{".claude/settings.json", ".cursor/hooks.json", ".gemini/settings.json", ".git/hooks/pre-commit"} {
				if other == c.path {
					continue
				}
				if _, err := os.Stat(filepath.Join(r.root, other)); err == nil {
					t.Errorf("%s was written although the install was refused", other)
				}
			}
		})
	}
}

// TestAgentHookUpgrade: a config written by an older sessiongate (the
// PreToolUse matcher without sub-agent runs, as before the transcript's
// Agent calls were corroborated) is reported by doctor, and install
// replaces that one group where it is, leaving the user's hooks alone.
func TestAgentHookUpgrade(t *testing.T) {
	r := newRepo(t)
	settings := filepath.Join(r.root, ".claude", "settings.json")
	writeFile(t, settings, claudeSettings)
	r.sg(r.root, "install", "--agent", "claude")
	cur := readFile(t, settings)
	old := strings.Replace(cur, "Bash|^Agent$|^Task$|mcp__.*", "Bash|mcp__.*", 1)
	if old == cur {
		t.Fatalf("the installed matcher is not the one this test downgrades:\n%s", cur)
	}
	writeFile(t, settings, old)
	res := r.run(r.root, nil, binary, "doctor")
	if !strings.Contains(res.out+res.err, "older sessiongate hook (matcher or timeout) for PreToolUse") {
		t.Errorf("doctor did not report the older matcher:\n%s%s", res.out, res.err)
	}
	r.sg(r.root, "install", "--agent", "claude")
	if got := readFile(t, settings); got != cur {
		t.Errorf("install after an older matcher:\n%s\nwant\n%s", got, cur)
	}
	res = r.run(r.root, nil, binary, "doctor")
	if strings.Contains(res.out+res.err, "older sessiongate hook") {
		t.Errorf("doctor still reports an older hook after install:\n%s", res.out)
	}
}

// copilotHooks is a user's Copilot hook file with a hook of their own.
const copilotHooks = `{
  "version": 1,
  "hooks": {
    "preToolUse": [
      {"type": "command", "bash": "./audit.sh", "powershell": "./audit.ps1", "timeoutSec": 5}
    ]
  }
}
`

// TestInstallAgentsCodexCopilot: --agent codex,copilot writes Codex's
// Claude-shaped .codex/hooks.json and Copilot's version 1 file with a bash
// and a powershell command per hook, scoped matchers (no spawn on reads),
// keeps the user's Copilot hook, changes nothing when run twice and gives
// the user's file back on uninstall; doctor checks Codex's trust.
func TestInstallAgentsCodexCopilot(t *testing.T) {
	r := newRepo(t)
	cp := filepath.Join(r.root, ".github", "hooks", "sessiongate.json")
	writeFile(t, cp, copilotHooks)
	r.sg(r.root, "install", "--agent", "codex,copilot")

	var cdoc struct {
		Version int `json:"version"`
		Hooks   map[string][]struct {
			Type       string `json:"type"`
			Matcher    string `json:"matcher"`
			Bash       string `json:"bash"`
			PowerShell string `json:"powershell"`
			TimeoutSec int    `json:"timeoutSec"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(readFile(t, cp)), &cdoc); err != nil || cdoc.Version != 1 {
		t.Fatalf("copilot hooks: %v\n%s", err, readFile(t, cp))
	}
	pre := cdoc.Hooks["preToolUse"]
	if len(pre) != 2 || pre[0].Bash != "./audit.sh" || pre[1].Bash != "sessiongate agent-hook copilot preToolUse" || pre[1].PowerShell != pre[1].Bash || pre[1].Type != "command" || pre[1].TimeoutSec != 10 {
		t.Fatalf("copilot preToolUse %+v: theirs first, then ours with both shells", pre)
	}
	for _, ev := range []string{"sessionStart", "userPromptSubmitted", "postToolUse", "postToolUseFailure", "agentStop", "sessionEnd", "errorOccurred"} {
		if h := cdoc.Hooks[ev]; len(h) != 1 || h[0].Bash != "sessiongate agent-hook copilot "+ev {
			t.Errorf("copilot %s: %+v", ev, h)
		}
	}
	// Copilot matches the whole tool name: searches spawn nothing, writes,
	// shells and view (witnessed) do.
	for tool, want := range map[string]bool{"create": true, "edit": true, "bash": true, "powershell": true, "write_bash": true, "apply_patch": true,
		"github__create_issue": true, "github-mcp-server-create_or_update_file": true, "view": true, "grep": false, "glob": false, "read_bash": false, "bashx": false} {
		if got := regexp.MustCompile("^(?:" + pre[1].Matcher + ")$").MatchString(tool); got != want {
			t.Errorf("copilot preToolUse matcher %q on %s: %v, want %v", pre[1].Matcher, tool, got, want)
		}
	}
	codex := hookCommands(t, []byte(readFile(t, filepath.Join(r.root, ".codex", "hooks.json"))))
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"} {
		if got := codex[ev]; len(got) != 1 || got[0] != "sessiongate agent-hook codex "+ev {
			t.Errorf("codex %s hooks %v", ev, got)
		}
	}

	// doctor: Codex skips an untrusted project's hooks silently.
	home := t.TempDir()
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"CODEX_HOME=" + home, "PATH=" + filepath.Dir(binary) + string(os.PathListSeparator) + filepath.Dir(gitPath)}
	res := r.run(r.root, env, binary, "doctor")
	if !strings.Contains(res.out, "warn  codex trust") || !strings.Contains(res.out, "absent") || !strings.Contains(res.out, "ok    agent codex") || !strings.Contains(res.out, "ok    agent copilot") {
		t.Errorf("doctor without a Codex config:\n%s", res.out)
	}
	writeFile(t, filepath.Join(home, "config.toml"), "model = \"gpt-5.5\"\n[projects.\"/elsewhere\"]\ntrust_level = \"trusted\"\n")
	if res := r.run(r.root, env, binary, "doctor"); !strings.Contains(res.out, "warn  codex trust") || !strings.Contains(res.out, "does not trust") {
		t.Errorf("doctor with another project trusted:\n%s", res.out)
	}
	writeFile(t, filepath.Join(home, "config.toml"), "[projects.'"+r.root+"'] # this one\ntrust_level = \"trusted\"\n")
	res = r.run(r.root, env, binary, "doctor")
	if !strings.Contains(res.out, "ok    codex trust") || !strings.Contains(res.out, "warn  codex hook trust") {
		t.Errorf("doctor with the project trusted, hooks not:\n%s", res.out)
	}
	writeFile(t, filepath.Join(home, "config.toml"), "[projects.\""+r.root+"\"]\ntrust_level = \"trusted\"\n[hooks.state.\""+r.root+"/.codex/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:ab\"\n")
	if res := r.run(r.root, env, binary, "doctor"); !strings.Contains(res.out, "ok    codex hook trust") {
		t.Errorf("doctor with the project and a hook trusted:\n%s", res.out)
	}

	// Twice: nothing changes. Uninstall: the user's file comes back.
	before := readFile(t, cp)
	if out := r.sg(r.root, "install", "--agent", "codex,copilot"); readFile(t, cp) != before || strings.Contains(out, "updated") {
		t.Fatalf("second install changed something:\n%s", out)
	}
	r.sg(r.root, "uninstall", "--agent", "codex,copilot")
	if got := readFile(t, cp); got != copilotHooks {
		t.Fatalf("after uninstall:\n%s\nwant the original:\n%s", got, copilotHooks)
	}
	if _, err := os.Stat(filepath.Join(r.root, ".codex", "hooks.json")); !os.IsNotExist(err) {
		t.Errorf(".codex/hooks.json still there after uninstall (%v)", err)
	}
}
