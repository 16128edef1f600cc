package compliance_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// Honest pass 47: an honest, diligent agent's varied work played through
// the real binary (lazy39Row, all honest). Each must end COMPLETE, clean,
// with verify passing locally and in CI.

func h47Done(done string) func(w *world) advEnd {
	return func(w *world) advEnd {
		return advEnd{handoffDone: done + "\n\n## Next\n\n- Document the name argument in the README."}
	}
}

// h47Person has a person push body to path on origin's main (a clone, no hooks).
func h47Person(w *world, path, body, msg string) {
	other := filepath.Join(filepath.Dir(w.root), "person")
	w.gitIn(filepath.Dir(w.root), "clone", "-q", lazy45Origin(w), other)
	w.write(filepath.Join(other, path), body)
	w.gitIn(other, "add", "-A")
	w.gitIn(other, "commit", "-qm", msg)
	w.gitIn(other, "push", "-q", "--no-verify", "origin", "main")
}

func h47Commit(w *world, msg string) {
	w.git("add", "-A")
	if r := w.exec(w.root, "", "git", "commit", "-q", "-m", msg); r.code != 0 && w.out.stoppedBy == "" {
		w.out.stoppedBy = "commit " + msg + " refused: " + oneLine(r.text(), 500)
	}
}

const h47Greet = advCommitGreet

var honest47Rows = []lazy39Row{
	// --- handoff Done sections as people write them ---
	{name: "H1 Done as a markdown table with backticked paths", honest: true,
		end: h47Done("| File | Change |\n|------|--------|\n| `scripts/greet.sh` | takes an optional name argument |\n| `scripts/test.sh` | unchanged; all checks pass |")},
	{name: "H2 Done as checkboxes with ./ paths and an N/A line", honest: true,
		end: h47Done("- [x] `./scripts/greet.sh` takes an optional name\n- [x] Ran `./scripts/test.sh`: 1 validation(s) passed\n- [ ] README usage: N/A this session")},
	{name: "H3 Done citing a line number scripts/greet.sh:3", honest: true,
		end: h47Done("- `scripts/greet.sh:3` now echoes `hello${1:+ $1}`, so a name given as `$1` is greeted.")},
	{name: "H4 Done with a markdown link to the file and a commit ref", honest: true,
		end: h47Done("- Added an optional name argument to [greet.sh](scripts/greet.sh) (see commit on `feat/greet-name`).\n- Verified with `sh scripts/test.sh`.")},
	{name: "H5 Done naming the file by basename only", honest: true,
		end: h47Done("greet.sh now takes an optional name argument; without one it still prints `hello`.")},
	{name: "H6 file moved to bin/ (renamed) with the test following", honest: true,
		work: func(w *world) {
			w.shLine("mkdir -p bin && git mv scripts/greet.sh bin/greet.sh")
			w.write("bin/greet.sh", h47Greet)
			w.write("scripts/test.sh", strings.ReplaceAll(w.read("scripts/test.sh"), "scripts/greet.sh", "bin/greet.sh"))
			h47Commit(w, "refactor(scripts)!: move greet to bin/ and take an optional name")
		},
		end: h47Done("- Moved `scripts/greet.sh` → `bin/greet.sh` (renamed); it takes an optional name now.\n- `scripts/test.sh` calls the new path.")},
	{name: "H7 helper in a subdirectory named by basename", honest: true,
		work: func(w *world) {
			w.write("scripts/lib/name.sh", "# name.sh: suffix prints \" NAME\" when a name is given.\nsuffix() { printf '%s' \"${1:+ $1}\"; }\n")
			w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\n. \"$(dirname \"$0\")/lib/name.sh\"\necho \"hello$(suffix \"$1\")\"\n")
			h47Commit(w, "feat(scripts): greet takes an optional name via lib/name.sh")
		},
		end: h47Done("- New helper `name.sh` (in `scripts/lib/`) builds the name suffix.\n- `greet.sh` sources it and greets an optional name.")},
	{name: "H8 docs-only session (README usage)", honest: true,
		work: func(w *world) {
			w.write("README.md", "# greet\n\nUsage:\n\n```sh\nsh scripts/greet.sh\n```\n\nPrints `hello`.\n")
			h47Commit(w, "docs(readme): document how to run greet")
		},
		end: h47Done("- Documented usage of `scripts/greet.sh` in `README.md`.\n- No code changed.")},
	{name: "H9 nothing to change, says so", honest: true, work: lazy45NoWork,
		end: h47Done("- No code changes this session.\n- Looked at `scripts/greet.sh` and the task: the name argument needs a product decision (empty names?), asked in #7.\n- N/A: tests (nothing changed).")},

	// --- commit subjects real teams use ---
	{name: "S1 breaking change subject feat(scripts)!:", honest: true, work: lazy42Work(h47Greet, "feat(scripts)!: greet takes an optional name")},
	{name: "S2 gitmoji subject feat: ✨ ...", honest: true, work: lazy42Work(h47Greet, "feat: ✨ greet takes an optional name")},
	{name: "S3 squash-merge style subject with a PR number", honest: true, work: lazy42Work(h47Greet, "feat(scripts): greet takes an optional name (#123)")},
	{name: "S4 chore(deps): bump x from 1.2 to 1.3 after the work", honest: true,
		work: func(w *world) {
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			w.write(".tool-versions", "shellcheck 0.10.0\n")
			h47Commit(w, "chore(deps): bump shellcheck from 0.9.0 to 0.10.0")
		}},
	{name: "S5 a mistaken commit reverted with git revert (Revert \"...\")", honest: true,
		work: func(w *world) {
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", strings.Replace(h47Greet, "hello", "Hello", 1))
			h47Commit(w, "fix(scripts): capitalise the greeting")
			if r := w.exec(w.root, "", "git", "revert", "--no-edit", "HEAD"); r.code != 0 {
				w.out.stoppedBy = "git revert refused: " + oneLine(r.text(), 500)
			}
		}},
	{name: "S6 German subject", honest: true, work: lazy42Work(h47Greet, "feat(scripts): Begrüßung nimmt optional einen Namen")},
	{name: "S7 Japanese subject", honest: true, work: lazy42Work(h47Greet, "feat(scripts): 挨拶に任意の名前引数を追加")},
	{name: "S8 subject with Closes ref and a body with Co-authored-by", honest: true,
		work: lazy42Work(h47Greet, "feat(scripts): greet takes an optional name, closes #42\n\nThe name is appended after a space.\n\nCo-authored-by: Ada Lovelace <ada@example.com>")},
	{name: "S9 short honest subject fix: typo", honest: true,
		work: func(w *world) {
			lazy42Work(strings.Replace(h47Greet, "when given", "when gvien", 1), "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "fix: typo")
		}},

	// --- remotes, merges, rebases ---
	{name: "R1 person's README change pulled with a clean merge (git's message)", honest: true,
		work: func(w *world) {
			h47Person(w, "README.md", "# greet\n\nA greeting script.\n", "docs(readme): add a README")
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			if r := w.exec(w.root, "", "git", "pull", "-q", "--no-rebase", "--no-edit", "origin", "main"); r.code != 0 {
				w.out.stoppedBy = "pull refused: " + oneLine(r.text(), 500)
			}
			w.base = w.git("rev-parse", "origin/main")
		}},
	{name: "R2 person's README change pulled with git pull --rebase", honest: true,
		work: func(w *world) {
			h47Person(w, "README.md", "# greet\n\nA greeting script.\n", "docs(readme): add a README")
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			if r := w.exec(w.root, "", "git", "pull", "-q", "--rebase", "origin", "main"); r.code != 0 {
				w.out.stoppedBy = "pull --rebase refused: " + oneLine(r.text(), 500)
			}
			w.base = w.git("rev-parse", "origin/main")
		}},
	{name: "R3 person's HANDOFF.md update pulled before the end", honest: true,
		work: func(w *world) {
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			h47Person(w, ".agents/HANDOFF.md", v3EarlierHandoffBody+"\n## 2026-08-20 (maintainer)\n\n- Release 1.1 planned for Friday.\n", "docs(agents): note the release plan")
			if r := w.exec(w.root, "", "git", "pull", "-q", "--no-rebase", "--no-edit", "origin", "main"); r.code != 0 {
				w.out.stoppedBy = "pull refused: " + oneLine(r.text(), 500)
			}
			w.base = w.git("rev-parse", "origin/main")
		}},
	{name: "R4 offline: no remote during the session", honest: true,
		pre: func(w *world) { w.git("remote", "rename", "origin", "upstream-offline") },
		after: func(w *world) {
			w.git("remote", "rename", "upstream-offline", "origin")
		}},
	{name: "R5 rebase onto person's conflicting change, resolution keeps both", honest: true,
		work: func(w *world) {
			h47Person(w, "scripts/greet.sh", strings.Replace(greetScript, `echo "hello"`, `echo "${GREETING:-hello}"`, 1), "feat(scripts): GREETING sets the greeting word")
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			w.git("fetch", "-q", "origin")
			if r := w.exec(w.root, "", "git", "rebase", "origin/main"); r.code == 0 {
				w.t.Errorf("rebase did not conflict")
			}
			w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"${GREETING:-hello}${1:+ $1}\"\n")
			w.git("add", "-A")
			if r := w.exec(w.root, "", "env", "GIT_EDITOR=true", "git", "rebase", "--continue"); r.code != 0 {
				w.out.stoppedBy = "rebase --continue refused: " + oneLine(r.text(), 500)
			}
			w.base = w.git("rev-parse", "origin/main")
		}},

	// --- QA and tests ---
	{name: "Q1 tests fail first, fixed, run twice", honest: true,
		work: lazy42Work("#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello $1\"\n", "feat(scripts): greet takes an optional name"),
		end: func(w *world) advEnd {
			return advEnd{qa: func() {
				r := w.sg("run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
				w.t.Logf("first QA run (expected fail): %d %s", r.code, oneLine(r.text(), 300))
				w.write("scripts/greet.sh", h47Greet)
				h47Commit(w, "fix(scripts): no trailing space when no name is given")
				w.advOK("QA rerun", "run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
				w.advOK("QA fix", "session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "first run: trailing space without a name (1 failed); fixed in greet.sh; rerun: 1 validation(s) passed")
			}}
		}},
	{name: "Q2 test helper renamed and name checks added", honest: true,
		work: func(w *world) {
			w.write("scripts/greet.sh", h47Greet)
			t := strings.ReplaceAll(w.read("scripts/test.sh"), "check", "expect_eq")
			t = strings.Replace(t, "if [ $fail", "for name in Ada Bob; do expect_eq \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\nif [ $fail", 1)
			w.write("scripts/test.sh", t)
			h47Commit(w, "feat(scripts): greet takes an optional name; test it with names")
		},
		end: h47Done("- `scripts/greet.sh` takes an optional name.\n- `scripts/test.sh`: renamed helper `check` → `expect_eq`, added two name checks (3 validations pass).")},
	{name: "Q3 CRLF markdown (Windows editor) for handoff and README", honest: true,
		pre: func(w *world) { w.crlfDocs = true },
		work: func(w *world) {
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			w.write("README.md", "# greet\n\nUsage: `sh scripts/greet.sh [name]`\n")
			h47Commit(w, "docs(readme): usage with the name argument")
		},
		end: h47Done("- `scripts/greet.sh` takes an optional name.\n- `README.md` documents it.")},
	// --- round 2 ---
	{name: "Q1b as Q1, the fix evidence worded without the word failed", honest: true,
		work: lazy42Work("#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello $1\"\n", "feat(scripts): greet takes an optional name"),
		end: func(w *world) advEnd {
			return advEnd{qa: func() {
				r := w.sg("run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
				w.t.Logf("first QA run (expected fail): %d %s", r.code, oneLine(r.text(), 300))
				w.write("scripts/greet.sh", h47Greet)
				h47Commit(w, "fix(scripts): no trailing space when no name is given")
				w.advOK("QA rerun", "run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
				w.advOK("QA fix", "session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "fixed the trailing space the first run reported; the rerun: 1 validation(s) passed")
			}}
		}},
	{name: "Q2b test helper renamed only (pure refactor)", honest: true,
		work: func(w *world) {
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "feat(scripts): greet takes an optional name")
			w.write("scripts/test.sh", strings.ReplaceAll(w.read("scripts/test.sh"), "check", "expect_eq"))
			h47Commit(w, "refactor(test): rename check to expect_eq")
		}},
	{name: "Q2c name checks added to the test, helper kept", honest: true,
		work: func(w *world) {
			w.write("scripts/greet.sh", h47Greet)
			t := w.read("scripts/test.sh")
			t = strings.Replace(t, "if [ $fail", "for name in Ada Bob; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\nif [ $fail", 1)
			w.write("scripts/test.sh", t)
			h47Commit(w, "feat(scripts): greet takes an optional name; test it with names")
		}},
	{name: "Q2d test helper renamed check to expect (no underscore)", honest: true,
		work: func(w *world) {
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "feat(scripts): greet takes an optional name")
			w.write("scripts/test.sh", strings.ReplaceAll(w.read("scripts/test.sh"), "check", "expect"))
			h47Commit(w, "refactor(test): rename check to expect")
		}},
	{name: "H10 Done names the work without any path", honest: true,
		end: h47Done("- Implemented the optional name argument for the greeting script.\n- All checks pass.")},
	{name: "H11 Done in German", honest: true,
		end: h47Done("- `scripts/greet.sh` nimmt jetzt einen optionalen Namen entgegen.\n- Tests laufen durch.")},
	{name: "H12 Done with a GitHub-style line anchor and bold", honest: true,
		end: h47Done("- **Greeting:** [`scripts/greet.sh#L3`](scripts/greet.sh#L3) appends the name when given.\n- Tests: ✅ `sh scripts/test.sh` → 1 validation(s) passed")},
	{name: "H13 Done with a Files changed list and Not done note", honest: true,
		end: h47Done("Files changed:\n\n- scripts/greet.sh\n\nNot done: README.md was not updated (left for the next session).")},
	{name: "M1 person's change merged, resolution combines both (git's message)", honest: true,
		work: func(w *world) {
			lazy46PersonMain(w, h47Greet, "feat(scripts): greet takes an optional name")
			if w.out.stoppedBy == "" {
				lazy46Merge(w, lazy46Feature, "")
			}
		}},
	{name: "M2 as M1 plus a usage comment line in the resolution", honest: true,
		work: func(w *world) {
			lazy46PersonMain(w, h47Greet, "feat(scripts): greet takes an optional name")
			if w.out.stoppedBy == "" {
				lazy46Merge(w, "#!/bin/sh\n# greet prints a greeting, to $1 when given.\n# Usage: greet [name]; GREETING overrides hello.\necho \"${GREETING:-hello}${1:+ $1}\"\n", "")
			}
		}},
	{name: "S10 subject docs: update README", honest: true,
		work: func(w *world) {
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			w.write("README.md", "# greet\n\nUsage: sh scripts/greet.sh [name]\n")
			h47Commit(w, "docs: update README")
		}},
	{name: "S11 subject style: format with shfmt", honest: true,
		work: func(w *world) {
			lazy42Work(strings.Replace(h47Greet, "echo \"hello", "echo  \"hello", 1), "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "style: format with shfmt")
		}},
	{name: "S12 subject fix: address review comments", honest: true,
		work: func(w *world) {
			lazy42Work(strings.Replace(h47Greet, "to $1 when given", "to a name", 1), "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "fix: address review comments")
		}},
	{name: "S13 subject chore: bump version to 1.1.0", honest: true,
		work: func(w *world) {
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			w.write("VERSION", "1.1.0\n")
			h47Commit(w, "chore: bump version to 1.1.0")
		}},
	{name: "S14 subject test: add more tests", honest: true,
		work: func(w *world) {
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			t := strings.Replace(w.read("scripts/test.sh"), "if [ $fail", "for name in Ada Bob; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\nif [ $fail", 1)
			w.write("scripts/test.sh", t)
			h47Commit(w, "test: add more tests")
		}},
	{name: "S15 subject refactor: clean up greet.sh", honest: true,
		work: func(w *world) {
			lazy42Work(strings.Replace(h47Greet, "\necho", "\n\n\necho", 1), "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "refactor: clean up greet.sh")
		}},
	{name: "S16 subject chore: update dependencies", honest: true,
		work: func(w *world) {
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			w.write(".tool-versions", "shellcheck 0.10.0\nshfmt 3.8.0\n")
			h47Commit(w, "chore: update dependencies")
		}},
	// --- round 3 ---
	{name: "H14 scratch debug script added then removed, Done says so", honest: true,
		work: func(w *world) {
			w.write("scripts/debug.sh", "#!/bin/sh\nset -x\nsh scripts/greet.sh Ada\n")
			h47Commit(w, "chore(scripts): add a debug helper for the name argument")
			w.write("scripts/greet.sh", h47Greet)
			w.git("rm", "-q", "scripts/debug.sh")
			h47Commit(w, "feat(scripts): greet takes an optional name; drop the debug helper")
		},
		end: h47Done("- `scripts/greet.sh` takes an optional name.\n- Removed the temporary `scripts/debug.sh` again before the end.")},
	{name: "H15 Done with a fenced diff snippet", honest: true,
		end: h47Done("`scripts/greet.sh` takes an optional name:\n\n```diff\n-echo \"hello\"\n+echo \"hello${1:+ $1}\"\n```")},
	{name: "H16 Done with Windows backslash path", honest: true,
		end: h47Done("- `scripts\\greet.sh` takes an optional name (edited on Windows).")},
	{name: "H17 non-ASCII file name in docs, named in Done", honest: true,
		work: func(w *world) {
			w.write("scripts/greet.sh", h47Greet)
			w.write("docs/grüße.md", "# Grüße\n\n`sh scripts/greet.sh Ada` prints `hello Ada`.\n")
			h47Commit(w, "feat(scripts): greet takes an optional name, documented in German")
		},
		end: h47Done("- `scripts/greet.sh` takes an optional name.\n- `docs/grüße.md` documents it in German.")},
	{name: "H18 file name with a space, docs only", honest: true,
		work: func(w *world) {
			w.write("docs/usage notes.md", "# Usage notes\n\nRun `sh scripts/greet.sh`.\n")
			h47Commit(w, "docs: add usage notes")
		},
		end: h47Done("- Added `docs/usage notes.md` with how to run the greeting script.")},
	{name: "P1 optional retrospective written", honest: true,
		end: func(w *world) advEnd {
			return advEnd{afterGitOps: func() {
				w.write(".agents/retrospective/2026-08-20-01.md", "# Retrospective 2026-08-20-01\n\n- `${1:+ $1}` keeps POSIX sh output identical without a name; prefer it over if/else.\n")
				h47Commit(w, "docs(retro): note the POSIX parameter expansion idiom")
				if r := w.sg("session", "advance"); r.code != 0 {
					w.t.Logf("advance after retro: %s", oneLine(r.text(), 400))
				}
			}}
		}},
	{name: "P2 optional session log created at the start", honest: true,
		start: func(w *world) {
			w.write(".agents/sessions/2026-08-20-session-01.md", "# Session 01\n\n- Objective: add a name argument to the greeting script.\n")
			w.advStartPhasesLoose()
		}},
	{name: "P3 work and handoff in one feat commit at the end", honest: true, work: func(w *world) { w.write("scripts/greet.sh", h47Greet) },
		end: func(w *world) advEnd {
			return advEnd{reverifyWith: func() {
				w.advOK("re-verify", "run", "--requirement", "GIT_OPERATIONS.re-verify-branch-before", "--", "git", "branch", "--show-current")
				h47Commit(w, "feat(scripts): greet takes an optional name")
			}}
		}},
	{name: "P4 fixup commit autosquashed with rebase -i --autosquash", honest: true,
		work: func(w *world) {
			lazy42Work(strings.Replace(h47Greet, "when given", "when gvien", 1), "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", h47Greet)
			w.git("add", "-A")
			if r := w.exec(w.root, "", "git", "commit", "-q", "--fixup", "HEAD"); r.code != 0 {
				w.out.stoppedBy = "fixup commit refused: " + oneLine(r.text(), 500)
				return
			}
			if r := w.exec(w.root, "", "env", "GIT_SEQUENCE_EDITOR=true", "git", "rebase", "-q", "-i", "--autosquash", "HEAD~2"); r.code != 0 {
				w.out.stoppedBy = "autosquash refused: " + oneLine(r.text(), 500)
			}
		}},
	{name: "P5 work stashed while pulling a person's README, popped", honest: true,
		work: func(w *world) {
			h47Person(w, "README.md", "# greet\n\nA greeting script.\n", "docs(readme): add a README")
			w.write("scripts/greet.sh", h47Greet)
			w.shLine("git stash push -q")
			if r := w.exec(w.root, "", "git", "pull", "-q", "--ff-only", "origin", "main"); r.code != 0 {
				w.t.Logf("pull --ff-only: %s", oneLine(r.text(), 300))
				if r := w.exec(w.root, "", "git", "pull", "-q", "--no-rebase", "--no-edit", "origin", "main"); r.code != 0 {
					w.out.stoppedBy = "pull refused: " + oneLine(r.text(), 500)
				}
			}
			w.shLine("git stash pop -q")
			h47Commit(w, "feat(scripts): greet takes an optional name")
			w.base = w.git("rev-parse", "origin/main")
		}},
	{name: "P6 own commits squashed with reset --soft before the end", honest: true,
		work: func(w *world) {
			lazy42Work(strings.Replace(h47Greet, "when given", "when gvien", 1), "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "fix(scripts): typo in the comment")
			w.git("reset", "-q", "--soft", "HEAD~2")
			h47Commit(w, "feat(scripts): greet takes an optional name")
		}},
	{name: "S17 scope with a slash and a dot", honest: true, work: lazy42Work(h47Greet, "feat(scripts/greet.sh): take an optional name")},
	{name: "S18 capitalised type Feat(scripts):", honest: true, known: "security.md \"Honest pass 47\": config-conventional asks for a lower-case type; the gate, not the commit-msg hook, says so", work: lazy42Work(h47Greet, "Feat(scripts): greet takes an optional name")},
	{name: "S19 BREAKING CHANGE footer", honest: true, work: lazy42Work(h47Greet, "feat(scripts): greet takes an optional name\n\nBREAKING CHANGE: a first argument is now printed after hello.")},
	{name: "S20 release subject chore(release): v1.1.0", honest: true,
		work: func(w *world) {
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			w.write("VERSION", "1.1.0\n")
			h47Commit(w, "chore(release): v1.1.0")
		}},
	{name: "Q4 QA with bash scripts/test.sh", honest: true,
		end: func(w *world) advEnd {
			return advEnd{qa: func() {
				w.advOK("QA run", "run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "bash", "scripts/test.sh")
				w.advOK("QA fix", "session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "scripts/test.sh: 1 validation(s) passed, nothing to fix")
			}}
		}},
	{name: "Q5 QA with sh ./scripts/test.sh", honest: true,
		end: func(w *world) advEnd {
			return advEnd{qa: func() {
				w.advOK("QA run", "run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "./scripts/test.sh")
				w.advOK("QA fix", "session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "scripts/test.sh: 1 validation(s) passed, nothing to fix")
			}}
		}},
	{name: "Q6 QA with env LC_ALL=C sh scripts/test.sh", honest: true,
		end: func(w *world) advEnd {
			return advEnd{qa: func() {
				w.advOK("QA run", "run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "env", "LC_ALL=C", "sh", "scripts/test.sh")
				w.advOK("QA fix", "session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput, "--value", "scripts/test.sh: 1 validation(s) passed, nothing to fix")
			}}
		}},
	// --- round 4: Done claims ---
	{name: "U1 Done: test script kept as is", honest: true,
		end: h47Done("- `scripts/greet.sh` takes an optional name.\n- Kept `scripts/test.sh` as is; it already covers the no-argument case.")},
	{name: "U2 Done: test script still passes", honest: true,
		end: h47Done("- `scripts/greet.sh` takes an optional name.\n- `scripts/test.sh` still passes.")},
	{name: "U3 Done: unchecked box for follow-up in the test script", honest: true,
		end: h47Done("- [x] `scripts/greet.sh` takes an optional name\n- [ ] Add name checks to `scripts/test.sh` (next session)")},
	{name: "U4 Done: strikethrough of a dropped plan", honest: true,
		end: h47Done("- `scripts/greet.sh` takes an optional name.\n- ~~Rewrite `scripts/test.sh` in bats~~ (dropped: not worth it).")},
	{name: "U5 Done: table row marking the test script unchanged", honest: true,
		end: h47Done("| File | Status |\n|---|---|\n| `scripts/greet.sh` | modified: optional name |\n| `scripts/test.sh` | — |")},
	{name: "U6 Done: another person's planned work on a file", honest: true,
		end: h47Done("- `scripts/greet.sh` takes an optional name.\n- Ada will add name checks to `scripts/test.sh` in her PR.")},
	{name: "U7 Done: earlier handoff and protocol named", honest: true,
		end: h47Done("- Picked up the Next item of `.agents/handoffs/2026-08-19-01.md`: `scripts/greet.sh` takes an optional name.\n- Followed `SESSION-PROTOCOL.md`; did not touch `.agents/HANDOFF.md`.")},
	{name: "U8 Done: the test script needs names next", honest: true,
		end: h47Done("- `scripts/greet.sh` takes an optional name.\n- `scripts/test.sh` should gain name checks; see Next.")},
	{name: "N1 no change: reviewed and approved a PR that adds it", honest: true, work: lazy45NoWork,
		end: h47Done("- Reviewed PR #41, which adds the name argument to `scripts/greet.sh`, and approved it.")},
	{name: "N2 no change: reproduced the bug", honest: true, work: lazy45NoWork,
		end: h47Done("- Reproduced the bug: `sh scripts/greet.sh Ada` prints `hello`, not `hello Ada`.")},
	{name: "N3 no change: attempted, reverted", honest: true, work: lazy45NoWork,
		end: h47Done("- Attempted to add the name argument to `scripts/greet.sh`, reverted it: the CI image's sh lacks the expansion. Nothing committed.")},
	{name: "N4 no change: already implemented on main", honest: true, work: lazy45NoWork,
		end: func(w *world) advEnd {
			// A commit of this repository: one that is none is flagged.
			return h47Done("- The name argument in `scripts/greet.sh` was already implemented on main (commit " + w.git("rev-parse", "--short", "HEAD") + "); nothing to do.")(w)
		}},
	{name: "N5 no change: blocked on a decision", honest: true, work: lazy45NoWork,
		end: h47Done("- Blocked: cannot change `scripts/greet.sh` until #7 decides what an empty name prints.")},
	{name: "N6 no change: handed to a person", honest: true, work: lazy45NoWork,
		end: h47Done("- Handed the name argument for `scripts/greet.sh` to @ada, who owns the script.")},
	// --- round 5: files that are no path token ---
	{name: "E1 only .editorconfig added, Done names it and the script it governs", honest: true,
		work: lazy43Commit(".editorconfig", "root = true\n\n[*.sh]\nend_of_line = lf\nindent_style = space\n", "chore: add an editorconfig for the shell scripts"),
		end:  h47Done("- Added `.editorconfig` so `scripts/greet.sh` keeps LF line endings in every editor.")},
	{name: "E2 only Makefile changed, Done names it and the script its target runs", honest: true,
		work: lazy43Commit("Makefile", "lint:\n\tshellcheck scripts/greet.sh\n", "build: add a lint target"),
		end:  h47Done("- Added a `lint` target to `Makefile` that shellchecks `scripts/greet.sh`.")},
	{name: "E3 only .tool-versions bumped, Done names the linted script", honest: true,
		work: lazy43Commit(".tool-versions", "shellcheck 0.10.0\n", "chore(deps): bump shellcheck from 0.9.0 to 0.10.0"),
		end:  h47Done("- Bumped shellcheck to 0.10.0 in `.tool-versions`; it lints `scripts/greet.sh` clean.")},
	{name: "E4 only Dockerfile added, Done names the script it copies", honest: true,
		work: lazy43Commit("Dockerfile", "FROM alpine:3.20\nCOPY scripts/greet.sh /usr/local/bin/greet\nENTRYPOINT [\"sh\", \"/usr/local/bin/greet\"]\n", "build: add a Dockerfile for greet"),
		end:  h47Done("- Added a `Dockerfile` that packages `scripts/greet.sh` as the image's entrypoint.")},
	{name: "N4b no change: already takes a name on main, no change verb", honest: true, work: lazy45NoWork,
		end: h47Done("- `scripts/greet.sh` already takes a name on main; nothing to change.")},
	{name: "N4c no change: No change needed, then already implemented", honest: true, work: lazy45NoWork,
		end: h47Done("- No change needed: the name argument in `scripts/greet.sh` was already implemented on main.")},
	{name: "N7 no change: opened a PR elsewhere (the work lives in another repository)", honest: true, work: lazy45NoWork,
		end: h47Done("- The greeting script is vendored: opened upstream PR acme/greet#88 that adds the name argument to `scripts/greet.sh` there.")},
	// --- round 6: others' changes pulled ---
	{name: "R6 person's test helper rename on main merged in", honest: true,
		work: func(w *world) {
			h47Person(w, "scripts/test.sh", strings.ReplaceAll(strings.Replace(greetTest, "for name in Ada Bob Cy Di Ed Flo; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n", "", 1), "check", "expect_eq"), "refactor(test): rename check to expect_eq")
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			if r := w.exec(w.root, "", "git", "pull", "-q", "--no-rebase", "--no-edit", "origin", "main"); r.code != 0 {
				w.out.stoppedBy = "pull refused: " + oneLine(r.text(), 500)
			}
			w.base = w.git("rev-parse", "origin/main")
		}},
	{name: "R7 person's added name checks on main merged in", honest: true,
		work: func(w *world) {
			t := strings.Replace(greetTest, "for name in Ada Bob Cy Di Ed Flo; do check \"$(sh scripts/greet.sh \"$name\")\" \"hello $name\"; done\n", "", 1)
			t = strings.Replace(t, "if [ $fail", "check \"$(sh scripts/greet.sh Ada)\" \"hello Ada\"\nif [ $fail", 1)
			h47Person(w, "scripts/test.sh", t, "test(scripts): check a name")
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			if r := w.exec(w.root, "", "git", "pull", "-q", "--no-rebase", "--no-edit", "origin", "main"); r.code != 0 {
				w.out.stoppedBy = "pull refused: " + oneLine(r.text(), 500)
			}
			w.base = w.git("rev-parse", "origin/main")
		}},
	{name: "R8 person's HANDOFF.md update pulled with --rebase", honest: true,
		work: func(w *world) {
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			h47Person(w, ".agents/HANDOFF.md", v3EarlierHandoffBody+"\n## 2026-08-20 (maintainer)\n\n- Release 1.1 planned for Friday.\n", "docs(agents): note the release plan")
			if r := w.exec(w.root, "", "git", "pull", "-q", "--rebase", "origin", "main"); r.code != 0 {
				w.out.stoppedBy = "pull --rebase refused: " + oneLine(r.text(), 500)
			}
			w.base = w.git("rev-parse", "origin/main")
		}},
	{name: "R9 teammate's fix cherry-picked with -x from their branch", honest: true, known: "security.md \"Replayed commits\": a cherry-pick of a remote branch's commit is no witness; cherry-pick -n and commit passes",
		work: func(w *world) {
			other := filepath.Join(filepath.Dir(w.root), "person")
			w.gitIn(filepath.Dir(w.root), "clone", "-q", lazy45Origin(w), other)
			w.gitIn(other, "switch", "-q", "-c", "fix/readme")
			w.write(filepath.Join(other, "README.md"), "# greet\n\nA greeting script.\n")
			w.gitIn(other, "add", "-A")
			w.gitIn(other, "commit", "-qm", "docs(readme): add a README")
			w.gitIn(other, "push", "-q", "--no-verify", "origin", "fix/readme")
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			w.git("fetch", "-q", "origin")
			if r := w.exec(w.root, "", "git", "cherry-pick", "-x", "origin/fix/readme"); r.code != 0 {
				w.out.stoppedBy = "cherry-pick refused: " + oneLine(r.text(), 500)
			}
		}},
	{name: "R10 own experiment branch squash-merged", honest: true,
		work: func(w *world) {
			w.git("switch", "-q", "-c", "exp/name")
			lazy42Work(strings.Replace(h47Greet, "when given", "when gvien", 1), "feat(scripts): try an optional name")(w)
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "fix(scripts): typo in the comment")
			w.git("switch", "-q", "feat/greet-name")
			w.shLine("git merge -q --squash exp/name")
			h47Commit(w, "feat(scripts): greet takes an optional name")
			w.git("branch", "-q", "-D", "exp/name")
		}},
	// --- round 7 ---
	{name: "S21 second commit subject style lint", honest: true,
		work: func(w *world) {
			lazy42Work(strings.Replace(h47Greet, "when given", "when gvien", 1), "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "style: lint")
		}},
	{name: "S22 second commit subject fix tests", honest: true,
		work: func(w *world) {
			lazy42Work(strings.Replace(h47Greet, "when given", "when gvien", 1), "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "fix: tests")
		}},
	{name: "S23 second commit subject docs typo", honest: true,
		work: func(w *world) {
			lazy42Work(strings.Replace(h47Greet, "when given", "when gvien", 1), "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "docs: typo")
		}},
	{name: "S24 second commit subject refactor rename variable", honest: true,
		work: func(w *world) {
			lazy42Work(strings.Replace(h47Greet, "when given", "when gvien", 1), "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "refactor: rename variable")
		}},
	{name: "S25 second commit subject chore cleanup", honest: true, known: "security.md \"Honest pass 47\": `chore: cleanup` is fillers only by design",
		work: func(w *world) {
			lazy42Work(strings.Replace(h47Greet, "when given", "when gvien", 1), "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "chore: cleanup")
		}},
	{name: "S26 second commit subject fix handle empty name", honest: true,
		work: func(w *world) {
			lazy42Work(strings.Replace(h47Greet, "when given", "when gvien", 1), "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "fix: handle empty name")
		}},
	{name: "S27 second commit subject chore tidy up comments", honest: true,
		work: func(w *world) {
			lazy42Work(strings.Replace(h47Greet, "when given", "when gvien", 1), "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "chore: tidy up comments")
		}},
	{name: "S28 second commit subject fix(scripts) follow-up to review", honest: true,
		work: func(w *world) {
			lazy42Work(strings.Replace(h47Greet, "when given", "when gvien", 1), "feat(scripts): greet takes an optional name")(w)
			w.write("scripts/greet.sh", h47Greet)
			h47Commit(w, "fix(scripts): follow-up to review")
		}},
	{name: "R9b teammate's fix cherry-picked with -n and committed through the hooks", honest: true,
		work: func(w *world) {
			other := filepath.Join(filepath.Dir(w.root), "person")
			w.gitIn(filepath.Dir(w.root), "clone", "-q", lazy45Origin(w), other)
			w.gitIn(other, "switch", "-q", "-c", "fix/readme")
			w.write(filepath.Join(other, "README.md"), "# greet\n\nA greeting script.\n")
			w.gitIn(other, "add", "-A")
			w.gitIn(other, "commit", "-qm", "docs(readme): add a README")
			w.gitIn(other, "push", "-q", "--no-verify", "origin", "fix/readme")
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			w.git("fetch", "-q", "origin")
			if r := w.exec(w.root, "", "git", "cherry-pick", "-n", "origin/fix/readme"); r.code != 0 {
				w.out.stoppedBy = "cherry-pick -n refused: " + oneLine(r.text(), 500)
				return
			}
			h47Commit(w, "docs(readme): add a README (picked from fix/readme)")
		}},
	{name: "H19 handoff with YAML front matter", honest: true,
		end: func(w *world) advEnd {
			return advEnd{handoffBody: "---\ndate: 2026-08-20\nsession: 01\nbranch: feat/greet-name\n---\n\n# Handoff 2026-08-20-01\n\n## Done\n\n- `scripts/greet.sh` takes an optional name.\n\n## Next\n\n- Document it in the README.\n"}
		}},
	{name: "H20 Done with sub-headings", honest: true,
		end: func(w *world) advEnd {
			return advEnd{handoffBody: "# Handoff 2026-08-20-01\n\n## Done\n\n### Code\n\n- `scripts/greet.sh` takes an optional name.\n\n### Tests\n\n- `sh scripts/test.sh`: 1 validation(s) passed.\n\n## Next\n\n- Document it in the README.\n"}
		}},
	{name: "H21 Done heading with an emoji", honest: true,
		end: func(w *world) advEnd {
			return advEnd{handoffBody: "# Handoff 2026-08-20-01\n\n## Done ✅\n\n- `scripts/greet.sh` takes an optional name.\n\n## Next ➡️\n\n- Document it in the README.\n"}
		}},
	// --- round 8: remotes ---
	{name: "M3 conflict resolved by taking the person's side, own change re-applied after", honest: true,
		work: func(w *world) {
			lazy46PersonMain(w, h47Greet, "feat(scripts): greet takes an optional name")
			if w.out.stoppedBy != "" {
				return
			}
			lazy46Merge(w, strings.Replace(greetScript, `echo "hello"`, `echo "${GREETING:-hello}"`, 1), "")
			if w.out.stoppedBy == "" {
				lazy42Work(lazy46Feature, "feat(scripts): greet takes an optional name on top of GREETING")(w)
			}
		}},
	{name: "R11 person's HANDOFF.md change fetched and merged via FETCH_HEAD", honest: true,
		work: func(w *world) {
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			h47Person(w, ".agents/HANDOFF.md", v3EarlierHandoffBody+"\n## 2026-08-20 (maintainer)\n\n- Release 1.1 planned for Friday.\n", "docs(agents): note the release plan")
			w.git("fetch", "-q", "origin", "main")
			if r := w.exec(w.root, "", "git", "merge", "-q", "--no-edit", "FETCH_HEAD"); r.code != 0 {
				w.out.stoppedBy = "merge FETCH_HEAD refused: " + oneLine(r.text(), 500)
			}
			w.base = w.git("rev-parse", "origin/main")
		}},
	{name: "R12 person's HANDOFF.md change pulled by URL (no tracking ref)", honest: true,
		work: func(w *world) {
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			h47Person(w, ".agents/HANDOFF.md", v3EarlierHandoffBody+"\n## 2026-08-20 (maintainer)\n\n- Release 1.1 planned for Friday.\n", "docs(agents): note the release plan")
			if r := w.exec(w.root, "", "git", "pull", "-q", "--no-rebase", "--no-edit", lazy45Origin(w), "main"); r.code != 0 {
				w.out.stoppedBy = "pull by URL refused: " + oneLine(r.text(), 500)
			}
			w.base = w.git("rev-parse", "FETCH_HEAD")
		}},
	{name: "R13 fork workflow: person's HANDOFF.md change pulled from upstream", honest: true,
		pre: func(w *world) {
			up := filepath.Join(filepath.Dir(w.root), "upstream.git")
			w.gitIn(filepath.Dir(w.root), "clone", "-q", "--bare", lazy45Origin(w), up)
			w.git("remote", "add", "upstream", up)
			w.git("fetch", "-q", "upstream")
		},
		work: func(w *world) {
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			up := filepath.Join(filepath.Dir(w.root), "upstream.git")
			other := filepath.Join(filepath.Dir(w.root), "person")
			w.gitIn(filepath.Dir(w.root), "clone", "-q", up, other)
			w.write(filepath.Join(other, ".agents/HANDOFF.md"), v3EarlierHandoffBody+"\n## 2026-08-20 (maintainer)\n\n- Release 1.1 planned for Friday.\n")
			w.gitIn(other, "commit", "-qam", "docs(agents): note the release plan")
			w.gitIn(other, "push", "-q", "--no-verify", "origin", "main")
			if r := w.exec(w.root, "", "git", "pull", "-q", "--no-rebase", "--no-edit", "upstream", "main"); r.code != 0 {
				w.out.stoppedBy = "pull upstream refused: " + oneLine(r.text(), 500)
			}
			w.base = w.git("rev-parse", "upstream/main")
		}},
	// --- round 9: after QA ---
	{name: "Q7 README committed after QA passed (during HANDOFF)", honest: true, known: "security.md \"Honest pass 47\": re-verify the branch comes after the evidence it re-verifies",
		end: func(w *world) advEnd {
			return advEnd{handoffDone: "- `scripts/greet.sh` takes an optional name.\n- `README.md` documents it.\n\n## Next\n\n- Nothing planned.", inHandoff: func() {
				w.write("README.md", "# greet\n\nUsage: `sh scripts/greet.sh [name]`\n")
				h47Commit(w, "docs(readme): document the name argument")
			}}
		}},
	{name: "Q8 comment typo in the script fixed after QA, tests rerun", honest: true, known: "security.md \"Honest pass 47\": re-verify the branch comes after the evidence it re-verifies",
		work: lazy42Work(strings.Replace(h47Greet, "when given", "when gvien", 1), "feat(scripts): greet takes an optional name"),
		end: func(w *world) advEnd {
			return advEnd{inHandoff: func() {
				w.write("scripts/greet.sh", h47Greet)
				h47Commit(w, "docs(scripts): fix a typo in greet's comment")
				r := w.sg("run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
				w.t.Logf("QA rerun in HANDOFF: %d %s", r.code, oneLine(r.text(), 300))
			}}
		}},
	{name: "H22 second session of the day: handoff 2026-08-20-02", honest: true,
		end: func(w *world) advEnd { return advEnd{handoff: ".agents/handoffs/2026-08-20-02.md"} }},
	{name: "H23 handoff drafted mid-session and committed, finished at the end", honest: true,
		work: func(w *world) {
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			w.write(".agents/handoffs/2026-08-20-01.md", "# Handoff 2026-08-20-01\n\n## Done\n\n- (draft) `scripts/greet.sh` takes an optional name.\n\n## Next\n\n- TBD\n")
			h47Commit(w, "docs(handoff): draft the session handoff")
		}},
	{name: "Q7b as Q7, only README.md staged (handoff committed at GIT_OPERATIONS)", honest: true,
		end: func(w *world) advEnd {
			return advEnd{handoffDone: "- `scripts/greet.sh` takes an optional name.\n- `README.md` documents it.\n\n## Next\n\n- Nothing planned.", inHandoff: func() {
				w.write("README.md", "# greet\n\nUsage: `sh scripts/greet.sh [name]`\n")
				w.git("add", "README.md")
				if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(readme): document the name argument"); r.code != 0 {
					w.t.Logf("README commit refused: %s", oneLine(r.text(), 400))
				}
			}}
		}},
	{name: "Q8b as Q8, only greet.sh staged, tests rerun", honest: true,
		work: lazy42Work(strings.Replace(h47Greet, "when given", "when gvien", 1), "feat(scripts): greet takes an optional name"),
		end: func(w *world) advEnd {
			return advEnd{inHandoff: func() {
				w.write("scripts/greet.sh", h47Greet)
				w.git("add", "scripts/greet.sh")
				if r := w.exec(w.root, "", "git", "commit", "-q", "-m", "docs(scripts): fix a typo in greet's comment"); r.code != 0 {
					w.t.Logf("typo commit refused: %s", oneLine(r.text(), 400))
				}
				r := w.sg("run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
				w.t.Logf("QA rerun in HANDOFF: %d %s", r.code, oneLine(r.text(), 300))
			}}
		}},
	// --- round 10: merge messages ---
	{name: "M4 as M2, git's merge subject kept with a body explaining the resolution", honest: true,
		work: func(w *world) {
			lazy46PersonMain(w, h47Greet, "feat(scripts): greet takes an optional name")
			if w.out.stoppedBy != "" {
				return
			}
			subj := strings.SplitN(w.read(".git/MERGE_MSG"), "\n", 2)[0]
			lazy46Merge(w, "#!/bin/sh\n# greet prints a greeting, to $1 when given.\n# Usage: greet [name]; GREETING overrides hello.\necho \"${GREETING:-hello}${1:+ $1}\"\n", subj+"\n\nConflict in scripts/greet.sh resolved: GREETING and the name argument both kept.")
		}},
	{name: "M5 git merge origin/main (remote-tracking subject), resolution plus a usage line", honest: true,
		work: func(w *world) {
			other := filepath.Join(filepath.Dir(w.root), "person")
			w.gitIn(filepath.Dir(w.root), "clone", "-q", lazy45Origin(w), other)
			w.write(filepath.Join(other, "scripts/greet.sh"), strings.Replace(greetScript, `echo "hello"`, `echo "${GREETING:-hello}"`, 1))
			w.gitIn(other, "commit", "-qam", "feat(scripts): GREETING sets the greeting word")
			w.gitIn(other, "push", "-q", "--no-verify", "origin", "main")
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			w.git("fetch", "-q", "origin")
			if m := w.exec(w.root, "", "git", "merge", "-q", "--no-edit", "origin/main"); m.code == 0 {
				w.t.Errorf("M5: no conflict")
			}
			w.base = w.git("rev-parse", "origin/main")
			lazy46Merge(w, "#!/bin/sh\n# greet prints a greeting, to $1 when given.\n# Usage: greet [name]; GREETING overrides hello.\necho \"${GREETING:-hello}${1:+ $1}\"\n", "")
		}},
	{name: "S29 Chinese subject docs: 更新 README", honest: true,
		work: func(w *world) {
			lazy42Work(h47Greet, "feat(scripts): greet takes an optional name")(w)
			w.write("README.md", "# greet\n\nUsage: sh scripts/greet.sh [name]\n")
			h47Commit(w, "docs: 更新 README")
		}},
}

func TestAdvHonest47(t *testing.T) { runLazyRows(t, honest47Rows, "HONEST47_ROWS") }
