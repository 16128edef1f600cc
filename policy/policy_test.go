package policy

import (
	"strings"
	"testing"
)

func TestTokenMatch(t *testing.T) {
	cases := []struct {
		pattern, token string
		want           bool
	}{
		{"gate:QA:fail", "gate:QA:fail", true},
		{"gate:*:fail", "gate:QA_VALIDATION:fail", true},
		{"gate:*:fail", "gate:QA:pass", false},
		{"gate:*:fail", "gate:fail", false},                  // * is exactly one segment
		{"hook:pre-commit", "hook:pre-commit:blocked", true}, // shorter pattern is a prefix
		{"hook:pre-commit:blocked", "hook:pre-commit", false},
		{"tool:advance_phase", "tool:advance_phase:force", true},
		{"tool:advance_phase:force", "tool:advance_phase", false},
		{"*", "anything:at:all", true},
		{"gate:*:forced:blocking", "gate:QA:forced:blocking", true},
		{"gate:*:forced:blocking", "gate:QA:forced:required", false},
	}
	for _, c := range cases {
		if got := TokenMatch(c.pattern, c.token); got != c.want {
			t.Errorf("TokenMatch(%q, %q) = %v, want %v", c.pattern, c.token, got, c.want)
		}
	}
}

func TestFires(t *testing.T) {
	rule := Rule{Name: "r", Pattern: []string{"a", "b"}, Window: 5, Action: ActionBlock}
	cases := []struct {
		name    string
		history []string
		want    bool
	}{
		{"exact run at the end", []string{"x", "a", "b"}, true},
		{"too short", []string{"b"}, false},
		{"run not at the end", []string{"a", "b", "c"}, false}, // the pitfall: no re-firing on later calls
		{"run two calls back", []string{"a", "b", "c", "d"}, false},
		{"gap breaks contiguity", []string{"a", "x", "b"}, false},
		{"order matters", []string{"b", "a"}, false},
		{"fires again on a new run", []string{"a", "b", "c", "a", "b"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := rule.Fires(c.history); got != c.want {
				t.Fatalf("Fires(%v) = %v, want %v", c.history, got, c.want)
			}
		})
	}
}

// TestSourcePitfall replays a history call by call: a window-scanning
// matcher fires on every call while the run is in the window; ours once.
func TestSourcePitfall(t *testing.T) {
	rule := Rule{Name: "r", Pattern: []string{"tool:advance_phase:force", "tool:session_end"}, Window: 10, Action: ActionBlock}
	calls := []string{"tool:advance_phase:force", "tool:session_end", "tool:validate_gate", "tool:record_evidence", "tool:validate_gate"}
	var history []string
	fired, scanFired := 0, 0
	for _, c := range calls {
		if Evaluate([]Rule{rule}, history, c).Allowed() == false {
			fired++
		}
		history = append(history, c)
		if windowScan(rule, history) {
			scanFired++
		}
	}
	if fired != 1 {
		t.Fatalf("anchored matcher fired %d times, want 1", fired)
	}
	if scanFired != 4 {
		t.Fatalf("the source design's window scan fired %d times (expected 4); the test no longer shows the pitfall", scanFired)
	}
}

// windowScan is the source design's matcher: the pattern anywhere in the window.
func windowScan(r Rule, history []string) bool {
	if len(history) > r.Window {
		history = history[len(history)-r.Window:]
	}
	for i := 0; i+len(r.Pattern) <= len(history); i++ {
		ok := true
		for j, p := range r.Pattern {
			if !TokenMatch(p, history[i+j]) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// TestRetryAfterBlock: a refused call's own events do not break the run,
// so retrying the same call is refused again.
func TestRetryAfterBlock(t *testing.T) {
	rules := Defaults()
	history := []string{"tool:advance_phase:force", "gate:A:fail", "gate:A:forced:blocking"}
	for i := 0; i < 3; i++ {
		d := Evaluate(rules, history, "tool:advance_phase:force")
		if d.Allowed() {
			t.Fatalf("retry %d was allowed", i)
		}
		history = append(history, "tool:advance_phase:force:refused", "policy:repeated-forced-advance:block")
	}
	if !Evaluate(rules, append(history, "tool:record_evidence"), "tool:advance_phase:force").Allowed() {
		t.Fatal("a real call in between did not break the run")
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		rule Rule
		want string
	}{
		{Rule{Name: "Bad Name", Pattern: []string{"a"}}, "rule name"},
		{Rule{Name: "-leading-dash", Pattern: []string{"a"}}, "rule name"},
		{Rule{Name: strings.Repeat("a", 65), Pattern: []string{"a"}}, "rule name"},
		{Rule{Name: "ok-name_1.2", Pattern: []string{"a"}}, ""},
		{Rule{Name: "r", Pattern: []string{"gate:*:f@il"}}, "bad token"},
		{Rule{Name: "r", Pattern: nil}, "pattern is empty"},
		{Rule{Name: "r", Pattern: []string{"a::b"}}, "bad token"},
		{Rule{Name: "r", Pattern: []string{"a", "b", "c"}, Window: 2}, "window 2 is shorter"},
		{Rule{Name: "r", Pattern: []string{"a"}, Action: "deny"}, "action must be"},
		{Rule{Name: "r", Pattern: []string{"a"}, Severity: "bad"}, "severity must be"},
		{Rule{Name: "r", Pattern: []string{"gate:*:fail"}}, ""},
	}
	for _, c := range cases {
		err := c.rule.Validate()
		if c.want == "" {
			if err != nil {
				t.Errorf("%+v: %v", c.rule, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err %v, want %q", c.rule, err, c.want)
		}
	}
}

func TestDefaultsAndConfig(t *testing.T) {
	rules, err := (*Config)(nil).Rules("sha", "")
	if err != nil || len(rules) != 3 {
		t.Fatalf("defaults: %v %v", rules, err)
	}
	// Each shipped rule fires on its own sequence.
	cases := map[string][]string{
		"repeated-forced-advance":        {"tool:advance_phase:force", "gate:QA:fail", "gate:QA:forced:blocking", "tool:advance_phase:force"},
		"commit-after-failed-gate":       {"tool:validate_gate", "gate:LINT:fail", "hook:pre-commit"},
		"end-after-forced-blocking-gate": {"gate:QA:forced:blocking", "tool:session_end"},
	}
	for name, seq := range cases {
		d := Evaluate(rules, seq[:len(seq)-1], seq[len(seq)-1])
		var hit []string
		for _, r := range append(d.Blocked, d.Warnings...) {
			hit = append(hit, r.Name)
		}
		if len(hit) != 1 || hit[0] != name {
			t.Errorf("%s: fired %v", name, hit)
		}
	}
	c := &Config{
		Disable:   []string{"commit-after-failed-gate"},
		Default:   []Rule{{Name: "no-double-end", Pattern: []string{"tool:session_end", "tool:session_end"}, Action: ActionWarn}},
		Protocols: map[string][]Rule{"abc": {{Name: "only-abc", Pattern: []string{"x"}}}},
	}
	rules, err = c.Rules("abc", "")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, r := range rules {
		names = append(names, r.Name)
	}
	if strings.Join(names, ",") != "repeated-forced-advance,end-after-forced-blocking-gate,no-double-end,only-abc" {
		t.Fatalf("rules %v", names)
	}
	if rules, _ = c.Rules("other", ""); len(rules) != 3 {
		t.Fatalf("protocol rules leaked to another protocol: %d", len(rules))
	}
	bad := &Config{Default: []Rule{{Name: "r", Pattern: []string{"a", "b"}, Window: 1}}}
	if _, err := bad.Rules("x", ""); err == nil {
		t.Fatal("invalid window accepted")
	}
}
