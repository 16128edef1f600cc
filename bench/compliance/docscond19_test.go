package compliance_test

import "strings"

// The starter protocol's docs phase binds only when the change affects the
// docs (when=docs_affected: a flag, environment variable, exported
// identifier or file a tracked .md mentions). Before round 19 every honest
// code-only session failed it and ended not clean: a false FAIL on honest
// work. The project here has a documented --shout flag.
const starterFlag = "starter, documented flag"

// skipDocsForFlag: the session changes what the documented --shout flag
// does and leaves the README saying the old thing.
const skipDocsForFlag skip = "documented flag changed, docs untouched"

// greetShout is greet.sh with a flag the README documents.
const greetShout = `#!/bin/sh
# greet prints a greeting, in capitals with --shout.
case "$1" in
  --shout) echo "HELLO" ;;
  *) echo "hello" ;;
esac
`

func init() {
	scenarios = append(scenarios,
		scenario{name: "starter-code-only", protocol: starterFlag, via: "CLI",
			reading: "A refactor of scripts/greet.sh that keeps what it does: no flag, variable, identifier or file the README " +
				"names changes, so the docs phase (RECOMMENDED, \"update the documentation its change affects\") does not " +
				"apply. Compliant: COMPLETE, clean, verify OK, though no .md changed."},
		scenario{name: "starter-flag-no-docs", protocol: starterFlag, via: "CLI", skips: skipDocsForFlag,
			reading: "The session changes what --shout prints (the README documents --shout) and leaves the README as it " +
				"was. The docs phase applies and fails: COMPLETE, not clean, verify WARN. Not compliant."},
	)
}

// starterFlagRepo adopts the starter in the greet project with --shout
// documented in its README.
func starterFlagRepo(w *world) {
	w.t.Helper()
	projectFiles(w)
	w.write("scripts/greet.sh", greetShout)
	w.write("README.md", w.read("README.md")+"\nShout it with `sh scripts/greet.sh --shout`: prints HELLO.\n")
	w.sgOK("init")
	publish(w)
}

// docsCondFlow is one starter session on that project: a behaviour-keeping
// refactor (compliant), or a change of --shout without docs.
func docsCondFlow(w *world, sk skip) {
	objective := "Build the greeting in one place"
	if sk == skipDocsForFlag {
		objective = "Shout with an exclamation mark"
	}
	w.git("switch", "-q", "-c", "feat/greet")
	w.start(objective)
	w.evidence("CONTEXT_RETRIEVAL", "history and notes that session_start returns", toolOutput,
		"session_start: history [] (no earlier sessions), carried_violations []")
	w.shell("CONTEXT_RETRIEVAL", "README and any handoff notes", "cat README.md")
	w.advance("")
	w.shell("GIT_STATE", "git status", "git status")
	w.advance("")
	w.evidence("PLAN", "what it will change and how it will test it", manual, "Plan: "+objective+" in scripts/greet.sh; test with scripts/test.sh")
	w.advance("WORKING")

	impl := "#!/bin/sh\n# greet prints a greeting, in capitals with --shout.\nmsg=hello\ncase \"$1\" in\n  --shout) echo \"HELLO\" ;;\n  *) echo \"$msg\" ;;\nesac\n"
	if sk == skipDocsForFlag {
		w.deviate()
		impl = strings.Replace(greetShout, `--shout) echo "HELLO" ;;`, `--shout) echo "HELLO!" ;;`, 1)
	}
	w.write("scripts/greet.sh", impl)
	w.shell("QUALITY_CHECKS", "linters on the files it changed", "git diff --check HEAD -- scripts/greet.sh")
	msg := "greet: keep the message in one variable\n\nThe default greeting is set once; output is unchanged."
	if sk == skipDocsForFlag {
		msg = "greet: shout with an exclamation mark"
	}
	w.commit(msg)
	if out, code := w.shell("QA_VALIDATION", "run the tests and record their output", "sh scripts/test.sh"); code != 0 {
		w.t.Fatalf("the change fails its tests:\n%s", out)
	}
	w.end(objective+": done", "", false)
}
