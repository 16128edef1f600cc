package editorial

// knownWording are the rows of the round 55 reviews' wording tables that
// the rule does not meet yet, with why they stay open (docs/security.md,
// "Round 55"): a letter replaced by another cannot be told from a typo's
// fix without a dictionary, and a spelled-out form or a mark outside the
// formatting set is refused. Each is logged, not failed; one that starts
// to hold is logged so that it comes off the list.
var knownWording = map[[2]string]string{
	{"The organisation's licence and catalogue.", "The organization's license and catalog."}: "an honest change it refuses (QA then runs)",
	{"Few changes need tests.", "A few changes need tests."}:                                 "a lazy change it accepts",
	{"Report failed tests.", "Report filed tests."}:                                          "a lazy change it accepts",
	{"Docs need QA too.", "Docs need QA to."}:                                                "a lazy change it accepts",
	{"Run the tests", "Run the tests..."}:                                                    "a lazy change it accepts",
	{"Run the tests.", "Run then tests."}:                                                    "a lazy change it accepts",
	{"Skip QA for README.", "Skip QA for READMEs."}:                                          "a lazy change it accepts",
	{"Do nto push to main.", "Do not push to main."}:                                         "an honest change it refuses (QA then runs)",
	{"It is definately needed.", "It is definitely needed."}:                                 "an honest change it refuses (QA then runs)",
	{"It was sucessfull.", "It was successful."}:                                             "an honest change it refuses (QA then runs)",
	{"Use a config, e.g. a yaml file.", "Use a config, i.e. a yaml file."}:                   "an honest change it refuses (QA then runs)",
	{"Use a config (e.g. a yaml file).", "Use a config (for example, a yaml file)."}:         "an honest change it refuses (QA then runs)",
	{"Wait...", "Wait…"}:                                                                     "an honest change it refuses (QA then runs)",
	{"Lint & test.", "Lint and test."}:                                                       "an honest change it refuses (QA then runs)",
	{"Fast -> slow.", "Fast → slow."}:                                                        "an honest change it refuses (QA then runs)",
	{"Quote this", "> Quote this"}:                                                           "an honest change it refuses (QA then runs)",
	{"1. first", "2. first"}:                                                                 "an honest change it refuses (QA then runs)",
	{"See the doc.", "See the&nbsp;doc."}:                                                    "an honest change it refuses (QA then runs)",
	{"We use grey text.", "We use gray text."}:                                               "an honest change it refuses (QA then runs)",
	{"We analyse it.", "We analyze it."}:                                                     "an honest change it refuses (QA then runs)",
	{"Make sure to run the tests, and to lint.", "Make sure to run the tests and lint."}:     "an honest change it refuses (QA then runs)",
	{"See [the docs](x.md).", "See [the documentation](x.md)."}:                              "an honest change it refuses (QA then runs)",
	{"The 1st step.", "The first step."}:                                                     "an honest change it refuses (QA then runs)",
	{"Step 2 of 3", "Step two of three"}:                                                     "an honest change it refuses (QA then runs)",
	{"Wait 5 secs.", "Wait 5 seconds."}:                                                      "an honest change it refuses (QA then runs)",
	{"Wait 5s.", "Wait 5 s."}:                                                                "an honest change it refuses (QA then runs)",
	{"Choose on of them.", "Choose one of them."}:                                            "an honest change it refuses (QA then runs)",
	{"Its the best", "It is the best"}:                                                       "an honest change it refuses (QA then runs)",
	{"Dont do that.", "Do not do that."}:                                                     "an honest change it refuses (QA then runs)",
	{"Don't do that.", "Do not do that."}:                                                    "an honest change it refuses (QA then runs)",
	{"It wont run.", "It will not run."}:                                                     "an honest change it refuses (QA then runs)",
	{"Note: run it", "<b>Note</b>: run it"}:                                                  "an honest change it refuses (QA then runs)",
}

// knownLeaves are honest leaves isLeave does not read yet.
var knownLeaves = map[string]string{
	"The agent MAY skip unit tests when every changed file is documentation.": "a narrowed object (unit tests) reads as narrowing",
}

// knownOr logs a failing row that knownWording holds, and fails any other.
func knownOr(t interface {
	Helper()
	Logf(string, ...any)
	Errorf(string, ...any)
}, row [2]string, format string, args ...any) {
	t.Helper()
	if why, ok := knownWording[row]; ok {
		t.Logf("known, open (%s): "+format, append([]any{why}, args...)...)
		return
	}
	t.Errorf(format, args...)
}
