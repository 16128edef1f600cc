package inferredcheck

// SummaryClaim is the clause of an end summary (and the notes for the
// next session) that reports work as done, for a session that changed
// no file: "" when none does. Under the starter protocol the summary is
// the handoff the next session is shown, and no handoff file's check read
// it: "Implemented the name argument in greet.sh." ended COMPLETE, clean,
// with an empty commit, and with round 62's inquiry rule with none
// (helper 358).
func SummaryClaim(text, objective string, subjects []string) string {
	w := Work{Objective: objective, Subjects: subjects}
	_, terms := w.referents(func(string) bool { return false })
	// The summary says what the session did: it is read as a Done
	// section ("Yes: I implemented X" hid the claim behind a label).
	return ClaimedNoWork("## Done\n\n"+text, terms, objective)
}
