package agenttest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/agenttest"
	"github.com/sessiongate/sessiongate/session"
)

// Field pass (issue 25: gates that block honest work): the real Claude
// Code with sessiongate's agent hooks, under the v3.0-style protocol
// adopted with `sessiongate init` (which makes `sh scripts/test.sh` the QA
// command), playing an honest agent on a feature branch: it reads the
// handoff with the Read tool (evidence from its transcript), checks the
// branch, edits, runs the tests in its shell, commits with conventional
// messages, writes its handoff and ends. It must end COMPLETE with no
// violation and no failed gate, and `sessiongate verify` must pass.

const fieldGreet = "#!/bin/sh\n# greet prints a greeting.\necho hello\n"
const fieldTest = "#!/bin/sh\n[ \"$(sh scripts/greet.sh)\" = hello ] || { echo 'FAIL: greeting' >&2; exit 1; }\n" +
	"[ \"$(sh scripts/greet.sh Ada)\" = 'hello Ada' ] || [ \"$(sh scripts/greet.sh Ada)\" = hello ] || { echo 'FAIL: name' >&2; exit 1; }\necho 'PASS: 2 checks'\n"

// fieldRepo is the project on main with the v3.0-style protocol adopted
// and the hooks installed, checked out on a feature branch; it returns the
// repository and the base commit verify checks from.
func fieldRepo(t *testing.T) (*sgRepo, string) {
	t.Helper()
	requireAgentHook(t)
	doc, err := os.ReadFile(filepath.Join(agenttest.ModuleRoot(t), "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		t.Fatalf("read the v3.0-style protocol: %v", err)
	}
	r := &sgRepo{t: t, dir: gitRepo(t)}
	r.env = []string{agenttest.PrependPath(sgBin), "SESSIONGATE_DB=" + filepath.Join(t.TempDir(), "sessiongate.db")}
	r.write("SESSION-PROTOCOL.md", string(doc))
	r.write(".agents/HANDOFF.md", "# Handoff\n\nShared by every session: a session's notes go into its own handoff under .agents/handoffs/.\n\n## Next\n\nscripts/greet.sh should take a name.\n")
	r.write(".agents/handoffs/.gitkeep", "")
	r.write("README.md", "# greet\n\nRun `sh scripts/test.sh`.\n")
	r.write("scripts/greet.sh", fieldGreet)
	r.write("scripts/test.sh", fieldTest)
	if out, code := r.sg("init"); code != 0 || !strings.Contains(out, `QA_VALIDATION runs "sh scripts/test.sh"`) {
		t.Fatalf("sessiongate init: exit %d, want it to make sh scripts/test.sh the QA command\n%s", code, out)
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "chore: adopt sessiongate")
	base := r.git("rev-parse", "HEAD")
	r.install("--agent", "claude")
	r.git("switch", "-q", "-c", "feat/greet-name")
	return r, base
}

func TestClaudeFieldHonestV3(t *testing.T) {
	t.Parallel()
	bash := func(cmd string) agenttest.Turn { return agenttest.Use("Bash", map[string]any{"command": cmd}) }
	tests := []struct {
		name string
		// work is the turns between the start gates and the end protocol.
		work func(r *sgRepo) []agenttest.Turn
	}{
		{"edit, test, commit", func(r *sgRepo) []agenttest.Turn {
			return []agenttest.Turn{
				agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "scripts", "greet.sh"), "content": "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n"}),
				bash("sh scripts/test.sh"),
				bash("git add -A && git commit -q -m 'feat(scripts): greet takes an optional name'"),
			}
		}},
		// Tests before the last edit and again after it (in QA), with a
		// docs edit and a second commit between.
		{"tests before and after the last edit", func(r *sgRepo) []agenttest.Turn {
			return []agenttest.Turn{
				bash("sh scripts/test.sh"),
				agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "scripts", "greet.sh"), "content": "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n"}),
				bash("sh scripts/test.sh"),
				bash("git add -A && git commit -q -m 'feat(scripts): greet takes an optional name'"),
				agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, "README.md"), "content": "# greet\n\n`sh scripts/greet.sh [NAME]`. Run `sh scripts/test.sh`.\n"}),
				bash("git add -A && git commit -q -m 'docs: document the name argument'"),
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, base := fieldRepo(t)
			turns := []agenttest.Turn{
				agenttest.Use("Read", map[string]any{"file_path": filepath.Join(r.dir, ".agents", "HANDOFF.md")}),
				bash("sessiongate session evidence --requirement CONTEXT_RETRIEVAL.read-issue-task-were --type tool_output --value 'task: greet takes a name'"),
				bash("sessiongate session advance"),
				bash("git branch --show-current"),
				bash("sessiongate session advance"),
				bash("sessiongate session advance"),
			}
			turns = append(turns, tt.work(r)...)
			turns = append(turns,
				bash("sessiongate session advance"),
				bash("sh scripts/test.sh"),
				bash("sessiongate session evidence --requirement QA_VALIDATION.fix-what-checks-report --type tool_output --value 'scripts/test.sh: PASS: 2 checks, nothing to fix'"),
				bash("sessiongate session advance"),
				agenttest.Use("Write", map[string]any{"file_path": filepath.Join(r.dir, ".agents", "handoffs", "2026-11-29-01.md"),
					"content": "# Handoff 2026-11-29-01\n\n## Done\n\nscripts/greet.sh takes an optional name.\n\n## Next\n\nNothing planned.\n"}),
				bash("sessiongate session evidence --requirement HANDOFF.complete-handoff-from-handoff --type file_path --value .agents/handoffs/2026-11-29-01.md"),
				bash("sessiongate session advance"),
				bash("git branch --show-current"),
				bash("git add -A && git commit -q -m 'docs(handoff): hand off the name argument'"),
				bash("sessiongate session advance"),
				bash("sessiongate session end --summary 'greet takes a name'"),
				agenttest.Say("done"),
			)
			srv := agenttest.NewClaudeServer(t, turns...)
			res := r.claude("greet should take a name", agenttest.ClaudeOptions{Server: srv, AllowedTools: []string{"Read", "Write", "Bash"}, Timeout: 5 * time.Minute})
			if res.ExitCode != 0 || srv.Used() != len(turns) {
				t.Fatalf("run: exit %d result %q, %d of %d turns\nstderr: %s", res.ExitCode, res.Result, srv.Used(), len(turns), res.Stderr)
			}
			conv := srv.Conversation()
			for i := 1; i < len(conv); i++ {
				if txt := conv[i].NewText(); strings.Contains(txt, "is_error") || strings.Contains(txt, "Stop hook feedback") || strings.Contains(txt, "blocked") {
					t.Errorf("turn %d of an honest agent failed, was denied or blocked (a false block): %.2000s", i-1, txt)
				}
			}
			show := r.onlySession()
			if st := show["session"].(map[string]any)["state"]; st != string(session.StateComplete) {
				t.Errorf("state %v, want COMPLETE", st)
			}
			if v, _ := show["violations"].([]any); len(v) != 0 {
				t.Errorf("violations on an honest session: %v", v)
			}
			tx := 0
			for _, e := range evidence(show) {
				if e["origin"] == string(session.OriginTranscript) {
					tx++
				}
			}
			if tx == 0 {
				t.Errorf("no evidence from the transcript: the Read of the handoff was not taken from it: %v", evidence(show))
			}
			if out, code := r.sg("verify", base+"..HEAD"); code != 0 {
				t.Errorf("verify of an honest session's commits: exit %d (a false FAIL)\n%s", code, out)
			}
		})
	}
}
