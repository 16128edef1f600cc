package compliance_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestShallowCIRevert: verify's revert rule in a shallow CI clone
// (`fetch-depth: 1`). The honest session reverts a commit on main 100
// commits below the range's base: verify's deepening of the range did not
// reach it, so its patch could not be read and the honest revert FAILed
// (exit 1, "holds nothing it replays"; round 20 left it open). verify now deepens the
// clone; when it cannot fetch, it stops with exit 2 (environment) and
// names `fetch-depth: 0`. The lazy twin (a hooks-off commit reverted twice)
// still fails with exit 1 in the same clone.
func TestShallowCIRevert(t *testing.T) {
	if binary == "" {
		t.Skip("sessiongate was not built (git missing)")
	}
	t.Parallel()
	cases := []struct {
		name      string
		published bool
		sk        skip
		depth     string // the clone's --depth (fetch-depth)
		offline   bool   // origin is unreachable when verify runs
		code      int
		want      string
	}{
		{name: "honest revert of main's commit, depth 1", published: true, depth: "1", code: 0, want: "exactly, a commit from before the range"},
		{name: "honest revert, depth 50", published: true, depth: "50", code: 0, want: "exactly, a commit from before the range"},
		{name: "honest revert, depth 10, remote unreachable", published: true, depth: "10", offline: true, code: 2, want: "fetch-depth: 0"},
		{name: "lazy: hooks-off commit reverted twice, depth 1", sk: skipV3Reland, depth: "1", code: 1, want: "FAIL"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			v3RevertRepo(w, c.published, c.sk)
			w.skip = c.sk
			w.agent = &cliAgent{w: w}
			target := "HEAD"
			if c.published {
				// main moves on: 100 commits after the one the session
				// reverts, more than verify's first deepening (64) of the
				// range fetches below its base.
				target = w.git("rev-parse", "HEAD")
				w.git("switch", "-q", "main")
				w.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "--allow-empty", "-m", "chore: main moves on")
				w.exec(w.root, "", "sh", "-c", "for i in $(seq 99); do git -c core.hooksPath=/dev/null commit -q --allow-empty -m \"chore: main moves on $i\" || exit 1; done")
				w.git("push", "-q", "--no-verify", "origin", "main")
				w.base = w.git("rev-parse", "HEAD")
				w.git("switch", "-q", "fix/readme-title")
				w.git("merge", "-q", "--ff-only", "main")
			}
			v3RevertFlowOf(w, c.sk, target)
			branch := w.git("rev-parse", "--abbrev-ref", "HEAD")
			tip := w.git("rev-parse", "HEAD")
			w.exec(w.root, "", "git", "push", "-q", "--no-verify", "origin", branch, "refs/sessiongate/records:refs/sessiongate/records")
			dir := filepath.Dir(w.root)
			ci := filepath.Join(dir, "ci")
			// As actions/checkout with fetch-depth: N does it.
			w.gitIn(dir, "clone", "-q", "--depth", c.depth, "--branch", branch, "file://"+filepath.Join(dir, "origin.git"), ci)
			// As action.yml fetches the records ref: without --depth.
			w.gitIn(ci, "fetch", "-q", "--no-tags", "origin", "+refs/sessiongate/records:refs/sessiongate/records")
			w.gitIn(ci, "checkout", "-q", "--detach", tip)
			if c.offline {
				w.gitIn(ci, "remote", "set-url", "origin", "file://"+filepath.Join(dir, "gone.git"))
			}
			r := w.exec(ci, "", binary, "verify", w.base+".."+tip)
			t.Logf("verify: exit %d\n%s", r.code, r.text())
			if r.code != c.code || !strings.Contains(r.text(), c.want) {
				t.Fatalf("verify in a depth-%s clone: exit %d, want %d with %q:\n%s", c.depth, r.code, c.code, c.want, r.text())
			}
		})
	}
}

// TestSlowSuiteQA: the v3.0-style session on a project whose test suite
// takes longer than the command_timeout a person set (4 s against 2 s).
// Before, nothing an honest agent did passed the QA gate: the gate killed
// its own run, and `sessiongate run --timeout` helped only the agent's.
// Now the agent runs the gate's command itself, as the gate's message
// says, and the gate takes that run: COMPLETE, clean, verify OK. The lazy
// twin runs the suite, then changes the code and commits: the run saw
// another tree, so the gate still fails.
func TestSlowSuiteQA(t *testing.T) {
	if binary == "" {
		t.Skip("sessiongate was not built (git missing)")
	}
	t.Parallel()
	for _, lazy := range []bool{false, true} {
		name := "honest"
		if lazy {
			name = "lazy: code changed after the run"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.agent = &cliAgent{w: w}
			doc, err := os.ReadFile(filepath.Join(moduleRoot, "protocolspec", "testdata", "v3-style.md"))
			if err != nil {
				t.Fatalf("read the v3.0-style protocol: %v", err)
			}
			w.write("SESSION-PROTOCOL.md", string(doc))
			w.write(".agents/HANDOFF.md", v3Handoff)
			w.write(".agents/handoffs/.gitkeep", "")
			projectFiles(w)
			w.write("scripts/test.sh", "sleep 4 # the suite is slow\n"+w.read("scripts/test.sh"))
			w.sgOK("init")
			cfg := w.read("sessiongate.yaml")
			if !strings.Contains(cfg, "QA_VALIDATION: sh scripts/test.sh") {
				t.Fatalf("init chose another QA command:\n%s", cfg)
			}
			cfg = regexp.MustCompile(`(?m)^command_timeout: .*$`).ReplaceAllString(cfg, "command_timeout: 2s")
			if !strings.Contains(cfg, "command_timeout: 2s") {
				cfg += "command_timeout: 2s\n"
			}
			w.write("sessiongate.yaml", cfg)
			publish(w)

			objective := "Add a name argument to the greeting script"
			blocked := ""
			func() {
				defer func() {
					if x := recover(); x != nil {
						s, ok := x.(stop)
						if !ok {
							panic(x)
						}
						blocked = s.reason
					}
				}()
				w.git("switch", "-q", "-c", "feat/greet-name")
				w.start(objective)
				w.evidence("CONTEXT_RETRIEVAL", "Read .agents/HANDOFF.md", contentHash, ".agents/HANDOFF.md")
				w.evidence("CONTEXT_RETRIEVAL", "Read the issue or task", toolOutput, "task: "+objective)
				w.advance("")
				w.shell("BRANCH_CHECK", "Run git branch --show-current", "git branch --show-current")
				w.advance("")
				w.advance("WORKING")
				w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n")
				w.write("scripts/test.sh", "sleep 4 # the suite is slow\n"+greetTest)
				w.git("add", "-A")
				// The gate's own message says how: its command, run by the agent
				// with a longer limit, on the work as it is.
				r := w.exec(w.root, "", binary, "run", "--session", w.id, "--phase", "QA_VALIDATION", "--timeout", "1m", "--", "sh", "-c", "sh scripts/test.sh")
				if r.code != 0 {
					w.halt("the suite's own run: %s", r.text())
				}
				if lazy {
					w.deviate()
					w.write("scripts/greet.sh", "#!/bin/sh\necho \"hello\"\n")
					w.git("add", "-A")
				}
				w.evidence("QA_VALIDATION", "Fix what the checks report", toolOutput, "the checks reported nothing to fix:\n"+r.out)
				w.write(v3NewHandoff, v3HonestHandoff)
				w.evidence("HANDOFF", "Complete the handoff", filePath, v3NewHandoff)
				w.shell("GIT_OPERATIONS", "Re-verify the branch", "git branch --show-current")
				w.commit("feat(scripts): greet takes an optional name")
				w.end(objective+": done", "", false)
			}()
			if lazy {
				if !strings.Contains(blocked, "QA_VALIDATION") && !strings.Contains(strings.Join(w.out.failedGates, " "), "QA_VALIDATION") {
					t.Fatalf("route gets through QA: the code changed after the suite's run: stopped %q, outcome %+v", blocked, w.out)
				}
				t.Logf("caught: stopped %q, failed gates %v", blocked, w.out.failedGates)
				return
			}
			if blocked != "" || !w.out.complete || !w.out.verifyOK || len(w.out.failedGates) > 0 || len(w.out.violations) > 0 || len(w.out.notClean) > 0 {
				t.Fatalf("a false block on an honest slow suite: stopped %q, outcome %+v", blocked, w.out)
			}
		})
	}
}

// TestHonestOrdinaryTasks plays the honest agent on ordinary tasks round
// 20 did not try, on the v3.0-style protocol with the real binary: each
// must end COMPLETE, clean, with verify OK over the range CI would check
// (origin/main..HEAD). A failure is a false block or a false FAIL.
func TestHonestOrdinaryTasks(t *testing.T) {
	if binary == "" {
		t.Skip("sessiongate was not built (git missing)")
	}
	t.Parallel()
	const impl = "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n"
	// mainMovesOn: a person's commit lands on main from another clone.
	mainMovesOn := func(w *world) {
		dir := filepath.Dir(w.root)
		other := filepath.Join(dir, "other")
		w.gitIn(dir, "clone", "-q", filepath.Join(dir, "origin.git"), other)
		w.write(filepath.Join(other, "NOTES.md"), "notes\n")
		w.gitIn(other, "add", "-A")
		w.gitIn(other, "commit", "-q", "-m", "docs: notes")
		w.gitIn(other, "push", "-q", "origin", "main")
	}
	cases := []struct {
		name string
		work func(w *world)
		// after runs once the work is committed, before the end.
		after func(w *world)
		// done is the handoff's Done when the work is not the greeting's
		// ("": v3HonestHandoff's): an honest handoff says what changed.
		done string
	}{
		{name: "rename a file (git mv) and update its callers", work: func(w *world) {
			w.git("mv", "scripts/greet.sh", "scripts/hello.sh")
			w.write("scripts/hello.sh", impl)
			w.write("scripts/test.sh", strings.ReplaceAll(greetTest, "scripts/greet.sh", "scripts/hello.sh"))
			w.write("README.md", strings.ReplaceAll(w.read("README.md"), "scripts/greet.sh", "scripts/hello.sh"))
		}},
		{name: "generated file: template edited, generator run, both committed", work: func(w *world) {
			w.write("scripts/greet.tmpl", "echo \"hello${1:+ $1}\"\n")
			w.write("scripts/gen.sh", "#!/bin/sh\n# gen writes scripts/greet.sh from scripts/greet.tmpl.\n{ printf '#!/bin/sh\\n# Generated by scripts/gen.sh; do not edit.\\n'; cat scripts/greet.tmpl; } > scripts/greet.sh\n")
			if out, code := w.sh("sh scripts/gen.sh"); code != 0 {
				w.halt("generator: %s", out)
			}
			w.write("scripts/test.sh", greetTest)
		}},
		{name: "rename a doc file (git mv)", work: func(w *world) {
			w.git("mv", "README.md", "GUIDE.md")
		}, done: "README.md is now GUIDE.md; nothing else changed."},
		{name: "docs-only change", work: func(w *world) {
			w.write("README.md", w.read("README.md")+"\nIt prints hello.\n")
		}, done: "README.md says what scripts/greet.sh prints; the script itself is unchanged."},
		{name: "work stashed and popped", work: func(w *world) {
			w.write("scripts/greet.sh", impl)
			w.git("stash", "-q")
			w.git("stash", "pop", "-q")
			w.write("scripts/test.sh", greetTest)
		}},
		{name: "rebase onto main before push", work: func(w *world) {
			w.write("scripts/greet.sh", impl)
			w.write("scripts/test.sh", greetTest)
		}, after: func(w *world) {
			mainMovesOn(w)
			w.git("fetch", "-q", "origin")
			if r := w.exec(w.root, "", "git", "rebase", "-q", "origin/main"); r.code != 0 {
				w.halt("git rebase origin/main: %s", r.text())
			}
		}},
		{name: "merge main mid-session, then work", work: func(w *world) {
			mainMovesOn(w)
			w.git("fetch", "-q", "origin")
			if r := w.exec(w.root, "", "git", "merge", "-q", "--no-edit", "origin/main"); r.code != 0 {
				w.halt("git merge origin/main: %s", r.text())
			}
			w.write("scripts/greet.sh", impl)
			w.write("scripts/test.sh", greetTest)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.agent = &cliAgent{w: w}
			v3Repo(w)
			objective := "An ordinary task: " + c.name
			blocked := ""
			func() {
				defer func() {
					if x := recover(); x != nil {
						s, ok := x.(stop)
						if !ok {
							panic(x)
						}
						blocked = s.reason
					}
				}()
				w.git("switch", "-q", "-c", "feat/ordinary")
				w.start(objective)
				w.evidence("CONTEXT_RETRIEVAL", "Read .agents/HANDOFF.md", contentHash, ".agents/HANDOFF.md")
				w.evidence("CONTEXT_RETRIEVAL", "Read the issue or task", toolOutput, "task: "+objective)
				w.advance("")
				w.shell("BRANCH_CHECK", "Run git branch --show-current", "git branch --show-current")
				w.advance("")
				w.advance("WORKING")
				c.work(w)
				w.commit("feat: " + c.name)
				if c.after != nil {
					c.after(w)
				}
				out, code := w.shell("QA_VALIDATION", "Run checks that cover the changed behavior", "sh scripts/test.sh")
				if code != 0 {
					w.halt("the tests fail: %s", out)
				}
				w.evidence("QA_VALIDATION", "Fix what the checks report", toolOutput, "the checks reported nothing to fix:\n"+out)
				handoff := v3HonestHandoff
				if c.done != "" {
					handoff = "# Handoff 2026-08-20-01\n\n## Done\n\n" + c.done + "\n\n## Next\n\nDocument the scripts' usage in the README.\n"
				}
				w.write(v3NewHandoff, handoff)
				w.evidence("HANDOFF", "Complete the handoff", filePath, v3NewHandoff)
				w.shell("GIT_OPERATIONS", "Re-verify the branch", "git branch --show-current")
				w.commit("docs(handoff): hand off " + c.name)
				// CI checks the pull request's commits: origin/main..HEAD.
				w.base = w.git("rev-parse", "origin/main")
				w.end(objective+": done", "", false)
			}()
			failed := blocked != "" || !w.out.complete || !w.out.verifyOK || len(w.out.failedGates) > 0 || len(w.out.violations) > 0 || len(w.out.notClean) > 0
			if failed {
				t.Errorf("a false block or FAIL on honest work (%s): stopped %q, outcome %+v", c.name, blocked, w.out)
			}
		})
	}
}
