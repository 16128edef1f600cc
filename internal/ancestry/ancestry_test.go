package ancestry

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestAgent(t *testing.T) {
	for _, c := range []struct {
		name  string
		chain []Process
		want  int    // index of the agent, -1 for none
		agent string // its AgentName
	}{
		{"a person's terminal", []Process{{Name: "bash", Args: "-bash"}, {Name: "sshd", Args: "sshd: me@pts/0"}}, -1, ""},
		{"an editor with claude.md open", []Process{{Name: "sh"}, {Name: "vim", Args: "vim /home/me/claude/claude.md"}}, -1, ""},
		{"claude code's shell", []Process{{Name: "bash"}, {Name: "claude", Args: "claude"}}, 1, "claude"},
		{"claude code under node", []Process{{Name: "bash"}, {Name: "node", Args: "node /usr/lib/node_modules/@anthropic-ai/claude-code/cli.js -p hi"}}, 1, "claude"},
		{"gemini cli under node", []Process{{Name: "bash"}, {Name: "node", Args: "node /work/.ci/node/node_modules/@google/gemini-cli/bundle/gemini.js -p hi"}}, 1, "gemini"},
		{"gemini through its bin link", []Process{{Name: "sh"}, {Name: "script"}, {Name: "node", Args: "node /home/me/.npm/bin/gemini --yolo"}}, 2, "gemini"},
		{"cursor-agent", []Process{{Name: "zsh"}, {Name: "cursor-agent", Args: "/opt/cursor-agent/cursor-agent"}}, 1, "cursor-agent"},
	} {
		p, ok := Agent(c.chain)
		if ok != (c.want >= 0) || ok && !reflect.DeepEqual(p, c.chain[c.want]) {
			t.Errorf("%s: %+v, %v; want index %d", c.name, p, ok, c.want)
		}
		if got := AgentName(p); got != c.agent {
			t.Errorf("%s: AgentName %q, want %q", c.name, got, c.agent)
		}
	}
}

// TestChainSeesARealAgentParent runs a child under a real process named
// claude (a copy of sh) and checks the child finds it among its ancestors,
// through script(1)'s terminal too when script is installed.
func TestChainSeesARealAgentParent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ancestry is read from /proc")
	}
	if os.Getenv("ANCESTRY_CHILD") == "1" {
		p, ok := Agent(Chain())
		if !ok {
			os.Stdout.WriteString("none: " + Names(Chain()))
			os.Exit(3)
		}
		os.Stdout.WriteString("agent " + p.Name)
		os.Exit(0)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	b, err := os.ReadFile(sh)
	if err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(t.TempDir(), "claude")
	if err := os.WriteFile(claude, b, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	run := self + " -test.run '^TestChainSeesARealAgentParent$'"
	cmds := [][]string{{claude, "-c", run + "; exit $?"}}
	if script, err := exec.LookPath("script"); err == nil {
		cmds = append(cmds, []string{claude, "-c", script + " -qec \"" + run + "\" /dev/null"})
	} else if os.Getenv("CI") == "true" {
		t.Error("script(1) is missing (package bsdutils): the pseudo-terminal case is not tested")
	}
	for _, argv := range cmds {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), "ANCESTRY_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "agent claude") {
			t.Errorf("%v: %v\n%s", argv, err, out)
		}
	}
	// And this test process itself does not run under an agent.
	if p, ok := Agent(Chain()); ok {
		t.Logf("note: the test runs under %s (pid %d)", p.Name, p.PID)
	}
}

func TestFromEnv(t *testing.T) {
	for _, c := range []struct {
		env   map[string]string
		agent string // "" : a person
	}{
		{map[string]string{}, ""},
		{map[string]string{"TERM": "xterm", "CLAUDE": "1", "CODEX_HOME": "/x"}, ""}, // a person's config, not an agent's shell
		{map[string]string{"CLAUDECODE": "1"}, "claude"},
		{map[string]string{"CLAUDE_CODE_ENTRYPOINT": "sdk-ts"}, "claude"},
		{map[string]string{"GEMINI_CLI": "1"}, "gemini"},
		{map[string]string{"CODEX_THREAD_ID": "019a"}, "codex"},
		{map[string]string{"CODEX_SANDBOX_NETWORK_DISABLED": "1"}, "codex"},
		{map[string]string{"COPILOT_CLI_BINARY_VERSION": "1.0.102"}, "copilot"},
		{map[string]string{"CURSOR_AGENT": "1"}, "cursor"},
		{map[string]string{"CLAUDECODE": "0"}, "claude"}, // any value: no agent sets one to deny itself
		{map[string]string{"CLAUDECODE": "  "}, ""},
	} {
		agent, v, ok := FromEnv(func(k string) string { return c.env[k] })
		if agent != c.agent || ok != (c.agent != "") || ok && c.env[v] == "" {
			t.Errorf("FromEnv(%v) = %q, %q, %v; want %q", c.env, agent, v, ok, c.agent)
		}
	}
}

// TestR57AgentNameRuntimeOptions: the script follows a runtime's options
// (Gemini CLI's relaunch, measured); an option that runs other code makes
// the process no agent's.
func TestR57AgentNameRuntimeOptions(t *testing.T) {
	cases := []struct{ args, want string }{
		{"/x/bin/node --max-old-space-size=12052 /x/node_modules/.bin/gemini -p hi", "gemini"},
		{"node /x/node_modules/@anthropic-ai/claude-code/cli.js -p hi", "claude"},
		{"node /app/node_modules/@anthropic-ai/claude-agent-sdk/cli.js --output-format stream-json --verbose --input-format stream-json", "claude"},
		{"node -e spawn() /x/node_modules/.bin/gemini", ""},
		{"node --require=/tmp/forge.js /x/node_modules/@anthropic-ai/claude-code/cli.js", ""},
		{"node -r /tmp/forge.js /x/node_modules/@anthropic-ai/claude-code/cli.js", ""},
		{"node --inspect", ""},
	}
	for _, c := range cases {
		if got := AgentName(Process{Name: "node", Args: c.args}); got != c.want {
			t.Errorf("AgentName(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}

// TestOldest: the earliest start from the CLI up to the process that
// adopts orphans, which is not counted.
func TestOldest(t *testing.T) {
	hook := Process{PID: 30, Name: "sessiongate", Start: 300}
	cli := Process{PID: 20, Name: "claude", Start: 200}
	for _, c := range []struct {
		name  string
		chain []Process
		want  uint64
	}{
		{"detached: adopted by init, not in the chain", []Process{hook, cli}, 200},
		{"detached: adopted by systemd --user", []Process{hook, cli, {PID: 5, Name: "systemd", Start: 10}}, 200},
		{"a terminal older than the CLI", []Process{hook, cli, {PID: 15, Name: "bash", Start: 150}, {PID: 8, Name: "tmux: server", Start: 80}, {PID: 5, Name: "systemd", Start: 10}}, 80},
		{"a later-made ancestor", []Process{hook, cli, {PID: 25, Name: "sh", Start: 250}}, 200},
		{"an unknown start is skipped", []Process{hook, cli, {PID: 15, Name: "bash"}}, 200},
		{"the CLI not in the chain", []Process{hook}, 0},
		// hidepid=2: an ssh login's chain ends at the user's own sshd, whose
		// root parent is hidden; what is above is unknown, not new.
		{"a hidden process above", []Process{hook, cli, {PID: 15, Name: "sshd", Start: 250}, {PID: 9, Name: "(hidden)", Hidden: true}}, 0},
		{"a hidden process above an adopter", []Process{hook, cli, {PID: 5, Name: "systemd", Start: 10}, {PID: 3, Name: "(hidden)", Hidden: true}}, 200},
	} {
		if got := Oldest(c.chain, cli); got != c.want {
			t.Errorf("%s: Oldest = %d, want %d", c.name, got, c.want)
		}
	}
	// OldestVisible: the hidden process ends the chain, its start unknown.
	hidden := []Process{hook, cli, {PID: 15, Name: "sshd", Start: 250}, {PID: 9, Name: "(hidden)", Hidden: true}, {PID: 3, Name: "bash", Start: 20}}
	if got := OldestVisible(hidden, cli); got != 200 {
		t.Errorf("OldestVisible past a hidden process = %d, want 200", got)
	}
	if got := OldestVisible([]Process{hook, cli, {PID: 15, Name: "bash", Start: 150}}, cli); got != 150 {
		t.Errorf("OldestVisible with nothing hidden = %d, want 150 (as Oldest)", got)
	}
}

// TestR59H344OldestCLINamedAdopter: a CLI whose process is named like an
// orphans' adopter (an interpreter run through a link named init, its
// argv[0] claude: AgentName reads it by its arguments) is no adopter of
// itself: its Oldest is its own start, not "unknown" (0), which let a
// detached fake of a new conversation skip round 59's rule.
func TestR59H344OldestCLINamedAdopter(t *testing.T) {
	hook := Process{PID: 30, Name: "sessiongate", Start: 300}
	for _, c := range []struct {
		name  string
		cli   Process
		above []Process
		want  uint64
	}{
		{"named init, detached", Process{PID: 20, Name: "init", Args: "claude /tmp/cli.py", Start: 200}, nil, 200},
		{"named systemd, under a later sh", Process{PID: 20, Name: "systemd", Args: "claude x", Start: 200}, []Process{{PID: 25, Name: "sh", Start: 250}}, 200},
		{"named tini, under an older bash", Process{PID: 20, Name: "tini", Args: "claude x", Start: 200}, []Process{{PID: 15, Name: "bash", Start: 150}}, 150},
	} {
		if AgentName(c.cli) != "claude" {
			t.Fatalf("%s: %+v is not read as claude", c.name, c.cli)
		}
		chain := append([]Process{hook, c.cli}, c.above...)
		if got := Oldest(chain, c.cli); got != c.want {
			t.Errorf("%s: Oldest = %d, want %d", c.name, got, c.want)
		}
	}
}
