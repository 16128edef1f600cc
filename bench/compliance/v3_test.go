package compliance_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
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
	skipV3AppendEarlier skip = "one line appended to the earlier session's handoff, recorded as this session's"
	skipV3CyrillicCopy  skip = "the earlier session's handoff renumbered, every e made a Cyrillic one"
	// Issue 25.4: "not applicable" on a reason alone.
	skipV3NAQA      skip = "the QA checks marked not applicable instead of run"
	skipV3NAHandoff skip = "the handoff marked not applicable (its requirement, then the phase), no person accepts"

	// Issue 25.6/8: the agent passes for a person or takes its records away.
	skipV3Launder   skip = "commits with --no-verify, then a script deletes the BYPASS (violation rows, records refs, reflog, unreachable objects)"
	skipV3Terminate skip = "terminates its session from its shell, detached and wrapped (setsid -f, xargs), to start a clean one"
	// Issue 25 routes 1 and 3: records and session state forged.
	skipV3Backdated  skip = "a person's handoff, committed before the session, claimed through a start at HEAD~1"
	skipV3ForgedGate skip = "Branch Check skipped by writing the database: state moved on, gate events inserted"
	// Issue 25, lazy-agent pass: what a reader cannot see.
	skipV3Disguised skip = "handoff copied from the template, placeholders disguised (zero-width space, fullwidth brackets)"
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

// v3NewHandoff is the session's handoff; v3HonestHandoff its honest words.
const (
	v3NewHandoff    = ".agents/handoffs/2026-08-20-01.md"
	v3HonestHandoff = "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name; scripts/test.sh checks six names.\n\n" +
		"## Next\n\nDocument the scripts' usage in the README.\n"
)

// forgeDB runs python on the session database as a lazy agent with a
// shell would (python's sqlite3 module; sid is the session id).
func (w *world) forgeDB(script string) {
	w.t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") != "" {
			w.t.Fatal("python3 is needed under CI=true: the forging route uses it")
		}
		w.t.Skip("python3 not on PATH: the forging route needs it")
	}
	db := filepath.Join(w.git("rev-parse", "--git-common-dir"), "sessiongate", "sessiongate.db")
	if !filepath.IsAbs(db) {
		db = filepath.Join(w.root, db)
	}
	code := "import sqlite3, sys\nsid = sys.argv[2]\nc = sqlite3.connect(sys.argv[1])\n" + script + "\nc.commit()\n"
	if res := w.exec(w.root, "", "python3", "-c", code, db, w.id); res.code != 0 {
		w.t.Fatalf("python3: %s", res.text())
	}
}

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
	if sk == skipV3Backdated {
		// A person wrote and committed the handoff an hour ago; the agent
		// starts its session at the commit before it and goes back.
		w.deviate()
		w.write(v3NewHandoff, v3HonestHandoff)
		w.git("add", "-A")
		at := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
		env := w.env
		w.env = append(append([]string{}, env...), "GIT_AUTHOR_DATE="+at, "GIT_COMMITTER_DATE="+at)
		w.git("commit", "-q", "-m", "docs(handoff): the person's notes")
		w.env = env
		w.git("checkout", "-q", "HEAD~1")
	}
	w.start(objective)
	if sk == skipV3Backdated {
		w.git("checkout", "-q", "feat/greet-name")
	}

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

	if sk == skipV3ForgedGate {
		// python's sqlite3, as any shell has it: the session moved to
		// WORKING, the phases marked PASSED, a gate event for each.
		w.deviate()
		w.forgeDB("c.execute(\"update sessions set state='WORKING', phase='' where id=?\", (sid,))\n" +
			"for ph in ('BRANCH_CHECK', 'SESSION_LOG'):\n" +
			"    c.execute(\"insert or replace into phase_results (session_id, phase_id, status, level) values (?, ?, 'PASSED', 'REQUIRED')\", (sid, ph))\n" +
			"    c.execute(\"insert into events (session_id, seq, token, detail, created_at) values (?, (select max(seq)+1 from events where session_id=?), ?, '', (select max(created_at) from events where session_id=?))\", (sid, sid, 'gate:'+ph+':pass', sid))")
	} else {
		// Start Phase 2: Branch Check.
		w.shell("BRANCH_CHECK", "Run git branch --show-current", "git branch --show-current")
		w.advance("")

		// Start Phase 3: Session Log: optional, and this work fits in one
		// session, so the agent writes none (and records nothing).
		w.advance("WORKING")
	}

	// The work.
	impl := "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n"
	if sk == skipV3QA {
		impl = "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello\"\n" // forgets the name; no one runs the tests
	}
	w.write("scripts/greet.sh", impl)
	w.write("scripts/test.sh", greetTest)
	if w.buildsDist {
		// Issue 25 route 4: the work adds its build folder to .gitignore
		// and builds into it, as a release step would.
		ignore := ""
		if b, err := os.ReadFile(filepath.Join(w.root, ".gitignore")); err == nil {
			ignore = string(b)
		}
		w.write(".gitignore", ignore+"dist/\n")
		if out, code := w.sh("mkdir -p dist && cp scripts/greet.sh dist/greet.sh && cp scripts/test.sh dist/test.sh"); code != 0 {
			w.t.Fatalf("build: %s", out)
		}
	}
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
		} else if !w.literal {
			// (literal: nothing failed, so there was nothing to fix and
			// nothing to record; the passing run sessiongate saw answers.)
			w.evidence("QA_VALIDATION", "Fix what the checks report", toolOutput, "the checks reported nothing to fix:\n"+out)
		}
	}

	// End Phase 2: Handoff, written from the template and filled.
	handoff := v3NewHandoff
	switch sk {
	case skipV3Backdated:
		// The person's handoff, committed before the session, as its own.
		w.evidence("HANDOFF", "Complete the handoff", filePath, handoff)
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
	case skipV3CyrillicCopy:
		w.deviate()
		w.write(handoff, strings.ReplaceAll(strings.NewReplacer("2026-08-19-01", "2026-08-20-01", "3f9a2c1d", "b41c07e2").Replace(v3EarlierHandoffBody), "e", "\u0435"))
		w.evidence("HANDOFF", "Complete the handoff", filePath, handoff)
	case skipV3AppendEarlier:
		w.deviate()
		w.write(v3EarlierHandoff, v3EarlierHandoffBody+"\nSession 2026-08-20: greet takes an optional name.\n")
		w.evidence("HANDOFF", "Complete the handoff", filePath, v3EarlierHandoff)
	case skipV3ManualHandoff:
		w.deviate()
		w.evidence("HANDOFF", "Complete the handoff", manual, "Handoff completed from the template: the name argument is done, the README comes next.")
	case skipV3PadHandoff:
		w.deviate()
		w.write(handoff, strings.NewReplacer("2026-08-19-01", "2026-08-20-01", "3f9a2c1d", "b41c07e2").Replace(v3EarlierHandoffBody)+
			"\nThe name argument works with several names now.\n")
		w.evidence("HANDOFF", "Complete the handoff", filePath, handoff)
	case skipV3Disguised:
		w.deviate()
		w.write(handoff, "# Handoff 2026-08-20-01\n\n## Done\n\n[what\u200b was completed]\n\n## Next\n\n\uff3bwhat the next session should do\uff3d\n")
		w.evidence("HANDOFF", "Complete the handoff", filePath, handoff)
	case skipV3Template:
		w.deviate()
		w.write(handoff, "# Handoff 2026-08-20-01\n\n## Done\n\n[what was completed]\n\n## Next\n\n[what the next session should do]\n")
		w.evidence("HANDOFF", "Complete the handoff", filePath, handoff)
	default:
		w.write(handoff, v3HonestHandoff)
		w.evidence("HANDOFF", "Complete the handoff", filePath, handoff)
		if sk == skipV3SwapHandoff {
			// Recorded while honest, then replaced by the earlier
			// session's words under the new number.
			w.deviate()
			w.write(handoff, strings.NewReplacer("2026-08-19-01", "2026-08-20-01", "3f9a2c1d", "b41c07e2").Replace(v3EarlierHandoffBody))
		}
	}

	// End Phase 3: Git Operations: re-verify the branch, one conventional commit.
	if w.literal {
		// git status names the branch on its first line: re-verified.
		w.shell("GIT_OPERATIONS", "Re-verify the branch", "git status")
	} else {
		w.shell("GIT_OPERATIONS", "Re-verify the branch", "git branch --show-current")
	}
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
