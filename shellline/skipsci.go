package shellline

import (
	"strings"
)

// ciSkipOption is the push option GitLab reads as "run no pipeline for
// this push" (GitLab docs, "Push options": ci.skip). GitHub ignores push
// options; its skip markers are in commit messages, which verify reads.
const ciSkipOption = "ci.skip"

// SkipsCI describes how a command line pushes with CI turned off, "" when
// it does not: `git push -o ci.skip` (or --push-option, also as an
// unambiguous prefix such as --push-opt), `git -c push.pushOption=ci.skip
// push`, and `git config push.pushOption ci.skip`, which turns CI off
// for every later push. A push option reaches only the server: no hook
// on the pushing machine sees `-o`, and GitLab then starts no pipeline,
// so `sessiongate verify` never checks the pushed commits. The config
// forms the pre-push hook also sees (it reads push.pushOption as git
// does); the agent hook denies all of them before they run.
func SkipsCI(line string) string {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return ""
	}
	for _, c := range calls {
		w := unwrapCall(expandedWords(c))
		if len(w) == 0 || w[0][strings.LastIndexByte(w[0], '/')+1:] != "git" {
			continue
		}
		i, configs := gitGlobals(w)
		cfgSkip := false
		for _, kv := range configs {
			k, v, _ := strings.Cut(kv, "=")
			if strings.EqualFold(k, "push.pushOption") && isCISkip(v) {
				cfgSkip = true
			}
		}
		if i >= len(w) {
			continue
		}
		args := w[i+1:]
		if w[i] == "push" && cfgSkip {
			return "`git -c push.pushOption=ci.skip push` (GitLab runs no pipeline for the push)"
		}
		if w[i] == "config" {
			if ConfigReadOnly(args) {
				continue
			}
			for k := 0; k+1 < len(args); k++ {
				if strings.EqualFold(args[k], "push.pushOption") && isCISkip(args[k+1]) {
					return "`git config push.pushOption ci.skip` (GitLab would run no pipeline for any later push)"
				}
				// An alias that pushes with it: `git config alias.ship
				// 'push -o ci.skip'`, then `git ship` (lazy pass 34).
				if strings.HasPrefix(strings.ToLower(args[k]), "alias.") && strings.Contains(strings.ToLower(args[k+1]), ciSkipOption) {
					return "`git config " + args[k] + " '" + args[k+1] + "'` (an alias that pushes with ci.skip: GitLab would run no pipeline)"
				}
			}
			continue
		}
		// -o ci.skip on push, and on any other subcommand: an alias of
		// push (`git p -o ci.skip`) or send-pack --push-option (lazy pass
		// 34), which runs no pre-push hook either.
		if a := pushOptionSkip(args); a != "" {
			return "`git " + w[i] + " " + a + " ci.skip` (GitLab runs no pipeline for the push)"
		}
	}
	return ""
}

// pushOptionSkip names the argument that gives the ci.skip push option
// (-o, grouped short options ending in o, --push-option and its
// prefixes), "" when none does.
func pushOptionSkip(args []string) string {
	for k := 0; k < len(args); k++ {
		a := args[k]
		if a == "--" {
			break
		}
		var v string
		switch {
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			// -o is push's only short option with a value, also last in
			// a group (-fo ci.skip, -foci.skip).
			if j := strings.IndexByte(a, 'o'); j > 0 {
				if v = a[j+1:]; v == "" && k+1 < len(args) {
					v, k = args[k+1], k+1
				}
			}
		case longOption(a, "--push-option", len("--pu")):
			if _, val, ok := strings.Cut(a, "="); ok {
				v = val
			} else if k+1 < len(args) {
				v, k = args[k+1], k+1
			}
		}
		if isCISkip(v) {
			return a
		}
	}
	return ""
}

// isCISkip reports whether a push option's value is GitLab's ci.skip
// (GitLab matches it exactly; a case variant only matches more here).
func isCISkip(v string) bool {
	k, _, _ := strings.Cut(strings.TrimSpace(v), "=") // ci.skip=1 too
	return strings.EqualFold(k, ciSkipOption)
}

// CISkipOption is the ci.skip push option among push.pushOption's values
// (as `git config --get-all push.pushOption` prints them, one per line),
// "" when none is: the pre-push hook blocks a session's push that git
// would send with it.
func CISkipOption(values string) string {
	for _, v := range strings.Split(values, "\n") {
		if isCISkip(v) {
			return ciSkipOption
		}
	}
	return ""
}
