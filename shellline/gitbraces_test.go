package shellline

import "testing"

// TestGitRulesReadBraceExpansion: the shell expands braces before git
// runs, so `git {-c,core.hooksPath=/dev/null} commit` is `git -c
// core.hooksPath=/dev/null commit`. The git rules read each call's words
// as literals; before expandedWords every lazy row below was allowed (the
// false-block helper of issue 25 named the first two). Braces that expand
// to honest words, and braces git itself reads (a --format), stay allowed.
func TestGitRulesReadBraceExpansion(t *testing.T) {
	rules := map[string]func(string) string{
		"GitBypass": GitBypass, "Unhooks": Unhooks, "HidesChanges": HidesChanges,
		"TouchesRecords":    func(l string) string { return TouchesRecords(l, []string{"refs/sessiongate/"}) },
		"PrunesUnreachable": PrunesUnreachable, "Schedules": Schedules,
		"PersonCommand":       func(l string) string { return PersonCommand(l, nil) },
		"ChangesGateDefaults": ChangesGateDefaults,
		"SignalsHooks":        SignalsHooks,
	}
	for _, c := range []struct {
		rule, line string
		want       bool
	}{
		{"GitBypass", "git {-c,core.hooksPath=/dev/null} commit -m x", true},
		{"GitBypass", "git commit {--no-verify,-q} -m x", true},
		{"GitBypass", "git commit -{n,q} -m x", true},
		{"GitBypass", "git push --no-{verify,thin}", true},
		{"GitBypass", "{git,commit} --no-verify -m x", true},
		{"Unhooks", "git config {core.hooksPath,/dev/null}", true},
		{"Unhooks", "git config core.{hooksPath,x}", true},
		{"HidesChanges", "git update-index --{skip-worktree,q} a.go", true},
		{"TouchesRecords", "git {update-ref,-d} refs/sessiongate/records", true},
		{"PrunesUnreachable", "git {reflog,expire} --expire=now --all", true},
		{"PersonCommand", "sessiongate {session,terminate}", true},
		{"PersonCommand", "{sessiongate,session} terminate", true},
		{"Schedules", "{at,now} -f x.sh", true},
		{"ChangesGateDefaults", "go env {-w,GOFLAGS=-run=TestNothing}", true},
		{"SignalsHooks", "killall session{gate,x}", true},
		{"SignalsHooks", "pkill {-STOP,claude}", true},
		// Honest.
		{"SignalsHooks", "killall {node,vite}", false},
		{"SignalsHooks", "kill $(pgrep -f vite) && killall -{TERM,q} node", false},
		{"TouchesRecords", "git push origin {main,dev}", false},
		{"PrunesUnreachable", "git log {main,dev} -1", false},
		{"PersonCommand", "sessiongate session {status,list}", false},
		{"Schedules", "echo {at,now}", false},
		{"ChangesGateDefaults", "go env {GOPATH,GOFLAGS}", false},
		{"GitBypass", "git add src/{a,b}.go && git commit -m 'feat: x'", false},
		{"GitBypass", "git log --format={%h,%s} -1", false},
		{"GitBypass", "git commit -m '{a,b}'", false},
		{"GitBypass", "git commit -m {fix,feat}", false},
		{"GitBypass", "git push origin {main,dev}", false},
		{"Unhooks", "git config --get core.{hooksPath,editor}", false},
		{"HidesChanges", "git update-index --refresh {a,b}.go", false},
	} {
		if got := rules[c.rule](c.line) != ""; got != c.want {
			t.Errorf("%s(%q) = %v, want %v", c.rule, c.line, got, c.want)
		}
	}
}
