package agenthook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/session"
)

// hooksOffLine makes len(bodies) honest-or-not commits of status.txt with
// git's hooks off, as Gemini CLI's shell does, in a session at WORKING
// whose pre-commit runs `sh test.sh` (protocol in testProtocol). It
// returns the session, the commits' shas and the shell call that made them.
func hooksOffLine(t *testing.T, config, script string, bodies []string) (*repo, *session.Session, []string, map[string]any) {
	t.Helper()
	r := newRepo(t, config)
	writeFile(t, filepath.Join(r.root, "test.sh"), script)
	writeFile(t, filepath.Join(r.root, "status.txt"), "ok\n")
	r.git("add", "-A")
	r.git("commit", "-qm", "tests read status.txt")
	r.sg("install")
	r.hook("gemini", "SessionStart", golden(t, r, "gemini", "SessionStart", "gem-1"))
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	var line []string
	for i := range bodies {
		line = append(line, fmt.Sprintf("printf ... > status.txt && git add status.txt && git commit -qm 'status %d'", i+1))
	}
	call := map[string]any{"command": strings.Join(line, " && ")}
	// Before the call runs, as the CLI sends it: a BeforeTool after the
	// commits would judge them itself (resumeHooksOff).
	r.hook("gemini", "BeforeTool", with(golden(t, r, "gemini", "BeforeTool-run_shell_command", "gem-1"), "tool_input", call), "GEMINI_SESSION_ID=gem-1")
	var shas []string
	for i, body := range bodies {
		writeFile(t, filepath.Join(r.root, "status.txt"), body+"\n")
		r.git("add", "status.txt")
		r.git("-c", "core.hooksPath=", "commit", "-qm", fmt.Sprintf("status %d", i+1))
		shas = append(shas, r.git("rev-parse", "HEAD"))
	}
	return r, s, shas, call
}

// bypassed reports, per commit, whether a BYPASS names it, and whether
// the session recorded it.
func bypassed(t *testing.T, r *repo, s *session.Session, shas []string) (bypass, recorded []bool, vs []session.Violation) {
	t.Helper()
	ctx := context.Background()
	vs, err := r.db().ListViolations(ctx, session.ViolationFilter{SessionID: s.ID})
	if err != nil {
		t.Fatal(err)
	}
	known, err := r.db().RecordedCommits(ctx, s.ID, shas...)
	if err != nil {
		t.Fatal(err)
	}
	for _, sha := range shas {
		got := false
		for _, v := range vs {
			if v.Code == session.CodeBypass && strings.Contains(v.Message, sha[:7]) {
				got = true
			}
		}
		bypass = append(bypass, got)
		recorded = append(recorded, known[sha])
	}
	return bypass, recorded, vs
}

// TestHooksOffJudgeOutlivesDecisionLimit: the post-tool hook judged a
// hooks-off call's commits inside the hook's decision limit
// (agent_hooks.timeout, 2 s by default), which ended the judge when the
// gates ran longer: on a loaded machine (ci20, load 13) an honest second
// commit was left to reconciliation, a false CRITICAL BYPASS. The judge now
// has agenthook.JudgeTimeout. Here the limit is the default 2 s and each
// commit's gate takes 2.5 s. The lazy twin (the first commit fails the tests)
// keeps exactly its own BYPASS.
func TestHooksOffJudgeOutlivesDecisionLimit(t *testing.T) {
	t.Parallel()
	script := "sleep 2.5\nhead -n1 status.txt | grep -qx ok || { echo status is not ok; exit 1; }\n"
	for _, tc := range []struct {
		name   string
		bodies []string
		bypass []bool
	}{
		{"honest, both pass", []string{"ok\n# one", "ok\n# two"}, []bool{false, false}},
		{"lazy, first breaks the tests", []string{"broken", "ok"}, []bool{true, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, s, shas, call := hooksOffLine(t, "hooks:\n  pre-commit: [QA_VALIDATION]\n", script, tc.bodies)
			r.hook("gemini", "AfterTool", with(golden(t, r, "gemini", "AfterTool-run_shell_command", "gem-1"), "tool_input", call), "GEMINI_SESSION_ID=gem-1")
			bypass, recorded, vs := bypassed(t, r, s, shas)
			for i := range shas {
				if bypass[i] != tc.bypass[i] || !recorded[i] {
					t.Errorf("commit %d: BYPASS %v (want %v), recorded %v (want true); violations %+v", i+1, bypass[i], tc.bypass[i], recorded[i], vs)
				}
			}
		})
	}
}

// TestHooksOffJudgeCutShortResumes: the CLI ends a hook at its own time
// limit (Gemini CLI sends SIGTERM). A post-tool hook ended while it judged
// a hooks-off call's first commit left both commits unrecorded, and the
// next engine call reconciled them as CRITICAL BYPASSes. Every hook of the
// CLI now first judges what is left. Here the post-tool hook gets SIGTERM
// once the first commit's gate has started; the stop hook (AfterAgent)
// after it judges both. The lazy twin keeps its one BYPASS.
func TestHooksOffJudgeCutShortResumes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		bodies []string
		bypass []bool
	}{
		{"honest, both pass", []string{"ok\n# one", "ok\n# two"}, []bool{false, false}},
		{"lazy, first breaks the tests", []string{"broken", "ok"}, []bool{true, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mark := filepath.Join(t.TempDir(), "gate-started")
			// The gate's command leaves a mark, then takes its time: the
			// SIGTERM lands while it runs.
			script := fmt.Sprintf(": > %q\nsleep 2\nhead -n1 status.txt | grep -qx ok || { echo status is not ok; exit 1; }\n", mark)
			r, s, shas, call := hooksOffLine(t, "hooks:\n  pre-commit: [QA_VALIDATION]\n", script, tc.bodies)
			in, err := json.Marshal(with(golden(t, r, "gemini", "AfterTool-run_shell_command", "gem-1"), "tool_input", call))
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(binary, "agent-hook", "gemini", "AfterTool")
			cmd.Dir, cmd.Env, cmd.Stdin = r.root, append(append([]string{}, r.env...), "GEMINI_SESSION_ID=gem-1"), bytes.NewReader(in)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(2 * time.Minute)
			for {
				if _, err := os.Stat(mark); err == nil {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("the first commit's gate never started:\n%s", out.String())
				}
				time.Sleep(10 * time.Millisecond)
			}
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			// Cut short: no verdict on either commit yet.
			if bypass, recorded, vs := bypassed(t, r, s, shas); recorded[0] || recorded[1] || bypass[0] || bypass[1] {
				t.Fatalf("after the SIGTERM: recorded %v, BYPASS %v, want none of either; violations %+v\nhook output:\n%s", recorded, bypass, vs, out.String())
			}
			r.hook("gemini", "AfterAgent", golden(t, r, "gemini", "AfterAgent", "gem-1"), "GEMINI_SESSION_ID=gem-1")
			bypass, recorded, vs := bypassed(t, r, s, shas)
			for i := range shas {
				if bypass[i] != tc.bypass[i] || !recorded[i] {
					t.Errorf("commit %d: BYPASS %v (want %v), recorded %v (want true); violations %+v", i+1, bypass[i], tc.bypass[i], recorded[i], vs)
				}
			}
			if wt := r.git("worktree", "list", "--porcelain"); strings.Count(wt, "worktree ") != 1 {
				t.Errorf("a checkout was left behind:\n%s", wt)
			}
		})
	}
}

// TestHooksOffLastCommitJudgedOnItsOwnTree: the last commit of a hooks-off
// call ran its command gates on the work tree, as a live pre-commit's
// would. But the post-tool hook runs after the whole call (and a resumed
// judge later still), and the call may change the work tree after its
// commit: `git commit -qm wip && printf ok > status.txt` had a commit that
// fails the tests judged on the fixed, uncommitted file, and it passed.
// When the work tree's tracked files differ from the commit, its gates
// now run in a checkout of it. Honest twin: nothing changed after the
// commit, judged on the work tree, no violation.
func TestHooksOffLastCommitJudgedOnItsOwnTree(t *testing.T) {
	t.Parallel()
	script := "head -n1 status.txt | grep -qx ok || { echo status is not ok; exit 1; }\n"
	for _, tc := range []struct {
		name   string
		body   string // committed
		after  string // status.txt after the commit, "" unchanged
		bypass bool
	}{
		{"lazy, broken commit fixed in the work tree after it", "broken", "ok", true},
		{"honest, nothing changed after the commit", "ok\n# one", "", false},
		{"honest, the work tree broken after a good commit", "ok\n# one", "broken", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, s, shas, call := hooksOffLine(t, "hooks:\n  pre-commit: [QA_VALIDATION]\n", script, []string{tc.body})
			if tc.after != "" {
				writeFile(t, filepath.Join(r.root, "status.txt"), tc.after+"\n")
			}
			r.hook("gemini", "AfterTool", with(golden(t, r, "gemini", "AfterTool-run_shell_command", "gem-1"), "tool_input", call), "GEMINI_SESSION_ID=gem-1")
			bypass, recorded, vs := bypassed(t, r, s, shas)
			if bypass[0] != tc.bypass || !recorded[0] {
				t.Errorf("BYPASS %v (want %v), recorded %v (want true); violations %+v", bypass[0], tc.bypass, recorded[0], vs)
			}
			if wt := r.git("worktree", "list", "--porcelain"); strings.Count(wt, "worktree ") != 1 {
				t.Errorf("a checkout was left behind:\n%s", wt)
			}
		})
	}
}
