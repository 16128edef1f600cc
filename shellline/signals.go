package shellline

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/syntax"
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
		progs := expandedPrograms(l)
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
	if why := unreadPattern(line); why != "" {
		return why
	}
	if why := signalsAll(line); why != "" {
		return why
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

var killWord = lazyregexp.New(`(^|[^a-z0-9_-])(pkill|killall|kill|skill)($|[^a-z0-9_-])`)

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

// A pattern the line does not spell out (`pkill -f "$P"` with P set by an
// earlier call, `pkill -f "$(cat pat)"`) or hook pids saved for a later
// kill (`pgrep -f agent-hoo[k] > pids`, then `kill $(cat pids)`: the kill
// line shows nothing) got past the literal check (issue 25). An expansion
// is read as "anything" here: a pattern that could then match a hook's
// command line is refused, one whose spelled-out part cannot (`pkill -f
// "http.server --directory $PWD"`) is not.

// unreadPattern describes a command of the line that signals, or saves
// the pids of, processes by a pattern that may match a hook ("" when none).
func unreadPattern(line string) string {
	for _, l := range append([]string{line}, Inner(line)...) {
		calls, _, ok := Calls(Unwrap(l))
		if !ok {
			continue
		}
		kills, lists := false, false
		for _, c := range calls {
			for _, w := range expandedWords(c) {
				switch base(w) {
				case "kill", "skill", "snice":
					kills = true
				case "ps":
					lists = true
				}
			}
		}
		quiet := devNull.ReplaceAllString(l, "")
		saves := strings.Contains(quiet, ">") || strings.Contains(l, "$(") || strings.Contains(l, "`") || strings.Contains(l, "| tee")
		lists = lists || strings.Contains(l, "/proc/")
		for _, c := range calls {
			// `{pkill,-f} "$P"` runs `pkill -f "$P"`: the words the
			// shell runs, each beside the parsed word it comes from.
			cw, cargs := expandedArgs(c)
			for i, w := range cw {
				name := base(w)
				var msg string
				switch name {
				case "pkill", "killall":
					msg = "signals sessiongate's hook processes by a pattern the line does not spell out"
				case "pgrep", "pidof":
					switch {
					case kills:
						msg = "signals sessiongate's hook processes by a pattern the line does not spell out"
					case saves:
						msg = "saves the pids of sessiongate's hook processes for a later kill"
					}
				case "grep", "egrep":
					if saves && lists && !kills {
						msg = "saves the pids of sessiongate's hook processes for a later kill"
					}
				}
				if msg == "" {
					continue
				}
				args := make([]string, 0, len(cargs)-i-1)
				unread := false
				for k, a := range cargs[i+1:] {
					if lit := cw[i+1+k]; lit != "" {
						args = append(args, lit)
						continue
					}
					args = append(args, loosePattern(a))
					unread = true
				}
				if name != "pgrep" && name != "pidof" && name != "grep" && name != "egrep" || !saves || kills {
					// Signalling: only an unread pattern is this check's
					// (SignalsHooks read the literal ones).
					if !unread {
						continue
					}
				}
				for _, pat := range patterns(name, args) {
					if pat != "" && looseMatchesHook(name, pat, args) {
						return "`" + shortLine(strings.Join(cw, " ")) + "` " + msg + ": a hook that dies lets the agent's tool call through, so the agent being policed may not kill or stop them (name the processes to stop literally)"
					}
				}
			}
		}
	}
	return ""
}

// devNull is output thrown away or joined to stdout: no saving.
var devNull = lazyregexp.New(`[0-9]?&?>>?\s*/dev/null|[0-9]>&[0-9]`)

// loosePattern is a word's text with each expansion read as ".*".
func loosePattern(w *syntax.Word) string {
	var b strings.Builder
	var part func(p syntax.WordPart)
	part = func(p syntax.WordPart) {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(strings.ReplaceAll(x.Value, "\\", ""))
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				part(q)
			}
		default:
			b.WriteString(".*")
		}
	}
	for _, p := range w.Parts {
		part(p)
	}
	return b.String()
}

// looseMatchesHook: matchesHook for a pattern read loosely; killall and
// pidof match whole names.
func looseMatchesHook(name, pat string, args []string) bool {
	if name == "killall" || name == "pidof" {
		re, err := regexp.Compile("^(" + pat + ")$")
		return err == nil && re.MatchString("sessiongate")
	}
	return matchesHook(name, pat, args)
}

// Kills that need no pattern of the hook's name (round 14): every process
// the user may signal (`kill -9 -1`, `killall5`, `pkill -u $USER`), the
// agent CLI's children, hook processes among them (`pkill -P $PPID`: the
// shell's parent is the CLI), and whatever runs the binary (`fuser -k
// ~/go/bin/sessiongate`). The agent's own children (`pkill -P $$`) and
// pids it names stay its own.

// parentOpt is pgrep/pkill's -P (parent) option and its value.
var parentOpt = lazyregexp.New(`(?:^|\s)(?:-P|--parent)(?:=|\s+)(\S+)`)

// signalsAll describes a command of the line that signals processes it
// does not choose ("" when none does).
func signalsAll(line string) string {
	why := func(p []string, what string) string {
		return "`" + shortLine(strings.Join(p, " ")) + "` " + what + ", sessiongate's hook processes among them: a hook that dies lets the agent's tool call through, so the agent being policed may not kill or stop them (name the processes to stop)"
	}
	for _, l := range append([]string{line}, Inner(line)...) {
		progs := expandedPrograms(l)
		kills := false
		for _, p := range progs {
			kills = kills || base(p[0]) == "kill" || base(p[0]) == "xargs" && containsStr(p[1:], "kill")
		}
		for _, p := range progs {
			switch base(p[0]) {
			case "kill":
				if killsEveryone(p[1:]) {
					return why(p, "signals every process the user may")
				}
			case "killall5":
				return why(p, "signals every process")
			case "fuser":
				k := false
				for _, a := range p[1:] {
					k = k || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "k") || a == "--kill"
				}
				// The file may be spelled from ~ (an unread word here).
				if k && strings.Contains(strings.ToLower(l), "sessiongat") {
					return why(p, "signals the processes running sessiongate")
				}
			case "pkill", "pgrep":
				if base(p[0]) == "pgrep" && !kills {
					continue
				}
				if m := parentOpt.FindStringSubmatch(l); m != nil && m[1] != "$$" && m[1] != "$!" && m[1] != `"$$"` && m[1] != `"$!"` {
					return why(p, "signals the children of a process it does not own (the agent CLI's, with $PPID)")
				}
				if len(patterns(base(p[0]), p[1:])) == 0 {
					for _, a := range p[1:] {
						if a == "-u" || a == "-U" || strings.HasPrefix(a, "--uid") || strings.HasPrefix(a, "--euid") {
							return why(p, "signals every process of a user")
						}
					}
				}
			}
		}
	}
	return ""
}

// killsEveryone: kill's pid -1 (after the signal, `kill -9 -1`, `kill --
// -1`, `kill -s KILL -1`); a lone `-1` is signal 1 with no pid.
func killsEveryone(args []string) bool {
	sig := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return containsStr(args[i+1:], "-1")
		case (a == "-s" || a == "-n") && !sig:
			sig = true
			i++
		case a == "-1" && sig:
			return true
		case strings.HasPrefix(a, "-") && !sig:
			sig = true // the signal
		default:
			sig = true
		}
	}
	return false
}
