package shellline

import (
	"slices"
	"strings"
	"testing"
)

// TestGitGlobals: git's own options before the subcommand, read once for
// both GitBypass and HidesChanges. Each row says where the subcommand is
// found and what each caller makes of the line: an option that takes a
// value must not be read as the subcommand (git -C commit push: the
// subcommand is push), and a -c anywhere among the options counts.
func TestGitGlobals(t *testing.T) {
	tests := []struct {
		line    string
		sub     string // "" when there is no subcommand
		configs []string
		bypass  bool // GitBypass finds it
		hides   bool // HidesChanges finds it
	}{
		{"git commit -n -m x", "commit", nil, true, false},
		{"git -C sub commit --no-verify", "commit", nil, true, false},
		{"git --git-dir .git --work-tree . commit -n", "commit", nil, true, false},
		{"git --git-dir=.git commit -n", "commit", nil, true, false},
		{"git --namespace ns push --no-verify", "push", nil, true, false},
		{"git -C commit push", "push", nil, false, false},
		{"git -C update-index commit --no-verify", "commit", nil, true, false},
		{"git --no-pager -c user.name=x -C dir commit -nm x", "commit", []string{"user.name=x"}, true, false},
		{"git -c core.hooksPath=/dev/null commit -m x", "commit", []string{"core.hooksPath=/dev/null"}, true, false},
		{"git -c core.hooksPath=/dev/null status", "status", []string{"core.hooksPath=/dev/null"}, false, false},
		{"git -c user.name=x -c core.HooksPath=x push", "push", []string{"user.name=x", "core.HooksPath=x"}, true, false},
		{"git -c filter.x.clean=cat add src/a.go", "add", []string{"filter.x.clean=cat"}, false, true},
		{"git -c user.name=x -c core.fsmonitor=/tmp/fsm commit -m x", "commit", []string{"user.name=x", "core.fsmonitor=/tmp/fsm"}, false, true},
		{"git -c filter.x.clean=cat -c core.hooksPath=x commit -m x", "commit", []string{"filter.x.clean=cat", "core.hooksPath=x"}, true, true},
		{"git -C sub update-index --skip-worktree x", "update-index", nil, false, true},
		{"git --work-tree update-index --skip-worktree x", "x", nil, false, false},
		{"git -c filter.x.clean=cat", "", []string{"filter.x.clean=cat"}, false, true},
		{"git -c", "", nil, false, false},
		{"git -C", "", nil, false, false},
		{"git --version", "", nil, false, false},
		{"git -c user.name=x commit -m 'filter.x'", "commit", []string{"user.name=x"}, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			w := strings.Fields(tc.line)
			i, configs := gitGlobals(w)
			sub := ""
			if i < len(w) {
				sub = w[i]
			}
			if sub != tc.sub || !slices.Equal(configs, tc.configs) {
				t.Errorf("gitGlobals = %q, %q; want %q, %q", sub, configs, tc.sub, tc.configs)
			}
			if got := GitBypass(tc.line) != ""; got != tc.bypass {
				t.Errorf("GitBypass = %v, want %v", got, tc.bypass)
			}
			if got := HidesChanges(tc.line) != ""; got != tc.hides {
				t.Errorf("HidesChanges = %v, want %v", got, tc.hides)
			}
		})
	}
}
