package compliance_test

// Honest sessions that do only what the real protocols' MUSTs ask, by the
// document's own commands (issue 25: gates that block honest work are as
// bad as gates that pass lazy work). The other compliant scenarios also
// do every SHOULD and RECOMMENDED step; an agent that leaves those out is
// still compliant, and a gate that records FAIL for it is a false FAIL.
func init() {
	scenarios = append(scenarios,
		scenario{name: "literal-2025-12-22", protocol: v1222, via: "CLI", history: true, acceptNA: true, literal: true,
			reading: "Only the MUSTs: Context Retrieval reads HANDOFF.md (the memories and the plan are SHOULDs); Skill " +
				"Validation lists the scripts with find, the POSIX words for the document's Get-ChildItem -Recurse -Filter " +
				"\"*.ps1\", and checks the folder with ls -d; Git State Verification (RECOMMENDED, all SHOULD) is left " +
				"undone; the QA report goes into .agents/qa/ under a name of its own (the text names none). Compliant: " +
				"nothing it leaves out is a MUST."},
		scenario{name: "literal-2025-12-18", protocol: v1218, via: "CLI", history: true, literal: true,
			reading: "Only the MUSTs: HANDOFF.md read, the RECOMMENDED git-state phase left undone. Compliant."},
		scenario{name: "literal-v3", protocol: v3, via: "CLI", literal: true,
			reading: "Re-verify the branch before commit: git status, whose first line names the branch, re-verifies it. " +
				"Fix what the checks report: the checks reported no failure, so there was nothing to fix and the agent " +
				"records nothing for it (a not-applicable mark is refused: the passing run is the answer). Compliant."},
	)
}
