package shellline

import (
	"strings"
)

// wrappedScript is the shell script a program runs for the line, given as
// one of its words rather than after it as a command: `su -c SCRIPT`,
// `flock LOCK -c SCRIPT`, `script -qc SCRIPT /dev/null`, `watch -n 1
// SCRIPT`, `parallel 'CMD {}' ::: ARGS`, `git -c alias.x='!SCRIPT' x`.
// Each ran a writer of a protected file that no rule judged (round 26,
// c11): the script is read as the line's own. args are the call's words
// (wrappers in front allowed); "" when none.
func wrappedScript(args []string) []string {
	for i, a := range args {
		if i > 0 && !IsWrapper(CommandName(args[0])) {
			return nil // only the call itself, or behind a wrapper (`sudo su -c`)
		}
		rest := args[i+1:]
		switch name := CommandName(a); name {
		case "su", "sg", "runuser", "flock", "script":
			if s, ok := dashC(rest, name == "script"); ok {
				return []string{s}
			}
			if name == "sg" && len(rest) >= 2 && !strings.HasPrefix(rest[0], "-") {
				return joined(rest[1:]) // sg GROUP CMD...
			}
			return nil
		case "watch":
			return watchScript(rest)
		case "parallel":
			return parallelScripts(rest)
		case "git":
			return gitAliasScript(rest)
		case "awk", "gawk", "mawk", "nawk":
			// BEGIN{system("...")}: the literal lines it runs
			cmds, _ := awkSystem(args[i:], func(string) (string, bool) { return "", false })
			return cmds
		}
	}
	return nil
}

// dashC finds `-c SCRIPT`, `--command SCRIPT`, `--command=SCRIPT` (and,
// for script(1), `-qc SCRIPT`).
func dashC(args []string, combined bool) (string, bool) {
	for i, a := range args {
		switch {
		case a == "--":
			return "", false
		case (a == "-c" || a == "--command") && i+1 < len(args):
			return args[i+1], args[i+1] != ""
		case strings.HasPrefix(a, "--command="):
			return a[len("--command="):], len(a) > len("--command=")
		case combined && len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "c") && i+1 < len(args):
			return args[i+1], args[i+1] != ""
		}
	}
	return "", false
}

// watchScript: watch runs its words joined, through sh -c (unless -x).
func watchScript(args []string) []string {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		switch a := args[i]; {
		case a == "--":
			i++
			return joined(args[i:])
		case a == "-n" || a == "--interval", a == "-q" || a == "--equexit":
			i += 2
		default:
			i++
		}
	}
	return joined(args[i:])
}

func joined(w []string) []string {
	if len(w) == 0 {
		return nil
	}
	return []string{strings.Join(w, " ")}
}

// parallelScripts: GNU parallel's command (before `:::`), each argument
// after it put at `{}` or appended.
func parallelScripts(args []string) []string {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != ":::" {
		switch args[i] {
		case "-j", "--jobs", "-S", "--sshlogin", "--joblog", "-a", "--arg-file", "--delay", "--timeout", "-n", "--max-args":
			i++
		}
		i++
	}
	var cmd, vals []string
	for j := i; j < len(args); j++ {
		if args[j] == ":::" || args[j] == "::::" {
			vals = args[j+1:]
			break
		}
		cmd = append(cmd, args[j])
	}
	if len(cmd) == 0 {
		return nil
	}
	c := strings.Join(cmd, " ")
	if len(vals) == 0 {
		return []string{c}
	}
	var out []string
	for _, v := range vals {
		if v == ":::" {
			continue
		}
		if strings.Contains(c, "{}") {
			out = append(out, strings.ReplaceAll(c, "{}", v))
		} else {
			out = append(out, c+" "+v)
		}
	}
	return out
}

// gitAliasScript: `git -c alias.NAME='!SCRIPT' NAME`: git runs SCRIPT
// through the shell.
func gitAliasScript(args []string) []string {
	aliases := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-c" && i+1 < len(args):
			i++
			k, v, ok := strings.Cut(args[i], "=")
			if name, isAlias := strings.CutPrefix(strings.ToLower(k), "alias."); ok && isAlias && strings.HasPrefix(v, "!") {
				aliases[name] = v[1:]
			}
		case a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if s, ok := aliases[strings.ToLower(a)]; ok {
				return []string{s}
			}
			return nil
		}
	}
	return nil
}
