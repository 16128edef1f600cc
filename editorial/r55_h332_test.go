package editorial

import (
	"os"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestR55H332WordingLazy: rewordings that change what a line says and
// that wording accepts as editorial (helper 332).
func TestR55H332WordingLazy(t *testing.T) {
	for _, c := range [][2]string{
		{"Coverage must stay above sixty percent.", "Coverage must stay above six percent."},
		{"Coverage must stay above ninety percent.", "Coverage must stay above nine percent."},
		{"Coverage must stay above eighty percent.", "Coverage must stay above eight percent."},
		{"Running the tests is required before COMPLETE.", "Running the tests was required before COMPLETE."},
		{"Tests are mandatory for every change.", "Tests were mandatory for every change."},
		{"Keep the bundle under 500 KiB.", "Keep the bundle under 500 MiB."},
		{"Keep the bundle under 500 KB.", "Keep the bundle under 500 MB."},
		{"The CPU must stay under 3 GHz.", "The CPU must stay under 3 MHz."},
		{"The suite covers a million rows.", "The suite covers a billion rows."},
		{"Enable the linter.", "Unable the linter."},
		{"Run the tests on every commit.", "Run the tests on commit."},
		{"Run the tests, then add the changelog entry.", "Run the tests, then and the changelog entry."},
		{"Run the tests before the release.", "Run the tests after the release."},
		{"You can skip QA here.", "You cant skip QA here."},
		{"Retry two times.", "Retry ten times."},
		{"Retry three times.", "Retry there times."},
		{"Wait five minutes.", "Wait five seconds."},
		{"Accept docs changes.", "Except docs changes."},
		{"Tests are enabled for docs.", "Tests are unabled for docs."},
		{"Run at least one test.", "Run at last one test."},
		{"Few changes need tests.", "A few changes need tests."},
		{"Run tests on any change.", "Run tests on many changes."},
		{"Run the tests with coverage.", "Run the tests sans coverage."},
		{"Tests pass.", "Tests fail."},
		{"The tests passed.", "The tests parsed."},
		{"Run all tests.", "Run a tests."},
		{"Report failed tests.", "Report filed tests."},
		{"Coverage is high.", "Coverage is nigh."},
		{"Coverage must be higher.", "Coverage must be lower."},
		{"The check is on.", "The check is off."},
		{"Include the docs.", "Exclude the docs."},
		{"Tests are needed.", "Tests are unneeded."},
		{"Tests are needed.", "Tests are heeded."},
		{"Tests are required.", "Tests were required."},
		{"Run the full suite.", "Run the fuel suite."},
		{"Run the full suite.", "Run the null suite."},
		{"Tests MUST run.", "Tests must run."},
		{"Tests run hourly.", "Tests run yearly."},
		{"Tests run daily.", "Tests run dally."},
		{"Keep it under 5 mins.", "Keep it under 5 hours."},
		{"Docs need QA too.", "Docs need QA to."},
		{"Run the tests first.", "Run the tests last."},
		{"Use more workers.", "Use mode workers."},
		{"Use more workers.", "Use fewer workers."},
		{"Use five workers.", "Use five workers."},
		{"Use five workers.", "Use fine workers."},
		{"Use four workers.", "Use for workers."},
		{"Use six workers.", "Use sixty workers."},
		{"Use sixty workers.", "Use sixth workers."},
		{"Use fifty workers.", "Use fifth workers."},
		{"Use nine workers.", "Use none workers."},
		{"Run the tests", "Run the tests ❌"},
		{"Run the tests", "Run the tests (not)"},
		{"Run the tests", "Run the tests..."},
		{"Run the tests.", "Run then tests."},
		{"Run the tests before each push.", "Run the tests before the push."},
		{"Run the tests before a push.", "Run the tests before that push."},
		{"The tests are optional for these files.", "The tests are optional for those files."},
		{"Skip QA for docs.", "Skip QA for dogs."},
		{"Skip QA for README.", "Skip QA for READMEs."},
		{"Skip QA only for docs.", "Skip QA for docs."},
		{"Do it in CI.", "Do it on CI."},
		{"Block the merge if coverage drops.", "Block the merge of coverage drops."},
		{"Block the merge if coverage drops.", "Block the merge is coverage drops."},
		{"Block the merge if coverage drops.", "Block the merge as coverage drops."},
		{"Block the merge when coverage drops.", "Block the merge then coverage drops."},
	} {
		if why := wording(c[0], c[1]); why == "" {
			knownOr(t, c, "wording(%q, %q) accepted as editorial", c[0], c[1])
		} else if _, ok := knownWording[c]; ok {
			t.Logf("known row now holds, take it off knownWording: %q", c)
		}
	}
}

// TestR55H332WordingHonest: honest editorial fixes refused (helper 332).
func TestR55H332WordingHonest(t *testing.T) {
	for _, c := range [][2]string{
		{"Read the docs fo the API.", "Read the docs of the API."},
		{"This si the config.", "This is the config."},
		{"Do nto push to main.", "Do not push to main."},
		{"It is definately needed.", "It is definitely needed."},
		{"It was sucessfull.", "It was successful."},
		{"the tests run in ci", "The tests run in CI."},
		{"Use a config, e.g. a yaml file.", "Use a config, i.e. a yaml file."},
		{"Use a config (e.g. a yaml file).", "Use a config (for example, a yaml file)."},
		{"This is *important*.", "This is **important**."},
		{"Trailing spaces.   ", "Trailing spaces."},
		{"He said \"run it\".", "He said “run it”."},
		{"It's fine.", "It’s fine."},
		{"* item one", "- item one"},
		{"+ item one", "- item one"},
		{"**Note** read this.", "**Note:** read this."},
		{"Wait...", "Wait…"},
		{"Lint & test.", "Lint and test."},
		{"Fast -> slow.", "Fast → slow."},
		{"Quote this", "> Quote this"},
		{"1. first", "1) first"},
		{"1. first", "2. first"},
		{"See the doc.", "See the&nbsp;doc."},
		{"It works in Github.", "It works in GitHub."},
		{"Use javascript.", "Use JavaScript."},
		{"We use grey text.", "We use gray text."},
		{"We analyse it.", "We analyze it."},
		{"The programme runs.", "The program runs."},
		{"It is an useful tool.", "It is a useful tool."},
		{"There are many test.", "There are many tests."},
		{"Its a test.", "It's a test."},
		{"Your welcome.", "You're welcome."},
		{"The data are here.", "The data is here."},
		{"Who's config is it?", "Whose config is it?"},
		{"Alot of tests.", "A lot of tests."},
		{"The agent run the tests.", "The agent runs the tests."},
		{"The tests was run.", "The tests were run."},
		{"Make sure to run the tests, and to lint.", "Make sure to run the tests and lint."},
		{"Run `go test`", "Run `go test`."},
		{"| a | b |", "| a   | b   |"},
		{"See [the docs](x.md).", "See [the documentation](x.md)."},
		{"Its behaviour is documented.", "Its behavior is documented."},
		{"Runs on Mac OS.", "Runs on macOS."},
		{"We use Postgre SQL.", "We use PostgreSQL."},
		{"Use the `--force` flag", "Use the `--force` flag."},
		{"The 1st step.", "The first step."},
		{"Step 2 of 3", "Step two of three"},
		{"Wait 5 secs.", "Wait 5 seconds."},
		{"Wait 5s.", "Wait 5 s."},
		{"Accept the terms.", "Accept the terms!"},
		{"Choose on of them.", "Choose one of them."},
		{"Run teh test suite.", "Run the test suite."},
		{"Run th test suite.", "Run the test suite."},
		{"Run the the test suite.", "Run the test suite."},
		{"Run test suite.", "Run the test suite."},
		{"Its the best", "It is the best"},
		{"Dont do that.", "Do not do that."},
		{"Don't do that.", "Do not do that."},
		{"It can not run.", "It cannot run."},
		{"It wont run.", "It will not run."},
		{"Note: run it", "**Note**: run it"},
		{"Note: run it", "_Note_: run it"},
		{"Note: run it", "<b>Note</b>: run it"},
	} {
		if why := wording(c[0], c[1]); why != "" {
			knownOr(t, c, "wording(%q, %q) refused: %s", c[0], c[1], why)
		} else if _, ok := knownWording[c]; ok {
			t.Logf("known row now holds, take it off knownWording: %q", c)
		}
	}
}

func h332Allowed(t *testing.T, sentence string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile("../cmd/sessiongate/starter/SESSION-PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	const orig = "3. The agent MAY skip QA only when every changed file is documentation (`session_end` with `skip_qa`)."
	if !strings.Contains(string(b), orig) {
		t.Fatal("starter protocol changed")
	}
	doc := strings.Replace(string(b), orig, "3. "+sentence, 1)
	spec, err := protocolspec.Parse("SESSION-PROTOCOL.md", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	r, ok := Allowed(spec)
	return r.Text, ok
}

// TestR55H332LeaveHonest: honest leaves (a MAY to skip QA for
// documentation) that Allowed misses.
func TestR55H332LeaveHonest(t *testing.T) {
	for _, s := range []string{
		"The agent MAY skip QA only when every changed file is documentation (`session_end` with `skip_qa`).",
		"The QA phase MAY be skipped when every changed file is documentation.",
		"QA validation MAY be skipped when every changed file is documentation.",
		"The agent MAY skip QA_VALIDATION when every changed file is documentation.",
		"The agent MAY choose to skip QA when every changed file is documentation.",
		"For documentation-only changes the agent MAY skip the test suite.",
		"The agent MAY skip unit tests when every changed file is documentation.",
		"QA MAY optionally be skipped when every changed file is documentation.",
		"The agent MAY skip QA validation only when all modified files are documentation files (e.g., Markdown), and changes are strictly editorial (spelling, grammar, or formatting) with no changes to code, configuration, tests, workflows, or code blocks of any kind",
		"Documentation-only sessions MAY skip this phase.",
		"The agent MAY forgo QA when every changed file is documentation.",
	} {
		if _, ok := h332Allowed(t, s); !ok {
			if why, known := knownLeaves[s]; known {
				t.Logf("known, open (%s): not a leave: %q", why, s)
				continue
			}
			t.Errorf("not a leave: %q", s)
		}
	}
}

// TestR55H332LeaveLazy: sentences that are no leave to skip QA for
// documentation, taken as one.
func TestR55H332LeaveLazy(t *testing.T) {
	for _, s := range []string{
		"The agent MAY skip checks of documentation links when offline.",
		"The agent MAY skip tests that need network access; documentation-only sessions still run QA.",
		"The agent MAY skip testing the documentation examples that need a GPU.",
		"The agent MAY skip validation of the docs front matter.",
		"The reviewer MAY skip QA for documentation; the agent never does.",
		"The agent MAY skip QA only when the user says so, never for documentation alone.",
		"Tests MAY be skipped by the user, not for documentation.",
		"The agent MAY skip tests marked slow when only the README changed.",
		"The agent MAY skip QA for typo fixes in code comments; documentation changes run QA.",
	} {
		if txt, ok := h332Allowed(t, s); ok {
			t.Errorf("taken as a leave: %q (%q)", s, txt)
		}
	}
}
