package compliance_test

import "strings"

// Round 20: once the starter's docs phase binds (the session changed the
// documented --shout), any changed .md used to pass it. Now the change must
// reach a doc that names --shout. The lazy session writes a CHANGELOG line;
// its honest twin rewrites the README's --shout line.
const starterFlagDocs = "starter, documented flag, docs changed"

// skipDocsChangelogOnly: the session changes what --shout prints and says
// so in CHANGELOG.md only; the README still says the old thing.
const skipDocsChangelogOnly skip = "documented flag changed, only the changelog says so"

func init() {
	scenarios = append(scenarios,
		scenario{name: "starter-flag-readme-updated", protocol: starterFlagDocs, via: "CLI",
			reading: "The session changes what --shout prints and rewrites the README's --shout line to say so (and adds a " +
				"changelog line). The docs phase applies and is met: COMPLETE, clean, verify OK. Compliant."},
		scenario{name: "starter-flag-changelog-only", protocol: starterFlagDocs, via: "CLI", skips: skipDocsChangelogOnly,
			reading: "The session changes what --shout prints and adds a CHANGELOG.md line; the README, the doc that names " +
				"--shout, still says it prints HELLO. The docs phase applies and is not met: COMPLETE, not clean, verify WARN. " +
				"Not compliant."},
	)
}

// docsNameFlow is one starter session that changes --shout and some docs.
func docsNameFlow(w *world, sk skip) {
	objective := "Shout with an exclamation mark"
	w.git("switch", "-q", "-c", "feat/greet")
	w.start(objective)
	w.evidence("CONTEXT_RETRIEVAL", "history and notes that session_start returns", toolOutput,
		"session_start: history [] (no earlier sessions), carried_violations []")
	w.shell("CONTEXT_RETRIEVAL", "README and any handoff notes", "cat README.md")
	w.advance("")
	w.shell("GIT_STATE", "git status", "git status")
	w.advance("")
	w.evidence("PLAN", "what it will change and how it will test it", manual, "Plan: "+objective+" in scripts/greet.sh; document it; test with scripts/test.sh")
	w.advance("WORKING")

	w.write("scripts/greet.sh", strings.Replace(greetShout, `--shout) echo "HELLO" ;;`, `--shout) echo "HELLO!" ;;`, 1))
	w.write("CHANGELOG.md", "# Changelog\n\n- `--shout` ends with an exclamation mark.\n")
	if sk == skipDocsChangelogOnly {
		w.deviate()
	} else {
		w.write("README.md", strings.Replace(w.read("README.md"), "prints HELLO.", "prints HELLO!", 1))
	}
	w.shell("QUALITY_CHECKS", "linters on the files it changed", "git diff --check HEAD")
	w.commit("greet: shout with an exclamation mark")
	if out, code := w.shell("QA_VALIDATION", "run the tests and record their output", "sh scripts/test.sh"); code != 0 {
		w.t.Fatalf("the change fails its tests:\n%s", out)
	}
	w.end(objective+": done", "", false)
}
