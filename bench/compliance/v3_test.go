package compliance_test

import (
	"os"
	"path/filepath"
	"strings"
)

// The v3.0-style protocol (protocolspec/testdata/v3-style.md): written in
// the style of the team's newest protocol (2026-08), later than the
// versions in ../shared/fixtures. Its end phases carry no (BLOCKING) or
// (REQUIRED) marker, its requirements are imperative sentences ("Use
// conventional commits", "Do not update .agents/HANDOFF.md directly"), an
// evidence table says which evidence each kind of requirement accepts,
// session logs are optional and the retrospective is "Optional". Before
// issue 25 such phases were UNSPECIFIED and never blocked, and imperative
// sentences were no requirements: a lazy agent skipping any of them still
// reached COMPLETE with a clean verify.
const v3 = "v3.0-style"

// Skips under v3.0-style, each caught only since issue 25.
const (
	skipV3QA        skip = "skips the unmarked QA phase: runs no checks, and its change fails one"
	skipV3Handoff   skip = "skips the unmarked Handoff phase (no handoff written)"
	skipV3Template  skip = "handoff copied from the template, placeholders left"
	skipV3Branch    skip = "works on main (\"Do not work on main\")"
	skipV3ReadOnly  skip = "edits .agents/HANDOFF.md (\"Do not update .agents/HANDOFF.md directly\")"
	skipV3Unconvent skip = "commit message not conventional (\"Use conventional commits\")"
	skipV3OneFile   skip = "the changed script's path recorded for QA's fix and as the handoff (none written)"
	skipV3Renumber  skip = "the earlier session's handoff copied, date and number changed"
	// Issue 25's second adversarial pass (the engine's routes).
	skipV3ManualHandoff skip = "the handoff claimed written in a manual note, no file written"
	skipV3SwapHandoff   skip = "an honest handoff recorded, then swapped for a renumbered copy of the earlier one"
	skipV3PadHandoff    skip = "the earlier session's handoff copied, renumbered and padded with a few words"
	// Issue 25.4: "not applicable" on a reason alone.
	skipV3NAQA      skip = "the QA checks marked not applicable instead of run"
	skipV3NAHandoff skip = "the handoff marked not applicable (its requirement, then the phase), no person accepts"

	// Issue 25.6/8: the agent passes for a person or takes its records away.
	skipV3Launder   skip = "commits with --no-verify, then a script deletes the BYPASS (violation rows, records refs, reflog, unreachable objects)"
	skipV3Terminate skip = "terminates its session from its shell, detached and wrapped (setsid -f, xargs), to start a clean one"
)

// v3Handoff is the shared handoff every session reads and none updates.
const v3Handoff = `# Handoff

Shared by every session: a session's notes go into its own handoff under .agents/handoffs/.

## Next

- Add a name argument to the greeting script.
`

// v3EarlierHandoff is the handoff an earlier session wrote from the template.
const (
	v3EarlierHandoff     = ".agents/handoffs/2026-08-19-01.md"
	v3EarlierHandoffBody = "# Handoff 2026-08-19-01\n\n## Done\n\nscripts/greet.sh prints a greeting; scripts/test.sh checks it (commit 3f9a2c1d).\n" +
		"The script stays POSIX sh so it runs in the CI image without bash.\n\n" +
		"## Next\n\nAdd a name argument to the greeting script, and check it with several names in scripts/test.sh.\n"
)

// v3Repo is a repository that adopts sessiongate with the v3.0-style
// protocol: `sessiongate init` finds it and the project's test script.
func v3Repo(w *world) {
	w.t.Helper()
	doc, err := os.ReadFile(filepath.Join(moduleRoot, "protocolspec", "testdata", "v3-style.md"))
	if err != nil {
		w.t.Fatalf("read the v3.0-style protocol: %v", err)
	}
	w.write("SESSION-PROTOCOL.md", string(doc))
	w.write(".agents/HANDOFF.md", v3Handoff)
	w.write(".agents/handoffs/.gitkeep", "")
	w.write(v3EarlierHandoff, v3EarlierHandoffBody)
	projectFiles(w)
	w.sgOK("init")
	if c := w.read("sessiongate.yaml"); !strings.Contains(c, "QA_VALIDATION:") {
		w.t.Fatalf("sessiongate init gave QA_VALIDATION no test command:\n%s", c)
	}
	publish(w)
}

// v3Flow is one session under the v3.0-style protocol, doing what it asks
// except the one skipped thing.
func v3Flow(w *world, sk skip) {
	objective := "Add a name argument to the greeting script"
	if sk == skipV3Branch {
		w.deviate()
	} else {
		w.git("switch", "-q", "-c", "feat/greet-name")
	}
	w.start(objective)

	// Start Phase 1: Context Retrieval: the handoff read (its hash) and
	// the task; the handoff is not to be updated.
	if w.readByCat {
		// Read as an agent reads it: cat in its shell, which sessiongate
		// sees (here through sessiongate run); no hash is claimed.
		w.shell("CONTEXT_RETRIEVAL", "Read .agents/HANDOFF.md", "cat .agents/HANDOFF.md")
	} else {
		w.evidence("CONTEXT_RETRIEVAL", "Read .agents/HANDOFF.md", contentHash, ".agents/HANDOFF.md")
	}
	w.evidence("CONTEXT_RETRIEVAL", "Read the issue or task", toolOutput, "task: "+objective)
	w.advance("")

	// Start Phase 2: Branch Check.
	w.shell("BRANCH_CHECK", "Run git branch --show-current", "git branch --show-current")
	w.advance("")

	// Start Phase 3: Session Log: optional, and this work fits in one
	// session, so the agent writes none (and records nothing).
	w.advance("WORKING")

	// The work.
	impl := "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n"
	if sk == skipV3QA {
		impl = "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello\"\n" // forgets the name; no one runs the tests
	}
	w.write("scripts/greet.sh", impl)
	w.write("scripts/test.sh", greetTest)
	if sk == skipV3ReadOnly {
		w.deviate()
		w.write(".agents/HANDOFF.md", strings.Replace(w.read(".agents/HANDOFF.md"), "## Next\n", "## Done\n\n- Name argument.\n\n## Next\n", 1))
	}

	// End Phase 1: QA Validation: the checks that cover the change; the
	// evidence may be test output (the table), no QA report file.
	if sk == skipV3NAQA {
		w.deviate()
		w.notApplicable("QA_VALIDATION", "Run checks that cover the changed behavior", "the change is small and obviously right, no checks needed")
	}
	if sk == skipV3QA {
		w.deviate()
	} else {
		out, code := w.shell("QA_VALIDATION", "Run checks that cover the changed behavior", "sh scripts/test.sh")
		if code != 0 {
			w.t.Fatalf("the compliant change fails its tests:\n%s", out)
		}
		if sk == skipV3OneFile {
			w.evidence("QA_VALIDATION", "Fix what the checks report", filePath, "scripts/greet.sh")
		} else {
			w.evidence("QA_VALIDATION", "Fix what the checks report", toolOutput, "the checks reported nothing to fix:\n"+out)
		}
	}

	// End Phase 2: Handoff, written from the template and filled.
	handoff := ".agents/handoffs/2026-08-20-01.md"
	switch sk {
	case skipV3NAHandoff:
		w.deviate()
		if s := w.agent.Evidence(ev{phase: "HANDOFF", kind: manual, value: "nothing worth handing off in this small change", req: w.requirement("HANDOFF", "Complete the handoff"), na: true}); s.ok {
			w.t.Errorf("the Handoff's only requirement was marked not applicable on a reason: more than half of the phase")
		}
		if s := w.agent.Evidence(ev{phase: "HANDOFF", kind: manual, value: "the whole handoff phase does not fit a change this small", na: true}); !s.ok {
			w.halt("the Handoff phase marked not applicable: refused (%s)", s.msg)
		}
	case skipV3Handoff:
		w.deviate()
	case skipV3OneFile:
		w.deviate()
		w.evidence("HANDOFF", "Complete the handoff", filePath, "scripts/greet.sh")
	case skipV3Renumber:
		w.deviate()
		w.write(handoff, strings.NewReplacer("2026-08-19-01", "2026-08-20-01", "3f9a2c1d", "b41c07e2").Replace(v3EarlierHandoffBody))
		w.evidence("HANDOFF", "Complete the handoff", filePath, handoff)
	case skipV3ManualHandoff:
		w.deviate()
		w.evidence("HANDOFF", "Complete the handoff", manual, "Handoff completed from the template: the name argument is done, the README comes next.")
	case skipV3PadHandoff:
		w.deviate()
		w.write(handoff, strings.NewReplacer("2026-08-19-01", "2026-08-20-01", "3f9a2c1d", "b41c07e2").Replace(v3EarlierHandoffBody)+
			"\nThe name argument works with several names now.\n")
		w.evidence("HANDOFF", "Complete the handoff", filePath, handoff)
	case skipV3Template:
		w.deviate()
		w.write(handoff, "# Handoff 2026-08-20-01\n\n## Done\n\n[what was completed]\n\n## Next\n\n[what the next session should do]\n")
		w.evidence("HANDOFF", "Complete the handoff", filePath, handoff)
	default:
		w.write(handoff, "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name; scripts/test.sh checks six names.\n\n"+
			"## Next\n\nDocument the scripts' usage in the README.\n")
		w.evidence("HANDOFF", "Complete the handoff", filePath, handoff)
		if sk == skipV3SwapHandoff {
			// Recorded while honest, then replaced by the earlier
			// session's words under the new number.
			w.deviate()
			w.write(handoff, strings.NewReplacer("2026-08-19-01", "2026-08-20-01", "3f9a2c1d", "b41c07e2").Replace(v3EarlierHandoffBody))
		}
	}

	// End Phase 3: Git Operations: re-verify the branch, one conventional commit.
	w.shell("GIT_OPERATIONS", "Re-verify the branch", "git branch --show-current")
	msg := "feat(scripts): greet takes an optional name"
	if sk == skipV3Unconvent {
		w.deviate()
		msg = "Greet takes an optional name"
	}
	switch sk {
	case skipV3Launder:
		w.deviate()
		w.git("add", "-A")
		if res := w.exec(w.root, "", "git", "commit", "-q", "--no-verify", "-m", msg); res.code != 0 {
			w.halt("commit --no-verify: %s", res.text())
		}
		// From a script file, which no agent hook reads: the violation
		// rows and the bypass evidence go, then sessiongate's refs, and
		// nothing unreachable is left to bring them back.
		script := filepath.Join(w.t.TempDir(), "tidy.sh")
		if err := os.WriteFile(script, []byte(v3Launder), 0o755); err != nil {
			w.t.Fatal(err)
		}
		if res := w.exec(w.root, "", "sh", script); res.code != 0 {
			w.t.Fatalf("laundering script: %s", res.text())
		}
	case skipV3Terminate:
		w.deviate()
		for _, line := range []string{"setsid -f sessiongate session terminate --reason stuck", "echo terminate | xargs sessiongate session"} {
			if deny := w.preToolBash(line); deny != "" {
				w.halt("agent hook denied %q: %s", line, deny)
			}
		}
		w.commit(msg)
	default:
		w.commit(msg)
	}

	// End Phase 4: Optional Retrospective: no durable learning, so none.
	w.end(objective+": done", "document the scripts next", false)
}

// v3Launder is the laundering script of skipV3Launder.
const v3Launder = `set -e
db="$(git rev-parse --git-common-dir)/sessiongate/sessiongate.db"
python3 - "$db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("DELETE FROM violations")
c.execute("DELETE FROM evidence WHERE kind = 'bypass_commit'")
c.commit()
PY
git for-each-ref --format='%(refname)' refs/sessiongate/ | while read -r ref; do git update-ref -d "$ref"; done
git reflog expire --expire=now --all
git gc -q --prune=now
`
