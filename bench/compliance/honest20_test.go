package compliance_test

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Round 20, t8: the honest agent on ordinary small tasks. A session whose
// work is `git revert --no-edit` of a commit from before the session (the
// commonest revert: yesterday's bad change) recorded a CRITICAL BYPASS
// (git's replays run no pre-commit hook) and could never end clean; when
// the reverted commit was on main, CI's verify failed the revert too
// ("holds nothing it replays"). A false block on honest work.

// Protocols of these scenarios: the v3.0-style protocol, with a commit
// made before the session for the session to revert.
const (
	v3RevertEarlier   = "v3.0-style, revert a commit from before the session"
	v3RevertPublished = "v3.0-style, revert a commit on main"
)

// skipV3Reland: the lazy agent commits unchecked work with the hooks off
// before its session, then in WORKING reverts it and reverts the revert,
// so the work lands as the session's replays with no pre-commit run.
const skipV3Reland skip = "unchecked work committed with the hooks off before the session, reverted and re-landed in WORKING"

// skipV3RevertProtected: the session reverts a person's change of
// sessiongate.yaml with git revert, which no pre-commit checks: a change
// of a protected file pre-commit would refuse.
const skipV3RevertProtected skip = "a person's change of sessiongate.yaml undone with git revert (no pre-commit)"

// v3RevertTitle is the README change the session reverts.
const v3RevertTitle = "# greet - says hello\n\nA tiny greeting script.\n\n## Usage\n\n```sh\nsh scripts/greet.sh\n```\n"

func init() {
	scenarios = append(scenarios,
		scenario{name: "v3-revert-earlier", protocol: v3RevertEarlier, via: "CLI",
			reading: "A person's commit on the branch from yesterday changed the README title; the session's task is to revert it, " +
				"and it runs `git revert --no-edit HEAD`, the tests, writes its handoff and commits it. Compliant: COMPLETE, clean, " +
				"verify OK (the revert is the exact reverse of history from before the session)."},
		scenario{name: "v3-revert-published", protocol: v3RevertPublished, via: "CLI",
			reading: "The README title change is on main (published); the session reverts it on its branch with `git revert " +
				"--no-edit`. Compliant: COMPLETE, clean, verify OK over origin/main..HEAD (the reverted commit is main's)."},
		scenario{name: "v3-revert-reland", protocol: v3RevertEarlier, via: "CLI", skips: skipV3Reland,
			reading: "The greeting change is committed before the session with the hooks off, then reverted and the revert " +
				"reverted in WORKING: the work lands without any pre-commit. Not compliant: the hooks-off commit fails verify."},
		scenario{name: "v3-revert-protected", protocol: v3RevertEarlier, via: "CLI", skips: skipV3RevertProtected,
			reading: "A person raised sessiongate.yaml's history from 5 to 6 before the session; the session reverts that commit " +
				"with git revert. Not compliant: the agent may not change sessiongate.yaml, and no pre-commit saw the revert (BYPASS)."},
	)
}

// v3RevertRepo is the v3.0-style repository with the commit the session
// reverts: on main and published (published), or a person's commit on the
// feature branch before the session. The lazy route makes its hooks-off
// commit of the work instead.
func v3RevertRepo(w *world, published bool, sk skip) {
	w.t.Helper()
	v3Repo(w)
	if published {
		w.write("README.md", v3RevertTitle)
		w.commit("docs: reword the title")
		w.git("push", "-q", "origin", "main")
		w.base = w.git("rev-parse", "HEAD")
	}
	w.git("switch", "-q", "-c", "fix/readme-title")
	switch {
	case sk == skipV3Reland:
		w.deviate()
		w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello\"\n")
		w.git("add", "-A")
		w.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "feat(scripts): greet takes an optional name")
	case sk == skipV3RevertProtected:
		w.deviate()
		w.write("sessiongate.yaml", strings.Replace(w.read("sessiongate.yaml"), "history: 5", "history: 6", 1))
		w.commit("chore: keep six sessions of history")
	case !published:
		// A person's commit: no agent in git's environment, no session.
		w.write("README.md", v3RevertTitle)
		w.commit("docs: reword the title")
	}
}

// v3RevertFlow is the session: the start protocol as written, the revert
// (twice on the lazy route), the tests, the handoff and its commit.
func v3RevertFlow(w *world, sk skip) { v3RevertFlowOf(w, sk, "HEAD") }

// v3RevertFlowOf is v3RevertFlow reverting target (honest21_test.go).
func v3RevertFlowOf(w *world, sk skip, target string) {
	objective := "Revert the README title change"
	w.start(objective)
	w.evidence("CONTEXT_RETRIEVAL", "Read .agents/HANDOFF.md", contentHash, ".agents/HANDOFF.md")
	w.evidence("CONTEXT_RETRIEVAL", "Read the issue or task", toolOutput, "task: "+objective)
	w.advance("")
	w.shell("BRANCH_CHECK", "Run git branch --show-current", "git branch --show-current")
	w.advance("")
	w.advance("WORKING")

	reverts := 1
	if sk == skipV3Reland {
		reverts = 2
	}
	for i := 0; i < reverts; i++ {
		if r := w.exec(w.root, "", "git", "revert", "--no-edit", target); r.code != 0 {
			w.halt("git revert refused: %s", r.text())
		}
	}
	out, code := w.shell("QA_VALIDATION", "Run checks that cover the changed behavior", "sh scripts/test.sh")
	if code != 0 {
		w.t.Fatalf("the revert fails the tests:\n%s", out)
	}
	w.evidence("QA_VALIDATION", "Fix what the checks report", toolOutput, "the checks reported nothing to fix:\n"+out)
	w.write(v3NewHandoff, "# Handoff 2026-08-20-01\n\n## Done\n\nReverted the README title change (git revert); the title is \"greet\" again.\n\n"+
		"## Next\n\nAgree on the title before changing it again.\n")
	w.evidence("HANDOFF", "Complete the handoff", filePath, v3NewHandoff)
	w.shell("GIT_OPERATIONS", "Re-verify the branch", "git branch --show-current")
	w.commit("docs(handoff): hand off the README revert")
	w.end(objective+": done", "", false)
}

// An honest session interrupted and resumed the next day: the first
// session's commit is on the branch, the session expires (idle_timeout),
// and the agent starts a new one that does the whole protocol again and
// ends COMPLETE. verify failed the first day's commit ("no session record":
// an abandoned session wrote none). The bench shortens idle_timeout to
// three seconds for the night.
const v3Resumed = "v3.0-style, resumed after the idle timeout"

// skipV3NightBypass: the first day's commit skips the hooks (--no-verify);
// the next day's session is clean.
const skipV3NightBypass skip = "the first day's commit made with --no-verify, the resumed session clean"

// skipV3NightHandoff: the first day's session updates .agents/HANDOFF.md
// directly and commits it as "wip"; the next day's session is clean
// (lazy-agent pass 22: its checks read only its own work).
const skipV3NightHandoff skip = "the first day's commit updates .agents/HANDOFF.md directly, message wip; the resumed session clean"

func init() {
	scenarios = append(scenarios,
		scenario{name: "v3-resumed-next-day", protocol: v3Resumed, via: "CLI",
			reading: "The session commits the name argument, then the agent stops for the night; the session expires. The next " +
				"day a new session does the start protocol again, runs the tests, writes the handoff and ends COMPLETE. " +
				"Compliant: clean, verify OK (the abandoned session's commit is continued by the COMPLETE one)."},
		scenario{name: "v3-resumed-night-bypass", protocol: v3Resumed, via: "CLI", skips: skipV3NightBypass,
			reading: "As above, but the first day's commit skipped the hooks. Not compliant: the BYPASS stays on the " +
				"abandoned session's record and verify fails."},
		scenario{name: "v3-resumed-night-handoff", protocol: v3Resumed, via: "CLI", skips: skipV3NightHandoff,
			reading: "As above, but the first day's commit updates the shared .agents/HANDOFF.md the protocol says not to " +
				"update directly, with the message wip. Not compliant: the resumed session's checks count from the " +
				"abandoned session's start, so its end is blocked (they read only its own work before pass 22)."},
	)
}

// v3ResumedRepo is the v3.0-style repository with a three-second
// idle_timeout, as a person set it.
func v3ResumedRepo(w *world) {
	w.t.Helper()
	doc, err := os.ReadFile(filepath.Join(moduleRoot, "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		w.t.Fatalf("read the v3.0-style protocol: %v", err)
	}
	w.write("SESSION-PROTOCOL.md", string(doc))
	w.write(".agents/HANDOFF.md", v3Handoff)
	w.write(".agents/handoffs/.gitkeep", "")
	projectFiles(w)
	w.sgOK("init")
	cfg := w.read("sessiongate.yaml")
	if !strings.Contains(cfg, "idle_timeout: 24h") {
		w.t.Fatalf("sessiongate.yaml has no idle_timeout: 24h:\n%s", cfg)
	}
	w.write("sessiongate.yaml", strings.Replace(cfg, "idle_timeout: 24h", "idle_timeout: 3s", 1))
	publish(w)
}

// v3ResumedFlow: day one does the start protocol and commits the work;
// day two starts a new session and does the whole protocol.
func v3ResumedFlow(w *world, sk skip) {
	w.git("switch", "-q", "-c", "feat/greet-name")
	startPhases := func(objective string) {
		w.start(objective)
		if sk == skipV3NightHandoff {
			// Read as an agent reads it, by cat: a content hash of the
			// handoff would be contradicted by git at verify (the file
			// changed), a catch by accident this row is not about.
			w.shell("CONTEXT_RETRIEVAL", "Read .agents/HANDOFF.md", "cat .agents/HANDOFF.md")
		} else {
			w.evidence("CONTEXT_RETRIEVAL", "Read .agents/HANDOFF.md", contentHash, ".agents/HANDOFF.md")
		}
		w.evidence("CONTEXT_RETRIEVAL", "Read the issue or task", toolOutput, "task: "+objective)
		w.advance("")
		w.shell("BRANCH_CHECK", "Run git branch --show-current", "git branch --show-current")
		w.advance("")
		w.advance("WORKING")
	}
	startPhases("Add a name argument to the greeting script")
	w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n")
	w.write("scripts/test.sh", greetTest)
	msg := "feat(scripts): greet takes an optional name"
	if sk == skipV3NightHandoff {
		w.deviate()
		w.write(".agents/HANDOFF.md", strings.Replace(w.read(".agents/HANDOFF.md"), "## Next\n", "## Done\n\n- Name argument.\n\n## Next\n", 1))
		msg = "wip"
	}
	if sk == skipV3NightBypass {
		w.deviate()
		w.git("add", "-A")
		if r := w.exec(w.root, "", "git", "commit", "-q", "--no-verify", "-m", msg); r.code != 0 {
			w.halt("commit --no-verify: %s", r.text())
		}
	} else {
		w.commit(msg)
	}
	time.Sleep(4 * time.Second) // the night: the session expires

	startPhases("Resume: add a name argument to the greeting script")
	out, code := w.shell("QA_VALIDATION", "Run checks that cover the changed behavior", "sh scripts/test.sh")
	if code != 0 {
		w.t.Fatalf("the change fails its tests:\n%s", out)
	}
	w.evidence("QA_VALIDATION", "Fix what the checks report", toolOutput, "the checks reported nothing to fix:\n"+out)
	w.write(v3NewHandoff, v3HonestHandoff)
	w.evidence("HANDOFF", "Complete the handoff", filePath, v3NewHandoff)
	w.shell("GIT_OPERATIONS", "Re-verify the branch", "git branch --show-current")
	w.commit("docs(handoff): hand off the name argument")
	w.end("greet takes a name: done", "", false)
}
