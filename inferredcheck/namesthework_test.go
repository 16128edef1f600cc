package inferredcheck

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestNamesTheWork: a handoff filled from its template must name something
// the session did. The lazy rows are the generic prose lazy passes 31-33
// ended clean with; the honest rows are terse handoffs that name a file,
// a folder, or a word of the objective or a commit in another form.
func TestNamesTheWork(t *testing.T) {
	work := Work{
		Files:     []string{"greet/__init__.py", "tests/test_greet.py", ".agents/handoffs/2026-12-02-01.md"},
		Subjects:  []string{"feat(greet): shout option"},
		Objective: "Add a shout option to greet",
	}
	for _, tc := range []struct {
		name, text string
		w          Work
		want       Status
	}{
		{"lazy: generic prose", "# Handoff\n\n## Done\n\nImproved things somewhat and tidied a few bits along the way.\n\n## Next\n\nKeep going.\n", work, Fail},
		{"lazy: process words only", "# Handoff\n\n## Done\n\nCompleted the task and updated the code; tests were run and the session is done.\n\n## Next\n\nNext steps as usual.\n", work, Fail},
		{"lazy: the handoff names only itself", "# Handoff 2026-12-02-01\n\n## Done\n\nWrote .agents/handoffs/2026-12-02-01.md.\n", work, Fail},
		{"lazy: a longer word that starts like the objective's", "# Handoff\n\n## Done\n\nImproved things somewhat and tidied a few bits along the way.\n\n## Next\n\nCarry on as usual; nothing optional is left.\n", work, Fail},
		{"lazy: a generic file name only", "# Handoff\n\n## Done\n\nNothing left in __init__.py.\n", work, Fail},
		{"honest: names the file", "# Handoff\n\n## Done\n\nEdited greet/__init__.py.\n", work, Pass},
		{"honest: a word of the objective, inflected", "# Handoff\n\n## Done\n\nShouting works now: upper-cases the greeting.\n", work, Pass},
		{"honest: README named as a word", "# Handoff\n\n## Done\n\nFixed a README typo.\n", Work{Files: []string{"README.md", ".agents/handoffs/2026-12-02-01.md"}, Objective: "Fix a typo"}, Pass},
		{"honest: the test's name", "# Handoff\n\n## Done\n\nAdded test_greet cases for the new flag.\n", work, Pass},
		{"nothing else changed", "# Handoff\n\n## Done\n\nReviewed the open issues; nothing needed changing.\n", Work{Files: []string{".agents/handoffs/2026-12-02-01.md"}, Objective: "Triage the backlog"}, Skipped},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, ".agents", "handoffs", "2026-12-02-01.md")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			files := func() ([]string, error) { return tc.w.Files, nil }
			r := NamesTheWork(root, protocolspec.Check{Arg: ".agents/handoffs/*.md"}, files, tc.w)
			if r.Status != tc.want {
				t.Errorf("status %s, want %s: %s", r.Status, tc.want, r.Message)
			}
			if tc.want == Fail && !strings.Contains(r.Message, "names nothing this session did") {
				t.Errorf("message: %s", r.Message)
			}
		})
	}
}

// TestNamesTheWorkRealLogs: the team's real session logs name their
// objective in the rest of the log, its line taken out: no honest log of
// theirs would be failed by the rule.
func TestNamesTheWorkRealLogs(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "fixtures", "ai-agents")
	type logCase struct{ name, objective, text string }
	var cases []logCase
	mds, _ := filepath.Glob(filepath.Join(dir, "session-log_*.md"))
	objRE := regexp.MustCompile(`(?m)^(?:- \*\*Objective\*\*: (.+)|## Objective\n\n(.+))$`)
	for _, f := range mds {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := objRE.FindStringSubmatchIndex(string(b))
		if m == nil {
			t.Fatalf("%s: no objective found", f)
		}
		obj := objRE.FindStringSubmatch(string(b))
		cases = append(cases, logCase{filepath.Base(f), obj[1] + obj[2], string(b[:m[0]]) + string(b[m[1]:])})
	}
	jsons, _ := filepath.Glob(filepath.Join(dir, "session-log_json_*.json"))
	for _, f := range jsons {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var l struct {
			Session   struct{ Objective string }
			WorkLog   any
			NextSteps any
		}
		if err := json.Unmarshal(b, &l); err != nil {
			t.Fatal(err)
		}
		rest, _ := json.Marshal([]any{l.WorkLog, l.NextSteps})
		cases = append(cases, logCase{filepath.Base(f), l.Session.Objective, string(rest)})
	}
	if len(cases) < 3 {
		if os.Getenv("CI") != "" {
			t.Fatalf("%d real session logs in %s, want 3", len(cases), dir)
		}
		t.Skipf("the real session logs are not in %s", dir)
	}
	for _, c := range cases {
		_, terms := Work{Objective: c.objective}.referents(func(string) bool { return false })
		if len(terms) == 0 {
			t.Errorf("%s: its objective %q gives no term", c.name, c.objective)
			continue
		}
		if !names(c.text, nil, terms) {
			t.Errorf("%s: the log, its objective line taken out, names none of %q", c.name, terms)
		}
	}
}
