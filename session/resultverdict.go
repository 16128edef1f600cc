package session

// ResultNotClean is PhaseNotClean for a stored phase result, which also
// judges results written before the NOTHING_CHECKED decision existed
// (round 17): their gate's checks still say a command checked nothing
// (nothingCheckedMark, written since such a check is SKIPPED), and the
// decision is derived from them the way settle derives it, so an old
// session reads as not clean too instead of clean.
func ResultNotClean(r PhaseResult) string {
	return PhaseNotClean(string(r.Level), string(r.Status), ResultDecision(r))
}

// ResultDecision is r's decision, or DecisionNothingChecked when r was
// recorded without one but its checks show a command that checked nothing.
func ResultDecision(r PhaseResult) string {
	if r.Decision == "" && checkedNothing(r.Checks) {
		return DecisionNothingChecked
	}
	return r.Decision
}
