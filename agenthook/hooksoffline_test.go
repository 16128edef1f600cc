package agenthook_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

// TestHooksOffEveryCommitOfTheCall: Gemini CLI runs its shell with git's
// hooks off, and its AfterTool judged only the commit at HEAD after the
// fact, so `git commit -m a && git commit -m b` left the first commit a
// false CRITICAL BYPASS (round 22, c1's open item). Every commit the call
// made is now judged, oldest first, on its own tree and files. The lazy
// rows: a commit of the same line that pre-commit refuses (it edits the
// protocol) keeps its BYPASS wherever it stands in the line; an honest
// commit before it is judged on its own tree and gets none.
func TestHooksOffEveryCommitOfTheCall(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edits  []string // one commit per file, in order; SESSION-PROTOCOL.md is refused
		bypass []bool   // per commit: a BYPASS naming it
	}{
		{"two honest commits", []string{"hello.txt", "world.txt"}, []bool{false, false}},
		{"three honest commits", []string{"a.txt", "b.txt", "c.txt"}, []bool{false, false, false}},
		{"protocol edit last", []string{"hello.txt", "SESSION-PROTOCOL.md"}, []bool{false, true}},
		// The second commit's tree holds the first's protocol edit: a live
		// pre-commit refuses it too.
		{"protocol edit first", []string{"SESSION-PROTOCOL.md", "hello.txt"}, []bool{true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, "")
			r.sg("install")
			r.hook("gemini", "SessionStart", golden(t, r, "gemini", "SessionStart", "gem-1"))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			var shas []string
			var line []string
			for _, f := range tc.edits {
				body := f + "\n"
				if f == "SESSION-PROTOCOL.md" {
					body = testProtocol + "\n## Extra\nanything goes\n"
				}
				writeFile(t, filepath.Join(r.root, f), body)
				r.git("add", f)
				// What Gemini CLI's shell does: every hook off.
				r.git("-c", "core.hooksPath=", "commit", "-qm", "change "+f)
				shas = append(shas, strings.TrimSpace(r.git("rev-parse", "HEAD")))
				line = append(line, "git add "+f+" && git commit -qm 'change "+f+"'")
			}
			call := map[string]any{"command": strings.Join(line, " && ")}
			env := []string{"GEMINI_SESSION_ID=gem-1"}
			r.hook("gemini", "BeforeTool", with(golden(t, r, "gemini", "BeforeTool-run_shell_command", "gem-1"), "tool_input", call), env...)
			r.hook("gemini", "AfterTool", with(golden(t, r, "gemini", "AfterTool-run_shell_command", "gem-1"), "tool_input", call), env...)
			ctx := context.Background()
			vs, err := r.db().ListViolations(ctx, session.ViolationFilter{SessionID: s.ID})
			if err != nil {
				t.Fatal(err)
			}
			known, err := r.db().RecordedCommits(ctx, s.ID, shas...)
			if err != nil {
				t.Fatal(err)
			}
			for i, sha := range shas {
				got := false
				for _, v := range vs {
					if v.Code == session.CodeBypass && strings.Contains(v.Message, sha[:7]) {
						got = true
					}
				}
				if got != tc.bypass[i] {
					t.Errorf("commit %d (%s, %s): BYPASS %v, want %v; violations %+v", i+1, tc.edits[i], sha[:7], got, tc.bypass[i], vs)
				}
				if !known[sha] {
					t.Errorf("commit %d (%s) not recorded by the session", i+1, tc.edits[i])
				}
			}
			if !slicesContains(tc.bypass, true) {
				for _, v := range vs {
					t.Errorf("honest line: violation %s %s: %s", v.Severity, v.Code, v.Message)
				}
			}
		})
	}
}

func slicesContains(bs []bool, b bool) bool {
	for _, x := range bs {
		if x == b {
			return true
		}
	}
	return false
}

// TestVerifyHooksOffCommitMappedToSession: a hooks-off commit never ran
// commit-msg, so it carries no Session-Id trailer and verify failed it ("no
// Session-Id trailer and no record of who made it"). The post-tool hook
// now maps each commit it recorded as passing to the session on the
// records ref, and verify judges it as that session's commit. The lazy
// row: an agent that commits with the hooks off outside any Gemini call
// and writes the same mapping for it on the records ref itself still fails
// verify: the session recorded that commit as a BYPASS.
func TestVerifyHooksOffCommitMappedToSession(t *testing.T) {
	for _, tc := range []struct {
		name   string
		forged bool // a further hooks-off commit no post-tool hook judged, mapped by hand
		inTree bool // records in the tree (session_record a path), committed after the session
	}{
		{"two honest commits", false, false},
		{"forged mapping for an unjudged commit", true, false},
		{"in-tree records, two honest commits", false, true},
		{"in-tree records, an unjudged commit", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := "session_record: refs/sessiongate/records\n"
			if tc.inTree {
				cfg = "session_record: .sessiongate/records/{session_id}.json\n"
			}
			r := newRepo(t, cfg)
			r.sg("install")
			base := strings.TrimSpace(r.git("rev-parse", "HEAD"))
			r.hook("gemini", "SessionStart", golden(t, r, "gemini", "SessionStart", "gem-1"))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			var line []string
			for _, f := range []string{"hello.txt", "world.txt"} {
				writeFile(t, filepath.Join(r.root, f), f+"\n")
				r.git("add", f)
				r.git("-c", "core.hooksPath=", "commit", "-qm", "change "+f)
				line = append(line, "git add "+f+" && git commit -qm 'change "+f+"'")
			}
			call := map[string]any{"command": strings.Join(line, " && ")}
			env := []string{"GEMINI_SESSION_ID=gem-1"}
			r.hook("gemini", "BeforeTool", with(golden(t, r, "gemini", "BeforeTool-run_shell_command", "gem-1"), "tool_input", call), env...)
			r.hook("gemini", "AfterTool", with(golden(t, r, "gemini", "AfterTool-run_shell_command", "gem-1"), "tool_input", call), env...)
			if tc.forged {
				writeFile(t, filepath.Join(r.root, "lazy.txt"), "lazy\n")
				r.git("add", "lazy.txt")
				r.git("-c", "core.hooksPath=", "commit", "-qm", "lazy")
				head := strings.TrimSpace(r.git("rev-parse", "HEAD"))
				if tc.inTree {
					// No records ref to forge a mapping on: the session's
					// own record must list the commit, and it records the
					// unjudged commit as a BYPASS.
					head = ""
				}
				if head == "" {
				} else if _, err := recordref.PutActor(context.Background(), r.root, "refs/sessiongate/records", snapshot.CommitActor{Commit: head,
					Actor: snapshot.ActorAgent, Agent: "gemini", Kind: snapshot.KindHooksOff, Session: s.ID, Via: "forged"}); err != nil {
					t.Fatal(err)
				}
			}
			end := r.run(r.root, nil, nil, binary, "session", "end", "--session", s.ID, "--summary", "two commits")
			if end.code != 0 {
				t.Logf("session end: exit %d\n%s%s", end.code, end.out, end.err)
			}
			if tc.inTree {
				r.git("add", ".sessiongate/records")
				r.git("commit", "-qm", "session record")
			}
			res := r.run(r.root, nil, nil, binary, "verify", base+"..HEAD")
			t.Logf("verify (exit %d):\n%s%s", res.code, res.out, res.err)
			if got := res.code == 0; got == tc.forged {
				t.Errorf("verify passed %v, want %v", got, !tc.forged)
			}
			if !strings.Contains(res.out, "maps the commit to session "+s.ID) && !strings.Contains(res.out, "its record in the tree lists the commit: session "+s.ID) {
				t.Errorf("verify does not say the records ref or the in-tree record maps the commits to session %s", s.ID)
			}
		})
	}
}

// TestHooksOffEarlierCommitGatedOnItsOwnTree: a pre-commit command gate
// for an earlier commit of a hooks-off line ran in the work tree, which
// holds the line's last commit: a first commit that broke the tests and a
// second that fixed them both passed (round 23 left it open). Each commit
// but the last now runs its gates in a temporary checkout of itself
// (checkoutCommit), removed after. The honest twin, both commits passing,
// records no violation; the checkout leaves no worktree behind.
func TestHooksOffEarlierCommitGatedOnItsOwnTree(t *testing.T) {
	// Round 25: the tests also read files the project ignores (a .env, a
	// generated folder): an earlier commit's checkout lacked them, so an
	// honest first commit was a BYPASS (a false one). The checkout now has
	// the work tree's ignored files linked in, as the work tree's own gate
	// sees them; a tracked file is always the commit's own.
	needsIgnored := "test -f .env && test -f gen/schema.txt || { echo .env or gen/ missing; exit 1; }\n"
	for _, tc := range []struct {
		name    string
		commits []string // status.txt per commit; the tests pass on "ok"
		bypass  []bool
		ignored bool // the tests need ignored .env and gen/
		// later: the tests need gen/later.txt, which only the last commit
		// adds (forced past gen/'s ignore): never linked into the first's.
		later bool
	}{
		{"first breaks, second fixes", []string{"broken", "ok"}, []bool{true, false}, false, false},
		{"both pass (honest twin)", []string{"ok\n# one", "ok\n# two"}, []bool{false, false}, false, false},
		{"tests need ignored files, both pass (honest)", []string{"ok\n# one", "ok\n# two"}, []bool{false, false}, true, false},
		{"tests need ignored files, first breaks, second fixes", []string{"broken", "ok"}, []bool{true, false}, true, false},
		{"tests need a file only the last commit tracks, in an ignored folder", []string{"ok\n# one", "ok\n# two"}, []bool{true, false}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, "hooks:\n  pre-commit: [QA_VALIDATION]\n")
			script := "head -n1 status.txt | grep -qx ok || { echo status is not ok; exit 1; }\necho tests ok\n"
			if tc.ignored {
				script = needsIgnored + script
				if tc.later {
					script = "test -f gen/later.txt || { echo gen/later.txt missing; exit 1; }\n" + script
				}
				writeFile(t, filepath.Join(r.root, ".gitignore"), ".env\ngen/\n")
				writeFile(t, filepath.Join(r.root, ".env"), "TOKEN=x\n")
				if err := os.MkdirAll(filepath.Join(r.root, "gen"), 0o755); err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(r.root, "gen", "schema.txt"), "generated\n")
			}
			writeFile(t, filepath.Join(r.root, "test.sh"), script)
			writeFile(t, filepath.Join(r.root, "status.txt"), "ok\n")
			r.git("add", "-A")
			r.git("commit", "-qm", "tests read status.txt")
			r.sg("install")
			r.hook("gemini", "SessionStart", golden(t, r, "gemini", "SessionStart", "gem-1"))
			s := r.active()
			r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
			r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
			var shas, line []string
			for i, body := range tc.commits {
				writeFile(t, filepath.Join(r.root, "status.txt"), body+"\n")
				r.git("add", "status.txt")
				if tc.later && i == len(tc.commits)-1 {
					writeFile(t, filepath.Join(r.root, "gen", "later.txt"), "later\n")
					r.git("add", "-f", "gen/later.txt")
				}
				r.git("-c", "core.hooksPath=", "commit", "-qm", fmt.Sprintf("status %d", i+1))
				shas = append(shas, strings.TrimSpace(r.git("rev-parse", "HEAD")))
				line = append(line, fmt.Sprintf("printf ... > status.txt && git add status.txt && git commit -qm 'status %d'", i+1))
			}
			call := map[string]any{"command": strings.Join(line, " && ")}
			env := []string{"GEMINI_SESSION_ID=gem-1"}
			r.hook("gemini", "BeforeTool", with(golden(t, r, "gemini", "BeforeTool-run_shell_command", "gem-1"), "tool_input", call), env...)
			r.hook("gemini", "AfterTool", with(golden(t, r, "gemini", "AfterTool-run_shell_command", "gem-1"), "tool_input", call), env...)
			vs, err := r.db().ListViolations(context.Background(), session.ViolationFilter{SessionID: s.ID})
			if err != nil {
				t.Fatal(err)
			}
			for i, sha := range shas {
				got := false
				for _, v := range vs {
					if v.Code == session.CodeBypass && strings.Contains(v.Message, sha[:7]) {
						got = true
					}
				}
				if got != tc.bypass[i] {
					t.Errorf("commit %d (status %q): BYPASS %v, want %v; violations %+v", i+1, tc.commits[i], got, tc.bypass[i], vs)
				}
			}
			if !slicesContains(tc.bypass, true) && len(vs) > 0 {
				t.Errorf("honest line: violations %+v", vs)
			}
			if wt := r.git("worktree", "list", "--porcelain"); strings.Count(wt, "worktree ") != 1 {
				t.Errorf("a checkout was left behind:\n%s", wt)
			}
		})
	}
}
