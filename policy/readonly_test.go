package policy

import (
	"slices"
	"strings"
	"testing"
)

// TestReadOnlyCallsCannotDodge: one or many read-only calls between the
// events of a shipped rule do not break its run; other calls still do, and
// a failed gate that a later validate_gate found passing no longer counts.
func TestReadOnlyCallsCannotDodge(t *testing.T) {
	rules := Defaults()
	cases := []struct {
		name string
		seq  []string // last one is the current call
		want string   // rule that fires, "" for none
	}{
		{"force, get_blocked_reason, force", []string{"tool:advance_phase:force", "gate:QA:fail", "gate:QA:forced:blocking", "tool:get_blocked_reason", "tool:advance_phase:force"}, "repeated-forced-advance"},
		{"force, validate_gate (fail), force", []string{"tool:advance_phase:force", "gate:QA:fail", "gate:QA:forced:required", "tool:validate_gate", "gate:LINT:fail", "tool:advance_phase:force"}, "repeated-forced-advance"},
		{"force, many reads, force", append(append([]string{"gate:QA:forced:required"}, slices.Repeat([]string{"tool:get_blocked_reason", "tool:validate_gate", "gate:QA:pass", "resource:checklist"}, 50)...), "tool:advance_phase:force"), "repeated-forced-advance"},
		{"forced blocking, validate_gate, end", []string{"gate:QA:forced:blocking", "tool:validate_gate", "gate:DOCS:pass", "tool:session_end"}, "end-after-forced-blocking-gate"},
		{"failed gate, get_blocked_reason, commit", []string{"tool:validate_gate", "gate:LINT:fail", "tool:get_blocked_reason", "hook:pre-commit"}, "commit-after-failed-gate"},
		{"failed gate, re-validated passing, commit", []string{"tool:validate_gate", "gate:LINT:fail", "tool:validate_gate", "gate:LINT:pass", "hook:pre-commit"}, ""},
		{"failed gate, other gate passing, commit", []string{"tool:validate_gate", "gate:LINT:fail", "tool:validate_gate", "gate:QA:pass", "hook:pre-commit"}, "commit-after-failed-gate"},
		{"re-validating a forced gate does not undo the force", []string{"gate:QA:forced:required", "tool:validate_gate", "gate:QA:pass", "tool:advance_phase:force"}, "repeated-forced-advance"},
		{"evidence in between breaks the run", []string{"gate:QA:forced:required", "tool:record_evidence", "tool:advance_phase:force"}, ""},
		{"advance in between breaks the run", []string{"gate:QA:forced:blocking", "tool:advance_phase", "gate:DOCS:pass", "tool:session_end"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Evaluate(rules, c.seq[:len(c.seq)-1], c.seq[len(c.seq)-1])
			var hit []string
			for _, r := range append(d.Blocked, d.Warnings...) {
				hit = append(hit, r.Name)
			}
			if strings.Join(hit, ",") != c.want {
				t.Errorf("fired %v, want %q", hit, c.want)
			}
		})
	}
}

// TestReadOnlyMask: validate_gate's gate result is read-only; an advance's is not.
func TestReadOnlyMask(t *testing.T) {
	h := []string{"tool:validate_gate", "gate:A:fail", "tool:advance_phase", "gate:A:fail", "tool:get_blocked_reason", "resource:state"}
	want := []bool{true, true, false, false, true, true}
	if got := ReadOnlyMask(h); !slices.Equal(got, want) {
		t.Errorf("mask %v, want %v", got, want)
	}
}

// TestProtocolKeys: a protocols: key names the protocol by sha256,
// configured path or file name, and nothing else.
func TestProtocolKeys(t *testing.T) {
	const sha = "3f2a"
	cases := []struct {
		key   string
		names []string
		want  bool
	}{
		{"3f2a", nil, true},
		{"sha256:3F2A", nil, true},
		{".agents/SESSION-PROTOCOL.md", []string{".agents/SESSION-PROTOCOL.md"}, true},
		{"./.agents/SESSION-PROTOCOL.md", []string{".agents/SESSION-PROTOCOL.md"}, true},
		{"SESSION-PROTOCOL.md", []string{".agents/SESSION-PROTOCOL.md"}, true},
		{"SESSION-PROTOCOL.md", []string{"/home/x/repo/SESSION-PROTOCOL.md"}, true},
		{"docs/SESSION-PROTOCOL.md", []string{".agents/SESSION-PROTOCOL.md"}, false},
		{"OTHER.md", []string{".agents/SESSION-PROTOCOL.md"}, false},
		{"beef", []string{"SESSION-PROTOCOL.md"}, false},
		{"", []string{""}, false},
	}
	for _, c := range cases {
		if got := ProtocolKeyMatches(c.key, sha, c.names...); got != c.want {
			t.Errorf("key %q names %v: %v, want %v", c.key, c.names, got, c.want)
		}
	}
	conf := &Config{Protocols: map[string][]Rule{
		".agents/SESSION-PROTOCOL.md": {{Name: "by-path", Pattern: []string{"x"}}},
		"SESSION-PROTOCOL.md":         {{Name: "by-name", Pattern: []string{"x"}}},
		"sha256:" + sha:               {{Name: "by-sha", Pattern: []string{"x"}}},
	}}
	rules, err := conf.Rules(sha, ".agents/SESSION-PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rules[3:] {
		names = append(names, r.Name)
	}
	if strings.Join(names, ",") != "by-path,by-name,by-sha" {
		t.Errorf("rules %v", names)
	}
}
