package shellline

import (
	"slices"
	"testing"
)

// TestBracesInTestAndKillRules: the shell expands braces before it runs a
// line, so the rules that judge test runs (RunsTests, TestRuns), where
// they ran (RanElsewhere) and kills by an unread pattern (unreadPattern)
// read the expanded words, as the git and person rules did already. Each
// lazy row was misjudged on the old code: `{true,pytest}` (runs `true
// pytest`, nothing) counted as a test run, a filter or a narrower target
// list hidden in braces read as one odd target, `cd {,/tmp/good}` (runs
// `cd /tmp/good`) read as a folder of the worktree, and `{pkill,-f} "$P"`
// was no pkill. The honest rows: plain runs and honest brace use.
func TestBracesInTestAndKillRules(t *testing.T) {
	const root = "/work/repo"
	tests := []struct {
		name, line string
		runs       bool     // RunsTests
		targets    []string // TestRuns' first run's Targets (runs only)
		filters    []string // and its Filters
		elsewhere  string   // RanElsewhere from root
		unread     bool     // unreadPattern says something
	}{
		// Lazy.
		{name: "a runner behind true in braces", line: "{true,pytest}"},
		{name: "packages in braces", line: "go test ./{a,b}/...", runs: true, targets: []string{"./a/...", "./b/..."}},
		{name: "a -run filter in braces", line: "go test {-run=TestAdd,./...}", runs: true, targets: []string{"./..."}, filters: []string{"-run=TestAdd"}},
		{name: "a -k filter in braces", line: "pytest {-k,add}", runs: true, filters: []string{"-k=add"}},
		{name: "cd to a copy in braces", line: "cd {,/tmp/good} && go test ./...", runs: true, targets: []string{"./..."}, elsewhere: "/tmp/good"},
		{name: "git -C to a copy in braces", line: "git {-C,/tmp/good} status", elsewhere: "/tmp/good"},
		{name: "pkill by an unread pattern in braces", line: `{pkill,-f} "$P"`, unread: true},
		// Honest.
		{name: "go test ./...", line: "go test ./...", runs: true, targets: []string{"./..."}},
		{name: "mkdir with braces, then the suite", line: "mkdir -p a/{b,c} && go test ./...", runs: true, targets: []string{"./..."}},
		{name: "every package named in braces", line: "go test ./{pkg,other}", runs: true, targets: []string{"./pkg", "./other"}},
		{name: "echo with braces", line: "echo {a,b}"},
		{name: "cd into a folder of the worktree in braces", line: "cd {pkg,} && go test ./...", runs: true, targets: []string{"./..."}},
		{name: "pkill of a named server", line: "pkill -f {http.server,x}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := RunsTests(tc.line); got != tc.runs {
				t.Errorf("RunsTests(%q) = %v, want %v", tc.line, got, tc.runs)
			}
			if tc.runs {
				runs := TestRuns(tc.line)
				if len(runs) == 0 {
					t.Fatalf("TestRuns(%q): none", tc.line)
				}
				if r := runs[0]; !slices.Equal(r.Targets, tc.targets) || !slices.Equal(r.Filters, tc.filters) {
					t.Errorf("TestRuns(%q) = targets %q filters %q, want %q %q", tc.line, r.Targets, r.Filters, tc.targets, tc.filters)
				}
			}
			if got := RanElsewhere(root, "", tc.line); got != tc.elsewhere {
				t.Errorf("RanElsewhere(%q) = %q, want %q", tc.line, got, tc.elsewhere)
			}
			if got := unreadPattern(tc.line); (got != "") != tc.unread {
				t.Errorf("unreadPattern(%q) = %q, want something: %v", tc.line, got, tc.unread)
			}
		})
	}
}
