package ownwords

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// v3Template is the v3.0-style protocol's handoff template
// (protocolspec/testdata/v3-style.md).
const v3Template = "# Handoff YYYY-MM-DD-NN\n\n## Done\n\n[what was completed]\n\n## Next\n\n[what the next session should do]\n"

func TestOwn(t *testing.T) {
	subjects := "feat(scripts): greet takes an optional name\ndocs(handoff): hand off the name argument\n"
	objective := "Add a name argument to the greeting script"
	k := NewKnown(v3Template, subjects, objective, "Complete the handoff from the Handoff Template below. Continue")
	for _, c := range []struct {
		name, text string
		few        bool
	}{
		{"sed from the template and git log", "# Handoff 2026-08-20-01\n\n## Done\n\n- feat(scripts): greet takes an optional name (3f9a2c1)\n\n## Next\n\nContinue the work on the objective.\n", true},
		{"subjects in both sections", "# Handoff 2026-08-20-01\n\n## Done\n\n- feat(scripts): greet takes an optional name\n\n## Next\n\n- feat(scripts): greet takes an optional name\n", true},
		{"the objective as next", "# Handoff\n\n## Done\n\nGreet takes an optional name.\n\n## Next\n\nAdd a name argument to the greeting script.\n", true},
		{"look-alike letters are the same words", "## Done\n\nfеаt(scripts): greet tаkes аn optionаl nаme\n", true},
		{"honest", "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name; scripts/test.sh checks six names.\n\n## Next\n\nDocument the scripts' usage in the README.\n", false},
		{"honest, the subject then a reason", "## Done\n\n- feat(scripts): greet takes an optional name\n\n## Next\n\nNone: the README already shows usage.\n", false},
		{"honest, short: two words of its own", "## Done\n\nscripts/greet.sh takes an optional name.\n\n## Next\n\nDocument the name argument in the README.\n", false},
		{"generic words only", "## Done\n\nfeat(scripts): greet takes an optional name\n\n## Next\n\nFinish the remaining tasks; continue working.\n", true},
		{"the objective as done, next none", "# Handoff 2026-08-20-01\n\n## Done\n\nAdd a name argument to the greeting script\n\n## Next\n\nNone.\n", true},
		{"honest, next nothing with a reason", "## Done\n\nAdd a name argument to the greeting script\n\n## Next\n\nNothing: the release is cut from main.\n", false},
		{"headings are not prose", "# Handoff about brand new words\n\n## Done\n\ngreet takes an optional name\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			own := k.Own(c.text)
			if few := len(own) < Few; few != c.few {
				t.Errorf("own words %q (%d): few=%v, want %v", own, len(own), few, c.few)
			}
		})
	}
}

// TestRealLogs: the real team's session logs (../shared/fixtures), each
// judged against both of its protocols' texts, hold many words of their
// own. SESSIONGATE_LOGS_DIR measures more: a folder with md/ and json/
// session logs, protocol.md (every version of the protocol, one after the
// other), schema.json and subjects.tsv (`git log --format='%ad%x09%s'
// --date=short`); each log is judged against the protocol, the schema and
// the subjects of every commit within a day of the date in its name.
func TestRealLogs(t *testing.T) {
	dir := os.Getenv("SESSIONGATE_FIXTURES")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "fixtures")
	}
	dir = filepath.Join(dir, "ai-agents")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("the real fixtures are required under CI=true: %v", err)
			}
			t.Skipf("real fixtures not found (%v): set SESSIONGATE_FIXTURES", err)
		}
		return string(b)
	}
	k := NewKnown(read("SESSION-PROTOCOL_2025-12-18_fd7d1d61d.md"), read("SESSION-PROTOCOL_2025-12-22_3821367d2.md"), read("session-log.schema_at-HEAD-70241a006.json"))
	for _, n := range []string{"session-log_canonical-md_2025-12-26-session-91_at-4a00fca3b.md", "session-log_noncanonical-md_2025-12-27-session-92_at-4a00fca3b.md", "session-log_json_2026-07-26-session-3364_at-HEAD-70241a006.json"} {
		if own := k.Own(read(n)); len(own) < Few {
			t.Errorf("%s: %d own words %q: an honest log flagged", n, len(own), own)
		}
	}
	if more := os.Getenv("SESSIONGATE_LOGS_DIR"); more != "" {
		measure(t, more)
	}
}

var dateRE = regexp.MustCompile(`(20\d\d)-(\d\d)-(\d\d)`)

func measure(t *testing.T, dir string) {
	base := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	protocol, schema := base("protocol.md"), base("schema.json")
	byDay := map[string][]string{}
	for line := range strings.SplitSeq(base("subjects.tsv"), "\n") {
		if d, s, ok := strings.Cut(line, "\t"); ok {
			byDay[d] = append(byDay[d], s)
		}
	}
	// The days either side by name: a session that ran past midnight.
	near := func(day string) string {
		var b strings.Builder
		for _, d := range []string{day, shift(day, -1), shift(day, 1)} {
			b.WriteString(strings.Join(byDay[d], "\n"))
			b.WriteByte('\n')
		}
		return b.String()
	}
	common := NewKnown(protocol, schema)
	for _, kind := range []string{"md", "json"} {
		names, _ := filepath.Glob(filepath.Join(dir, kind, "*"))
		var counts []int
		flagged := 0
		for _, n := range names {
			b, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			k := Known{}
			for w := range common {
				k[w] = true
			}
			if m := dateRE.FindString(filepath.Base(n)); m != "" {
				k.Add(near(m))
			}
			own := k.Own(string(b))
			counts = append(counts, len(own))
			if len(own) < Few {
				flagged++
				t.Logf("flagged %s: %d own words %q", filepath.Base(n), len(own), own)
			}
		}
		slices.Sort(counts)
		if len(counts) > 0 {
			t.Logf("%s: %d logs, %d flagged (fewer than %d own words); own words min %d, 1st percentile %d, median %d",
				kind, len(counts), flagged, Few, counts[0], counts[len(counts)/100], counts[len(counts)/2])
		}
	}
}

// shift moves a YYYY-MM-DD day by n days, well enough for a neighbour
// (day 00 and 32 name no commits: harmless).
func shift(day string, n int) string {
	d := int(day[8]-'0')*10 + int(day[9]-'0') + n
	return day[:8] + string(rune('0'+d/10)) + string(rune('0'+d%10))
}
