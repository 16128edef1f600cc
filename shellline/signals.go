package shellline

import (
	"path/filepath"
	"regexp"
	"strings"
)

// Claude Code and Codex go on with a tool call when its PreToolUse hook
// dies, is missing or times out (checked with both real CLIs, issue 25).
// A line that kills or stops processes chosen by a pattern matching
// sessiongate's hook processes (`pkill -f 'agent-hoo[k]'`, `killall
// sessiongate`, `pgrep ... | xargs kill`), run in the background, turns
// every later hook into an allow: with the real Codex the protocol was
// rewritten behind such a loop.

// hookCmdlines are what a hook process's command line looks like.
var hookCmdlines = []string{
	"sessiongate agent-hook claude PreToolUse",
	"/usr/local/bin/sessiongate agent-hook codex PreToolUse",
	"sessiongate",
}

// patternOpts are the options of pgrep/pkill that take a value: their
// value is no pattern.
var patternOpts = map[string]bool{"-s": true, "--signal": true, "-u": true, "--euid": true, "-U": true, "--uid": true,
	"-g": true, "--pgroup": true, "-G": true, "--group": true, "-P": true, "--parent": true, "-t": true, "--terminal": true,
	"-F": true, "--pidfile": true, "--ns": true, "--nslist": true, "-q": true, "--queue": true, "-d": true, "--delimiter": true,
	"-e": false, "-o": true, "--older": true, "-y": true, "--younger": true, "-O": true, "--older-than": true}

// SignalsHooks describes a command of the line that signals sessiongate's
// hook processes by a pattern ("" when none does): pkill or killall whose
// pattern matches a hook's command line, or a line that kills (kill,
// xargs kill) with a pgrep or grep pattern that does. Literal patterns
// only, as the other checks; lines hidden in the line are read too.
func SignalsHooks(line string) string {
	for _, l := range append([]string{line}, Inner(line)...) {
		progs := Programs(l)
		kills := false
		for _, p := range progs {
			switch base(p[0]) {
			case "kill", "skill", "snice":
				kills = true
			case "xargs":
				for _, w := range p[1:] {
					kills = kills || base(w) == "kill"
				}
			}
		}
		for _, p := range progs {
			name := base(p[0])
			var pats []string
			switch name {
			case "pkill", "killall", "pgrep", "grep", "egrep", "pidof":
				if name != "pkill" && name != "killall" && !kills {
					continue // listing only
				}
				pats = patterns(name, p[1:])
			default:
				continue
			}
			for _, pat := range pats {
				if pat != "" && matchesHook(name, pat, p[1:]) { // "": not literal
					return "`" + strings.Join(p, " ") + "` signals sessiongate's hook processes: a hook that dies lets the agent's tool call through, so the agent being policed may not kill or stop them"
				}
			}
		}
	}
	// A pattern inside a word the parse cannot read (a loop in `bash -c`
	// built with "$PWD"): the usual spellings of the hook's name beside a
	// kill.
	low := strings.ToLower(line)
	if killWord.MatchString(low) {
		for _, w := range []string{"agent-hoo", "agent.hoo", "sessiongat", "essiongate"} {
			if strings.Contains(low, w) {
				return "`" + shortLine(line) + "` signals sessiongate's hook processes: a hook that dies lets the agent's tool call through, so the agent being policed may not kill or stop them"
			}
		}
	}
	return ""
}

var killWord = regexp.MustCompile(`(^|[^a-z0-9_-])(pkill|killall|kill|skill)($|[^a-z0-9_-])`)

func shortLine(l string) string {
	if len(l) > 80 {
		return l[:80] + "..."
	}
	return l
}

func base(p string) string { return filepath.Base(strings.TrimPrefix(p, "\\")) }

// patterns are a command's non-option words (and grep's -e values).
func patterns(name string, args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			out = append(out, args[i+1:]...)
			return out
		case a == "-e" && (name == "grep" || name == "egrep") && i+1 < len(args):
			out = append(out, args[i+1])
			i++
		case strings.HasPrefix(a, "-"):
			if patternOpts[a] && i+1 < len(args) {
				i++
			}
		default:
			out = append(out, a)
		}
	}
	return out
}

// matchesHook: killall matches names exactly unless -r; pidof names;
// the others take an extended regex.
func matchesHook(name, pat string, args []string) bool {
	regex := name != "killall" && name != "pidof"
	for _, a := range args {
		if name == "killall" && (a == "-r" || a == "--regexp") {
			regex = true
		}
	}
	if !regex {
		return base(pat) == "sessiongate"
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		return false
	}
	for _, c := range hookCmdlines {
		if re.MatchString(c) {
			return true
		}
	}
	return false
}
